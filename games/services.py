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
from django.db import connection, models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.services import change_chips, record_game_result
from games import bot_players, events, ratings, selectors
from games.engine import fairness
from games.engine import hand as engine_hand
from games.engine import match as engine_match
from games.engine.autoplay import auto_move
from games.engine.errors import EngineError
from games.engine.rules import CHIPS, RuleSet
from games.models import Hand, Match, MatchPlayer, Move, ReadyMark
from salons.models import Seat, Table

log = logging.getLogger(__name__)

# After this many turns in a row played by the server, the player is marked away.
AWAY_AFTER_TIMEOUTS = 3
# An away player's turn is played almost at once (a short beat so others can follow it).
AWAY_TURN_SECONDS = 1
# The finished hand stays on screen this long before the next one is dealt.
NEXT_HAND_PAUSE_SECONDS = 6
# Actions a client may send to the engine; anything else is rejected before the engine sees it.
PLAYER_ACTIONS = ("draw", "discard", "finish", "show_indicator", "declare_pairs", "take_indicator", "lay_first_okey")


class GameError(Exception):
    """An action a user cannot take now; ``code`` is stable, the message translated."""

    def __init__(self, code: str, message: str, **details: Any):
        super().__init__(message)
        self.code = code
        self.details = details

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": str(self), **self.details}


# Engine codes shown to users in their language; the engine's own English text is the fallback.
ENGINE_MESSAGES = {
    "not_your_turn": lambda: _("Sıra sizde değil."),
    "must_draw_first": lambda: _("Önce taş çekmelisiniz."),
    "already_drew": lambda: _("Bu turda zaten taş çektiniz."),
    "tile_not_in_rack": lambda: _("Bu taş ıstakanızda yok."),
    "discard_pile_empty": lambda: _("Alınacak atılmış taş yok."),
    "invalid_finish": lambda: _("Bu taşlarla el bitmiyor."),
    "hand_over": lambda: _("El bitti."),
    "not_first_turn": lambda: _("Gösterge yalnızca ilk turunuzda, ilk atışınızdan önce gösterilebilir."),
    "no_indicator_tile": lambda: _("Göstergenin eşi sizde değil."),
    "already_shown": lambda: _("Göstergeyi zaten gösterdiniz."),
    "already_declared": lambda: _("Zaten çifte gidiyorsunuz."),
    "option_off": lambda: _("Bu masanın kurallarında bu seçenek kapalı."),
    "bad_source": lambda: _("Taş ortadan ya da önceki oyuncunun attığından çekilir."),
    "bad_tile": lambda: _("Geçersiz taş."),
    "bad_action": lambda: _("Geçersiz hamle."),
}


def engine_error(error: EngineError) -> GameError:
    message = ENGINE_MESSAGES.get(error.code)
    text = message() if message else str(error)
    details = {key: value for key, value in error.details.items() if isinstance(value, str | int | bool | None)}
    if error.code == "invalid_finish":
        details["reason"] = str(error)
    return GameError(error.code, text, **details)


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
        if not Seat.objects.filter(table=table, user=user).exists():
            raise GameError("not_seated", _("Önce bir sandalyeye oturun."))
        if table.status == Table.Status.PLAYING:
            raise GameError("already_playing", _("Bu masada oyun zaten sürüyor."))
        ReadyMark.objects.get_or_create(table=table, user=user)
        seats = list(Seat.objects.filter(table=table).order_by("position"))
        players = RuleSet.from_dict(table.room.rules).players
        seated = [seat.user_id for seat in seats if seat.user_id]
        ready = set(ReadyMark.objects.filter(table=table).values_list("user_id", flat=True))
        transaction.on_commit(lambda: events.publish_table_lobby(table.id))
        if len(seated) == players and set(seated) <= ready:
            return _start_match(table=table, seats=seats)
    return None


