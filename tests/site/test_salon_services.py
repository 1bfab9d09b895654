"""Salon services: rooms, seats, chat, removals — every refusal has a stable code and changes nothing,
and every change is published to the right groups after commit."""

from __future__ import annotations

import asyncio
import threading
import time
import uuid
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.utils import timezone

from games.engine.rules import RuleSet
from salons import services
from salons.models import ChatMessage, Room, RoomAccess, RoomRemoval, SalonStaff, Seat, Table
from salons.services import ServiceError
from tests.conftest import make_player, make_room, make_salon

pytestmark = pytest.mark.django_db


def refused(code: str, func, **kwargs):
    with pytest.raises(ServiceError) as error:
        func(**kwargs)
    assert error.value.code == code, error.value.message
    assert error.value.message  # a human message, translated
    return error.value


def seated(table: Table) -> dict[int, str | None]:
    return {seat.position: (seat.user.username if seat.user else None) for seat in table.seats.select_related("user")}


class Listener:
    """A channel subscribed to groups, to check what services publish.

    It lives on an event loop of its own, in a thread, for the whole test: with Redis publish/subscribe
    a message reaches only the subscriptions open when it is sent, and the services publish from
    loops of their own. (The in-memory layer keeps messages for a plain channel name instead.)
    """

    def __init__(self, *groups: str) -> None:
        self.layer = get_channel_layer()
        self.loop = None
        if isinstance(self.layer, InMemoryChannelLayer):
            self.channel = f"test-listener.{uuid.uuid4().hex}"
            for group in groups:
                async_to_sync(self.layer.group_add)(group, self.channel)
            return
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, daemon=True).start()
        self.received: list[dict] = []

        async def subscribe() -> str:
            channel = await self.layer.new_channel("test-listener.")
            for group in groups:
                await self.layer.group_add(group, channel)
            # One receive after another, never cancelled: the pub/sub layer drops a channel whose
            # receive is cancelled.
            async def collect() -> None:
                while True:
                    message = await self.layer.receive(channel)
                    self.received.append(message)

            self.collector = asyncio.ensure_future(collect())
            return channel

        self.channel = asyncio.run_coroutine_threadsafe(subscribe(), self.loop).result(timeout=10)

    def receive_all(self) -> list[dict]:
        """Everything delivered so far (the sends completed before this)."""
        if self.loop is not None:
            time.sleep(0.3)
            messages, self.received = self.received, []
            return messages
        messages = []

        async def drain():
            while True:
                try:
                    messages.append(await asyncio.wait_for(self.layer.receive(self.channel), timeout=0.3))
                except TimeoutError:
                    return

        async_to_sync(drain)()
        return messages


# --- rooms ------------------------------------------------------------------------------------


def test_open_room_creates_tables_with_empty_seats():
    owner = make_player("Sahip")
    room = make_room(owner=owner, rules=RuleSet(players=2).to_dict(), table_count=3, turn_seconds=35)
    assert room.status == "open" and room.turn_seconds == 35 and room.players == 2
    assert RuleSet.from_dict(room.rules) == RuleSet(players=2)
    assert [t.number for t in room.tables.order_by("number")] == [1, 2, 3]
    assert all(seated(t) == {0: None, 1: None} for t in room.tables.all())


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({"name": "ab"}, "bad_name"),
        ({"name": "x" * 41}, "bad_name"),
        ({"turn_seconds": 9}, "bad_turn_seconds"),
        ({"turn_seconds": 61}, "bad_turn_seconds"),
        ({"turn_seconds": "hızlı"}, "bad_turn_seconds"),
        ({"rules": {"players": 3}}, "bad_rules"),
        ({"rules": {"colour": True}}, "bad_rules"),
        ({"rules": "countdown"}, "bad_rules"),
        ({"rules": RuleSet.preset("chips", stake=5).to_dict()}, "bad_stake"),
        ({"rules": RuleSet.preset("chips", stake=5000).to_dict()}, "bad_stake"),
        ({"table_count": 0}, "bad_table_count"),
        ({"table_count": 9}, "bad_table_count"),
    ],
)
def test_open_room_refuses_bad_input_and_writes_nothing(options, code):
    owner, salon = make_player(), make_salon()
    kwargs = {"user": owner, "salon": salon, "name": "Güzel oda", "rules": RuleSet().to_dict(), **options}
    refused(code, services.open_room, **kwargs)
    assert Room.objects.count() == 0 and Table.objects.count() == 0


