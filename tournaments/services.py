"""Every change to a tournament, one function per use case (DESIGN.md, layer 2).

Each runs in a transaction and locks the tournament row first; the ones Celery calls (``step`` and
what it dispatches to) are idempotent: they look at what the database says is due and do nothing
when it was done already, so a task that runs twice, or dies half-way (its transaction rolls back),
changes nothing twice. Tables and matches are made through the live-play services; pushes go out
after commit (``tournaments.events``).

The live-play side calls ``hand_recorded`` from inside the transaction that records a finished
hand, so a table's result and the tournament's standings are written together with the hand.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Exists, F, Max, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.errors import ServiceError
from accounts.services import change_chips
from games.engine.rules import CHIPS, RuleSet, RuleSetError
from salons.models import Room, Salon, Seat, Table
from tournaments import events, logic
from tournaments.models import Entry, Format, Schedule, Tournament, TournamentLog, TournamentTable

log = logging.getLogger(__name__)

# Knockout: results stay on screen this long before the next round is seated.
ROUND_PAUSE_SECONDS = 10
# Arena: a player left over waits at most this long for others to come free, then bots join.
ARENA_MAX_WAIT_SECONDS = 15
# Arena: with players still waiting, look again this soon.
ARENA_RECHECK_SECONDS = 3
# Arena, after the end time: look again this soon for tables still finishing their hand.
ARENA_END_RECHECK_SECONDS = 5
TURN_SECONDS_RANGE = (10, 60)
MAX_PLAYERS_LIMIT = 1024
REASON_MAX = 200


class TournamentError(ServiceError):
    pass


# -- permissions and reads used by writes ------------------------------------------------------------


def is_site_admin(user: Any) -> bool:
    from moderation.selectors import is_site_admin as site_admin

    return site_admin(user)


def allow_staff_to_play(*, actor: Any, tournament_id: Any, allowed: bool = True) -> Tournament:
    """A site admin lets the salon's staff play (or not) in this tournament's prizes; logged."""
    if not is_site_admin(actor):
        raise TournamentError("not_allowed", _("Bunu yalnızca site yöneticileri yapabilir."))
    with transaction.atomic():
        tournament = _lock(tournament_id)
        if tournament.staff_may_play != allowed:
            Tournament.objects.filter(pk=tournament.pk).update(staff_may_play=allowed)
            tournament.staff_may_play = allowed
            TournamentLog.objects.create(tournament=tournament, actor=actor,
                                         action="staff_play_on" if allowed else "staff_play_off")
    return tournament


def can_manage(user: Any, salon_id: int) -> bool:
    """Site admins, and the staff of that salon (RULES: "site admins and salon staff")."""
    from moderation.selectors import can_moderate

    return bool(getattr(user, "is_authenticated", False)) and can_moderate(user, salon_id)


def _is_banned(user_id: int, salon_id: int, now: datetime | None = None) -> bool:
    from moderation.models import Sanction

    return Sanction.objects.active(now).filter(
        Q(kind=Sanction.Kind.SITE_BAN) | Q(kind=Sanction.Kind.SALON_BAN, salon_id=salon_id), user_id=user_id
    ).exists()


def _banned_among(user_ids: list[int], salon_id: int, now: datetime | None = None) -> set[int]:
    from moderation.models import Sanction

    return set(Sanction.objects.active(now).filter(
        Q(kind=Sanction.Kind.SITE_BAN) | Q(kind=Sanction.Kind.SALON_BAN, salon_id=salon_id), user_id__in=user_ids
    ).values_list("user_id", flat=True))


def _lock(tournament_id: Any) -> Tournament:
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None:
        raise TournamentError("no_tournament", _("Böyle bir turnuva yok."))
    return tournament


# -- creating ------------------------------------------------------------------------------------------


def _public_text(text: Any, *, code: str) -> str:
    """Tournament names and cancel reasons are shown to everyone on /tournaments/: they pass the
    public-text check that room names pass (moderation.public_text), as a tournament error."""
    from moderation.public_text import check_public_text

    try:
        return check_public_text(str(text), code=code)
    except ServiceError as error:
        raise TournamentError(error.code, error.message) from None


def _clean_settings(*, actor: Any, salon: Salon, fields: dict[str, Any]) -> dict[str, Any]:
    """The shared settings of a tournament or a schedule, checked; a clear error for each field."""
    unknown = set(fields) - set(SCHEDULE_FIELDS)
    if unknown:
        raise TypeError(f"unknown tournament field(s): {', '.join(sorted(unknown))}")
    clean = dict(fields)
    name = " ".join(_public_text(clean.get("name") or "", code="bad_name").split())
    if not 3 <= len(name) <= 60:
        raise TournamentError("bad_name", _("Turnuva adı 3–60 karakter olmalı."))
    clean["name"] = name
    clean["format"] = clean.get("format", Format.KNOCKOUT)
    if clean["format"] not in Format.values:
        raise TournamentError("bad_format", _("Biçim eleme ya da arena olmalı."))
    try:
        rules = RuleSet.from_dict(clean.get("rules") or RuleSet().to_dict())
    except (RuleSetError, TypeError, ValueError) as error:
        raise TournamentError("bad_rules", _("Geçersiz kural seçimi: %(error)s") % {"error": error}) from None
    if rules.scoring == CHIPS:
        raise TournamentError("bad_rules", _("Turnuvalar çipli kurallarla oynanmaz; geri sayım ya da ceza puanı seçin."))
    if rules.partners:
        # Players enter a tournament alone; pairing partners across its rounds is not built.
        raise TournamentError("bad_rules", _("Turnuvalar eşli oynanmaz: her oyuncu kendi adına girer."))
    clean["rules"] = rules.to_dict()
    numbers = {"turn_seconds": 20, "registration_minutes": 60, "min_players": 2, "max_players": 256,
               "buy_in": 0, "added_chips": 0, "duration_minutes": 30, "go_on": 1}
    for field, default in numbers.items():
        value = clean.get(field, default)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise TournamentError("bad_number", _("Geçersiz sayı: %(field)s") % {"field": field}, field=field)
        clean[field] = value
    if not TURN_SECONDS_RANGE[0] <= clean["turn_seconds"] <= TURN_SECONDS_RANGE[1]:
        raise TournamentError("bad_turn_seconds", _("Hamle süresi 10–60 saniye olmalı."))
    if not 2 <= clean["min_players"] <= clean["max_players"] <= MAX_PLAYERS_LIMIT:
        raise TournamentError("bad_players", _("Oyuncu sayısı en az 2 olmalı, en çok en az sayıdan küçük olamaz (en çok %(max)d).")
                              % {"max": MAX_PLAYERS_LIMIT})
    if clean["go_on"] not in (1, 2):
        raise TournamentError("bad_go_on", _("Bir masadan bir ya da iki kişi üst tura çıkar."))
    if clean["format"] == Format.ARENA and not 5 <= clean["duration_minutes"] <= 24 * 60:
        raise TournamentError("bad_duration", _("Arena süresi 5 dakika ile 24 saat arasında olmalı."))
    # Added chips are chips no player paid in: only a site admin may create them (docs/security.md).
    if clean["added_chips"] and not is_site_admin(actor):
        raise TournamentError("added_chips_admin_only",
                              _("Ödüle çip yalnızca site yöneticileri ekleyebilir; giriş ücretleri ödül havuzunu oluşturur."),
                              field="added_chips")
    clean["staff_may_play"] = bool(clean.get("staff_may_play", False))
    if clean["staff_may_play"] and not is_site_admin(actor):
        raise TournamentError("staff_play_admin_only",
                              _("Salon görevlilerinin ödüllü turnuvada oynamasına yalnızca site yöneticileri izin verebilir."),
                              field="staff_may_play")
    return clean


def create_tournament(*, actor: Any, salon: Salon, starts_at: datetime, schedule: Schedule | None = None,
                      now: datetime | None = None, **fields: Any) -> Tournament:
    """Site admins and the salon's staff create a tournament; registration opens at once or at
    ``starts_at - registration_minutes``."""
    now = now or timezone.now()
    if not can_manage(actor, salon.pk):
        raise TournamentError("not_allowed", _("Bu salonda turnuva açma yetkiniz yok."))
    if not isinstance(starts_at, datetime) or starts_at <= now:
        raise TournamentError("bad_start", _("Başlangıç zamanı ileride olmalı."))
    clean = _clean_settings(actor=actor, salon=salon, fields=fields)
    with transaction.atomic():
        tournament = Tournament.objects.create(salon=salon, created_by=actor, starts_at=starts_at, schedule=schedule,
                                               next_step_at=starts_at, **clean)
        TournamentLog.objects.create(tournament=tournament, actor=actor, action="create")
        _log_added_chips(tournament, actor=actor)
        transaction.on_commit(lambda: events.tournament_changed(tournament.pk))
    return tournament


def _log_added_chips(tournament: Tournament, *, actor: Any) -> None:
    """Every chip added to a prize pool is written down: who added how many, to which tournament."""
    if tournament.added_chips:
        TournamentLog.objects.create(tournament=tournament, actor=actor, action="prize_added",
                                     reason=f"{tournament.added_chips} chips added to the prize pool")
        log.info("tournament %s: %s chips added by user %s", tournament.pk, tournament.added_chips,
                 getattr(actor, "pk", None))


def create_schedule(*, actor: Any, salon: Salon, time_of_day, weekdays: str = "1234567", **fields: Any) -> Schedule:
    if not can_manage(actor, salon.pk):
        raise TournamentError("not_allowed", _("Bu salonda turnuva açma yetkiniz yok."))
    if not weekdays or any(day not in "1234567" for day in weekdays):
        raise TournamentError("bad_weekdays", _("Günler 1 (pazartesi) ile 7 (pazar) arası rakamlar olmalı."))
    clean = _clean_settings(actor=actor, salon=salon, fields=fields)
    return Schedule.objects.create(salon=salon, created_by=actor, time_of_day=time_of_day,
                                   weekdays="".join(sorted(set(weekdays))), **clean)


def create_recurring(*, actor: Any, salon: Salon, starts_at: datetime, weekdays: str,
                     now: datetime | None = None, **fields: Any) -> Tournament:
    """A tournament at ``starts_at`` that repeats at the same time on ``weekdays`` ("1".."7",
    Monday to Sunday): a schedule whose sweep makes each next one, and this first one, together."""
    # One transaction: if the first tournament is refused (a start in the past, say), no schedule stays.
    with transaction.atomic():
        schedule = create_schedule(actor=actor, salon=salon, time_of_day=timezone.localtime(starts_at).time(),
                                   weekdays=weekdays, **fields)
        return create_tournament(actor=actor, salon=salon, starts_at=starts_at, schedule=schedule, now=now, **fields)


def stop_schedule(*, actor: Any, schedule_id: Any) -> Schedule:
    """No more tournaments from this schedule (the ones already made stay); its salon's staff or a
    site admin. Idempotent."""
    with transaction.atomic():
        schedule = Schedule.objects.select_for_update().filter(pk=schedule_id).first()
        if schedule is None:
            raise TournamentError("no_schedule", _("Böyle bir turnuva takvimi yok."))
        if not can_manage(actor, schedule.salon_id):
            log.warning("schedule stop refused: user %s, schedule %s", getattr(actor, "pk", None), schedule.pk)
            raise TournamentError("not_allowed", _("Bu salonda turnuva açma yetkiniz yok."))
        if schedule.is_active:
            schedule.is_active = False
            schedule.save(update_fields=["is_active"])
            log.info("schedule %s stopped by user %s", schedule.pk, actor.pk)
    return schedule


SCHEDULE_FIELDS = ("name", "format", "rules", "turn_seconds", "registration_minutes", "min_players", "max_players",
                   "buy_in", "added_chips", "duration_minutes", "go_on", "staff_may_play")


def create_scheduled(*, now: datetime | None = None) -> int:
    """The sweep: every active schedule gets its next tournament once registration for it would
    open (idempotent: one tournament per schedule and start time, a unique constraint)."""
    now = now or timezone.now()
    made = 0
    for schedule in Schedule.objects.filter(is_active=True).select_related("created_by"):
        local = timezone.localtime(now)
        for days in range(0, 8):
            day = (local + timedelta(days=days)).date()
            if str(day.isoweekday()) not in schedule.weekdays:
                continue
            starts_at = timezone.make_aware(datetime.combine(day, schedule.time_of_day))
            if starts_at <= now:
                continue
            if starts_at - timedelta(minutes=schedule.registration_minutes) > now:
                break
            with transaction.atomic():
                if Tournament.objects.filter(schedule=schedule, starts_at=starts_at).exists():
                    break
                fields = {name: getattr(schedule, name) for name in SCHEDULE_FIELDS}
                if not is_site_admin(schedule.created_by):
                    # Whoever made the schedule is no longer a site admin: no more chips from nowhere.
                    fields.update(added_chips=0, staff_may_play=False)
                tournament = Tournament.objects.create(
                    salon_id=schedule.salon_id, created_by_id=schedule.created_by_id, schedule=schedule,
                    starts_at=starts_at, next_step_at=starts_at, **fields)
                _log_added_chips(tournament, actor=schedule.created_by)
                made += 1
            break
    return made


# -- registering ---------------------------------------------------------------------------------------


def register(*, user: Any, tournament_id: Any, now: datetime | None = None) -> Entry:
    """Sign up until the start; the buy-in is taken through the chip ledger."""
    now = now or timezone.now()
    if not getattr(user, "is_authenticated", False):
        raise TournamentError("login_required", _("Bu işlem için giriş yapın."))
    if user.is_bot:
        raise TournamentError("bots_cannot_register", _("Botlar turnuvaya kaydolamaz."))
    with transaction.atomic():
        tournament = _lock(tournament_id)
        if tournament.status != Tournament.Status.SCHEDULED or now >= tournament.starts_at:
            raise TournamentError("registration_closed", _("Bu turnuvanın kayıtları kapandı."))
        if now < tournament.registration_opens_at:
            raise TournamentError("registration_not_open", _("Kayıtlar henüz açılmadı."))
        if _is_banned(user.pk, tournament.salon_id, now):
            raise TournamentError("banned", _("Bu salonda oynamanız engellendi."))
        if (tournament.buy_in or tournament.added_chips) and not tournament.staff_may_play \
                and can_manage(user, tournament.salon_id):
            raise TournamentError("staff_cannot_play", _(
                "Salon görevlileri kendi salonlarının ödüllü turnuvalarında, bir site yöneticisi izin vermedikçe "
                "oynayamaz."))
        if Entry.objects.filter(tournament=tournament, user=user).exists():
            raise TournamentError("already_registered", _("Bu turnuvaya zaten kayıtlısınız."))
        if Entry.objects.filter(tournament=tournament).count() >= tournament.max_players:
            raise TournamentError("tournament_full", _("Turnuva dolu."))
        if tournament.buy_in:
            try:
                change_chips(user=user, amount=-tournament.buy_in, note=f"tournament {tournament.pk} buy-in")
            except ServiceError as error:
                raise TournamentError(error.code, error._message, **error.details) from None
        entry = Entry.objects.create(tournament=tournament, user=user, paid=tournament.buy_in)
        transaction.on_commit(lambda: events.tournament_changed(tournament.pk))
    return entry


def unregister(*, user: Any, tournament_id: Any, now: datetime | None = None) -> None:
    """Withdraw until the start; the buy-in comes back through the chip ledger."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = _lock(tournament_id)
        entry = Entry.objects.select_for_update().filter(tournament=tournament, user_id=user.pk).first()
        if entry is None:
            raise TournamentError("not_registered", _("Bu turnuvaya kayıtlı değilsiniz."))
        if tournament.status != Tournament.Status.SCHEDULED or now >= tournament.starts_at:
            raise TournamentError("already_started", _("Turnuva başladı; kayıt artık silinemez."))
        _refund(entry, note=f"tournament {tournament.pk} unregistered")
        entry.delete()
        transaction.on_commit(lambda: events.tournament_changed(tournament.pk))


