"""Read side of live play: the frames each client may see, built on the server."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.engine import game_types
from games.errors import GameError
from games.models import Hand, Match, MatchPlayer


def game_of(match: Match) -> game_types.GameType:
    """The game type a match plays (its stored rules name it; classic Okey when they do not). A
    game this site does not play is ``game_types.UnknownGameType``: the callers word it."""
    return game_types.game_type_of(match.rules)


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
    """A match's players by seat, each with ``nickname`` and ``bot`` from its user and ``left``
    (the player stood up from the running match), in one query (plain SQL: ``games.move_sql``,
    since this runs for every move)."""
    from games import move_sql

    return move_sql.match_players(match_id)


def public_players(players) -> tuple[list[dict[str, Any]], dict[int, int]]:
    """The public part of each player (from ``match_players``), and ``{seat: user id}``."""
    public: list[dict[str, Any]] = []
    seats: dict[int, int] = {}
    for player in players:
        public.append({"seat": player.seat, "nickname": player.nickname, "bot": bool(player.bot),
                       "away": player.away, "left": bool(getattr(player, "left", False)), "score": player.score,
                       "winner": player.is_winner})
        seats[player.seat] = player.user_id
    return public, seats


# The table page's move feed keeps this many lines.
FEED_LENGTH = 80


def table_frame(*, match: Match, hand: Hand | None, seat: int | None,
                players: list[dict[str, Any]] | None = None, since: int | None = None,
                match_state: Any = None, hand_state: Any = None, with_feed: bool = False,
                outcome: dict[str, Any] | None = None, public_match: dict[str, Any] | None = None) -> dict[str, Any]:
    """One ``state`` frame for a seat (or a spectator when ``seat`` is None).

    ``match_state`` / ``hand_state``: the parsed ``match.state`` / ``hand.state``, and
    ``public_match`` its public part, when the caller builds several frames of one move (parsing a
    hand's JSON is most of a frame's cost).
    """
    game = game_of(match)
    match_state = match_state if match_state is not None else game.match_from_dict(match.state)
    frame: dict[str, Any] = {
        "type": "state",
        "match": {
            "id": match.id,
            "status": match.status,
            "turn_seconds": match.turn_seconds,
            # Shared by the frames of one move (``events.publish_hand``); spread, never changed.
            **(public_match if public_match is not None else game.public_match(match_state)),
        },
        "players": players if players is not None else players_public(match),
        "hand": None,
        "events": [],
    }
    if match.status == Match.Status.FINISHED:
        # One truth for every screen: who won is what the server recorded (a player who left or
        # never played is not a winner; a tournament names its own: never a bot), not the scores.
        frame["match"]["over"] = True
        frame["match"]["winners"] = [player["seat"] for player in frame["players"] if player["winner"]]
    if hand is not None:
        state = hand_state if hand_state is not None else game.hand_from_dict(hand.state)
        frame["hand"] = {
            "id": hand.id,
            "number": hand.number,
            # Published from the deal on; deck and salt only on the replay page once the hand is over.
            "commitment": hand.commitment,
            "deadline": hand.deadline.isoformat() if hand.deadline else None,
            **game.view_for(state, seat),
        }
        # Once a hand is recorded its points are in the match scores already.
        recorded = state.is_over and match_state.hands_played > hand.number
        frame["match"]["live_scores"] = (
            list(match_state.scores) if recorded else game.live_scores(match_state, state)
        )
        if recorded:
            # Each change explained, chips won and ratings moved: the server's record (games.outcome).
            from games.outcome import hand_outcome

            frame["match"]["outcome"] = outcome if outcome is not None else hand_outcome(
                match=match, hand=hand, match_state=match_state)
        frame["move"] = hand.move
        if since is not None:
            frame["events"] = events_since(state, since)
        elif with_feed:
            # A client that has seen nothing of this hand (a watcher arriving, a page reloaded) gets
            # the hand's public moves so far for its move feed, never to animate: events are public.
            frame["feed"] = [event for event in state.events if event.get("move", 0) > 0][-FEED_LENGTH:]
    return frame


def events_since(state: Any, since: int) -> list[dict[str, Any]]:
    """The hand's public events after move ``since`` (every seat's frame carries the same ones)."""
    return [event for event in state.events if event.get("move", 0) > since]


def arrangement_for(*, user, table_id: int, by: Any) -> list[list[str]]:
    """The "sort by sets / pairs" buttons: groups first, then the loose tiles, for the user's own rack."""
    from games.engine.arrange import arrange_by_pairs, arrange_by_sets
    from games.engine.tiles import format_tile

    if by not in ("sets", "pairs"):
        raise GameError("bad_argument", _("Dizme türü 'sets' ya da 'pairs' olmalı."), field="by")
    match = current_match(table_id)
    hand = latest_hand(match) if match is not None else None
    seat = seat_of(match, user) if match is not None else None
    if hand is None or seat is None:
        raise GameError("not_a_player", _("Bu masada oyuncu değilsiniz."))
    state = game_of(match).hand_from_dict(hand.state)
    arrange = arrange_by_sets if by == "sets" else arrange_by_pairs
    arrangement = arrange(state.racks[seat], state.okey, state.rules)
    groups = [[format_tile(tile) for tile in group] for group in arrangement.groups]
    return [*groups, [format_tile(tile) for tile in arrangement.loose]]


# -- replays (leaderboards and hand history: games/stats.py) ---------------------------------------


