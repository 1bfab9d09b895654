"""A new password ends every other session and socket (issue 18, item 5).

The attack: an intruder who knew the old password keeps a table socket open; the owner changes the
password; the intruder's socket still chatted (and could play) under the owner's name. Now every
open socket of the user is told to reconnect (4001), and a reconnect is authenticated again: the
owner's pages come back on the new session, the intruder's are refused as logged out."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from tests.conftest import PASSWORD
from tests.moderation.conftest import build_world, fresh_cache  # noqa: F401  (a fixture)
from tests.moderation.test_sockets import closed_with, cookie_for, frame_of, open_socket

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fresh_cache")]

NEW_PASSWORD = "Yepyeni-Parola-2026!"


def owner_signs_in():
    browser = Client()
    assert browser.post("/accounts/login/", {"login": "Trol", "password": PASSWORD}).status_code == 302
    return browser


def change_password(browser, *, url="/accounts/password/change/", data=None):
    answer = browser.post(url, data or {"oldpassword": PASSWORD, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    assert answer.status_code == 302, answer.content.decode()[:400]
    return f"sessionid={browser.cookies['sessionid'].value}".encode()


async def test_a_password_change_closes_the_intruders_sockets_and_keeps_the_owners_browser():
    world = await sync_to_async(build_world)()
    intruder_cookie = await sync_to_async(cookie_for)(world.troll)  # a session of its own
    owner = await sync_to_async(owner_signs_in)()
    owner_cookie = f"sessionid={owner.cookies['sessionid'].value}".encode()

    intruder_table = await open_socket(f"/ws/tables/{world.table.pk}/", intruder_cookie)
    await frame_of(intruder_table, "state", timeout=5)
    intruder_room = await open_socket(f"/ws/rooms/{world.room.pk}/", intruder_cookie)
    await frame_of(intruder_room, "state", timeout=5)
    intruder_notices = await open_socket("/ws/tournaments/me/", intruder_cookie)
    owner_table = await open_socket(f"/ws/tables/{world.table.pk}/", owner_cookie)
    await frame_of(owner_table, "state", timeout=5)

    new_cookie = await sync_to_async(change_password)(owner)

    for communicator in (intruder_table, intruder_room, intruder_notices, owner_table):
        assert await closed_with(communicator, timeout=2) == 4001  # reconnect and be checked again
    # The intruder's reconnect is refused: that session ended with the old password.
    again = await open_socket(f"/ws/tables/{world.table.pk}/", intruder_cookie)
    assert (await frame_of(again, "login_required"))["close"] == 4401
    assert await closed_with(again) == 4401
    # The owner's page reconnects on the session the password change kept.
    back = await open_socket(f"/ws/tables/{world.table.pk}/", new_cookie)
    assert (await frame_of(back, "state", timeout=5))["type"] == "state"
    await back.disconnect()

    intruder_browser = Client()
    intruder_browser.cookies["sessionid"] = intruder_cookie.decode().split("=", 1)[1]
    page = await sync_to_async(intruder_browser.get)("/me/")
    assert page.status_code == 302 and "/accounts/login/" in page["Location"]
    assert (await sync_to_async(owner.get)("/me/")).status_code == 200


def test_a_password_reset_ends_every_session_of_the_account():
    """Reset by e-mail link: the account's open sessions, whatever their key, are signed out."""
    from django.core import mail

    world = build_world()
    signed_in = owner_signs_in()
    stranger = Client()
    assert stranger.post("/accounts/password/reset/", {"email": world.troll.email}).status_code == 302
    link = next(line for line in mail.outbox[-1].body.splitlines() if "/accounts/password/reset/key/" in line).strip()
    path = link[link.index("/accounts/"):]
    form = stranger.get(path, follow=True)
    change_password(stranger, url=form.redirect_chain[-1][0] if form.redirect_chain else path,
                    data={"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    page = signed_in.get("/me/")
    assert page.status_code == 302 and "/accounts/login/" in page["Location"]
    world.troll.refresh_from_db()
    assert world.troll.check_password(NEW_PASSWORD) and world.troll.session_generation == 1


def test_a_password_set_in_the_admin_ends_the_players_sessions():
    world = build_world()
    signed_in = owner_signs_in()
    admin = Client()
    admin.force_login(world.admin)
    answer = admin.post(f"/admin/accounts/user/{world.troll.pk}/password/",
                        {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD, "usable_password": "true"})
    assert answer.status_code == 302, answer.content.decode()[:400]
    page = signed_in.get("/me/")
    assert page.status_code == 302 and "/accounts/login/" in page["Location"]
    assert admin.get("/admin/").status_code == 200  # the admin's own session is not touched