def _refund(entry: Entry, *, note: str) -> None:
    if entry.paid:
        change_chips(user=entry.user, amount=entry.paid, note=note)
        Entry.objects.filter(pk=entry.pk).update(paid=0)
        entry.paid = 0


# -- the state machine the sweep drives -----------------------------------------------------------------


def step(*, tournament_id: int, now: datetime | None = None) -> str:
    """Do whatever is due for this tournament (idempotent; the beat sweep calls it)."""
    now = now or timezone.now()
    tournament = Tournament.objects.filter(pk=tournament_id).only("status", "format", "next_step_at").first()
    if tournament is None or tournament.status not in (Tournament.Status.SCHEDULED, Tournament.Status.RUNNING):
        return "nothing"
    if tournament.next_step_at and tournament.next_step_at > now:
        return "not_due"
    if tournament.status == Tournament.Status.SCHEDULED:
        return start(tournament_id=tournament_id, now=now)
    if tournament.format == Format.KNOCKOUT:
        return seat_next_round(tournament_id=tournament_id, now=now)
    return seat_arena(tournament_id=tournament_id, now=now)


def start(*, tournament_id: int, now: datetime | None = None) -> str:
    """At the start time: enough players → running (first round, or the arena's first tables);
    too few → cancelled and refunded. Nothing before the start time, nothing if already done."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = _lock(tournament_id)
        if tournament.status != Tournament.Status.SCHEDULED or now < tournament.starts_at:
            return "nothing"
        entries = list(Entry.objects.select_for_update().select_related("user").filter(tournament=tournament))
        banned = _banned_among([entry.user_id for entry in entries], tournament.salon_id, now)
        for entry in entries:
            if entry.user_id in banned:
                _remove(tournament, entry, reason="ban", actor=None)
        entries = [entry for entry in entries if entry.state != Entry.State.REMOVED]
        if len(entries) < tournament.min_players:
            _cancel(tournament, reason="not_enough_players", now=now)
            return "cancelled"
        _seed(tournament, entries)
        room = Room(salon_id=tournament.salon_id, owner_id=tournament.created_by_id, name=str(tournament.name)[:40],
                    rules=tournament.rules, turn_seconds=tournament.turn_seconds)
        room.set_password("")
        room.save()
        tournament.room = room
        tournament.status = Tournament.Status.RUNNING
        tournament.started_at = now
        tournament.pool = sum(entry.paid for entry in entries) + tournament.added_chips
        Entry.objects.filter(pk__in=[entry.pk for entry in entries]).update(state=Entry.State.WAITING, free_since=now)
        if tournament.format == Format.ARENA:
            tournament.ends_at = now + timedelta(minutes=tournament.duration_minutes)
        tournament.save(update_fields=["room", "status", "started_at", "pool", "ends_at"])
        TournamentLog.objects.create(tournament=tournament, action="start")
    if tournament.format == Format.KNOCKOUT:
        seat_next_round(tournament_id=tournament_id, now=now)
    else:
        seat_arena(tournament_id=tournament_id, now=now)
    return "started"


def _seed(tournament: Tournament, entries: list[Entry]) -> None:
    """Ratings at the start (overall OpenSkill ordinal; new players 0) fix the seeds."""
    from games.models import PlayerRating

    ratings = dict(PlayerRating.objects.filter(user_id__in=[e.user_id for e in entries], salon__isnull=True)
                   .values_list("user_id", "ordinal"))
    order = logic.seed_order(logic.Entrant(player_id=e.user_id, rating=ratings.get(e.user_id, 0.0)) for e in entries)
    seed_of = {user_id: index + 1 for index, user_id in enumerate(order)}
    for entry in entries:
        entry.rating = ratings.get(entry.user_id, 0.0)
        entry.seed = seed_of[entry.user_id]
    Entry.objects.bulk_update(entries, ["rating", "seed"])


def seat_next_round(*, tournament_id: int, now: datetime | None = None) -> str:
    """Knockout: once every table of the round has finished, seat the players still in (seeded by
    rating, bots in the gaps) — or, after the final table, finish. Idempotent."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = _lock(tournament_id)
        if tournament.status != Tournament.Status.RUNNING or tournament.format != Format.KNOCKOUT:
            return "nothing"
        if TournamentTable.objects.filter(tournament=tournament, status=TournamentTable.Status.PLAYING).exists():
            # The last table to finish makes the step due again.
            Tournament.objects.filter(pk=tournament.pk).update(next_step_at=None)
            return "round_playing"
        through = list(Entry.objects.filter(tournament=tournament, state=Entry.State.WAITING).order_by("seed", "pk"))
        final_played = tournament.round and TournamentTable.objects.filter(
            tournament=tournament, round=tournament.round).count() == 1
        if final_played or len(through) <= 1:
            finish_due = True
        else:
            finish_due = False
            pause_over = tournament.round == 0 or (tournament.next_step_at and tournament.next_step_at <= now)
            if not pause_over:
                return "pause"
            tournament.round += 1
            tournament.next_step_at = None
            tournament.save(update_fields=["round", "next_step_at"])
            seats = logic.seeded_tables([entry.user_id for entry in through], tournament.table_size)
            _open_tables(tournament, seats, round_number=tournament.round)
    if finish_due:
        return finish(tournament_id=tournament_id, now=now)
    return "seated"


