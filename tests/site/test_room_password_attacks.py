"""Guessing a private room's password (issue 18, item 8).

Guesses were counted per account and room, and per room in a five-minute window: new accounts from
one address each brought ten fresh guesses until the room's thirty, one address could sweep every
private room of the site, the room's thirty came back every five minutes for ever (8 640 guesses a
day), and the owner heard of it only on the room's own page. Now guesses also count per address
(per room, and over all rooms), per account over all rooms, and per room and day; the owner is told
on every socket and page and the salon's staff find the attack in the moderation log.

While a room is locked no password is checked for anyone — a lock that let "new" accounts try
would be the very hole — so a guest who knows the password comes in by the invite link, which
the owner is told to share, or after the window.
"""

from __future__ import annotations

import pytest

from accounts.services import user_sockets_group
from moderation.models import ModerationLog
from salons import room_access, services
from salons.models import Room, RoomAccess
from salons.services import ServiceError
from tests.conftest import make_player, make_room
from tests.site.test_salon_services import Listener

pytestmark = pytest.mark.django_db

ATTACKER = "203.0.113.7"


@pytest.fixture
def clock(monkeypatch):
    """The password windows' clock, driven by the test (no sleeping)."""
    now = [1_900_000_000.0]
    monkeypatch.setattr(room_access, "_password_clock", lambda: now[0])
    return now


def guess(user, room, password="tahmin", address=ATTACKER) -> str:
    try:
        services.enter_room(user=user, room=room, password=password, address=address)
    except ServiceError as error:
        assert error.message
        return error.code
    return "ok"


def checked(codes: list[str]) -> int:
    """Guesses whose password was actually compared (the others were refused before)."""
    return sum(code in ("wrong_password", "ok") for code in codes)


def test_more_accounts_from_one_address_bring_no_more_guesses(clock):
    room = make_room(is_private=True, password="gizli")
    accounts = [make_player() for _ in range(3)]
    codes = [guess(account, room) for account in accounts for _ in range(services.PASSWORD_ATTEMPTS)]
    assert checked(codes) == services.PASSWORD_ATTEMPTS
    assert set(codes) == {"wrong_password", "too_many_attempts"}
    # Someone else, elsewhere, is not locked out by that address.
    guest = make_player()
    assert guess(guest, room, "gizli", address="198.51.100.20") == "ok"


def test_one_address_cannot_sweep_every_private_room(clock):
    rooms = [make_room(is_private=True, password=f"gizli{n}") for n in range(6)]
    codes = [guess(account, room) for room, account in zip(rooms, [make_player() for _ in rooms], strict=True)
             for _ in range(services.PASSWORD_ATTEMPTS)]
    assert checked(codes) == services.ADDRESS_PASSWORD_ATTEMPTS
    assert "too_many_attempts" in codes


def test_one_account_cannot_sweep_every_private_room_from_many_addresses(clock):
    guesser = make_player()
    rooms = [make_room(is_private=True, password=f"gizli{n}") for n in range(6)]
    codes = [guess(guesser, room, address=f"198.51.100.{n}")
             for n, room in enumerate(rooms) for _ in range(services.PASSWORD_ATTEMPTS)]
    assert checked(codes) == services.ACCOUNT_PASSWORD_ATTEMPTS


def test_a_sustained_attack_from_many_accounts_and_addresses_is_capped_per_day(clock, monkeypatch):
    room = make_room(is_private=True, password="gizli")
    monkeypatch.setattr(Room, "check_password", lambda self, raw: raw == "gizli")  # the hash is slow on purpose
    accounts = [make_player() for _ in range(4)]
    codes = []
    for window in range(10):  # fifty minutes, every guess from another address
        for n in range(services.ROOM_PASSWORD_ATTEMPTS + 5):
            codes.append(guess(accounts[n % len(accounts)], room, address=f"10.{window}.{n}.1"))
        clock[0] += services.PASSWORD_WINDOW
    assert checked(codes) == services.ROOM_PASSWORD_ATTEMPTS_PER_DAY
    assert guess(make_player(), room, address="10.99.0.1") == "room_locked"
    clock[0] += 24 * 3600
    assert guess(make_player(), room, "gizli", address="10.99.0.1") == "ok"  # a day later


def test_the_owner_is_told_on_every_socket_and_the_staff_in_the_moderation_log(clock):
    owner = make_player("Sahip")
    room = make_room(owner=owner, is_private=True, password="gizli")
    listener = Listener(user_sockets_group(owner.pk))
    guessers = [make_player(f"Tahminci{n}") for n in range(4)]
    for n, guesser in enumerate(guessers):
        for _ in range(services.PASSWORD_ATTEMPTS):
            guess(guesser, room, address=f"198.51.100.{n}")
    told = [frame for frame in listener.receive_all() if frame["type"] == "room.password_attack"]
    assert len(told) == 1 and told[0]["room"] == room.pk
    entry = ModerationLog.objects.get(action=ModerationLog.Action.PASSWORD_ATTACK)
    assert entry.target_id == owner.pk and entry.salon_id == room.salon_id
    assert entry.details["room"] == room.pk
    assert set(entry.details["guessers"]) <= {g.username for g in guessers} and entry.details["guessers"]
    assert "198.51.100" not in str(entry.details)  # staff never see an address
    # Once per window, however many more are refused.
    for _ in range(5):
        guess(make_player(), room, address="198.51.100.99")
    assert ModerationLog.objects.filter(action=ModerationLog.Action.PASSWORD_ATTACK).count() == 1
    assert not [frame for frame in listener.receive_all() if frame["type"] == "room.password_attack"]


def test_during_the_lock_the_invite_link_still_lets_a_guest_in(clock):
    room = make_room(is_private=True, password="gizli")
    for n in range(4):
        for _ in range(services.PASSWORD_ATTEMPTS):
            guess(make_player(), room, address=f"198.51.100.{n}")
    friend = make_player("Arkadas")
    assert guess(friend, room, "gizli", address="192.0.2.1") == "room_locked"  # no password is checked
    services.enter_room(user=friend, room=room, token=room.invite_token)
    assert RoomAccess.objects.filter(room=room, user=friend).exists()


def test_a_right_password_costs_no_guess_of_the_address(clock):
    room = make_room(is_private=True, password="gizli")
    for _ in range(services.PASSWORD_ATTEMPTS * 3):
        player = make_player()
        assert guess(player, room, "gizli", address="192.0.2.5") == "ok"
    assert guess(make_player(), room, "yanlış", address="192.0.2.5") == "wrong_password"


def test_the_room_page_counts_guesses_per_address(client, clock):
    room = make_room(is_private=True, password="gizli")
    for _ in range(services.PASSWORD_ATTEMPTS + 2):
        client.force_login(make_player())
        client.post(f"/rooms/{room.pk}/enter/", {"password": "yanlış"}, REMOTE_ADDR=ATTACKER)
    client.force_login(make_player())
    page = client.post(f"/rooms/{room.pk}/enter/", {"password": "gizli"}, REMOTE_ADDR=ATTACKER, follow=True)
    assert "Çok fazla yanlış deneme" in page.content.decode()
    assert not RoomAccess.objects.filter(room=room).exists()
