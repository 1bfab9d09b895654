"""Bans that missed sessions (issue 10, item 5).

A site ban ended only the session keys recorded at login. Changing one's password keeps the
session signed in under a new key (``update_session_auth_hash``), which nothing had recorded, so
the banned player kept playing and reporting. Now every user has a session generation that is
part of their session hash: a ban bumps it, and Django's auth (each request) and Channels' auth
(each socket connect) drop any session signed with an older one, whatever its key. Open sockets
are closed by the "user.banned" group message.
"""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from moderation import services
from moderation.models import Report, UserSession
from okeysite.asgi import application
from tests.conftest import PASSWORD
from tests.moderation.conftest import build_world
from tests.moderation.test_sockets import HEADERS, closed_with, frame_of

NEW_PASSWORD = "Yeni-Parola-2025?"


def signed_in_with_a_rotated_key(user) -> Client:
    """Sign in through the login page, then change the password: the session key changes and
    the browser stays signed in (allauth calls ``update_session_auth_hash``)."""
    browser = Client()
    assert browser.post("/accounts/login/", {"login": user.username, "password": PASSWORD}).status_code == 302
    first_key = browser.cookies["sessionid"].value
    changed = browser.post("/accounts/password/change/",
                           {"oldpassword": PASSWORD, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    assert changed.status_code == 302, changed.content.decode()[:500]
    rotated_key = browser.cookies["sessionid"].value
    assert rotated_key != first_key
    assert browser.get("/me/").status_code == 200  # still signed in, under the new key
    assert not UserSession.objects.filter(session_key=rotated_key).exists()  # the key a ban used to miss
    return browser


def site_ban(world) -> None:
    services.apply_sanction(actor=world.admin, user=world.troll, kind="site_ban", reason="Reklam yaptı")


@pytest.mark.django_db
@pytest.mark.usefixtures("fresh_cache")
def test_a_site_ban_ends_a_session_whose_key_rotated(world):
    from salons.models import Room

    browser = signed_in_with_a_rotated_key(world.troll)
    rooms_before = Room.objects.count()
    site_ban(world)

    page = browser.get("/me/")
    assert page.status_code == 302 and "/accounts/login/" in page["Location"]
    assert browser.get("/").context["user"].is_anonymous
    practice = browser.post("/practice/")
    assert practice.status_code == 302 and "/accounts/login/" in practice["Location"]
    assert Room.objects.count() == rooms_before  # no practice table was made
    report = browser.post("/moderation/report/", {"reported": "Sikayetci", "reason": "insult", "note": "x"})
    assert report.status_code == 302 and "/accounts/login/" in report["Location"]
    assert not Report.objects.exists()


@pytest.mark.django_db
@pytest.mark.usefixtures("fresh_cache")
def test_other_players_and_a_lifted_ban_keep_working(world):
    bystander = signed_in_with_a_rotated_key(world.reporter)
    site_ban(world)
    assert bystander.get("/me/").status_code == 200  # only the banned player's sessions end
    world.troll.refresh_from_db()
    assert world.troll.session_generation == 1
    # After a lift, signing in again works and the new session lives.
    services.lift_sanction(actor=world.admin, sanction=world.troll.sanctions.get(), reason="İtiraz haklı")
    again = Client()
    assert again.post("/accounts/login/", {"login": "Trol", "password": PASSWORD}).status_code == 302
    assert again.get("/me/").status_code == 200


@pytest.mark.django_db
@pytest.mark.usefixtures("fresh_cache")
def test_a_copy_saved_after_the_ban_does_not_bring_the_sessions_back(world):
    browser = signed_in_with_a_rotated_key(world.troll)
    stale = type(world.troll).objects.get(pk=world.troll.pk)  # e.g. an admin form opened before the ban
    before = stale.session_generation  # the password change raised it once already
    site_ban(world)
    stale.first_name = "Eski"
    stale.save()
    stale.refresh_from_db()
    assert stale.first_name == "Eski" and stale.session_generation == before + 1
    assert browser.get("/me/").status_code == 302


@pytest.mark.django_db
def test_existing_sessions_survive_the_upgrade(world_db_user):
    """Generation 0 signs sessions exactly as Django does, so deploying this logs nobody out."""
    from django.contrib.auth.base_user import AbstractBaseUser

    assert world_db_user.get_session_auth_hash() == AbstractBaseUser.get_session_auth_hash(world_db_user)


@pytest.fixture
def world_db_user(db):
    from tests.conftest import make_player

    return make_player("Eski")


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("fresh_cache")
async def test_a_site_ban_closes_the_socket_of_a_rotated_session_and_it_cannot_reconnect():
    world = await sync_to_async(build_world)()
    browser = await sync_to_async(signed_in_with_a_rotated_key)(world.troll)
    cookie = f"sessionid={browser.cookies['sessionid'].value}".encode()
    path = f"/ws/tables/{world.table.pk}/"
    socket = WebsocketCommunicator(application, path, headers=[*HEADERS, (b"cookie", cookie)])
    connected, _code = await socket.connect(timeout=5)
    assert connected
    await frame_of(socket, "state", timeout=5)

    await sync_to_async(site_ban)(world)

    assert await closed_with(socket) == 4403
    again = WebsocketCommunicator(application, path, headers=[*HEADERS, (b"cookie", cookie)])
    connected, _code = await again.connect(timeout=5)
    assert connected and await closed_with(again) == 4401  # accepted, told, closed: the page stops
    for communicator in (again, socket):
        await communicator.disconnect()