def seat_arena(*, tournament_id: int, now: datetime | None = None) -> str:
    """Arena: seat every free player with free players of similar score; after the end time, wait
    for the last tables to finish their hand, then finish. Idempotent."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = _lock(tournament_id)
        if tournament.status != Tournament.Status.RUNNING or tournament.format != Format.ARENA:
            return "nothing"
        playing_tables = TournamentTable.objects.filter(tournament=tournament, status=TournamentTable.Status.PLAYING)
        if tournament.ends_at and now >= tournament.ends_at:
            if playing_tables.exists():
                Tournament.objects.filter(pk=tournament.pk).update(
                    next_step_at=now + timedelta(seconds=ARENA_END_RECHECK_SECONDS))
                return "ending"
            finish_due = True
        else:
            finish_due = False
            free = list(Entry.objects.filter(tournament=tournament, state=Entry.State.WAITING))
            playing = Entry.objects.filter(tournament=tournament, state=Entry.State.PLAYING).count()
            players = [logic.ArenaPlayer(player_id=e.user_id, points=e.points, rating=e.rating,
                                         waited=(now - (e.free_since or now)).total_seconds()) for e in free]
            tables, waiting = logic.arena_tables(players, table_size=tournament.table_size, playing=playing,
                                                 max_wait=ARENA_MAX_WAIT_SECONDS)
            tournament.round += 1 if tables else 0
            recheck = now + timedelta(seconds=ARENA_RECHECK_SECONDS) if waiting else None
            tournament.next_step_at = min(filter(None, [recheck, tournament.ends_at]))
            tournament.save(update_fields=["round", "next_step_at"])
            if tables:
                _open_tables(tournament, tables, round_number=tournament.round)
    if finish_due:
        return finish(tournament_id=tournament_id, now=now)
    return "seated"


def _open_tables(tournament: Tournament, tables: list[list[int | None]], *, round_number: int) -> None:
    """Make each table in the tournament's room, seat people and bots, start its match (the live-play
    services), and after commit tell every seated person's open pages where to go."""
    from games import bot_players
    from games import services as games_services

    seated: dict[int, int] = {}
    tournament_id = tournament.pk
    # Registered first, so it runs first after commit: players are told where to go before the
    # deals' frames go out (their table socket reads the state itself when it opens).
    transaction.on_commit(lambda: events.tables_ready(tournament_id, seated))
    room = tournament.room
    number = (Table.objects.filter(room=room).aggregate(top=Max("number"))["top"] or 0)
    owner = room.owner
    now = timezone.now()
    for seats in tables:
        number += 1
        table = Table.objects.create(room=room, number=number)
        people = {user_id for user_id in seats if user_id is not logic.BOT}
        bots = iter(bot_players.bot_users(sum(1 for s in seats if s is logic.BOT), exclude=people)
                    if len(people) < len(seats) else [])
        Seat.objects.bulk_create(
            Seat(table=table, position=position, taken_at=now,
                 user_id=user_id if user_id is not logic.BOT else next(bots).pk)
            for position, user_id in enumerate(seats))
        match = games_services.start_match(user=owner, table_id=table.pk)
        TournamentTable.objects.create(tournament=tournament, round=round_number, table=table, match=match,
                                       players=list(seats))
        for user_id in people:
            seated[user_id] = table.pk
    Entry.objects.filter(tournament=tournament, user_id__in=list(seated)).update(
        state=Entry.State.PLAYING, free_since=None, tables_played=F("tables_played") + 1)