def test_a_player_keeps_at_most_three_rooms_open():
    owner = make_player()
    for n in range(3):
        make_room(owner=owner, name=f"Oda {n}")
    refused("too_many_rooms", services.open_room, user=owner, salon=make_salon(), name="Bir tane daha")


def test_private_room_password_is_hashed_and_checked():
    owner, guest = make_player("Sahip"), make_player("Misafir1")
    room = make_room(owner=owner, is_private=True, password="gizli")
    assert room.password and "gizli" not in room.password
    refused("private_room", services.take_seat, user=guest, table=room.tables.get(), position=0)
    refused("wrong_password", services.enter_room, user=guest, room=room, password="yanlış")
    services.enter_room(user=guest, room=room, password="gizli")
    services.take_seat(user=guest, table=room.tables.get(), position=0)


def test_invite_link_unlocks_a_private_room():
    room = make_room(is_private=True)
    guest = make_player()
    refused("bad_invite", services.enter_room, user=guest, room=room, token="not-the-token")
    services.enter_room(user=guest, room=room, token=room.invite_token)
    assert RoomAccess.objects.filter(room=room, user=guest).exists()


def test_password_guessing_is_limited():
    room = make_room(is_private=True, password="gizli")
    guest = make_player()
    for _ in range(services.PASSWORD_ATTEMPTS):
        refused("wrong_password", services.enter_room, user=guest, room=room, password="nope")
    refused("too_many_attempts", services.enter_room, user=guest, room=room, password="gizli")


def test_a_room_password_needs_four_characters():
    owner = make_player()
    for short in ("x", "abc"):
        refused("bad_password", services.open_room, user=owner, salon=make_salon(), name="Özel oda",
                is_private=True, password=short)
    assert Room.objects.count() == 0
    room = make_room(owner=owner, is_private=True, password="dört")
    refused("bad_password", services.update_room, user=owner, room=room, name=room.name, rules=room.rules,
            turn_seconds=room.turn_seconds, is_private=True, password="abc")
    room.refresh_from_db()
    assert room.check_password("dört")


