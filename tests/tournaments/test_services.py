"""Tournament services: who may create, registration and the chip ledger, the start, moderation,
arena pause/return/leave, schedules, and nothing done twice when a worker dies or a task repeats."""

from __future__ import annotations

from datetime import time, timedelta

import pytest
from django.db.models import Sum
from django.utils import timezone

from accounts.models import ChipTransaction
from games.models import MatchPlayer
from tournaments import services
from tournaments.models import Entry, Format, Schedule, Tournament, TournamentLog, TournamentTable

from .conftest import make_players, make_staff, new_tournament, play_tables, register_all, reload

pytestmark = pytest.mark.django_db


# -- creating --------------------------------------------------------------------------------------------


def test_only_site_admins_and_that_salons_staff_create(salon):
    from tests.conftest import make_salon

    other_salon = make_salon("diger")
    outsider_staff = make_staff(other_salon)
    player = make_players(1)[0]
    starts = timezone.now() + timedelta(hours=1)
    for actor in (player, outsider_staff):
        with pytest.raises(services.TournamentError) as refused:
            services.create_tournament(actor=actor, salon=salon, starts_at=starts, name="Gece")
        assert refused.value.code == "not_allowed"
    admin = make_players(1)[0]
    admin.is_superuser = True
    admin.save()
    assert services.create_tournament(actor=admin, salon=salon, starts_at=starts, name="Gece").pk
    assert services.create_tournament(actor=make_staff(salon), salon=salon, starts_at=starts, name="Gece 2").pk


@pytest.mark.parametrize("fields,code", [
    ({"name": "x"}, "bad_name"),
    ({"format": "swiss"}, "bad_format"),
    ({"rules": {"scoring": "chips"}}, "bad_rules"),
    ({"rules": {"nonsense": 1}}, "bad_rules"),
    ({"rules": {"partners": True}}, "bad_rules"),
    ({"min_players": 1}, "bad_players"),
    ({"min_players": 10, "max_players": 8}, "bad_players"),
    ({"turn_seconds": 3}, "bad_turn_seconds"),
    ({"go_on": 3}, "bad_go_on"),
    ({"buy_in": -5}, "bad_number"),
    ({"buy_in": "100"}, "bad_number"),
    ({"format": "arena", "duration_minutes": 1}, "bad_duration"),
])
def test_bad_settings_get_a_clear_error(salon, fields, code):
    with pytest.raises(services.TournamentError) as refused:
        new_tournament(salon=salon, **fields)
    assert refused.value.code == code
    assert str(refused.value)


def test_a_start_in_the_past_is_refused(salon):
    with pytest.raises(services.TournamentError) as refused:
        new_tournament(salon=salon, starts_in=timedelta(minutes=-1))
    assert refused.value.code == "bad_start"


# -- registering ------------------------------------------------------------------------------------------


def test_buy_in_taken_and_refunded_through_the_ledger(salon):
    tournament = new_tournament(salon=salon, buy_in=150)
    player = make_players(1)[0]
    services.register(user=player, tournament_id=tournament.pk)
    player.refresh_from_db()
    assert player.chips == 850
    assert ChipTransaction.objects.filter(user=player, amount=-150).exists()
    with pytest.raises(services.TournamentError) as twice:
        services.register(user=player, tournament_id=tournament.pk)
    assert twice.value.code == "already_registered"
    services.unregister(user=player, tournament_id=tournament.pk)
    player.refresh_from_db()
    assert player.chips == 1000
    assert ChipTransaction.objects.filter(user=player, amount=150).exists()
    assert not Entry.objects.filter(tournament=tournament).exists()
    with pytest.raises(services.TournamentError) as again:
        services.unregister(user=player, tournament_id=tournament.pk)
    assert again.value.code == "not_registered"


def test_registration_refusals(salon):
    tournament = new_tournament(salon=salon, buy_in=5000, max_players=2)
    poor = make_players(1)[0]
    with pytest.raises(services.ServiceError) as refused:
        services.register(user=poor, tournament_id=tournament.pk)
    assert refused.value.code == "not_enough_chips"
    assert not Entry.objects.filter(tournament=tournament).exists()
    free = new_tournament(salon=salon, max_players=2)
    register_all(free, make_players(2))
    with pytest.raises(services.TournamentError) as full:
        services.register(user=poor, tournament_id=free.pk)
    assert full.value.code == "tournament_full"
    later = new_tournament(salon=salon, starts_in=timedelta(hours=5), registration_minutes=60)
    with pytest.raises(services.TournamentError) as early:
        services.register(user=poor, tournament_id=later.pk)
    assert early.value.code == "registration_not_open"
    with pytest.raises(services.TournamentError) as closed:
        services.register(user=poor, tournament_id=free.pk, now=free.starts_at)
    assert closed.value.code == "registration_closed"
    from games.bot_players import bot_users

    with pytest.raises(services.TournamentError) as bot:
        services.register(user=bot_users(1)[0], tournament_id=free.pk)
    assert bot.value.code == "bots_cannot_register"
    with pytest.raises(services.TournamentError) as missing:
        services.register(user=poor, tournament_id=999999)
    assert missing.value.code == "no_tournament"