# -- results (called by games.services inside the hand's transaction) -----------------------------------


def hand_recorded(*, match, match_state, not_present: set[int] = frozenset(),
                  clock_played: set[int] = frozenset()) -> set[int] | None:
    """A hand of some match was recorded; if the match is a tournament table, score it and return
    the seats the tournament names as the table's winners (None: not a tournament table, or its
    match goes on).

    Arena: every finished hand scores tournament points and ends that table (its players are free
    again and are re-seated by score); a seat the turn clock played for most of the hand
    (``clock_played``) scores nothing. Knockout: when the match is over, the table's result decides
    who goes on; a person the clock played for all match long, or who left it (``not_present``),
    never goes on and is placed after the people who played (RULES.md "Absent players never win").
    Locks the tournament's table and entries only — never the tournament row, which is locked
    before tables and matches elsewhere — and leaves the next step to the sweep.
    """
    from games.engine.game_types import game_type_of

    tournament_table = (TournamentTable.objects.select_for_update().select_related("tournament")
                        .filter(match_id=match.pk, status=TournamentTable.Status.PLAYING).first())
    if tournament_table is None:
        return None
    tournament = tournament_table.tournament
    now = timezone.now()
    seats = tournament_table.players
    people = [user_id for user_id in seats if user_id is not logic.BOT]
    entries = {entry.user_id: entry for entry in
               Entry.objects.select_for_update().filter(tournament=tournament, user_id__in=people)}
    if tournament.format == Format.ARENA:
        entry = match_state.history[-1] if match_state.history else {}
        points = [0 if seat in clock_played else value
                  for seat, value in enumerate(logic.arena_hand_points(entry, len(seats)))]
        for seat, user_id in enumerate(seats):
            player = entries.get(user_id)
            if player is None or player.state == Entry.State.REMOVED:
                continue
            player.points += points[seat]
            player.hands_won += 1 if (entry.get("finisher") == seat and entry.get("reason") == "finished"
                                      and seat not in clock_played) else 0
            if player.state == Entry.State.PLAYING:
                player.state = Entry.State.PAUSED if player.wants_pause else Entry.State.WAITING
                player.free_since = now
                player.wants_pause = False
        ranking = sorted(range(len(seats)), key=lambda seat: -points[seat])
        # The table's winner: the person whose hand scored the most (none when nobody scored).
        scored = [seat for seat, user_id in enumerate(seats)
                  if user_id in entries and entries[user_id].state != Entry.State.REMOVED and points[seat] > 0]
        best = max((points[seat] for seat in scored), default=0)
        named = {seat for seat in scored if points[seat] == best}
        _end_arena_match(match)
    else:
        if not game_type_of(match.rules).is_over(match_state):
            return None
        seed_rank = {user_id: entry.seed or 0 for user_id, entry in entries.items()}
        scoring = match_state.rules.scoring
        ranking = logic.table_ranking(seats, match_state.scores, scoring, seed_rank=seed_rank)
        # People who did not play the match are placed after those who did (bots keep their place:
        # they never count among the table's people).
        ranking = ([seat for seat in ranking if seat not in not_present]
                   + [seat for seat in ranking if seat in not_present])
        removed = {user_id for user_id, entry in entries.items() if entry.state == Entry.State.REMOVED}
        absent = {seats[seat] for seat in not_present if seats[seat] is not logic.BOT}
        going = logic.advancers(seats, ranking, tournament.go_on, out=removed | absent)
        final = TournamentTable.objects.filter(tournament=tournament, round=tournament_table.round).count() == 1
        for user_id, player in entries.items():
            if player.state == Entry.State.REMOVED:
                continue
            # At the final table everyone who played waits for the places; nobody absent does.
            through = user_id in going or (final and user_id not in absent)
            player.state = Entry.State.WAITING if through else Entry.State.OUT
        tournament_table.went_on = [] if final else going
        champion = logic.advancers(seats, ranking, 1, out=removed | absent) if final else going
        named = {seat for seat, user_id in enumerate(seats) if user_id is not logic.BOT and user_id in champion}
    Entry.objects.bulk_update(entries.values(), ["points", "hands_won", "state", "free_since", "wants_pause"])
    tournament_table.status = TournamentTable.Status.FINISHED
    tournament_table.finished_at = now
    tournament_table.ranking = ranking
    tournament_table.scores = list(match_state.scores)
    tournament_table.save(update_fields=["status", "finished_at", "ranking", "scores", "went_on"])
    # The next step is due: at once in an arena, after the results pause between knockout rounds.
    pause = 0 if tournament.format == Format.ARENA else ROUND_PAUSE_SECONDS
    due = now + timedelta(seconds=pause)
    if tournament.format == Format.ARENA and tournament.ends_at and due > tournament.ends_at:
        due = now
    Tournament.objects.filter(pk=tournament.pk).update(next_step_at=due)
    transaction.on_commit(lambda: events.tournament_changed(tournament.pk))
    return named