def visible_hands(hands, viewer):
    """The hands ``viewer`` may open: those of public rooms for anyone; those of private rooms
    (practice tables included) for the match's players, the room's owner and guests, the salon's
    staff and site admins. The history list, the replay and the proof all filter through this."""
    from django.db.models import Q

    from moderation.selectors import moderated_salon_ids
    from salons.models import RoomAccess

    public = Q(match__table__room__is_private=False)
    if not getattr(viewer, "is_authenticated", False) or not viewer.is_active:
        return hands.filter(public)
    staff_of = moderated_salon_ids(viewer)
    if staff_of is None:  # a site admin
        return hands
    return hands.filter(
        public
        | Q(match__in=MatchPlayer.objects.filter(user=viewer).values("match_id"))
        | Q(match__table__room__owner=viewer)
        | Q(match__table__room__in=RoomAccess.objects.filter(user=viewer).values("room_id"))
        | Q(match__table__room__salon__in=staff_of)
    )


def viewable_finished_hand(*, hand_id: int, viewer) -> Hand | None:
    """A finished hand ``viewer`` may open, or None (the page then says it does not exist)."""
    hands = Hand.objects.filter(pk=hand_id, status=Hand.Status.OVER)
    return visible_hands(hands, viewer).select_related("match", "match__table", "match__table__room").first()


def finished_hands_of(*, user, viewer, limit: int = 50) -> list[Hand]:
    """The player's finished hands that ``viewer`` may open, newest first, for the history page."""
    hands = Hand.objects.filter(match__players__user=user, status=Hand.Status.OVER)
    return list(
        visible_hands(hands, viewer)
        .select_related("match", "match__table", "match__table__room")
        .order_by("-finished_at", "-pk")[:limit]
    )


def replay_frames(*, hand: Hand, viewer) -> dict[str, Any]:
    """Every step of a finished hand as the public saw it; a player of the hand also sees their own
    rack. Refused for a hand still being played: its deck would reveal every rack and the pile."""
    from games.models import Move

    if hand.status != Hand.Status.OVER:
        raise ValueError("only finished hands can be replayed")
    game = game_of(hand.match)
    state = game.hand_from_dict(hand.state)
    moves = [{"seat": move.seat, "type": move.action, **move.args}
             for move in Move.objects.filter(hand=hand).order_by("number")]
    seat = seat_of(hand.match, viewer)
    players = players_public(hand.match)
    steps = game.replay_steps(state, moves, seat)
    proof = fair_deal_proof(hand)
    return {"hand": hand.id, "number": hand.number, "seat": seat, "players": players, "steps": steps, **proof}


def fair_deal_proof(hand: Hand) -> dict[str, Any]:
    """What anyone needs to check a finished hand's deal (and the server's own check of it).

    Self-contained: with the deck, salt and commitment it holds the rules, the starting seat and
    every move from the deal on, so ``python -m games.engine verify … --moves proof.json`` needs
    nothing else."""
    from games.models import Move

    if hand.status != Hand.Status.OVER:
        raise ValueError("the deck of a hand in play is secret")
    game = game_of(hand.match)
    state = game.hand_from_dict(hand.state)
    moves = [{"seat": move.seat, "type": move.action, **move.args}
             for move in Move.objects.filter(hand=hand).order_by("number")]
    if not moves or moves[0]["type"] != "deal":
        moves.insert(0, {"seat": None, "type": "deal", "starting_seat": state.starting_seat})
    deck = game.public_deck(state)
    report = game.verify_hand(deck, hand.salt, hand.commitment, rules=state.rules,
                                  starting_seat=state.starting_seat, moves=moves)
    return {"commitment": hand.commitment, "salt": hand.salt, "deck": deck, "rules": game.stored_rules(state.rules),
            "starting_seat": state.starting_seat, "moves": moves,
            "verification": {"valid": report.valid, "problems": report.problems}}


# -- the table page: player cards and chat history ------------------------------------------------


def player_card(*, nickname: Any) -> dict[str, Any] | None:
    """What the table shows when a player's name is clicked: public figures only, never an e-mail."""
    from django.contrib.auth import get_user_model

    from games.models import PlayerRating

    if not isinstance(nickname, str) or not 0 < len(nickname) <= 150:
        return None
    user = get_user_model().objects.filter(username__iexact=nickname).first()
    if user is None:
        return None
    from games.ratings import display_rating

    rating = PlayerRating.objects.filter(user=user, salon=None).values_list("ordinal", "matches").first()
    return {
        "nickname": user.username,
        "games_played": user.games_played,
        "games_won": user.games_won,
        "win_rate": user.win_rate if user.games_played else None,
        # The rating as the profile page writes it (1000 for a newcomer), not the raw estimate.
        "rating": display_rating(rating[0]) if rating and rating[1] else None,
        "since": user.date_joined.strftime("%Y-%m"),  # the month they joined: no finer
        "bot": bool(user.is_bot),
    }


TABLE_CHAT_HISTORY = 30


def table_with_room(table_id: int):
    """The salon table with its room, or None."""
    from salons.models import Table

    return Table.objects.select_related("room").filter(pk=table_id).first()


def table_chat_history(*, user, table_id: int) -> list[dict[str, Any]]:
    """The table chat's recent visible lines, oldest first, for a page that (re)connects."""
    from salons import selectors as salon_selectors

    table = table_with_room(table_id)
    if table is None or salon_selectors.room_access_error(room=table.room, user=user) is not None:
        return []
    messages = salon_selectors.recent_chat(room=table.room, table=table, limit=TABLE_CHAT_HISTORY)
    return [salon_selectors.chat_payload(message) for message in messages]