def test_no_unregistering_after_the_start(salon):
    tournament = new_tournament(salon=salon, now=timezone.now() - timedelta(minutes=10), buy_in=10)
    players = make_players(4)
    register_all(tournament, players, now=timezone.now() - timedelta(minutes=5))
    services.sweep(now=tournament.starts_at + timedelta(seconds=1))
    with pytest.raises(services.TournamentError) as refused:
        services.unregister(user=players[0], tournament_id=tournament.pk)
    assert refused.value.code == "already_started"


def test_too_few_players_cancels_and_refunds(salon):
    tournament = new_tournament(salon=salon, min_players=4, buy_in=100)
    players = make_players(3)
    register_all(tournament, players)
    assert services.step(tournament_id=tournament.pk) == "not_due"
    assert services.step(tournament_id=tournament.pk, now=tournament.starts_at) == "cancelled"
    tournament = reload(tournament)
    assert tournament.status == Tournament.Status.CANCELLED
    for player in players:
        player.refresh_from_db()
        assert player.chips == 1000
    # A second run of the same step changes nothing.
    assert services.step(tournament_id=tournament.pk, now=tournament.starts_at) == "nothing"
    assert ChipTransaction.objects.filter(user__in=players, amount=100).count() == 3


def test_staff_cancel_a_running_tournament_refunds_and_stops_tables(salon, django_capture_on_commit_callbacks):
    staff = make_staff(salon)
    tournament = new_tournament(salon=salon, staff=staff, now=timezone.now() - timedelta(minutes=10), buy_in=10)
    players = make_players(4)
    register_all(tournament, players, now=timezone.now() - timedelta(minutes=5))
    services.sweep(now=tournament.starts_at)
    with pytest.raises(services.TournamentError) as no_reason:
        services.cancel(actor=staff, tournament_id=tournament.pk, reason="")
    assert no_reason.value.code == "reason_required"
    with django_capture_on_commit_callbacks(execute=True):
        services.cancel(actor=staff, tournament_id=tournament.pk, reason="sunucu bakımı")
    from games.models import Match

    table = TournamentTable.objects.get(tournament=tournament)
    assert Match.objects.get(pk=table.match_id).status == Match.Status.ABANDONED
    assert all(p.chips == 1000 for p in [type(p).objects.get(pk=p.pk) for p in players])
    assert TournamentLog.objects.filter(tournament=tournament, action="cancel", reason="sunucu bakımı").exists()


# -- moderation -------------------------------------------------------------------------------------------


def test_staff_disqualify_with_a_reason_logged_seat_to_the_bot_no_prize(salon, django_capture_on_commit_callbacks):
    staff = make_staff(salon)
    tournament = new_tournament(salon=salon, staff=staff, now=timezone.now() - timedelta(minutes=10), buy_in=10)
    players = make_players(4)
    register_all(tournament, players, now=timezone.now() - timedelta(minutes=5))
    services.sweep(now=tournament.starts_at)
    cheat = players[0]
    with pytest.raises(services.TournamentError) as not_staff:
        services.disqualify(actor=players[1], tournament_id=tournament.pk, user=cheat, reason="hile")
    assert not_staff.value.code == "not_allowed"
    with django_capture_on_commit_callbacks(execute=True):
        services.disqualify(actor=staff, tournament_id=tournament.pk, user=cheat, reason="hile yaptı")
    entry = Entry.objects.get(tournament=tournament, user=cheat)
    assert entry.state == Entry.State.REMOVED and entry.removed_reason == "hile yaptı"
    assert TournamentLog.objects.filter(action="disqualify", user=cheat, actor=staff, reason="hile yaptı").exists()
    table = TournamentTable.objects.get(tournament=tournament)
    assert MatchPlayer.objects.get(match_id=table.match_id, user=cheat).away
    play_tables(tournament)
    services.sweep(now=tournament.starts_at + timedelta(minutes=30))
    tournament = reload(tournament)
    assert tournament.status == Tournament.Status.FINISHED
    entry.refresh_from_db()
    assert entry.prize == 0 and entry.place == 4
    assert sum(e.prize for e in Entry.objects.filter(tournament=tournament)) == 40