def start_match(*, user, table_id: int) -> Match:
    """The room owner starts the match once every seat is taken (no need to wait for ready marks)."""
    with transaction.atomic():
        table = _lock_table(table_id)
        if table.room.owner_id != user.id:
            raise GameError("not_owner", _("Maçı yalnızca oda sahibi başlatabilir."))
        if table.status == Table.Status.PLAYING:
            raise GameError("already_playing", _("Bu masada oyun zaten sürüyor."))
        seats = list(Seat.objects.filter(table=table).order_by("position"))
        players = RuleSet.from_dict(table.room.rules).players
        if sum(1 for seat in seats if seat.user_id) != players:
            raise GameError("table_not_full", _("Maç için bütün sandalyeler dolu olmalı."))
        return _start_match(table=table, seats=seats)


def _start_match(*, table: Table, seats: list[Seat], seed: str | None = None) -> Match:
    rules = RuleSet.from_dict(table.room.rules)
    match_state = engine_match.start_match(rules, seed=seed)
    match = Match.objects.create(
        table=table, rules=rules.to_dict(), turn_seconds=table.room.turn_seconds, state=match_state.to_dict()
    )
    MatchPlayer.objects.bulk_create(
        MatchPlayer(match=match, seat=seat.position, user_id=seat.user_id, score=match_state.scores[seat.position])
        for seat in seats
        if seat.user_id
    )
    ReadyMark.objects.filter(table=table).delete()
    Table.objects.filter(pk=table.pk).update(status=Table.Status.PLAYING)
    _deal_hand(match=match, match_state=match_state)
    return match


def _deal_hand(*, match: Match, match_state: engine_match.MatchState) -> Hand:
    state = engine_match.start_next_hand(match_state)
    # Commit to the deck before anyone plays; the salt stays secret until the hand is over.
    salt = fairness.new_salt()
    hand = Hand.objects.create(
        match=match,
        number=match_state.hands_played,
        commitment=fairness.commitment(state.deck, salt),
        salt=salt,
        state=state.to_dict(),
        move=state.move,
        turn_seat=state.turn,
        deadline=_deadline_for(match, state),
    )
    Move.objects.create(hand=hand, number=0, action="deal", args={"starting_seat": state.starting_seat})
    _after_commit(hand=hand, since=0)
    return hand


# -- playing -------------------------------------------------------------------------------------------


def play(*, user, table_id: int, action: str, move: Any, args: dict[str, Any] | None = None) -> Outcome:
    """Apply one player action. A stale ``move`` (not the hand's current number) is refused whole."""
    if action not in PLAYER_ACTIONS:
        raise GameError("bad_action", _("Geçersiz hamle."))
    if not isinstance(move, int) or isinstance(move, bool):
        raise GameError("bad_move_number", _("Hamle numarası eksik ya da geçersiz."))
    args = _clean_args(action, args or {})
    with transaction.atomic():
        hand = _lock_current_hand(table_id)
        players = selectors.match_players(hand.match_id)
        player = next((player for player in players.values() if player.user_id == user.id), None)
        if player is None:
            raise GameError("not_a_player", _("Bu masada oyuncu değilsiniz."))
        if move != hand.move:
            raise GameError("stale", _("Masa değişti; güncel durum gönderildi."), move=hand.move)
        state = engine_hand.HandState.from_dict(hand.state)
        try:
            new_state = engine_hand.apply(state, player.seat, action, **args)
        except EngineError as error:
            raise engine_error(error) from None
        if player.timeouts_in_row or player.away:
            # Acting again brings an away player back.
            player.timeouts_in_row, player.away = 0, False
            MatchPlayer.objects.filter(pk=player.pk).update(timeouts_in_row=0, away=False)
        _save_move(hand=hand, state=state, new_state=new_state, seat=player.seat, user_id=user.id, auto=False,
                   players=players)
        return Outcome(hand_id=hand.id, move=hand.move)


def _clean_args(action: str, args: dict[str, Any]) -> dict[str, Any]:
    """Only the fields an action takes, each a short string: the engine never sees anything else."""
    wanted = {"draw": ("source",), "discard": ("tile",), "finish": ("tile",)}.get(action, ())
    clean: dict[str, Any] = {}
    for name in wanted:
        value = args.get(name)
        if not isinstance(value, str) or not 0 < len(value) <= 8:
            raise GameError("bad_argument", _("Eksik ya da geçersiz alan: %(name)s") % {"name": name}, field=name)
        clean[name] = value
    return clean