def test_more_accounts_bring_no_more_guesses_and_the_owner_is_told():
    owner = make_player("Sahip")
    room = make_room(owner=owner, is_private=True, password="gizli")
    listener = Listener(f"user-{owner.pk}")  # every socket of the owner, whatever page is open
    guessers = [make_player() for _ in range(services.ROOM_PASSWORD_ATTEMPTS // services.PASSWORD_ATTEMPTS + 2)]
    codes = []
    for guesser in guessers:
        for _ in range(services.PASSWORD_ATTEMPTS):
            try:
                services.enter_room(user=guesser, room=room, password="tahmin")
            except ServiceError as error:
                codes.append(error.code)
    assert codes.count("wrong_password") == services.ROOM_PASSWORD_ATTEMPTS
    assert set(codes) == {"wrong_password", "room_locked"}
    # Locked for everyone, right password or not, until the window passes; the invite link still works.
    late = make_player()
    refused("room_locked", services.enter_room, user=late, room=room, password="gizli")
    services.enter_room(user=late, room=room, token=room.invite_token)
    room.refresh_from_db()
    assert room.password_attack_at is not None
    told = [event for event in listener.receive_all() if event["type"] == "room.password_attack"]
    assert len(told) == 1 and told[0]["owner"] == owner.pk  # once, however many more were refused


def test_a_right_password_is_not_counted_as_a_guess():
    room = make_room(is_private=True, password="gizli")
    guest = make_player()
    for _ in range(services.PASSWORD_ATTEMPTS - 1):
        refused("wrong_password", services.enter_room, user=guest, room=room, password="nope")
    services.enter_room(user=guest, room=room, password="gizli")
    RoomAccess.objects.all().delete()
    refused("wrong_password", services.enter_room, user=guest, room=room, password="nope")
    refused("too_many_attempts", services.enter_room, user=guest, room=room, password="gizli")


def test_a_new_password_revokes_every_access_and_the_invite_link(django_capture_on_commit_callbacks):
    owner = make_player()
    room = make_room(owner=owner, is_private=True, password="eski-şifre")
    by_password, by_link = make_player("Şifreli"), make_player("Davetli")
    services.enter_room(user=by_password, room=room, password="eski-şifre")
    services.enter_room(user=by_link, room=room, token=room.invite_token)
    table = room.tables.get()
    services.take_seat(user=by_password, table=table, position=1)
    services.take_seat(user=owner, table=table, position=0)
    old_token = room.invite_token
    listener = Listener(f"room-{room.pk}", f"table-{table.pk}")
    with django_capture_on_commit_callbacks(execute=True):
        services.update_room(user=owner, room=room, name=room.name, rules=room.rules, turn_seconds=room.turn_seconds,
                             is_private=True, password="yeni-şifre")
    room.refresh_from_db()
    assert room.invite_token != old_token
    assert not RoomAccess.objects.filter(room=room).exists()
    assert seated(table) == {0: owner.username, 1: None, 2: None, 3: None}  # the owner stays
    refused("private_room", services.take_seat, user=by_password, table=table, position=1)
    refused("bad_invite", services.enter_room, user=by_link, room=room, token=old_token)
    refused("wrong_password", services.enter_room, user=by_password, room=room, password="eski-şifre")
    events = listener.receive_all()
    revoked = [e for e in events if e["type"] == "access.revoked"]
    assert revoked and revoked[0]["users"] == sorted([by_password.pk, by_link.pk])
    kicked = {e["user_id"] for e in events if e["type"] == "user.kicked"}
    assert kicked == {by_password.pk, by_link.pk}
    services.enter_room(user=by_link, room=room, token=room.invite_token)


def test_turning_privacy_off_and_on_again_does_not_bring_old_access_back():
    owner = make_player()
    room = make_room(owner=owner, is_private=True, password="gizli")
    guest = make_player()
    services.enter_room(user=guest, room=room, password="gizli")
    edit = {"name": room.name, "rules": room.rules, "turn_seconds": room.turn_seconds}
    services.update_room(user=owner, room=room, is_private=False, **edit)
    services.take_seat(user=guest, table=room.tables.get(), position=2)
    services.update_room(user=owner, room=room, is_private=True, password="başka-şifre", **edit)
    refused("private_room", services.take_seat, user=guest, table=room.tables.get(), position=2)
    assert seated(room.tables.get())[2] is None
    # An edit that keeps the password (None) and the privacy keeps every access.
    services.enter_room(user=guest, room=room, password="başka-şifre")
    services.update_room(user=owner, room=room, is_private=True, password=None, **{**edit, "name": "Yeni ad"})
    assert RoomAccess.objects.filter(room=room, user=guest).exists()


def test_a_new_invite_link_shuts_out_only_those_who_came_by_the_old_one():
    owner = make_player()
    room = make_room(owner=owner, is_private=True, password="gizli")
    by_password, by_link = make_player(), make_player()
    services.enter_room(user=by_password, room=room, password="gizli")
    services.enter_room(user=by_link, room=room, token=room.invite_token)
    old_token = room.invite_token
    refused("not_owner", services.new_invite_link, user=by_password, room=room)
    room = services.new_invite_link(user=owner, room=room)
    assert room.invite_token != old_token
    assert list(RoomAccess.objects.filter(room=room).values_list("user_id", flat=True)) == [by_password.pk]
    refused("bad_invite", services.enter_room, user=by_link, room=room, token=old_token)
    services.enter_room(user=by_link, room=room, token=room.invite_token)
    refused("not_private", services.new_invite_link, user=owner, room=make_room(owner=owner, name="Açık oda"))


def test_access_is_not_granted_by_a_password_changed_while_it_was_checked(monkeypatch):
    from salons.models import Room as RoomModel

    owner = make_player()
    room = make_room(owner=owner, is_private=True, password="eski-şifre")
    guest = make_player()
    original = RoomModel.check_password

    def owner_changes_it_meanwhile(checked_room, raw):
        result = original(checked_room, raw)
        services.update_room(user=owner, room=checked_room, name=checked_room.name, rules=checked_room.rules,
                             turn_seconds=checked_room.turn_seconds, is_private=True, password="yeni-şifre")
        return result

    monkeypatch.setattr(RoomModel, "check_password", owner_changes_it_meanwhile)
    refused("wrong_password", services.enter_room, user=guest, room=room, password="eski-şifre")
    assert not RoomAccess.objects.filter(room=room, user=guest).exists()


def test_owner_edits_room_while_no_game_runs():
    owner = make_player()
    room = make_room(owner=owner)
    stranger = make_player()
    update = {"name": "Yeni ad", "rules": RuleSet(players=2).to_dict(), "turn_seconds": 15, "is_private": False}
    refused("not_owner", services.update_room, user=stranger, room=room, **update)
    services.update_room(user=owner, room=room, **update)
    room.refresh_from_db()
    assert (room.name, room.players, room.turn_seconds) == ("Yeni ad", 2, 15)
    assert seated(room.tables.get()) == {0: None, 1: None}
    table = room.tables.get()
    services.take_seat(user=owner, table=table, position=1)
    refused("seats_taken", services.update_room, user=owner, room=room, **{**update, "rules": RuleSet().to_dict()})
    services.set_table_status(table=table, status="playing")
    refused("game_running", services.update_room, user=owner, room=room, **update)


def test_close_room_frees_seats_and_is_refused_during_a_game():
    owner = make_player()
    room = make_room(owner=owner)
    table = room.tables.get()
    services.take_seat(user=owner, table=table, position=0)
    services.set_table_status(table=table, status="playing")
    refused("game_running", services.close_room, user=owner, room=room)
    refused("not_owner", services.close_room, user=make_player(), room=room)
    services.set_table_status(table=table, status="waiting")
    services.close_room(user=owner, room=room)
    room.refresh_from_db()
    assert room.status == "closed" and room.closed_at is not None
    assert seated(table) == {0: None, 1: None, 2: None, 3: None}
    refused("room_closed", services.take_seat, user=owner, table=table, position=0)


def test_add_table_up_to_the_limit():
    owner = make_player()
    room = make_room(owner=owner, table_count=services.MAX_TABLES_PER_ROOM - 1)
    table = services.add_table(user=owner, room=room)
    assert table.number == services.MAX_TABLES_PER_ROOM and table.seats.count() == 4
    refused("too_many_tables", services.add_table, user=owner, room=room)


# --- seats ------------------------------------------------------------------------------------


def test_take_and_leave_a_seat():
    room = make_room()
    table = room.tables.get()
    ali, veli = make_player("Ali"), make_player("Veli")
    services.take_seat(user=ali, table=table, position=2)
    refused("seat_taken", services.take_seat, user=veli, table=table, position=2)
    for bad in (-1, 4, "iki", None):
        refused("bad_seat", services.take_seat, user=veli, table=table, position=bad)
    services.take_seat(user=ali, table=table, position=3)  # moves: one seat per table
    assert seated(table) == {0: None, 1: None, 2: None, 3: "Ali"}
    refused("not_seated", services.leave_seat, user=veli, table=table)
    services.leave_seat(user=ali, table=table)
    assert set(seated(table).values()) == {None}


def test_one_table_at_a_time_and_never_away_from_a_running_game():
    ali = make_player("Ali")
    first = make_room(name="Birinci").tables.get()
    second = make_room(name="İkinci").tables.get()
    services.take_seat(user=ali, table=first, position=0)
    services.take_seat(user=ali, table=second, position=0)
    assert seated(first)[0] is None and seated(second)[0] == "Ali"
    services.set_table_status(table=second, status="playing")
    refused("already_playing", services.take_seat, user=ali, table=first, position=1)
    refused("game_running", services.leave_seat, user=ali, table=second)
    refused("game_running", services.take_seat, user=make_player(), table=second, position=1)


def test_chip_tables_need_the_stake():
    room = make_room(rules=RuleSet.preset("chips", stake=500).to_dict())
    poor = make_player("Fakir", chips=1999)  # a hand can cost 4 × 500: that much is held as it is dealt
    refused("not_enough_chips", services.take_seat, user=poor, table=room.tables.get(), position=0)
    services.take_seat(user=make_player(chips=2000), table=room.tables.get(), position=0)


def test_set_table_status_validates():
    table = make_room().tables.get()
    refused("bad_status", services.set_table_status, table=table, status="finished")
    assert services.set_table_status(table=table, status="playing").status == "playing"


def test_the_database_refuses_a_second_seat_for_one_user_at_a_table():
    from django.db import IntegrityError, transaction

    table = make_room().tables.get()
    ali = make_player()
    Seat.objects.filter(table=table, position=0).update(user=ali)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.filter(table=table, position=1).update(user=ali)


# --- chat -------------------------------------------------------------------------------------


def test_chat_is_trimmed_checked_and_stored():
    room = make_room()
    ali = make_player("Ali")
    message = services.post_chat_message(user=ali, room=room, text="  Selam   millet \n ")
    assert message.text == "Selam millet" and message.visible and message.table is None
    refused("empty_message", services.post_chat_message, user=ali, room=room, text="   ")
    refused("empty_message", services.post_chat_message, user=ali, room=room, text=None)
    refused("message_too_long", services.post_chat_message, user=ali, room=room, text="a" * 301)
    other_table = make_room(name="Başka oda").tables.get()
    refused("bad_table", services.post_chat_message, user=ali, room=room, table=other_table, text="hey")
    assert ChatMessage.objects.count() == 1


def test_chat_flood_is_slowed_down():
    room = make_room()
    ali = make_player()
    for n in range(services.CHAT_BURST):
        services.post_chat_message(user=ali, room=room, text=f"mesaj {n}")
    refused("too_fast", services.post_chat_message, user=ali, room=room, text="bir daha")


def test_chat_goes_through_the_screening_step(monkeypatch):
    room = make_room()

    def strict(*, user, text):
        raise ServiceError("blocked", "filtered")

    monkeypatch.setattr(services, "screen_chat_text", strict)
    refused("blocked", services.post_chat_message, user=make_player(), room=room, text="herhangi")
    assert ChatMessage.objects.count() == 0


def test_table_chat_belongs_to_its_room():
    room = make_room()
    table = room.tables.get()
    message = services.post_chat_message(user=make_player(), room=room, table=table, text="masa sohbeti")
    assert message.table == table


# --- removals ---------------------------------------------------------------------------------


def test_owner_removes_a_player_with_a_reason_for_a_while():
    owner, troll = make_player("Sahip"), make_player("Troll")
    room = make_room(owner=owner)
    table = room.tables.get()
    services.take_seat(user=troll, table=table, position=1)
    refused("reason_required", services.remove_from_room, owner=owner, room=room, user=troll, reason=" ")
    refused("bad_duration", services.remove_from_room, owner=owner, room=room, user=troll, reason="küfür", minutes=0)
    refused("not_owner", services.remove_from_room, owner=make_player(), room=room, user=troll, reason="küfür")
    removal = services.remove_from_room(owner=owner, room=room, user=troll, reason="Küfür etti", minutes=15)
    assert (removal.removed_by, removal.user, removal.reason) == (owner, troll, "Küfür etti")
    assert timedelta(minutes=14) < removal.until - timezone.now() <= timedelta(minutes=15)
    assert seated(table)[1] is None
    refused("removed", services.take_seat, user=troll, table=table, position=1)
    refused("removed", services.post_chat_message, user=troll, room=room, text="geri geldim")
    refused("removed", services.enter_room, user=troll, room=room)
    RoomRemoval.objects.filter(pk=removal.pk).update(until=timezone.now() - timedelta(seconds=1))
    services.take_seat(user=troll, table=table, position=1)


def test_removal_keeps_a_seat_in_a_running_game():
    owner, player = make_player(), make_player("Oyuncu")
    room = make_room(owner=owner)
    table = room.tables.get()
    services.take_seat(user=player, table=table, position=0)
    services.set_table_status(table=table, status="playing")
    services.remove_from_room(owner=owner, room=room, user=player, reason="Haksız bir sebep")
    assert seated(table)[0] == "Oyuncu"  # the game decides; the log lets staff judge the removal


def test_nobody_removes_themselves_or_staff():
    owner, moderator = make_player(), make_player("Gorevli")
    room = make_room(owner=owner)
    SalonStaff.objects.create(salon=room.salon, user=moderator)
    refused("cannot_remove_self", services.remove_from_room, owner=owner, room=room, user=owner, reason="deneme")
    refused("cannot_remove_staff", services.remove_from_room, owner=owner, room=room, user=moderator, reason="deneme")
    assert RoomRemoval.objects.count() == 0


# --- events -----------------------------------------------------------------------------------


def test_changes_are_published_after_commit(django_capture_on_commit_callbacks):
    owner = make_player("Sahip", email="sahip@private.example")
    room = make_room(owner=owner)
    table = room.tables.get()
    listener = Listener(f"room-{room.pk}", f"table-{table.pk}", f"salon-{room.salon_id}", "lobby")
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.take_seat(user=owner, table=table, position=0)
    assert listener.receive_all() == []  # nothing before commit
    for callback in callbacks:
        callback()
    events = listener.receive_all()
    seat_events = [e for e in events if e["type"] == "seat.changed"]
    assert len(seat_events) == 2  # room group and table group
    payload = seat_events[0]["table"]
    assert payload["id"] == table.pk and payload["seats"][0]["user"] == {"id": owner.pk, "nickname": "Sahip"}
    assert any(e["type"] == "salon.changed" for e in events)
    lobby = [e for e in events if e["type"] == "lobby.counts"]
    assert lobby and {"id": room.salon_id, "rooms": 1, "people": 1, "tables": 1,
                      "free_seats": room.players - 1} in lobby[-1]["salons"]

    with django_capture_on_commit_callbacks(execute=True):
        services.post_chat_message(user=owner, room=room, text="Hoş geldiniz")
    chat = [e for e in listener.receive_all() if e["type"] == "chat.message"]
    assert len(chat) == 1 and chat[0]["message"]["text"] == "Hoş geldiniz"
    assert chat[0]["message"]["author"] == {"id": owner.pk, "nickname": "Sahip"}
    assert "sahip@private.example" not in repr(events + chat)


def test_table_groups_get_only_the_events_the_table_page_handles(django_capture_on_commit_callbacks):
    owner, player = make_player(), make_player()
    room = make_room(owner=owner)
    table = room.tables.get()
    listener = Listener(f"table-{table.pk}")
    with django_capture_on_commit_callbacks(execute=True):
        services.take_seat(user=player, table=table, position=0)
        services.add_table(user=owner, room=room)
        services.set_table_status(table=table, status="playing")
        services.set_table_status(table=table, status="waiting")
        services.post_chat_message(user=player, room=room, text="salon sohbeti")  # room chat: not the table's
        services.post_chat_message(user=player, room=room, table=table, text="masa sohbeti")
        services.remove_from_room(owner=owner, room=room, user=player, reason="deneme amaçlı")
    kinds = [(event["type"], event.get("message", {}).get("text")) for event in listener.receive_all()]
    assert kinds == [
        ("seat.changed", None), ("chat.message", "masa sohbeti"), ("user.kicked", None), ("seat.changed", None)
    ]