def test_a_banned_player_is_removed_by_the_sweep(salon):
    from moderation.models import Sanction

    tournament = new_tournament(salon=salon, now=timezone.now() - timedelta(minutes=10))
    players = make_players(4)
    register_all(tournament, players, now=timezone.now() - timedelta(minutes=5))
    services.sweep(now=tournament.starts_at)
    Sanction.objects.create(user=players[2], kind=Sanction.Kind.SALON_BAN, salon=salon, reason="küfür")
    Sanction.objects.create(user=players[3], kind=Sanction.Kind.SALON_BAN, salon=None, reason="başka salon")
    assert services.remove_banned() == 1
    assert Entry.objects.get(tournament=tournament, user=players[2]).state == Entry.State.REMOVED
    assert Entry.objects.get(tournament=tournament, user=players[3]).state != Entry.State.REMOVED
    assert services.remove_banned() == 0
    with pytest.raises(services.TournamentError) as refused:
        services.register(user=players[2], tournament_id=new_tournament(salon=salon).pk)
    assert refused.value.code == "banned"


# -- arena: pause, return, leave --------------------------------------------------------------------------


def test_arena_pause_return_and_leave(salon):
    tournament = new_tournament(salon=salon, now=timezone.now() - timedelta(minutes=10), format=Format.ARENA)
    players = make_players(8)
    register_all(tournament, players, now=timezone.now() - timedelta(minutes=5))
    start = tournament.starts_at
    services.sweep(now=start)
    assert TournamentTable.objects.filter(tournament=tournament, status="playing").count() == 2
    services.pause(user=players[0], tournament_id=tournament.pk)
    services.leave(user=players[1], tournament_id=tournament.pk)
    play_tables(tournament)
    assert Entry.objects.get(tournament=tournament, user=players[0]).state == Entry.State.PAUSED
    assert Entry.objects.get(tournament=tournament, user=players[1]).state == Entry.State.LEFT
    services.sweep(now=start + timedelta(minutes=5))
    seated = {u for t in TournamentTable.objects.filter(tournament=tournament, status="playing") for u in t.players}
    assert players[0].pk not in seated and players[1].pk not in seated
    assert {p.pk for p in players[2:]} <= seated
    services.resume(user=players[0], tournament_id=tournament.pk)
    with pytest.raises(services.TournamentError) as gone:
        services.resume(user=players[1], tournament_id=tournament.pk)
    assert gone.value.code == "not_in_tournament"
    services.sweep(now=start + timedelta(minutes=6))
    assert Entry.objects.get(tournament=tournament, user=players[0]).state == Entry.State.PLAYING
    knockout = new_tournament(salon=salon)
    register_all(knockout, players[:1])
    with pytest.raises(services.TournamentError) as not_arena:
        services.pause(user=players[0], tournament_id=knockout.pk)
    assert not_arena.value.code == "not_running_arena"


# -- schedules --------------------------------------------------------------------------------------------


def test_a_schedule_creates_each_evenings_tournament_once(salon):
    staff = make_staff(salon)
    schedule = services.create_schedule(actor=staff, salon=salon, time_of_day=time(21, 0), name="Akşam 21:00",
                                        registration_minutes=120)
    with pytest.raises(services.TournamentError):
        services.create_schedule(actor=make_players(1)[0], salon=salon, time_of_day=time(21, 0), name="Akşam")
    evening = timezone.make_aware(timezone.datetime(2030, 3, 4, 21, 0))
    assert services.create_scheduled(now=evening - timedelta(hours=3)) == 0  # registration not open yet
    assert services.create_scheduled(now=evening - timedelta(hours=1)) == 1
    assert services.create_scheduled(now=evening - timedelta(minutes=30)) == 0
    made = Tournament.objects.get(schedule=schedule)
    assert made.starts_at == evening and made.name == "Akşam 21:00"
    assert services.create_scheduled(now=evening + timedelta(hours=23)) == 1
    assert Tournament.objects.filter(schedule=schedule).count() == 2
    Schedule.objects.filter(pk=schedule.pk).update(weekdays="6")  # Saturdays only
    assert services.create_scheduled(now=evening + timedelta(days=1, hours=23)) == 0