def resolve_timeout(*, hand_id: int, move: int) -> bool:
    """The turn's time ran out: the server draws and discards for the player (idempotent).

    Does nothing when the hand has moved on since the task was scheduled or the deadline is not yet
    reached, so a duplicate or early task is harmless.
    """
    with transaction.atomic():
        hand = Hand.objects.select_for_update(of=("self",)).select_related("match").filter(pk=hand_id).first()
        if hand is None or hand.status != Hand.Status.PLAYING or hand.move != move:
            return False
        if hand.deadline is None or hand.deadline > timezone.now():
            return False
        state = engine_hand.HandState.from_dict(hand.state)
        seat = state.turn
        players = selectors.match_players(hand.match_id)
        player = players[seat]
        bot = bool(player.bot)
        if bot or player.away:
            # Bots, and players marked away, are played by the bot: it may also finish the hand.
            new_state = bot_players.play_turn(state, seat)
        else:
            new_state, _events = auto_move(state, seat)
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
    _insert_rows(moves)
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
    _update_row(hand, ("state", "move", "turn_seat", "status", "finished_at", "deadline"))
    if new_state.is_over:
        # Scores and the match change too: the frames are read back after commit.
        _record_hand(hand=hand, state=new_state)
        _after_commit(hand=hand, since=state.move)
    else:
        _after_commit(hand=hand, since=state.move,
                      snapshot=events.Snapshot(match=match, hand=hand, hand_state=new_state,
                                               players=list(players.values())))


def _deadline_for(match: Match, state, *, players: dict[int, MatchPlayer] | None = None) -> Any:
    """A person gets the room's turn time; a bot plays after a human-like pause; an away player's
    turn is played almost at once. ``players``: from ``selectors.match_players``, when the caller has them."""
    player = (players if players is not None else selectors.match_players(match.id))[state.turn]
    if player.bot:
        seconds = bot_players.think_time()
    elif player.away:
        seconds = AWAY_TURN_SECONDS
    else:
        seconds = match.turn_seconds
    return timezone.now() + timedelta(seconds=seconds)


# -- ending hands and matches ------------------------------------------------------------------------


def _record_hand(*, hand: Hand, state) -> None:
    match = Match.objects.select_for_update().get(pk=hand.match_id)
    match_state = engine_match.MatchState.from_dict(match.state)
    before = list(match_state.scores)
    match_state = engine_match.record_hand(match_state, state)
    match.state = match_state.to_dict()
    players = {player.seat: player
               for player in MatchPlayer.objects.select_for_update().select_related("user").filter(match=match)}
    for seat, player in players.items():
        player.score = match_state.scores[seat]
    if match_state.rules.scoring == CHIPS:
        _settle_chips(players=players, deltas=[a - b for a, b in zip(match_state.scores, before, strict=True)],
                      hand_number=hand.number)
    if engine_match.is_over(match_state):
        winners = set(engine_match.winners(match_state))
        for seat, player in players.items():
            player.is_winner = seat in winners
        match.status = Match.Status.FINISHED
        match.finished_at = timezone.now()
        _count_match_for_users(players=players, winners=winners, scores=_match_points(match_state))
        salon_id = Table.objects.filter(pk=match.table_id).values_list("room__salon_id", flat=True).get()
        ratings.update_ratings(user_ids=[players[seat].user_id for seat in sorted(players)], salon_id=salon_id,
                               scoring=match_state.rules.scoring, scores=match_state.scores)
        Table.objects.filter(pk=match.table_id).update(status=Table.Status.WAITING)
    MatchPlayer.objects.bulk_update(players.values(), ["score", "is_winner"])
    match.save(update_fields=["state", "status", "finished_at"])


