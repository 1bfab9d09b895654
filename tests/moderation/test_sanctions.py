"""Every sanction where the player meets it: login, sessions, seats, games, rooms, salons, chat,
the warning banner; expiry by the clock and lifting, both logged; who may sanction whom."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import authenticate
from django.test import Client
from django.utils import timezone

from moderation import services, tasks
from moderation.models import ModerationLog, Sanction, UserSession
from salons import services as salon_services
from salons.models import Seat
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]


def ban(world, user=None, **options):
    defaults = {"actor": world.admin, "user": user or world.troll, "kind": "site_ban", "reason": "Reklam yaptı",
                "salon": world.salon}
    return services.apply_sanction(**{**defaults, **options})


def test_a_site_banned_player_cannot_log_in_and_is_told_why(world, client):
    ban(world, duration=timedelta(days=3))
    response = client.post("/accounts/login/", {"login": "Trol", "password": PASSWORD})
    assert response.status_code == 403
    assert "Reklam yaptı" in response.content.decode()
    assert client.get("/").context["user"].is_anonymous
    by_email = client.post("/accounts/login/", {"login": world.troll.email, "password": PASSWORD})
    assert by_email.status_code == 403
    assert client.get("/").context["user"].is_anonymous


def test_the_auth_backends_refuse_a_banned_player_everywhere(world, rf):
    ban(world)
    request = rf.post("/admin/login/")
    assert authenticate(request, username="Trol", password=PASSWORD) is None
    assert authenticate(request, email=world.troll.email, password=PASSWORD) is None
    # ...and a wrong password is still just a wrong password for everyone else.
    assert authenticate(request, username="Sikayetci", password=PASSWORD) == world.reporter


def test_the_admin_login_is_refused_too(world, client):
    world.troll.is_staff = True
    world.troll.save()
    ban(world, actor=world.admin)
    response = client.post("/accounts/login/?next=/admin/", {"login": "Trol", "password": PASSWORD})
    assert response.status_code == 403
    assert client.get("/admin/").status_code == 302


def test_a_ban_ends_every_open_session(world):
    browsers = [Client(), Client()]
    browsers[0].force_login(world.troll)
    browsers[1].force_login(world.troll, backend="django.contrib.auth.backends.ModelBackend")
    assert UserSession.objects.filter(user=world.troll).count() == 2
    for browser in browsers:
        assert browser.get("/").context["user"] == world.troll
    ban(world)
    for browser in browsers:
        assert browser.get("/").context["user"].is_anonymous
    assert not UserSession.objects.filter(user=world.troll).exists()


def test_a_ban_frees_waiting_seats_and_hands_running_games_to_autoplay(world, monkeypatch, django_capture_on_commit_callbacks):
    from games import services as game_services

    handed: list[int] = []
    monkeypatch.setattr(game_services, "hand_over_to_autoplay", lambda *, user: handed.append(user.pk) or 1)
    salon_services.take_seat(user=world.troll, table=world.table, position=1)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        ban(world)
    assert Seat.objects.get(table=world.table, position=1).user is None
    assert handed == [world.troll.pk]
    assert callbacks  # the socket close ("user.banned") went out after commit


def test_a_ban_tells_every_socket_of_the_player(world, monkeypatch, django_capture_on_commit_callbacks):
    from salons import events

    sent: list[tuple[str, dict]] = []
    monkeypatch.setattr(events, "send_now", lambda group, message: sent.append((group, message)))
    with django_capture_on_commit_callbacks(execute=True):
        ban(world)
    assert (f"user-{world.troll.pk}", "user.banned") in [(g, m["type"]) for g, m in sent]


def test_a_salon_ban_keeps_the_player_out_of_that_salon_only(world, client):
    salon_services.take_seat(user=world.troll, table=world.table, position=0)
    services.apply_sanction(actor=world.moderator, user=world.troll, kind="salon_ban", reason="Tartışma çıkardı",
                            duration=timedelta(days=7), salon=world.salon)
    assert Seat.objects.get(table=world.table, position=0).user is None
    client.force_login(world.troll)
    room_page = client.get(f"/rooms/{world.room.pk}/")
    assert room_page.status_code == 403 and "Tartışma çıkardı" in room_page.content.decode()
    assert client.get(f"/salons/{world.salon.slug}/").status_code == 302
    assert client.get(f"/tables/{world.table.pk}/").status_code == 403
    with pytest.raises(services.ServiceError) as refused:
        salon_services.take_seat(user=world.troll, table=world.table, position=0)
    assert refused.value.code == "salon_banned"
    with pytest.raises(services.ServiceError):
        salon_services.post_chat_message(user=world.troll, room=world.room, text="selam")
    # The other salon is open to them.
    assert client.get(f"/rooms/{world.other_room.pk}/").status_code == 200
    assert client.get(f"/salons/{world.other_salon.slug}/").status_code == 200


def test_a_staff_removal_from_a_room(world, client):
    services.apply_sanction(actor=world.moderator, user=world.troll, kind="room_removal", reason="Masayı terk etti",
                            duration=timedelta(hours=2), room=world.room)
    client.force_login(world.troll)
    assert client.get(f"/rooms/{world.room.pk}/").status_code == 403
    with pytest.raises(services.ServiceError) as refused:
        salon_services.enter_room(user=world.troll, room=world.room)
    assert refused.value.code == "room_banned"


def test_a_warning_is_shown_until_the_player_reads_it(world, client):
    warning = services.apply_sanction(actor=world.moderator, user=world.troll, kind="warning",
                                      reason="Lütfen küfür etmeyin", salon=world.salon)
    client.force_login(world.troll)
    page = client.get("/").content.decode()
    assert "Lütfen küfür etmeyin" in page
    assert "Lütfen küfür etmeyin" not in Client().get("/").content.decode()  # nobody else sees it
    client.post(f"/moderation/warnings/{warning.pk}/seen/")
    assert "Lütfen küfür etmeyin" not in client.get("/").content.decode()


def test_a_muted_player_sees_why_on_every_page(world, client):
    services.apply_sanction(actor=world.moderator, user=world.troll, kind="mute", reason="Hakaret",
                            duration=timedelta(hours=1), salon=world.salon)
    client.force_login(world.troll)
    assert "Susturuldunuz" in client.get("/").content.decode()


def test_an_expired_sanction_lifts_itself(world, client):
    sanction = ban(world, duration=timedelta(hours=1))
    later = timezone.now() + timedelta(hours=1, minutes=1)
    assert services.expire_sanctions(now=timezone.now()) == 0  # not yet
    assert services.expire_sanctions(now=later) == 1
    sanction.refresh_from_db()
    assert sanction.status == "expired" and sanction.ended_at == later
    assert services.expire_sanctions(now=later) == 0  # idempotent
    entry = ModerationLog.objects.get(action="sanction_expired")
    assert entry.actor is None and entry.target == world.troll and entry.sanction == sanction
    response = client.post("/accounts/login/", {"login": "Trol", "password": PASSWORD})
    assert response.status_code == 302


def test_the_beat_task_runs_the_expiry(world):
    sanction = ban(world, duration=timedelta(minutes=5))
    Sanction.objects.filter(pk=sanction.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert tasks.expire_sanctions() == 1
    sanction.refresh_from_db()
    assert sanction.status == "expired"


def test_the_beat_schedule_has_the_expiry(settings):
    assert settings.CELERY_BEAT_SCHEDULE["moderation-expire"]["task"] == "moderation.expire_sanctions"


def test_lifting_is_logged_and_lets_the_player_back(world, client):
    sanction = ban(world)
    services.lift_sanction(actor=world.admin, sanction=sanction, reason="İtiraz haklı çıktı")
    sanction.refresh_from_db()
    assert sanction.status == "lifted" and sanction.lifted_by == world.admin
    assert ModerationLog.objects.filter(action="sanction_lifted", sanction=sanction, reason="İtiraz haklı çıktı").exists()
    assert client.post("/accounts/login/", {"login": "Trol", "password": PASSWORD}).status_code == 302
    with pytest.raises(services.ServiceError):
        services.lift_sanction(actor=world.admin, sanction=sanction, reason="bir daha")


def test_every_sanction_is_logged(world):
    sanction = services.apply_sanction(actor=world.moderator, user=world.troll, kind="mute", reason="Küfür",
                                       duration=timedelta(hours=1), salon=world.salon)
    entry = ModerationLog.objects.get(action="sanction_applied")
    assert (entry.actor, entry.target, entry.salon, entry.sanction) == (world.moderator, world.troll, world.salon, sanction)
    assert entry.details["kind"] == "mute" and entry.details["expires_at"]


def test_the_log_is_append_only(world):
    ban(world)
    entry = ModerationLog.objects.get()
    entry.reason = "değiştirildi"
    with pytest.raises(PermissionError):
        entry.save()
    with pytest.raises(PermissionError):
        entry.delete()


def test_salon_staff_act_only_within_their_salons(world):
    for kind, extra in [("mute", {"salon": world.other_salon}), ("salon_ban", {"salon": world.other_salon}),
                        ("room_removal", {"room": world.other_room}), ("mute", {"salon": None})]:
        with pytest.raises(services.ServiceError) as refused:
            services.apply_sanction(actor=world.moderator, user=world.troll, kind=kind, reason="deneme sebep",
                                    duration=timedelta(hours=1), **extra)
        assert refused.value.code == "not_allowed", kind
    other = services.apply_sanction(actor=world.other_moderator, user=world.troll, kind="mute", reason="başka salon",
                                    duration=timedelta(hours=1), salon=world.other_salon)
    with pytest.raises(services.ServiceError):
        services.lift_sanction(actor=world.moderator, sanction=other, reason="yetkim yok")


def test_staff_cannot_be_sanctioned_by_their_peers_nor_anyone_sanction_themselves(world):
    from tests.moderation.conftest import make_moderator

    peer = make_moderator("Sorumlu3", world.salon)
    with pytest.raises(services.ServiceError) as refused:
        services.apply_sanction(actor=world.moderator, user=peer, kind="mute", reason="deneme", duration=timedelta(hours=1),
                                salon=world.salon)
    assert refused.value.code == "sanction_staff"
    with pytest.raises(services.ServiceError):
        services.apply_sanction(actor=world.moderator, user=world.moderator, kind="warning", reason="deneme", salon=world.salon)
    with pytest.raises(services.ServiceError):
        services.apply_sanction(actor=world.moderator, user=world.admin, kind="warning", reason="deneme", salon=world.salon)
    # A site admin may sanction a salon moderator.
    services.apply_sanction(actor=world.admin, user=peer, kind="warning", reason="deneme", salon=world.salon)


def test_a_new_salon_moderator_gets_the_admin(world, django_capture_on_commit_callbacks):
    from salons.models import SalonStaff

    with django_capture_on_commit_callbacks(execute=True):
        SalonStaff.objects.create(salon=world.salon, user=world.reporter)
    world.reporter.refresh_from_db()
    assert world.reporter.is_staff and not world.reporter.is_superuser
    assert ModerationLog.objects.filter(action="staff_granted", target=world.reporter).exists()