def _end_arena_match(match) -> None:
    """An arena table plays one hand: the match ends with it and the table is free."""
    from games.models import Match

    Match.objects.filter(pk=match.pk, status=Match.Status.RUNNING).update(
        status=Match.Status.FINISHED, finished_at=timezone.now())
    Table.objects.filter(pk=match.table_id).update(status=Table.Status.WAITING)


# -- arena: pause, return, leave -----------------------------------------------------------------------


def _running_arena_entry(user: Any, tournament_id: Any) -> tuple[Tournament, Entry]:
    tournament = _lock(tournament_id)
    if tournament.format != Format.ARENA or tournament.status != Tournament.Status.RUNNING:
        raise TournamentError("not_running_arena", _("Bu yalnızca süren bir arenada yapılabilir."))
    entry = Entry.objects.select_for_update().filter(tournament=tournament, user_id=user.pk).first()
    if entry is None or entry.state in (Entry.State.REMOVED, Entry.State.LEFT):
        raise TournamentError("not_in_tournament", _("Bu turnuvada oynamıyorsunuz."))
    return tournament, entry


def pause(*, user: Any, tournament_id: Any) -> Entry:
    """Arena: not seated again until they return (a table in play finishes first)."""
    with transaction.atomic():
        tournament, entry = _running_arena_entry(user, tournament_id)
        if entry.state == Entry.State.PLAYING:
            entry.wants_pause = True
        else:
            entry.state = Entry.State.PAUSED
        entry.save(update_fields=["state", "wants_pause"])
        transaction.on_commit(lambda: events.tournament_changed(tournament.pk))
    return entry


