"""Salon staff cannot mint chips (issue 18, item 3).

The attack: a salon moderator opened a 2-player tournament with 10,000,000 added chips, entered it
with an alt account and collected. Now only site admins add chips to a prize (every added chip is
logged), and a salon's staff cannot play for its prizes unless a site admin allows it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tournaments import services
from tournaments.models import Tournament, TournamentLog

from .conftest import make_players, make_site_admin, make_staff, new_tournament

pytestmark = pytest.mark.django_db


def refused(code, function, **kwargs):
    with pytest.raises(services.TournamentError) as error:
        function(**kwargs)
    assert error.value.code == code and error.value.message
    return error.value


def test_a_salon_moderator_cannot_add_chips_to_a_prize(salon):
    moderator = make_staff(salon)
    refused("added_chips_admin_only", new_tournament, salon=salon, staff=moderator, added_chips=10_000_000,
            max_players=2)
    assert not Tournament.objects.exists()
    refused("added_chips_admin_only", services.create_schedule, actor=moderator, salon=salon,
            time_of_day=timezone.localtime().time(), name="Her akşam", added_chips=5000)
    refused("staff_play_admin_only", new_tournament, salon=salon, staff=moderator, staff_may_play=True)


def test_a_site_admins_added_chips_are_logged(salon):
    admin = make_site_admin()
    tournament = new_tournament(salon=salon, staff=admin, added_chips=2500)
    line = TournamentLog.objects.get(tournament=tournament, action="prize_added")
    assert line.actor == admin and "2500" in line.reason


def test_staff_cannot_play_for_their_salons_prizes_unless_a_site_admin_allows_it(salon):
    moderator = make_staff(salon)
    paid = new_tournament(salon=salon, staff=moderator, buy_in=100)
    refused("staff_cannot_play", services.register, user=moderator, tournament_id=paid.pk)
    player = make_players(1)[0]
    services.register(user=player, tournament_id=paid.pk)  # players are not affected
    # A free tournament without prizes: staff may play it.
    free = new_tournament(salon=salon, staff=moderator)
    services.register(user=moderator, tournament_id=free.pk)
    # A site admin allows it (logged), and staff may then register.
    refused("not_allowed", services.allow_staff_to_play, actor=moderator, tournament_id=paid.pk)
    admin = make_site_admin()
    services.allow_staff_to_play(actor=admin, tournament_id=paid.pk)
    assert TournamentLog.objects.filter(tournament=paid, action="staff_play_on", actor=admin).exists()
    services.register(user=moderator, tournament_id=paid.pk)


def test_a_schedule_whose_maker_is_no_longer_a_site_admin_adds_no_more_chips(salon):
    admin = make_site_admin()
    later = timezone.localtime() + timedelta(minutes=30)
    schedule = services.create_schedule(actor=admin, salon=salon, time_of_day=later.time().replace(microsecond=0),
                                        name="Gece ödülü", added_chips=1000, registration_minutes=120)
    type(admin).objects.filter(pk=admin.pk).update(is_superuser=False)
    assert services.create_scheduled() == 1
    made = Tournament.objects.get(schedule=schedule)
    assert made.added_chips == 0 and not TournamentLog.objects.filter(action="prize_added").exists()
