"""The state machine the sweep drives: the start (or a cancellation for too few players), the
knockout's rounds and the arena's tables, each seated and started through the live-play services,
and the finish once nothing is left to play. Every step is idempotent."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import F, Max
from django.utils import timezone

from salons.models import Room, Seat, Table
from tournaments import events, logic
from tournaments.finishing import _cancel, finish
from tournaments.models import Entry, Format, Tournament, TournamentLog, TournamentTable
from tournaments.removals import _remove
from tournaments.service_common import _banned_among, _lock

# Arena: a player left over waits at most this long for others to come free, then bots join.
ARENA_MAX_WAIT_SECONDS = 15
# Arena: with players still waiting, look again this soon.
ARENA_RECHECK_SECONDS = 3
# Arena, after the end time: look again this soon for tables still finishing their hand.
ARENA_END_RECHECK_SECONDS = 5


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