def resume(*, user: Any, tournament_id: Any, now: datetime | None = None) -> Entry:
    """Arena: back from a pause; seated at the next step."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament, entry = _running_arena_entry(user, tournament_id)
        if entry.state == Entry.State.PAUSED:
            entry.state, entry.free_since = Entry.State.WAITING, now
            Tournament.objects.filter(pk=tournament.pk).update(next_step_at=now)
        entry.wants_pause = False
        entry.save(update_fields=["state", "free_since", "wants_pause"])
        transaction.on_commit(lambda: events.tournament_changed(tournament.pk))
    return entry


def leave(*, user: Any, tournament_id: Any) -> Entry:
    """Arena: leave for good; the points so far stay on the standings (a table in play is played
    out by the turn clock)."""
    with transaction.atomic():
        tournament, entry = _running_arena_entry(user, tournament_id)
        entry.state = Entry.State.LEFT
        entry.wants_pause = False
        entry.save(update_fields=["state", "wants_pause"])
        transaction.on_commit(lambda: events.tournament_changed(tournament.pk))
    return entry


# -- moderation ----------------------------------------------------------------------------------------


def _lock_for_staff(*, actor: Any, tournament_id: Any, reason: str) -> Tournament:
    """The checks every staff action on a live tournament shares: who, why, and not over yet."""
    tournament = _lock(tournament_id)
    if not can_manage(actor, tournament.salon_id):
        raise TournamentError("not_allowed", _("Bu salonda turnuva yönetme yetkiniz yok."))
    if not 3 <= len(reason) <= REASON_MAX:
        raise TournamentError("reason_required", _("Sebep 3–%(max)d karakter olmalı.") % {"max": REASON_MAX})
    if tournament.status not in (Tournament.Status.SCHEDULED, Tournament.Status.RUNNING):
        raise TournamentError("tournament_over", _("Turnuva bitti."))
    return tournament


def disqualify(*, actor: Any, tournament_id: Any, user: Any, reason: str) -> Entry:
    """Staff remove a player with a reason (logged): the turn clock plays their seat, no prize."""
    reason = " ".join(str(reason or "").split())
    with transaction.atomic():
        tournament = _lock_for_staff(actor=actor, tournament_id=tournament_id, reason=reason)
        entry = Entry.objects.select_for_update().select_related("user").filter(
            tournament=tournament, user_id=user.pk).first()
        if entry is None or entry.state == Entry.State.REMOVED:
            raise TournamentError("not_in_tournament", _("Bu oyuncu turnuvada değil."))
        _remove(tournament, entry, reason=reason, actor=actor, action="disqualify")
    return entry


def remove_banned(*, now: datetime | None = None) -> int:
    """The sweep: players banned (site, or the tournament's salon) are removed from the
    tournaments they are in; the turn clock plays their seats on, they win nothing."""
    from moderation.models import Sanction

    now = now or timezone.now()
    live = Entry.objects.filter(tournament__status__in=[Tournament.Status.SCHEDULED, Tournament.Status.RUNNING]).exclude(
        state=Entry.State.REMOVED)
    active = Sanction.objects.active(now).filter(user_id=OuterRef("user_id"))
    banned = list(live.filter(
        Exists(active.filter(kind=Sanction.Kind.SITE_BAN))
        | Exists(active.filter(kind=Sanction.Kind.SALON_BAN, salon_id=OuterRef("tournament__salon_id")))
    ).values_list("tournament_id", "user_id"))
    removed = 0
    for tournament_id, user_id in banned:
        with transaction.atomic():
            tournament = _lock(tournament_id)
            entry = Entry.objects.select_for_update().select_related("user").filter(
                tournament=tournament, user_id=user_id).first()
            if entry is None or entry.state == Entry.State.REMOVED:
                continue
            if not _is_banned(user_id, tournament.salon_id, now):
                continue
            _remove(tournament, entry, reason="ban", actor=None)
            removed += 1
    return removed


def _remove(tournament: Tournament, entry: Entry, *, reason: str, actor: Any, action: str = "ban") -> None:
    was_playing = entry.state == Entry.State.PLAYING
    if tournament.status == Tournament.Status.SCHEDULED:
        # Before the start nothing was played: the buy-in comes back.
        _refund(entry, note=f"tournament {tournament.pk} removed")
    entry.state = Entry.State.REMOVED
    entry.removed_reason = reason[:REASON_MAX]
    entry.save(update_fields=["state", "removed_reason"])
    TournamentLog.objects.create(tournament=tournament, actor=actor, user=entry.user, action=action,
                                 reason=reason[:REASON_MAX])
    user = entry.user
    tournament_id = tournament.pk

    def after() -> None:
        if was_playing:
            from games.services import hand_over_to_autoplay

            hand_over_to_autoplay(user=user)
        events.tournament_changed(tournament_id)

    transaction.on_commit(after)


# -- finishing and cancelling --------------------------------------------------------------------------


def standings(tournament: Tournament) -> list[int]:
    """User ids from first to last (removed players last)."""
    entries = list(Entry.objects.filter(tournament=tournament))
    removed = {e.user_id for e in entries if e.state == Entry.State.REMOVED}
    if tournament.format == Format.ARENA:
        players = [logic.ArenaPlayer(player_id=e.user_id, points=e.points, rating=e.rating)
                   for e in entries if e.user_id not in removed]
        placed = logic.arena_standings(players, {e.user_id: e.hands_won for e in entries})
        # Someone the clock played for at every table they were seated at comes after everyone
        # who played (RULES.md "Absent players never win").
        played = arena_players_who_played(tournament)
        return [u for u in placed if u in played] + [u for u in placed if u not in played] + sorted(removed)
    results = [logic.TableResult(round=t.round, seats=tuple(t.players), ranking=tuple(t.ranking))
               for t in TournamentTable.objects.filter(tournament=tournament, status=TournamentTable.Status.FINISHED)]
    placed = logic.knockout_standings(results, removed=removed)
    # Those still in come first: a person put out for not playing a table is never placed above
    # the person who went on from a table of the same round.
    still_in = {e.user_id for e in entries if e.state in (Entry.State.PLAYING, Entry.State.WAITING)}
    placed = [u for u in placed if u in still_in] + [u for u in placed if u not in still_in]
    never_seated = sorted(e.user_id for e in entries if e.user_id not in placed)
    return placed + never_seated


def arena_players_who_played(tournament: Tournament) -> set[int]:
    """The people who made at least one move of their own at one of the arena's tables."""
    from games.models import MatchPlayer

    match_ids = TournamentTable.objects.filter(tournament=tournament).values("match_id")
    return set(MatchPlayer.objects.filter(match_id__in=match_ids, own_moves__gt=0).values_list("user_id", flat=True))


def finish(*, tournament_id: int, now: datetime | None = None) -> str:
    """Final places and prizes, paid through the chip ledger (paid out = the pool). Idempotent."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = _lock(tournament_id)
        if tournament.status != Tournament.Status.RUNNING:
            return "nothing"
        if TournamentTable.objects.filter(tournament=tournament, status=TournamentTable.Status.PLAYING).exists():
            return "tables_playing"
        order = standings(tournament)
        entries = {e.user_id: e for e in Entry.objects.select_for_update().select_related("user").filter(
            tournament=tournament)}
        removed = {user_id for user_id, e in entries.items() if e.state == Entry.State.REMOVED}
        # Who may take a prize place: nobody removed, nobody the clock played for all along
        # (RULES.md "Absent players never win").
        if tournament.format == Format.ARENA:
            played = arena_players_who_played(tournament)
            eligible = [u for u in order if u not in removed and u in played]
            payout = logic.arena_prizes(tournament.pool, eligible)
        else:
            final = TournamentTable.objects.filter(tournament=tournament, round=tournament.round).order_by("pk").first()
            if final is not None and TournamentTable.objects.filter(tournament=tournament,
                                                                    round=tournament.round).count() == 1:
                seated = [(final.players[seat], final.scores[seat]) for seat in final.ranking]
                # A finalist who did not play the final table was put out by it (hand_recorded).
                out = removed | {u for u in final.players if u in entries and entries[u].state == Entry.State.OUT}
                rules = RuleSet.from_dict(tournament.rules)
                payout = logic.knockout_prizes(tournament.pool, seated, scoring=rules.scoring,
                                               hands_per_match=rules.hands_per_match, out=out)
                eligible = [u for u in order if u in final.players and u not in out]
            else:
                # Stopped before a final table (everyone else removed): the best-placed person takes it.
                people = [u for u in order if u not in removed and entries[u].state != Entry.State.OUT]
                payout = {people[0]: tournament.pool} if people and tournament.pool else {}
                eligible = people
        champion = eligible[0] if eligible else None
        if payout and sum(payout.values()) != tournament.pool:
            raise AssertionError("a payout must add up to the pool")
        if tournament.pool and not payout:
            # Nobody who played may take a prize place (everyone still in was absent): the buy-ins
            # go back rather than to nobody; chips staff added are simply not paid out.
            for entry in entries.values():
                _refund(entry, note=f"tournament {tournament.pk} no prize place taken")
        for place, user_id in enumerate(order, start=1):
            entry = entries[user_id]
            entry.place = place
            entry.prize = payout.get(user_id, 0)
            # The final word on everyone still in: first place won, the others played it out.
            if user_id == champion:
                entry.state = Entry.State.WON
            elif entry.state in (Entry.State.PLAYING, Entry.State.WAITING, Entry.State.PAUSED):
                entry.state = Entry.State.COMPLETED
            if entry.prize:
                change_chips(user=entry.user, amount=entry.prize, note=f"tournament {tournament.pk} place {place}")
        Entry.objects.bulk_update(entries.values(), ["place", "prize", "state"])
        tournament.status = Tournament.Status.FINISHED
        tournament.finished_at = now
        tournament.next_step_at = None
        tournament.save(update_fields=["status", "finished_at", "next_step_at"])
        if tournament.room_id:
            Room.objects.filter(pk=tournament.room_id).update(status=Room.Status.CLOSED, closed_at=now)
        TournamentLog.objects.create(tournament=tournament, action="finish")
        transaction.on_commit(lambda: events.tournament_changed(tournament.pk))
    return "finished"


def cancel(*, actor: Any, tournament_id: Any, reason: str) -> Tournament:
    """Staff call a tournament off: every buy-in comes back, tables in play are stopped. The reason
    is shown to everyone on the tournament page, so it is public text."""
    reason = " ".join(_public_text(reason or "", code="bad_reason").split())
    with transaction.atomic():
        tournament = _lock_for_staff(actor=actor, tournament_id=tournament_id, reason=reason)
        TournamentLog.objects.create(tournament=tournament, actor=actor, action="cancel", reason=reason)
        _cancel(tournament, reason=reason, now=timezone.now())
    return tournament


def _cancel(tournament: Tournament, *, reason: str, now: datetime) -> None:
    for entry in Entry.objects.select_for_update().select_related("user").filter(tournament=tournament):
        _refund(entry, note=f"tournament {tournament.pk} cancelled")
    playing = list(TournamentTable.objects.filter(tournament=tournament, status=TournamentTable.Status.PLAYING)
                   .values_list("table_id", flat=True))
    TournamentTable.objects.filter(tournament=tournament, status=TournamentTable.Status.PLAYING).update(
        status=TournamentTable.Status.FINISHED, finished_at=now)
    tournament.status = Tournament.Status.CANCELLED
    tournament.cancel_reason = reason[:REASON_MAX]
    tournament.finished_at = now
    tournament.next_step_at = None
    tournament.save(update_fields=["status", "cancel_reason", "finished_at", "next_step_at"])
    if tournament.room_id:
        Room.objects.filter(pk=tournament.room_id).update(status=Room.Status.CLOSED, closed_at=now)
    tournament_id = tournament.pk

    def after() -> None:
        from games.services import abandon_match

        for table_id in playing:
            abandon_match(table_id=table_id, reason="tournament_cancelled")
        events.tournament_changed(tournament_id)

    transaction.on_commit(after)


def sweep(*, now: datetime | None = None) -> int:
    """What the beat runs: schedules' next tournaments, banned players out, every due step.
    Whatever died half-way is picked up here, from the database."""
    now = now or timezone.now()
    done = create_scheduled(now=now)
    done += remove_banned(now=now)
    due = list(Tournament.objects.filter(status__in=[Tournament.Status.SCHEDULED, Tournament.Status.RUNNING],
                                         next_step_at__lte=now).order_by("next_step_at").values_list("pk", flat=True))
    for tournament_id in due:
        try:
            done += step(tournament_id=tournament_id, now=now) not in ("nothing", "not_due")
        except Exception:  # one broken tournament must not stop the others; the next tick retries it
            log.exception("tournament %s: step failed", tournament_id)
    return done