def test_a_refused_first_tournament_leaves_no_schedule_behind(salon):
    staff = make_staff(salon)
    with pytest.raises(services.TournamentError) as refused:
        services.create_recurring(actor=staff, salon=salon, starts_at=timezone.now() - timedelta(minutes=1),
                                  weekdays="5", name="Cuma akşamı")
    assert refused.value.code == "bad_start"
    assert not Schedule.objects.filter(salon=salon).exists()
    made = services.create_recurring(actor=staff, salon=salon, starts_at=timezone.now() + timedelta(hours=1),
                                     weekdays="15", name="Cuma akşamı")
    assert made.schedule.weekdays == "15" and Schedule.objects.filter(salon=salon).count() == 1


# -- a worker that dies, a task that runs twice ------------------------------------------------------------


class WorkerDied(Exception):
    pass


def test_a_seating_that_dies_half_way_is_resumed_by_the_sweep_nothing_twice(salon, monkeypatch):
    from games import services as game_services

    tournament = new_tournament(salon=salon, now=timezone.now() - timedelta(minutes=10), buy_in=10)
    players = make_players(12)
    register_all(tournament, players, now=timezone.now() - timedelta(minutes=5))
    real_start_match = game_services.start_match
    calls = []

    def dies_on_the_second_table(**kwargs):
        calls.append(kwargs)
        if len(calls) == 2:
            raise WorkerDied
        return real_start_match(**kwargs)

    monkeypatch.setattr(game_services, "start_match", dies_on_the_second_table)
    with pytest.raises(WorkerDied):
        services.step(tournament_id=tournament.pk, now=tournament.starts_at)
    tournament = reload(tournament)
    # The start committed on its own; the half-seated round rolled back whole.
    assert tournament.status == Tournament.Status.RUNNING and tournament.round == 0
    assert not TournamentTable.objects.filter(tournament=tournament).exists()
    monkeypatch.setattr(game_services, "start_match", real_start_match)
    # The restarted worker's sweep resumes from the database.
    assert services.sweep(now=tournament.starts_at + timedelta(seconds=2)) == 1
    assert services.sweep(now=tournament.starts_at + timedelta(seconds=4)) == 0
    assert services.step(tournament_id=tournament.pk, now=tournament.starts_at + timedelta(seconds=5)) in (
        "not_due", "round_playing")
    assert TournamentTable.objects.filter(tournament=tournament, round=1).count() == 3
    assert reload(tournament).pool == 120
    assert ChipTransaction.objects.filter(user__in=players, amount=-10).count() == 12


def test_a_result_that_dies_with_its_worker_is_played_again_and_counted_once(salon, monkeypatch):
    import tournaments.services as tournament_services

    tournament = new_tournament(salon=salon, now=timezone.now() - timedelta(minutes=10), buy_in=10)
    players = make_players(8)
    register_all(tournament, players, now=timezone.now() - timedelta(minutes=5))
    services.sweep(now=tournament.starts_at)
    real_hook = tournament_services.hand_recorded
    died = []

    def dies_once(**kwargs):
        if not died:
            died.append(kwargs["match"].pk)
            raise WorkerDied
        return real_hook(**kwargs)

    monkeypatch.setattr(tournament_services, "hand_recorded", dies_once)
    with pytest.raises(WorkerDied):
        play_tables(tournament)
    # The finishing move rolled back with the result: that hand is still in play.
    table = TournamentTable.objects.get(match_id=died[0])
    assert table.status == TournamentTable.Status.PLAYING
    play_tables(tournament)  # the turn clock plays the hand again, the hook records it
    tables = list(TournamentTable.objects.filter(tournament=tournament, round=1))
    assert all(t.status == TournamentTable.Status.FINISHED and len(t.went_on) == 1 for t in tables)
    assert Entry.objects.filter(tournament=tournament, state=Entry.State.WAITING).count() == 2
    assert Entry.objects.filter(tournament=tournament, state=Entry.State.OUT).count() == 6
    later = tournament.starts_at + timedelta(minutes=5)
    services.sweep(now=later)
    services.sweep(now=later)
    assert TournamentTable.objects.filter(tournament=tournament, round=2).count() == 1
    play_tables(tournament)
    services.sweep(now=later + timedelta(minutes=5))
    assert services.finish(tournament_id=tournament.pk) == "nothing"  # a repeated task pays nothing twice
    assert ChipTransaction.objects.filter(note__startswith=f"tournament {tournament.pk} place").aggregate(
        total=Sum("amount"))["total"] == 80
