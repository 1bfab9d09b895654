"""Every state change of live play, one function per use case (DESIGN.md, layer 2).

Each runs in a transaction, locks the rows it changes, checks the move number the client saw,
calls the pure engine, writes the new state, the turn's deadline and the append-only move log, and
only after commit publishes per-seat views. Consumers, Celery tasks and the admin call these; nothing
else writes a Match, Hand or Move.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import models, transaction
from django.dispatch import receiver as signal_receiver
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.errors import ServiceError
from accounts.services import change_chips, hold_chips, record_game_result, release_holds
from games import bot_players, engine_messages, events, move_sql, ratings, scheduling, selectors, signals
from games.engine import fairness, game_types
from games.engine.errors import EngineError
from games.engine.rules import CHIPS
from games.errors import GameError
from games.models import Hand, Match, MatchPlayer, Move, PracticeTable, ReadyMark
from moderation.outgoing import site_ban_committed
from salons import seating
from salons import services as salon_services
from salons.models import Seat, Table
from salons.practice import practice_room_q, real_seat_taken

log = logging.getLogger(__name__)

# After this many turns in a row played by the server, the player is marked away.
AWAY_AFTER_TIMEOUTS = 3
# An away player's turn is played almost at once (a short beat so others can follow it).
AWAY_TURN_SECONDS = 1
# The finished hand stays on screen this long before the next one is dealt.
NEXT_HAND_PAUSE_SECONDS = scheduling.NEXT_HAND_PAUSE_SECONDS
# Actions a client may send to the engine; anything else is rejected before the engine sees it.
# (Every registered game's actions; each game type checks its own again: ``game_types``.)
PLAYER_ACTIONS = tuple(dict.fromkeys(action for name in game_types.names()
                                     for action in game_types.game_type(name).actions))


# The message table (engine codes in the player's language) lives in a module of its own, and the
# hand-written SQL of the hot path in ``move_sql``; the table's names stay importable from here.
ENGINE_MESSAGES, FINISH_REASONS = engine_messages.ENGINE_MESSAGES, engine_messages.FINISH_REASONS
engine_error = engine_messages.engine_error


@dataclass
class Outcome:
    """What a service did, for the caller (the consumer answers the sender with it)."""

    hand_id: int
    move: int


# -- starting ------------------------------------------------------------------------------------------


def mark_ready(*, user, table_id: int) -> Match | None:
    """A seated player is ready; when every seat is taken and ready, the match starts."""
    with transaction.atomic():
        table = _lock_table(table_id)
        if not seating.is_seated(table_id=table.pk, user=user):
            raise GameError("not_seated", _("Önce bir sandalyeye oturun."))
        if table.status == Table.Status.PLAYING:
            raise GameError("already_playing", _("Bu masada oyun zaten sürüyor."))
        ReadyMark.objects.get_or_create(table=table, user=user)
        _lock_chip_players(table)
        seats = seating.seats_at(table.pk)
        players = _room_rules(table).players
        seated = [seat.user_id for seat in seats if seat.user_id]
        ready = set(ReadyMark.objects.filter(table=table).values_list("user_id", flat=True))
        transaction.on_commit(lambda: events.publish_table_lobby(table.id))
        refusal = None
        if len(seated) == players and set(seated) <= ready:
            refusal = _refuse_short_of_stake(table=table, seats=seats)
            if refusal is None:
                return start_seated_match(table=table, seats=seats)
    if refusal is not None:  # raised after commit: the short players stay stood up
        raise refusal
    return None


def start_match(*, user, table_id: int, with_bots: bool = False) -> Match:
    """The room owner starts the match once every seat is taken (no need to wait for ready marks);
    ``with_bots``: bots take the empty seats first ("Botlarla başlat", someone must sit already)."""
    with transaction.atomic():
        table = _lock_table(table_id)
        if table.room.owner_id != user.id:
            raise GameError("not_owner", _("Maçı yalnızca oda sahibi başlatabilir."))
        if table.status == Table.Status.PLAYING:
            raise GameError("already_playing", _("Bu masada oyun zaten sürüyor."))
        if with_bots:
            _refuse_too_many_bot_matches(table)
        _lock_chip_players(table)
        seats = seating.seats_at(table.pk, lock=True)
        players = _room_rules(table).players
        seated = sum(1 for seat in seats if seat.user_id)
        if seated != players and not (with_bots and seated):
            raise GameError("table_not_full", _("Maç için bütün sandalyeler dolu olmalı."))
        refusal = _refuse_short_of_stake(table=table, seats=seats)
        if refusal is None:
            _seat_bots(seats)
            return start_seated_match(table=table, seats=seats)
    raise refusal


#: Running matches with bots at once in the rooms of one owner (issue 18: one account kept 24 bot
#: matches running for nobody). Tournament tables and practice are not counted.
BOT_MATCHES_PER_OWNER = 3


def _refuse_too_many_bot_matches(table: Table) -> None:
    running = (MatchPlayer.objects.filter(match__status=Match.Status.RUNNING, user__is_bot=True,
                                          match__table__room__owner_id=table.room.owner_id)
               .exclude(practice_room_q("match__table__room__")).values("match_id").distinct().count())
    if running >= BOT_MATCHES_PER_OWNER:
        raise GameError("too_many_bot_matches", _(
            "Odalarınızda aynı anda en çok %(count)d botlu maç sürebilir; önce birini bitirin.")
            % {"count": BOT_MATCHES_PER_OWNER})


def _lock_chip_players(table: Table) -> None:
    """At a chip table, the seated people's rows before the seats' (their chips are held as the
    first hand is dealt): ``take_seat`` locks a player's row and then the seat they leave, so
    locking the seats first here could deadlock with one of them sitting down elsewhere."""
    if table.room.rules.get("scoring") != CHIPS:
        return
    people = seating.seated_user_ids(table.pk, people_only=True)
    list(get_user_model().objects.select_for_update().filter(pk__in=list(people)).order_by("pk")
         .values_list("pk", flat=True))


def _refuse_short_of_stake(*, table: Table, seats: list[Seat]) -> GameError | None:
    """A chip table starts only if every player still holds the stake: those who do not are stood
    up (in the caller's transaction) and named in the refusal."""
    short = salon_services.unseat_players_short_of_stake(table=table, seats=seats)
    if not short:
        return None
    ReadyMark.objects.filter(table=table, user__in=short).delete()
    names = [player.username for player in short]
    return GameError(
        "not_enough_chips",
        _("Bahsi karşılayacak çipi olmayanlar masadan kaldırıldı: %(names)s") % {"names": ", ".join(names)},
        players=names,
    )


def start_seated_match(*, table: Table, seats: list[Seat], seed: str | None = None) -> Match:
    """A match at ``table`` for the players in ``seats`` (locked), its first hand dealt."""
    game = _game_of_rules(table.room.rules)
    rules = game.rules(table.room.rules)
    match_state = game.start_match(rules, seed=seed)
    match = Match.objects.create(
        table=table, rules=game.stored_rules(rules), turn_seconds=table.room.turn_seconds, state=match_state.to_dict()
    )
    MatchPlayer.objects.bulk_create(
        MatchPlayer(match=match, seat=seat.position, user_id=seat.user_id, score=match_state.scores[seat.position])
        for seat in seats
        if seat.user_id
    )
    ReadyMark.objects.filter(table=table).delete()
    seating.set_table_playing(table_id=table.pk, playing=True)
    _deal_hand(match=match, match_state=match_state)
    return match


def _game_of_rules(rules: dict) -> game_types.GameType:
    """The game type of a room's stored rules; a game this site does not play is a worded error."""
    try:
        return game_types.game_type_of(rules)
    except game_types.UnknownGameType:
        raise GameError("unknown_game", ENGINE_MESSAGES["unknown_game"]()) from None


def _room_rules(table: Table):
    """The room's rules, read by its game type (an unknown game is a worded refusal)."""
    return _game_of_rules(table.room.rules).rules(table.room.rules)


def _deal_hand(*, match: Match, match_state) -> Hand:
    short = _hold_hand_stakes(match=match, rules=match_state.rules, hand_number=match_state.hands_played)
    if short:
        raise GameError(
            "not_enough_chips",
            _("Elin bahsini karşılayacak çipi olmayanlar var: %(names)s") % {"names": ", ".join(short)},
            players=short,
        )
    game = selectors.game_of(match)
    state = game.deal(match_state)
    # Commit to the deck before anyone plays; the salt stays secret until the hand is over.
    salt = fairness.new_salt()
    hand = Hand.objects.create(
        match=match,
        number=match_state.hands_played,
        commitment=game.commitment(state, salt),
        salt=salt,
        state=state.to_dict(),
        move=state.move,
        turn_seat=state.turn,
        deadline=_deadline_for(match, state),
    )
    # The deal's public event (starting seat, indicator, seats whose show ends the match): a hand
    # replays, and its deal is checked, from the move log alone.
    dealt = state.events[0]
    Move.objects.create(hand=hand, number=0, action="deal",
                        args={key: value for key, value in dealt.items() if key not in ("move", "type", "seat")})
    _after_commit(hand=hand, since=0)
    return hand


# -- chips held for a hand (issue 18: chips are money) ------------------------------------------------


class _NotAllHeld(Exception):
    """Rolls back the holds of a hand that cannot be dealt."""


def _hold_reference(match_id: int, hand_number: int) -> str:
    return f"match {match_id} hand {hand_number}"


def _hold_hand_stakes(*, match: Match, rules: Any, hand_number: int) -> list[str]:
    """At a chip table, set aside from every person still at the match the most this hand can cost
    them, before it is dealt: whatever happens to their balance during the hand (a tournament
    buy-in, say), the winner is paid in full. Bots play for no chips. Returns the nicknames of those
    who cannot cover it (nothing is held then)."""
    cover = selectors.game_of(match).hand_cover(rules)
    if not cover:
        return []
    left = _left_seats(match)
    people = [player for player in MatchPlayer.objects.select_related("user").filter(match=match).order_by("user_id")
              if not player.user.is_bot and player.seat not in left]
    short: list[str] = []
    reference = _hold_reference(match.pk, hand_number)
    try:
        with transaction.atomic():
            for player in people:
                try:
                    hold_chips(user=player.user, amount=cover, reference=reference)
                except ServiceError:
                    short.append(player.user.username)
            if short:
                raise _NotAllHeld
    except _NotAllHeld:
        pass
    return short


def _people_short_of_cover(*, match: Match, rules: Any) -> bool:
    """After a chip hand is settled: would any person still at the match fail to cover the next?"""
    cover = selectors.game_of(match).hand_cover(rules)
    if not cover:
        return False
    left = _left_seats(match)
    balances = MatchPlayer.objects.filter(match=match, user__is_bot=False).values_list("seat", "user__chips")
    return any(chips < cover for seat, chips in balances if seat not in left)


# -- playing -------------------------------------------------------------------------------------------


def play(*, user, table_id: int, action: str, move: Any, args: dict[str, Any] | None = None) -> Outcome:
    """Apply one player action. A stale ``move`` (not the hand's current number) is refused whole."""
    if action not in PLAYER_ACTIONS:
        raise GameError("bad_action", _("Geçersiz hamle."))
    if not isinstance(move, int) or isinstance(move, bool):
        raise GameError("bad_move_number", _("Hamle numarası eksik ya da geçersiz."))
    args = _clean_args(action, args or {})
    with transaction.atomic():
        hand, players = move_sql.lock_hand_and_players(table_id)
        player = _player_of(players, user)
        if player.left:
            raise GameError("left_match", _("Masadan kalktınız; yerinize sıra saati yalnızca çekip atıyor. Oynamak için masaya dönün."))
        if move != hand.move:
            raise GameError("stale", _("Masa değişti; güncel durum gönderildi."), move=hand.move)
        game = None
        try:
            game = game_types.game_type_of(hand.match.rules)
            if action not in game.actions:
                raise GameError("bad_action", _("Geçersiz hamle."))
            state = game.hand_from_dict(hand.state)
            new_state = game.apply(state, player.seat, action, **args)
        except EngineError as error:
            raise engine_error(error, game=game.name if game else None) from None
        if player.timeouts_in_row or player.away:
            # Acting again brings an away player back.
            player.timeouts_in_row, player.away = 0, False
            MatchPlayer.objects.filter(pk=player.pk).update(timeouts_in_row=0, away=False)
        _save_move(hand=hand, state=state, new_state=new_state, seat=player.seat, user_id=user.id, auto=False,
                   players=players)
        return Outcome(hand_id=hand.id, move=hand.move)


def _clean_args(action: str, args: dict[str, Any]) -> dict[str, Any]:
    """Only the fields an action takes, each a short string: the engine never sees anything else."""
    if action == "turn":
        return {"turn": _clean_turn(args)}
    wanted = {"draw": ("source",), "discard": ("tile",), "finish": ("tile",)}.get(action, ())
    clean: dict[str, Any] = {}
    for name in wanted:
        value = args.get(name)
        if not isinstance(value, str) or not 0 < len(value) <= 8:
            raise GameError("bad_argument", _("Eksik ya da geçersiz alan: %(name)s") % {"name": name}, field=name)
        clean[name] = value
    return clean


# A turn sent whole (101 Okey, Kart Okey): at most every piece of a 22-tile rack on the table, in
# short strings. The fields of both games' actions; the game's engine then judges the play itself.
_TURN_ACTION_FIELDS = {
    "open": ("melds",), "lay_down": ("melds",), "swap": ("meld", "tile"),  # 101 Okey
    "meld": ("cards",),  # Kart Okey
    "lay_off": ("meld", "tile", "card"),  # 101 lays off a tile, Kart a card
}
_TURN_DRAWS = ("pile", "stock", "discard")
_MAX_TURN_ACTIONS = 24
_MAX_MELDS = 11
_MAX_MELD_CARDS = 14
_MAX_MELD_TEXT = 80


def _clean_turn(args: dict[str, Any]) -> dict[str, Any]:
    """A ``turn`` frame's fields in the engines' shape, each checked for type and size."""
    def bad(name: str) -> GameError:
        return GameError("bad_argument", _("Eksik ya da geçersiz alan: %(name)s") % {"name": name}, field=name)

    def short_text(value: Any, name: str, limit: int = 8) -> str:
        if not isinstance(value, str) or not 0 < len(value) <= limit:
            raise bad(name)
        return value

    draw = args.get("draw")
    if draw is not None and draw not in _TURN_DRAWS:
        raise bad("draw")
    actions = args.get("actions", [])
    if not isinstance(actions, list) or len(actions) > _MAX_TURN_ACTIONS:
        raise bad("actions")
    clean_actions = []
    for action in actions:
        kind = action.get("type") if isinstance(action, dict) else None
        if kind not in _TURN_ACTION_FIELDS or not set(action) <= {"type", *_TURN_ACTION_FIELDS[kind]}:
            raise bad("actions")
        clean: dict[str, Any] = {"type": kind}
        if kind in ("open", "lay_down"):
            melds = action.get("melds")
            if not isinstance(melds, list) or not 0 < len(melds) <= _MAX_MELDS:
                raise bad("melds")
            clean["melds"] = [short_text(meld, "melds", _MAX_MELD_TEXT) for meld in melds]
        elif kind == "meld":
            cards = action.get("cards")
            if isinstance(cards, str):
                clean["cards"] = short_text(cards, "cards", _MAX_MELD_TEXT)
            elif isinstance(cards, list) and 0 < len(cards) <= _MAX_MELD_CARDS:
                clean["cards"] = [short_text(card, "cards") for card in cards]
            else:
                raise bad("cards")
        else:
            meld = action.get("meld")
            if type(meld) is not int or not 0 < meld < 1000:
                raise bad("meld")
            clean["meld"] = meld
            piece = "card" if "card" in action else "tile"
            clean[piece] = short_text(action.get(piece), piece)
        clean_actions.append(clean)
    turn: dict[str, Any] = {"actions": clean_actions, "discard": short_text(args.get("discard"), "discard")}
    if draw is not None:
        turn["draw"] = draw
    return turn


def resolve_timeout(*, hand_id: int, move: int) -> bool:
    """The turn's time ran out: the server draws and discards for the player, or a seated bot
    plays its turn (idempotent).

    Does nothing when the hand has moved on since the task was scheduled or the deadline is not yet
    reached, so a duplicate or early task is harmless.
    """
    with transaction.atomic():
        hand = Hand.objects.select_for_update(of=("self",)).select_related("match").filter(pk=hand_id).first()
        if hand is None or hand.status != Hand.Status.PLAYING or hand.move != move:
            return False
        if hand.deadline is None or hand.deadline > timezone.now():
            return False
        game = selectors.game_of(hand.match)
        state = game.hand_from_dict(hand.state)
        seat = state.turn
        players = selectors.match_players(hand.match_id)
        player = players[seat]
        bot = bool(player.bot)
        if bot:
            # A bot seated as a player plays to win (a practice table's at the level chosen).
            new_state = game.bot_move(state, seat, level=bot_level_for(hand.match.table_id))
        else:
            # A person out of time, away or gone: the clock draws and discards, nothing else — it
            # never finishes, shows or declares for them (RULES.md "Absent players never win").
            new_state = game.clock_move(state, seat)
        if not bot:
            player.timeouts_in_row += 1
            player.away = player.away or player.timeouts_in_row >= AWAY_AFTER_TIMEOUTS
            MatchPlayer.objects.filter(pk=player.pk).update(timeouts_in_row=player.timeouts_in_row, away=player.away)
        # A bot's move is its own; a person's timed-out move is marked as played for them.
        _save_move(hand=hand, state=state, new_state=new_state, seat=seat, user_id=player.user_id if bot else None,
                   auto=not bot, players=players)
        return True


def _save_move(*, hand: Hand, state, new_state, seat: int | None, user_id: int | None, auto: bool,
               players: dict[int, MatchPlayer]) -> None:
    """Write the new state and one Move row per engine move; start the next turn's clock.

    ``players``: the match's players with nickname and bot flag, read under the hand's lock (for the
    next turn's clock and, after commit, the frames: a move is published from what it wrote)."""
    # One row per engine move, from the engine's own public event: what happened, with the tiles
    # everyone saw (a draw from the pile names none). Replays and deal checks read these rows.
    moves = [
        Move(hand=hand, number=event["move"], seat=event.get("seat", seat), user_id=user_id, action=event["type"][:20],
             args={key: value for key, value in event.items() if key not in ("move", "type", "seat")}, auto=auto)
        for event in new_state.events
        if event.get("move", 0) > state.move
    ]
    if auto:
        _mark_played_by_server(new_state.events, after=state.move)
    turn_changed = new_state.turn != state.turn
    hand.state = new_state.to_dict()
    hand.move = new_state.move
    hand.turn_seat = new_state.turn
    match = hand.match
    if new_state.is_over:
        hand.status = Hand.Status.OVER
        hand.finished_at = timezone.now()
        hand.deadline = None
    elif turn_changed:
        hand.deadline = _deadline_for(match, new_state, players=players)
    move_sql.update_and_insert(hand, ("state", "move", "turn_seat", "status", "finished_at", "deadline"), moves)
    if new_state.is_over:
        # Scores and the match change too: the frames are read back after commit.
        _record_hand(hand=hand, state=new_state)
        _after_commit(hand=hand, since=state.move)
    else:
        _after_commit(hand=hand, since=state.move,
                      snapshot=events.Snapshot(match=match, hand=hand, hand_state=new_state,
                                               players=list(players.values())))


def _mark_played_by_server(hand_events: list[dict[str, Any]], *, after: int) -> None:
    """Flag this move's public events as played by the server (a time-out, an away or left player),
    so the table's move feed can say so. Only the new events, which this move created, are touched;
    the move log (``Move.auto``) already records it for replays."""
    for event in hand_events:
        if event.get("move", 0) > after:
            event["auto"] = True


def _deadline_for(match: Match, state, *, players: dict[int, MatchPlayer] | None = None) -> Any:
    """A person gets the room's turn time; a bot plays after a human-like pause; an away player's
    turn is played almost at once. ``players``: from ``selectors.match_players``, when the caller has them."""
    players = players if players is not None else selectors.match_players(match.id)
    player = players[state.turn]
    if _practice_paused(match, players):
        # Practice plays for nobody: while its one person is away the table waits (no deadline, so
        # the turn clock passes it by) until they press "Buradayım" or make a move.
        return None
    if player.bot:
        seconds = bot_players.think_time()
    elif player.away:
        seconds = AWAY_TURN_SECONDS
    else:
        seconds = match.turn_seconds
    return timezone.now() + timedelta(seconds=seconds)


def _practice_paused(match: Match, players: dict[int, MatchPlayer]) -> bool:
    """A practice table whose person is away (looked up only then: a query for the rare case)."""
    if not any(player.away and not player.bot for player in players.values()):
        return False
    return is_practice_table(match.table_id)


def i_am_back(*, user, table_id: int) -> Outcome:
    """"Buradayım": an away player (three turns in a row ran out) is present again without having
    to make a move inside the one second the clock now gives them. Their turn, if it is theirs,
    gets the room's full time again; a practice table paused for them plays on."""
    with transaction.atomic():
        # The hand's lock first: players change only under it (as in every move).
        hand = _lock_current_hand_any_phase(table_id)
        players = selectors.match_players(hand.match_id)
        player = _player_of(players, user)
        if player.left:
            raise GameError("left_match", _("Masadan kalktınız; oynamak için masaya dönün."))
        if not player.away and not player.timeouts_in_row:
            raise GameError("not_away", _("Zaten masadasınız."))
        player.away, player.timeouts_in_row = False, 0
        MatchPlayer.objects.filter(pk=player.pk).update(away=False, timeouts_in_row=0)
        if hand.status == Hand.Status.PLAYING and (hand.turn_seat == player.seat or hand.deadline is None):
            state = selectors.game_of(hand.match).hand_from_dict(hand.state)
            hand.deadline = _deadline_for(hand.match, state, players=players)
            hand.save(update_fields=["deadline"])
        table = hand.match.table_id
        transaction.on_commit(lambda: events.publish_seat_players_changed(table, "back"))
        return Outcome(hand_id=hand.id, move=hand.move)


# -- ending hands and matches ------------------------------------------------------------------------


def _record_hand(*, hand: Hand, state) -> None:
    match = Match.objects.select_for_update().get(pk=hand.match_id)
    game = selectors.game_of(match)
    match_state = game.match_from_dict(match.state)
    before = list(match_state.scores)
    match_state = game.record_hand(match_state, state)
    match.state = match_state.to_dict()
    players = {player.seat: player
               for player in MatchPlayer.objects.select_for_update().select_related("user").filter(match=match)}
    for seat, player in players.items():
        player.score = match_state.scores[seat]
    hand_moves = _count_moves(hand=hand, players=players)
    left = _left_seats(match)
    if game.plays_for_chips(match_state.rules):
        _settle_chips(players={seat: player for seat, player in players.items() if seat not in left},
                      deltas=[a - b for a, b in zip(match_state.scores, before, strict=True)],
                      match_id=match.pk, hand_number=hand.number)
        if not game.is_over(match_state) and _people_short_of_cover(match=match, rules=match_state.rules):
            # Someone could not pay for the next hand's worst case: the match ends here.
            match_state = game.end_match(match_state, reason="chips")
            match.state = match_state.to_dict()
    over = game.is_over(match_state)
    # RULES.md "Absent players never win": a person the clock played for all match long did not
    # play it. A player who left lost it (leaving is their own act: it counts, as a loss), whatever
    # the clock did for their seat.
    absent = {seat for seat, player in players.items()
              if not player.user.is_bot and player.absent and seat not in left}
    winners: set[int] = set()
    if over:
        winners = set(game.winners(match_state)) - left - absent
        match.status = Match.Status.FINISHED
        match.finished_at = timezone.now()
        seating.set_table_playing(table_id=match.table_id, playing=False)
    MatchPlayer.objects.bulk_update(players.values(), ["score", "own_moves", "clock_moves"])
    match.save(update_fields=["state", "status", "finished_at"])
    # Tournaments score their tables here, in the same transaction (a no-op for other matches),
    # and name a tournament table's winners themselves: who goes on, the champion (never a bot).
    named = signals.named_winners(match=match, match_state=match_state, not_present=left | absent,
                                  clock_played={seat for seat, (own, clock) in hand_moves.items() if clock > own})
    if named is not None:
        winners = set(named)
    if over or named is not None:
        # One truth for every screen: the result panel, the profile and the tournament read this.
        for seat, player in players.items():
            player.is_winner = seat in winners
        MatchPlayer.objects.bulk_update(players.values(), ["is_winner"])
    # Practice is never rated nor counted; its table closes itself at the end of the match.
    if over and not _close_finished_practice(table_id=match.table_id):
        # Stats and ratings count only the matches a person played (not the absent ones).
        counted = {seat: player for seat, player in players.items() if seat not in absent}
        # A winner's public score: +1 per opponent beaten (countdown and penalty scores live on
        # different scales; chip tables show in the chip balance instead).
        beaten = match_state.players - len(game.winners(match_state))
        points = [0 if seat in left else beaten for seat in range(match_state.players)]
        _count_match_for_users(players=counted, winners=winners, scores=points)
        salon_id = Table.objects.filter(pk=match.table_id).values_list("room__salon_id", flat=True).get()
        ratings.update_ratings(user_ids=[counted[seat].user_id for seat in sorted(counted)], salon_id=salon_id,
                               scoring=game.scoring(match_state.rules),
                               scores=[match_state.scores[seat] for seat in sorted(counted)], match_id=match.pk,
                               team_of=[game.scoring(match_state.rules).team_of(seat) for seat in sorted(counted)])


def _count_moves(*, hand: Hand, players: dict[int, MatchPlayer]) -> dict[int, tuple[int, int]]:
    """This hand's moves per seat, (the player's own, the clock's), added to the players' totals."""
    counts = {seat: [0, 0] for seat in players}
    rows = (Move.objects.filter(hand=hand).exclude(action="deal").values_list("seat", "auto", "user_id")
            .annotate(n=models.Count("pk")))
    for seat, auto, user_id, number in rows:
        player = players.get(seat)
        if player is None:
            continue
        if auto:
            counts[seat][1] += number
        elif user_id == player.user_id:
            counts[seat][0] += number
    for seat, (own, clock) in counts.items():
        players[seat].own_moves += own
        players[seat].clock_moves += clock
    return {seat: (own, clock) for seat, (own, clock) in counts.items()}


def _settle_chips(*, players: dict[int, MatchPlayer], deltas: list[int], match_id: int, hand_number: int) -> None:
    """Chip tables settle every hand at once, from the chips held for it: every hold of the hand
    comes back, then each person who lost pays in full what they owe (never more than was held),
    and the winner receives exactly what was paid. Chips move only between people: a bot's seat,
    and the seat of a player who left (they paid on leaving), neither pay nor receive. Every
    movement goes through the chip ledger."""
    release_holds(reference=_hold_reference(match_id, hand_number))
    people = {seat: player for seat, player in players.items() if not player.user.is_bot}
    note = f"match {match_id} hand {hand_number + 1}"
    paid = 0
    for seat, delta in enumerate(deltas):
        if delta < 0 and seat in people:
            change_chips(user=people[seat].user, amount=delta, note=note)
            paid -= delta
    owed = sum(delta for delta in deltas if delta > 0)
    for seat, delta in enumerate(deltas):
        if delta > 0 and seat in people and owed and paid:
            change_chips(user=people[seat].user, amount=paid * delta // owed, note=note)


def _count_match_for_users(*, players: dict[int, MatchPlayer], winners: set[int], scores: list[int]) -> None:
    for seat, player in players.items():
        record_game_result(user=player.user, won=seat in winners, score_delta=scores[seat] if seat in winners else 0)


def start_next_hand(*, match_id: int) -> Hand | None:
    """Deal the next hand once the pause after the last one has passed (idempotent)."""
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is None or match.status != Match.Status.RUNNING:
            return None
        last = match.hands.order_by("-number").first()
        if last is not None and last.status != Hand.Status.OVER:
            return None
        game = selectors.game_of(match)
        match_state = game.match_from_dict(match.state)
        if last is not None and last.number + 1 != match_state.hands_played:
            return None
        try:
            with transaction.atomic():
                return _deal_hand(match=match, match_state=match_state)
        except GameError as error:
            if error.code != "not_enough_chips":
                raise
            # A balance spent between hands (after the check that ends a match at its hand's end).
            match.state = game.end_match(match_state, reason="chips").to_dict()
            match.status = Match.Status.FINISHED
            match.finished_at = timezone.now()
            match.save(update_fields=["state", "status", "finished_at"])
            seating.set_table_playing(table_id=match.table_id, playing=False)
            table_id = match.table_id
            transaction.on_commit(lambda: events.publish_match_abandoned(table_id, "not_enough_chips"))
            return None


# -- bots --------------------------------------------------------------------------------------------


def fill_with_bots(*, table_id: int) -> Match | None:
    """Seat bots in every empty seat of a waiting table and start the match (room option)."""
    with transaction.atomic():
        table = _lock_table(table_id)
        if table.status == Table.Status.PLAYING:
            return None
        try:
            _refuse_too_many_bot_matches(table)
        except GameError:
            return None
        _lock_chip_players(table)
        seats = seating.seats_at(table.pk, lock=True)
        empty = [seat for seat in seats if seat.user_id is None]
        if not empty or len(empty) == len(seats):
            return None
        if _refuse_short_of_stake(table=table, seats=seats) is not None:
            return None
        _seat_bots(seats)
        return start_seated_match(table=table, seats=seats)


def _seat_bots(seats: list[Seat]) -> None:
    """Bots in the empty ones of these (locked) seats, each bot once and none already seated."""
    empty = sum(1 for seat in seats if seat.user_id is None)
    taken = {seat.user_id for seat in seats if seat.user_id}
    seating.seat_bots(seats=seats, bots=bot_players.bot_users(empty, exclude=taken))


def hand_over_to_autoplay(*, user) -> int:
    """A banned (or otherwise removed) player's running games go on without them: they are marked
    away, so the server plays each of their turns at once. Returns how many matches were affected."""
    affected = 0
    for player in MatchPlayer.objects.filter(user=user, match__status=Match.Status.RUNNING).select_related("match"):
        with transaction.atomic():
            # The hand's lock first: players change only under it (play and resolve_timeout read them
            # unlocked).
            hand = (Hand.objects.select_for_update().filter(match_id=player.match_id, status=Hand.Status.PLAYING)
                    .order_by("-number").first())
            MatchPlayer.objects.filter(pk=player.pk).update(away=True, timeouts_in_row=AWAY_AFTER_TIMEOUTS)
            if hand is not None and hand.turn_seat == player.seat:
                hand.deadline = timezone.now() + timedelta(seconds=AWAY_TURN_SECONDS)
                hand.save(update_fields=["deadline"])
                _after_commit(hand=hand, since=hand.move)
            affected += 1
    return affected


def abandon_match(*, table_id: int, reason: str) -> None:
    """Staff or a site ban ends a match early; nobody wins it."""
    with transaction.atomic():
        table = _lock_table(table_id)
        match = Match.objects.select_for_update().filter(table=table, status=Match.Status.RUNNING).first()
        if match is None:
            return
        for number in Hand.objects.filter(match=match, status=Hand.Status.PLAYING).values_list("number", flat=True):
            release_holds(reference=_hold_reference(match.pk, number))
        Hand.objects.filter(match=match, status=Hand.Status.PLAYING).update(status=Hand.Status.OVER, deadline=None)
        match.status = Match.Status.ABANDONED
        match.finished_at = timezone.now()
        match.save(update_fields=["status", "finished_at"])
        seating.set_table_playing(table_id=table.pk, playing=False)
        transaction.on_commit(lambda: events.publish_match_abandoned(table.id, reason))


# -- practice ----------------------------------------------------------------------------------------
# Practice against bots: one table per player, outside the salons (its room belongs to the hidden
# salon of ``salons.practice``), never rated. Opening one is ``games.practice``; what play needs
# (the bot level, pausing for an away person) and closing it stay here, where matches end.

def bot_level_for(table_id: int) -> str:
    """The level the bots of this table play at (practice tables choose one; elsewhere ``normal``)."""
    level = PracticeTable.objects.filter(table_id=table_id).values_list("level", flat=True).first()
    return level or PracticeTable.Level.NORMAL


def is_practice_table(table_id: int) -> bool:
    return PracticeTable.objects.filter(table_id=table_id).exists()


def leave_practice(*, user) -> bool:
    """Leave the practice table at any time: the match is dropped and the table closes."""
    if not getattr(user, "is_authenticated", False):
        return False
    with transaction.atomic():
        current = PracticeTable.objects.select_for_update().filter(user=user, closed_at=None).first()
        if current is None:
            return False
        close_practice(current)
        return True


def _close_finished_practice(*, table_id: int) -> bool:
    """Called when a match ends: a practice table closes itself. True when it was practice."""
    current = PracticeTable.objects.select_for_update().filter(table_id=table_id).first()
    if current is None:
        return False
    if current.closed_at is None:
        close_practice(current, abandon=False)
    return True


def close_practice(practice: PracticeTable, *, abandon: bool = True) -> None:
    """The practice table's match is dropped (``abandon``), its seats empty, its room closed."""
    if abandon:
        abandon_match(table_id=practice.table_id, reason="practice_left")
    now = timezone.now()
    seating.close_table_and_room(table_id=practice.table_id)
    PracticeTable.objects.filter(pk=practice.pk).update(closed_at=now)
    practice.closed_at = now


@signal_receiver(site_ban_committed, dispatch_uid="games.services.hand_over_on_site_ban")
def _hand_over_when_banned(sender, user_id: int, **kwargs) -> None:
    user = get_user_model().objects.filter(pk=user_id).first()
    if user is not None:
        hand_over_to_autoplay(user=user)


@signal_receiver(real_seat_taken, dispatch_uid="games.services.leave_practice_on_real_seat")
def _leave_when_seated_elsewhere(sender, user, **kwargs) -> None:
    leave_practice(user=user)


# -- leaving a running match, coming back, and a rematch ------------------------------------------------


def leave_running_match(*, user, table_id: int) -> Outcome:
    """"Masadan kalk" while the match runs: the turn clock plays the seat to the end of the match.

    The player's seat at the table is freed (so they may sit elsewhere at once; a freed seat of a
    playing table is what marks a player as having left, see ``selectors.match_players``), they are
    marked away so the turn clock plays each of their turns (draw and discard, never a finish), and
    they count as having lost:
    at a chip table they pay the stake now, as a normal loss, to the players who stay, and their
    seat is not settled again; at match end they are never a winner. Coming back before the match
    ends (``return_to_match``) gives the seat back.
    """
    if PracticeTable.objects.filter(table_id=table_id, user=user, closed_at=None).exists():
        # Leaving practice closes it: no bot plays on for nobody.
        leave_practice(user=user)
        hand = Hand.objects.filter(match__table_id=table_id).order_by("-number", "-pk").first()
        return Outcome(hand_id=hand.id if hand else 0, move=hand.move if hand else 0)
    with transaction.atomic():
        table = _lock_table(table_id)
        # The hand's lock before the players' rows, as in every move.
        hand = _lock_current_hand_any_phase(table_id)
        match = hand.match
        players = selectors.match_players(match.id)
        player = _player_of(players, user)
        if player.left:
            raise GameError("already_left", _("Bu maçtan zaten kalktınız."))
        seating.vacate_seat(table_id=table.pk, user=user)
        MatchPlayer.objects.filter(pk=player.pk).update(away=True, timeouts_in_row=AWAY_AFTER_TIMEOUTS)
        game = selectors.game_of(match)
        if game.plays_for_chips(game.rules(match.rules)):
            # Their chips held for this hand come back first; the stake is then paid from them.
            release_holds(reference=_hold_reference(match.pk, hand.number), user_ids=[user.pk])
            people = [p.user_id for p in players.values() if p.seat != player.seat and not p.left and not p.bot]
            if table.room.stake:
                _pay_stake_for_leaving(user=user, stake=table.room.stake, match=match, others=people)
        if not any(not p.bot and not p.left and p.seat != player.seat for p in players.values()) \
                and not _is_tournament_table(table.pk):
            # The last person left: no match goes on for nobody (bots playing bots, chips held).
            transaction.on_commit(lambda: abandon_match(table_id=table_id, reason="no_players"))
        elif hand.status == Hand.Status.PLAYING and hand.turn_seat == player.seat:
            hand.deadline = timezone.now() + timedelta(seconds=AWAY_TURN_SECONDS)
            hand.save(update_fields=["deadline"])
        _announce_seats(table)
        transaction.on_commit(lambda: events.publish_seat_players_changed(table.id, "left"))
        return Outcome(hand_id=hand.id, move=hand.move)


def return_to_match(*, user, table_id: int) -> Outcome:
    """A player who left a running match takes their seat back (before the match ends)."""
    with transaction.atomic():
        table = _lock_table(table_id)
        hand = _lock_current_hand_any_phase(table_id)
        players = selectors.match_players(hand.match_id)
        player = _player_of(players, user)
        if not player.left:
            raise GameError("not_left", _("Zaten masadasınız."))
        others = seating.seats_elsewhere(user=user, table_id=table.pk, lock=True)
        if any(seat.table.status == Table.Status.PLAYING for seat in others):
            raise GameError("already_playing", _("Başka bir masada oyununuz sürüyor."))
        if not seating.move_to_seat(user=user, table_id=table.pk, position=player.seat, giving_up=others):
            raise GameError("seat_taken", _("Bu koltuk dolu."))
        MatchPlayer.objects.filter(pk=player.pk).update(away=False, timeouts_in_row=0)
        if hand.status == Hand.Status.PLAYING and hand.turn_seat == player.seat:
            hand.deadline = timezone.now() + timedelta(seconds=hand.match.turn_seconds)
            hand.save(update_fields=["deadline"])
        _announce_seats(table, *[seat.table for seat in others])
        transaction.on_commit(lambda: events.publish_seat_players_changed(table.id, "returned"))
        return Outcome(hand_id=hand.id, move=hand.move)


def take_over_seat(*, user, table_id: int, position: int) -> Outcome:
    """A newcomer takes the seat of a player who left this running match ("Hemen oyna"): the bot
    that plays it hands it over at once, and the newcomer plays on with the seat's rack and score.

    The player who left keeps what leaving cost them (at a chip table they paid the stake then) and
    can no longer come back to that seat. From here on the seat is the newcomer's: settled every
    hand, counted, rated and possibly a winner at match end, like any seat.
    """
    from salons import selectors as salon_selectors

    with transaction.atomic():
        table = _lock_table(table_id)
        refusal = salon_selectors.room_access_error(room=table.room, user=user)
        if refusal is not None:
            raise GameError(refusal.code, str(refusal))
        hand = _lock_current_hand_any_phase(table_id)
        players = selectors.match_players(hand.match_id)
        if any(player.user_id == user.id for player in players.values()):
            raise GameError("already_a_player", _("Bu maçın oyuncusu zaten sizsiniz."))
        held = players.get(position)
        if held is None or not held.left:
            raise GameError("seat_taken", _("Bu koltuk dolu."))
        balance = get_user_model().objects.select_for_update().filter(pk=user.pk).values_list("chips", flat=True).get()
        # One table at a time, as take_seat has it: a seat at another waiting table is given up, a
        # match in play elsewhere refuses; a practice table closes below.
        elsewhere = seating.seats_elsewhere(user=user, table_id=table.pk, real_only=True, lock=True)
        if any(seat.table.status == Table.Status.PLAYING for seat in elsewhere):
            raise GameError("already_playing", _("Başka bir masada oyununuz sürüyor."))
        # At a chip table she must cover the most a hand can cost, as anyone sitting down (and
        # it is held for the hand being played: the one who left had theirs given back).
        game = selectors.game_of(hand.match)
        cover = game.hand_cover(game.rules(hand.match.rules))
        if cover and balance < cover:
            raise GameError("not_enough_chips", _("Bu masaya oturmak için en az %(stake)d çip gerekli.")
                            % {"stake": cover})
        if not seating.move_to_seat(user=user, table_id=table.pk, position=position, giving_up=elsewhere):
            raise GameError("seat_taken", _("Bu koltuk dolu."))
        # The seat's move counts start again: what the clock played for the one who left is not hers.
        MatchPlayer.objects.filter(pk=held.pk).update(user=user, away=False, timeouts_in_row=0, own_moves=0,
                                                      clock_moves=0)
        if hand.status == Hand.Status.PLAYING and hand.turn_seat == position:
            hand.deadline = timezone.now() + timedelta(seconds=hand.match.turn_seconds)
            hand.save(update_fields=["deadline"])
        if cover and hand.status == Hand.Status.PLAYING:
            hold_chips(user=get_user_model().objects.get(pk=user.pk), amount=cover,
                       reference=_hold_reference(hand.match_id, hand.number))
        # A practice table never keeps anyone from a real game: it closes now (as take_seat does).
        real_seat_taken.send(sender=Seat, user=user)
        _announce_seats(table, *[seat.table for seat in elsewhere])
        transaction.on_commit(lambda: events.publish_seat_players_changed(table.id, "taken_over"))
        return Outcome(hand_id=hand.id, move=hand.move)


def accept_rematch(*, user, table_id: int) -> Match | None:
    """"Tekrar oyna" after a finished match: the same seats play again once every person accepts
    (bots always do). Acceptances are the table's ready marks; the last one starts the match."""
    with transaction.atomic():
        table = _lock_table(table_id)
        if table.status == Table.Status.PLAYING:
            raise GameError("already_playing", _("Bu masada oyun zaten sürüyor."))
        _lock_chip_players(table)
        last = Match.objects.filter(table=table).order_by("-started_at", "-pk").first()
        if last is None or last.status != Match.Status.FINISHED:
            raise GameError("no_rematch", _("Tekrar oynanacak bitmiş bir maç yok."))
        if _is_tournament_table(table.pk):
            # The tournament seats its own tables; its result is final.
            raise GameError("no_rematch", _("Turnuva masasında maç tekrar oynanmaz; sonraki masanızı turnuva belirler."))
        seats = seating.seats_at(table.pk, with_users=True)
        if not any(seat.user_id == user.id for seat in seats):
            raise GameError("not_seated", _("Önce bir sandalyeye oturun."))
        for seat in seats:
            if seat.user_id == user.id or (seat.user_id and seat.user.is_bot):
                ReadyMark.objects.get_or_create(table=table, user_id=seat.user_id)
        transaction.on_commit(lambda: events.publish_table_lobby(table.id))
        players = _room_rules(table).players
        seated = [seat.user_id for seat in seats if seat.user_id]
        ready = set(ReadyMark.objects.filter(table=table).values_list("user_id", flat=True))
        if len(seated) == players and set(seated) <= ready:
            return start_seated_match(table=table, seats=seats)
    return None


# A watcher's page says it is still there every WATCHER_PING_SECONDS; one silent for twice that is gone.
WATCHER_PING_SECONDS = 30


def note_table_watcher(*, table_id: int, channel_name: str, watching: bool) -> int:
    """Count the people watching a table (not seated): each watcher's socket pings; the count is
    those heard from recently. Kept in the cache: it is a figure to show, not a record."""
    from django.core.cache import cache

    key = f"games:table-watchers:{table_id}"
    now = timezone.now().timestamp()
    seen = {name: at for name, at in (cache.get(key) or {}).items() if at > now - 2 * WATCHER_PING_SECONDS}
    if watching:
        seen[channel_name] = now
    else:
        seen.pop(channel_name, None)
    cache.set(key, seen, 4 * WATCHER_PING_SECONDS)
    return len(seen)


def note_table_player_online(*, table_id: int, nickname: str) -> list[str]:
    """A seated player's page pings too: the players heard from in the last minute are online; the
    others' seats are marked offline on every page. In the cache, like the watcher count."""
    from django.core.cache import cache

    key = f"games:table-online:{table_id}"
    now = timezone.now().timestamp()
    seen = {name: at for name, at in (cache.get(key) or {}).items() if at > now - 2 * WATCHER_PING_SECONDS}
    seen[nickname] = now
    cache.set(key, seen, 4 * WATCHER_PING_SECONDS)
    return sorted(seen)


def _pay_stake_for_leaving(*, user, stake: int, match: Match, others: list[int]) -> None:
    """Leaving a chip table loses the stake as a normal loss does: paid now, shared by the others."""
    User = get_user_model()
    payer = User.objects.select_for_update().get(pk=user.pk)
    payment = min(stake, payer.chips)
    if not payment or not others:
        return
    note = f"match {match.pk} left"
    change_chips(user=payer, amount=-payment, note=note)
    receivers = list(User.objects.select_for_update().filter(pk__in=others).order_by("pk"))
    share, rest = divmod(payment, len(receivers))
    for index, receiver in enumerate(receivers):
        amount = share + (1 if index < rest else 0)
        if amount:
            change_chips(user=receiver, amount=amount, note=note)


def _is_tournament_table(table_id: int) -> bool:
    return signals.run_elsewhere(table_id)


def _left_seats(match: Match) -> set[int]:
    """Seats of players who left this running match (their table seat is free)."""
    sitting = seating.seated_user_ids(match.table_id)
    return {seat for seat, user_id in MatchPlayer.objects.filter(match=match).values_list("seat", "user_id")
            if user_id not in sitting}


def _announce_seats(*tables: Table) -> None:
    """Room pages see the seat change (after commit). The table page learns it from the frames."""
    from salons import events as salon_events
    from salons import selectors as salon_selectors

    def announce(table_id: int, room_id: int) -> None:
        salon_events.send_now(salon_events.room_group(room_id), {
            "type": "seat.changed", "room": room_id, "table": salon_selectors.get_table_payload(table_id=table_id)})

    for table in tables:
        transaction.on_commit(lambda table_id=table.pk, room_id=table.room_id: announce(table_id, room_id))


def _lock_current_hand_any_phase(table_id: int) -> Hand:
    """The running match's latest hand, locked, whether it is being played or between two hands."""
    hand = (Hand.objects.select_for_update(of=("self",)).select_related("match")
            .filter(match__table_id=table_id, match__status=Match.Status.RUNNING).order_by("-number").first())
    if hand is None:
        raise GameError("no_game", _("Bu masada süren bir oyun yok."))
    return hand


# -- helpers -------------------------------------------------------------------------------------------


def _player_of(players: dict[int, MatchPlayer], user) -> MatchPlayer:
    """The user's seat among the match's players (``selectors.match_players``), or a refusal."""
    player = next((player for player in players.values() if player.user_id == user.id), None)
    if player is None:
        raise GameError("not_a_player", _("Bu masada oyuncu değilsiniz."))
    return player


def _lock_table(table_id: Any) -> Table:
    table = seating.lock_table(table_id)
    if table is None:
        raise GameError("no_table", _("Böyle bir masa yok."))
    return table


def _after_commit(*, hand: Hand, since: int, snapshot: events.Snapshot | None = None) -> None:
    """After commit: publish the frames (from ``snapshot``, what the transaction wrote, when given)
    and, when the hand is over, schedule the next deal. The turn clock needs nothing scheduled:
    ``Hand.deadline`` is what ``tasks.turn_clock`` reads."""
    hand_id, over, match_id = hand.id, hand.status == Hand.Status.OVER, hand.match_id

    def publish() -> None:
        events.publish_hand(hand_id, since=since, snapshot=snapshot)
        if over:
            scheduling.schedule_next_hand(match_id)

    transaction.on_commit(publish)
