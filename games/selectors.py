"""Read side of live play: the frames each client may see, built on the server."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.engine import hand as engine_hand
from games.engine import match as engine_match
from games.models import Hand, Match, MatchPlayer


def current_match(table_id: int) -> Match | None:
    """The running match, or else the most recent one (its result screen)."""
    return Match.objects.filter(table_id=table_id).order_by("-started_at", "-pk").first()


def latest_hand(match: Match) -> Hand | None:
    return match.hands.order_by("-number").first()


def seat_of(match: Match, user) -> int | None:
    if user is None or not user.is_authenticated:
        return None
    return MatchPlayer.objects.filter(match=match, user=user).values_list("seat", flat=True).first()


def players_public(match: Match) -> list[dict[str, Any]]:
    """Nicknames and public flags only: never an e-mail or any other private field."""
    return players_and_seats(match)[0]


def players_and_seats(match: Match) -> tuple[list[dict[str, Any]], dict[int, int]]:
    """``players_public`` and ``{seat: user id}`` (who gets which seat's frame) from one query."""
    return public_players(match_players(match.id).values())


def match_players(match_id: int) -> dict[int, MatchPlayer]:
    """A match's players by seat, each with ``nickname`` and ``bot`` from its user, in one query.

    Plain SQL: this runs for every move, and the ORM took several times longer to build the join
    (and four full ``User`` objects) than the database took to answer it.
    """
    from django.contrib.auth import get_user_model

    user_table = get_user_model()._meta.db_table
    rows = MatchPlayer.objects.raw(
        f'SELECT mp.*, u.username AS nickname, u.is_bot AS bot FROM {MatchPlayer._meta.db_table} mp '
        f'JOIN {user_table} u ON u.id = mp.user_id WHERE mp.match_id = %s ORDER BY mp.seat', [match_id])
    return {player.seat: player for player in rows}


def public_players(players) -> tuple[list[dict[str, Any]], dict[int, int]]:
    """The public part of each player (from ``match_players``), and ``{seat: user id}``."""
    public: list[dict[str, Any]] = []
    seats: dict[int, int] = {}
    for player in players:
        public.append({"seat": player.seat, "nickname": player.nickname, "bot": bool(player.bot),
                       "away": player.away, "score": player.score, "winner": player.is_winner})
        seats[player.seat] = player.user_id
    return public, seats


def table_frame(*, match: Match, hand: Hand | None, seat: int | None,
                players: list[dict[str, Any]] | None = None, since: int | None = None,
                match_state: engine_match.MatchState | None = None,
                hand_state: engine_hand.HandState | None = None) -> dict[str, Any]:
    """One ``state`` frame for a seat (or a spectator when ``seat`` is None).

    ``match_state`` / ``hand_state``: the parsed ``match.state`` / ``hand.state``, when the caller
    builds several frames of one move (parsing a hand's JSON is most of a frame's cost).
    """
    match_state = match_state if match_state is not None else engine_match.MatchState.from_dict(match.state)
    frame: dict[str, Any] = {
        "type": "state",
        "match": {
            "id": match.id,
            "status": match.status,
            "turn_seconds": match.turn_seconds,
            **match_state.public(),
        },
        "players": players if players is not None else players_public(match),
        "hand": None,
        "events": [],
    }
    if hand is not None:
        state = hand_state if hand_state is not None else engine_hand.HandState.from_dict(hand.state)
        frame["hand"] = {
            "id": hand.id,
            "number": hand.number,
            # Published from the deal on; deck and salt only on the replay page once the hand is over.
            "commitment": hand.commitment,
            "deadline": hand.deadline.isoformat() if hand.deadline else None,
            **engine_hand.view_for(state, seat),
        }
        # Once a hand is recorded its points are in the match scores already.
        recorded = state.is_over and match_state.hands_played > hand.number
        frame["match"]["live_scores"] = (
            list(match_state.scores) if recorded else engine_match.live_scores(match_state, state)
        )
        frame["move"] = hand.move
        if since is not None:
            frame["events"] = [event for event in state.events if event.get("move", 0) > since]
    return frame


def arrangement_for(*, user, table_id: int, by: Any) -> list[list[str]]:
    """The "sort by sets / pairs" buttons: groups first, then the loose tiles, for the user's own rack."""
    from games.engine.arrange import arrange_by_pairs, arrange_by_sets
    from games.engine.tiles import format_tile
    from games.services import GameError

    if by not in ("sets", "pairs"):
        raise GameError("bad_argument", _("Dizme türü 'sets' ya da 'pairs' olmalı."), field="by")
    match = current_match(table_id)
    hand = latest_hand(match) if match is not None else None
    seat = seat_of(match, user) if match is not None else None
    if hand is None or seat is None:
        raise GameError("not_a_player", _("Bu masada oyuncu değilsiniz."))
    state = engine_hand.HandState.from_dict(hand.state)
    arrange = arrange_by_sets if by == "sets" else arrange_by_pairs
    arrangement = arrange(state.racks[seat], state.okey, state.rules)
    groups = [[format_tile(tile) for tile in group] for group in arrangement.groups]
    return [*groups, [format_tile(tile) for tile in arrangement.loose]]


# -- leaderboards and hand history -------------------------------------------------------------------

LEADERBOARD_SIZE = 50


def leaderboard(*, salon=None, limit: int = LEADERBOARD_SIZE) -> list[dict[str, Any]]:
    """Rated players, best first (by mu - 3 sigma). Bots are not ranked."""
    from games.models import PlayerRating

    rows = (
        PlayerRating.objects.filter(salon=salon, user__is_bot=False, matches__gt=0)
        .select_related("user")
        .order_by("-ordinal", "-wins", "user__username")[:limit]
    )
    return [
        {"rank": index, "nickname": row.user.username, "rating": round(row.ordinal, 1), "matches": row.matches,
         "wins": row.wins, "games_won": row.user.games_won, "score": row.user.score}
        for index, row in enumerate(rows, start=1)
    ]


def finished_hands_of(*, user, limit: int = 50) -> list[Hand]:
    """The player's finished hands, newest first, for their history page."""
    return list(
        Hand.objects.filter(match__players__user=user, status=Hand.Status.OVER)
        .select_related("match", "match__table", "match__table__room")
        .order_by("-finished_at", "-pk")[:limit]
    )


def replay_frames(*, hand: Hand, viewer) -> dict[str, Any]:
    """Every step of a finished hand as the public saw it; a player of the hand also sees their own
    rack. Refused for a hand still being played: its deck would reveal every rack and the pile."""
    from games.engine.replay import replay
    from games.models import Move

    if hand.status != Hand.Status.OVER:
        raise ValueError("only finished hands can be replayed")
    state = engine_hand.HandState.from_dict(hand.state)
    moves = [
        {"seat": move.seat, "type": move.action, **move.args}
        for move in Move.objects.filter(hand=hand).order_by("number")
        if move.action != "deal"
    ]
    states = replay(state.deck, state.rules, state.starting_seat, moves)
    seat = seat_of(hand.match, viewer)
    players = players_public(hand.match)
    steps = []
    for index, step in enumerate(states):
        view = engine_hand.view_for(step, seat)
        view["event"] = step.events[-1] if index else step.events[0]
        steps.append(view)
    proof = fair_deal_proof(hand)
    return {"hand": hand.id, "number": hand.number, "seat": seat, "players": players, "steps": steps, **proof}


def fair_deal_proof(hand: Hand) -> dict[str, Any]:
    """What anyone needs to check a finished hand's deal (and the server's own check of it)."""
    from games.engine import fairness
    from games.models import Move

    if hand.status != Hand.Status.OVER:
        raise ValueError("the deck of a hand in play is secret")
    state = engine_hand.HandState.from_dict(hand.state)
    moves = [{"seat": move.seat, "type": move.action, **move.args}
             for move in Move.objects.filter(hand=hand).order_by("number") if move.action != "deal"]
    deck = [engine_hand.format_tile(tile) for tile in state.deck]
    report = fairness.verify_hand(deck, hand.salt, hand.commitment, rules=state.rules,
                                  starting_seat=state.starting_seat, moves=moves)
    return {"commitment": hand.commitment, "salt": hand.salt, "deck": deck, "rules": state.rules.to_dict(),
            "starting_seat": state.starting_seat, "moves": moves,
            "verification": {"valid": report.valid, "problems": report.problems}}