def _settle_chips(*, players: dict[int, MatchPlayer], deltas: list[int], hand_number: int) -> None:
    """Chip tables settle every hand at once: each loser pays what they owe, or all they have, and
    the winner(s) receive exactly what was paid (play money only; a balance never goes below 0).
    Every movement goes through the chip ledger."""
    User = get_user_model()
    users = {user.pk: user for user in User.objects.select_for_update().filter(
        pk__in=[player.user_id for player in players.values()])}
    note = f"match {next(iter(players.values())).match_id} hand {hand_number + 1}"
    paid = 0
    for seat, delta in enumerate(deltas):
        if delta < 0 and seat in players:
            user = users[players[seat].user_id]
            payment = min(-delta, user.chips)
            if payment:
                change_chips(user=user, amount=-payment, note=note)
                paid += payment
    owed = sum(delta for delta in deltas if delta > 0)
    for seat, delta in enumerate(deltas):
        if delta > 0 and seat in players and owed and paid:
            change_chips(user=users[players[seat].user_id], amount=paid * delta // owed, note=note)


def _count_match_for_users(*, players: dict[int, MatchPlayer], winners: set[int], scores: list[int]) -> None:
    for seat, player in players.items():
        record_game_result(user=player.user, won=seat in winners, score_delta=scores[seat])


def _match_points(match_state: engine_match.MatchState) -> list[int]:
    """What a finished match adds to a player's public score: winners +1 per opponent beaten.

    Countdown and penalty scores live on different scales, so the profile's running score counts
    wins over opponents rather than raw points; chip tables show up in the chip balance instead.
    """
    winners = set(engine_match.winners(match_state))
    beaten = match_state.players - len(winners)
    return [beaten if seat in winners else 0 for seat in range(match_state.players)]


def start_next_hand(*, match_id: int) -> Hand | None:
    """Deal the next hand once the pause after the last one has passed (idempotent)."""
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is None or match.status != Match.Status.RUNNING:
            return None
        last = match.hands.order_by("-number").first()
        if last is not None and last.status != Hand.Status.OVER:
            return None
        match_state = engine_match.MatchState.from_dict(match.state)
        if last is not None and last.number + 1 != match_state.hands_played:
            return None
        return _deal_hand(match=match, match_state=match_state)


# -- bots --------------------------------------------------------------------------------------------


def fill_with_bots(*, table_id: int) -> Match | None:
    """Seat bots in every empty seat of a waiting table and start the match (room option)."""
    with transaction.atomic():
        table = _lock_table(table_id)
        if table.status == Table.Status.PLAYING:
            return None
        seats = list(Seat.objects.select_for_update().filter(table=table).order_by("position"))
        empty = [seat for seat in seats if seat.user_id is None]
        if not empty or len(empty) == len(seats):
            return None
        taken = {seat.user_id for seat in seats if seat.user_id}
        for seat, bot in zip(empty, bot_players.bot_users(len(empty), exclude=taken), strict=True):
            seat.user = bot
            seat.taken_at = timezone.now()
            seat.save(update_fields=["user", "taken_at"])
        return _start_match(table=table, seats=seats)


def start_practice(*, user) -> Table:
    """A private practice table against three bots, open to every player, started at once."""
    from salons.models import Room, Salon

    if not user.is_authenticated or user.is_bot:
        raise GameError("login_required", _("Bu işlem için giriş yapın."))
    with transaction.atomic():
        salon = Salon.objects.filter(is_active=True).order_by("position", "pk").first()
        if salon is None:
            raise GameError("no_salon", _("Açık salon yok."))
        rules = RuleSet()
        room = Room(salon=salon, owner=user, name=_("Pratik masası"), rules=rules.to_dict(), is_private=True)
        room.set_password("")
        room.save()
        table = Table.objects.create(room=room, number=1)
        bots = bot_players.bot_users(rules.players - 1, exclude={user.pk})
        now = timezone.now()
        seats = [Seat.objects.create(table=table, position=0, user=user, taken_at=now)]
        seats += [Seat.objects.create(table=table, position=position, user=bot, taken_at=now)
                  for position, bot in enumerate(bots, start=1)]
        _start_match(table=table, seats=seats)
        return table


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
        Hand.objects.filter(match=match, status=Hand.Status.PLAYING).update(status=Hand.Status.OVER, deadline=None)
        match.status = Match.Status.ABANDONED
        match.finished_at = timezone.now()
        match.save(update_fields=["status", "finished_at"])
        Table.objects.filter(pk=table.pk).update(status=Table.Status.WAITING)
        transaction.on_commit(lambda: events.publish_match_abandoned(table.id, reason))


# -- helpers -------------------------------------------------------------------------------------------


def _lock_table(table_id: Any) -> Table:
    table = Table.objects.select_for_update().select_related("room").filter(pk=table_id).first()
    if table is None:
        raise GameError("no_table", _("Böyle bir masa yok."))
    return table


# Every move writes one Hand row and inserts its Move rows. Django's save() and bulk_create() spend
# more CPU compiling these statements than PostgreSQL spends running them, so the SQL is built once
# per model and fields, and the values prepared by the fields themselves (as save() would).
_statements: dict[tuple, str] = {}


def _update_row(obj: models.Model, fields: tuple[str, ...]) -> None:
    """``obj.save(update_fields=fields)`` for a model without signals or custom save()."""
    meta = type(obj)._meta
    key = ("update", connection.vendor, meta.label, fields)
    if key not in _statements:
        quote = connection.ops.quote_name
        assignments = ", ".join(f"{quote(meta.get_field(name).column)} = %s" for name in fields)
        _statements[key] = f"UPDATE {quote(meta.db_table)} SET {assignments} WHERE {quote(meta.pk.column)} = %s"
    values = [meta.get_field(name).get_db_prep_save(getattr(obj, name), connection) for name in fields]
    with connection.cursor() as cursor:
        cursor.execute(_statements[key], [*values, obj.pk])


def _insert_rows(objs: list[models.Model]) -> None:
    """``bulk_create(objs)`` for rows whose ids nobody reads back (the move log)."""
    if not objs:
        return
    meta = type(objs[0])._meta
    columns = [field for field in meta.concrete_fields if not field.primary_key]
    key = ("insert", connection.vendor, meta.label, len(objs))
    if key not in _statements:
        quote = connection.ops.quote_name
        row = "(" + ", ".join(["%s"] * len(columns)) + ")"
        _statements[key] = (f"INSERT INTO {quote(meta.db_table)} ({', '.join(quote(f.column) for f in columns)}) "
                            f"VALUES {', '.join([row] * len(objs))}")
    values = [field.get_db_prep_save(field.pre_save(obj, True), connection) for obj in objs for field in columns]
    with connection.cursor() as cursor:
        cursor.execute(_statements[key], values)


def _lock_current_hand(table_id: int) -> Hand:
    """The table's current hand, locked, with its match. Plain SQL, as in ``selectors.match_players``:
    it runs for every move, and building it through the ORM cost more than running it."""
    lock = " FOR UPDATE OF h" if connection.features.has_select_for_update_of else ""
    hand = next(iter(Hand.objects.raw(
        f"SELECT h.* FROM {Hand._meta.db_table} h JOIN {Match._meta.db_table} m ON m.id = h.match_id "
        f"WHERE m.table_id = %s AND m.status = %s ORDER BY h.number DESC LIMIT 1{lock}",
        [table_id, Match.Status.RUNNING])), None)
    if hand is None:
        raise GameError("no_game", _("Bu masada süren bir oyun yok."))
    hand.match = next(iter(Match.objects.raw(f"SELECT * FROM {Match._meta.db_table} WHERE id = %s", [hand.match_id])))
    if hand.status != Hand.Status.PLAYING:
        raise GameError("hand_over", _("El bitti; yeni el birazdan dağıtılacak."), move=hand.move)
    return hand


def _after_commit(*, hand: Hand, since: int, snapshot: events.Snapshot | None = None) -> None:
    """After commit: publish the frames (from ``snapshot``, what the transaction wrote, when given)
    and, when the hand is over, schedule the next deal. The turn clock needs nothing scheduled:
    ``Hand.deadline`` is what ``tasks.turn_clock`` reads."""
    hand_id, over, match_id = hand.id, hand.status == Hand.Status.OVER, hand.match_id

    def publish() -> None:
        from games import tasks

        events.publish_hand(hand_id, since=since, snapshot=snapshot)
        if over:
            tasks.schedule_next_hand(match_id)

    transaction.on_commit(publish)
