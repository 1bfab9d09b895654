"""Two requests racing for the same move: exactly one applies, the other is told it is stale."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from games import services
from games.engine import hand as engine_hand
from games.models import Move

from .conftest import make_table

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_racing_discards_for_the_same_move_apply_once():
    table, users = make_table()
    match = services.start_match(user=table.room.owner, table_id=table.id)
    hand = match.hands.get()
    state = engine_hand.HandState.from_dict(hand.state)
    player = users[state.turn]
    tiles = [engine_hand.format_tile(t) for t in state.racks[state.turn][:2]]
    barrier = threading.Barrier(2)
    results: list[object] = []

    def attempt(tile: str) -> None:
        barrier.wait()
        try:
            results.append(services.play(user=player, table_id=table.id, action="discard", move=0, args={"tile": tile}))
        except services.GameError as error:
            results.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=attempt, args=(tile,)) for tile in tiles]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    applied = [r for r in results if isinstance(r, services.Outcome)]
    refused = [r for r in results if isinstance(r, services.GameError)]
    assert len(applied) == 1 and len(refused) == 1
    assert refused[0].code == "stale" and refused[0].details["move"] == 1
    hand.refresh_from_db()
    assert hand.move == 1
    assert Move.objects.filter(hand=hand).count() == 2  # the deal and one discard


# -- seats and room passwords under real concurrency (issue 10, item 10) -----------------------------
# On PostgreSQL these race for real: every thread has its own connection and transaction. (On SQLite
# ``BEGIN IMMEDIATE`` queues the writers, so they pass there without racing.) Each race is run many
# times, because one lucky ordering proves nothing.

SEAT_RACE_ROUNDS = 25
PASSWORD_RACERS = 24


def run_together(*calls) -> list[object]:
    """Start every call at the same instant, each in its own thread and database connection."""
    barrier = threading.Barrier(len(calls))
    results: list[object] = [None] * len(calls)

    def run(index: int, call) -> None:
        try:
            connection.ensure_connection()  # connect first, so the calls really start together
            barrier.wait()
            results[index] = call()
        except Exception as error:  # the refusal is the result
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(index, call)) for index, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def test_two_simultaneous_sit_requests_never_seat_one_user_at_two_chip_tables():
    from games.engine.rules import RuleSet
    from salons import services as salon_services
    from salons.models import Seat

    from .conftest import make_user

    rules = RuleSet.preset("chips", stake=10)
    player = make_user()
    doubled = 0
    for number in range(SEAT_RACE_ROUNDS):
        # Two salons: locking a table must not be what keeps the two requests apart.
        first, second = (chip_table(f"salon-{number}-{side}", rules) for side in "ab")
        run_together(
            lambda first=first: salon_services.take_seat(user=player, table=first, position=0),
            lambda second=second: salon_services.take_seat(user=player, table=second, position=0),
        )
        seats = Seat.objects.filter(user=player).count()
        assert seats >= 1
        doubled += seats > 1
        Seat.objects.filter(user=player).update(user=None, taken_at=None)
    assert doubled == 0, f"seated at two tables in {doubled} of {SEAT_RACE_ROUNDS} rounds"


def chip_table(slug: str, rules):
    from salons.models import Room, Salon, Seat, Table

    from .conftest import make_user

    salon = Salon.objects.create(slug=slug, name=slug)
    room = Room.objects.create(salon=salon, name="Çip odası", owner=make_user(), rules=rules.to_dict())
    table = Table.objects.create(room=room, number=1)
    Seat.objects.bulk_create(Seat(table=table, position=position) for position in range(rules.players))
    return table


def count_password_checks(monkeypatch) -> list[int]:
    from salons.models import Room

    checks: list[int] = []
    lock = threading.Lock()
    original = Room.check_password

    def counted(room, raw):
        with lock:
            checks.append(room.pk)
        return original(room, raw)

    monkeypatch.setattr(Room, "check_password", counted)
    return checks


def test_parallel_wrong_passwords_are_checked_at_most_the_limit(monkeypatch):
    from django.core.cache import cache

    from salons import services as salon_services
    from tests.conftest import make_player, make_room

    cache.clear()
    room = make_room(is_private=True, password="gizli-oda")
    guesser = make_player()
    checks = count_password_checks(monkeypatch)
    results = run_together(*[
        lambda: salon_services.enter_room(user=guesser, room=room, password="yanlis")
        for _ in range(PASSWORD_RACERS)
    ])
    codes = sorted(getattr(result, "code", "?") for result in results)
    assert set(codes) <= {"wrong_password", "too_many_attempts"}, codes
    assert len(checks) <= salon_services.PASSWORD_ATTEMPTS, f"{len(checks)} checks of {PASSWORD_RACERS}"
    assert codes.count("wrong_password") == len(checks)


def test_parallel_wrong_passwords_from_many_accounts_are_checked_at_most_the_room_limit(monkeypatch):
    from django.core.cache import cache

    from salons import room_access
    from salons import services as salon_services
    from tests.conftest import make_player, make_room

    cache.clear()
    monkeypatch.setattr(room_access, "ROOM_PASSWORD_ATTEMPTS", 8)
    room = make_room(is_private=True, password="gizli-oda")
    guessers = [make_player() for _ in range(PASSWORD_RACERS)]
    checks = count_password_checks(monkeypatch)
    results = run_together(*[
        lambda guesser=guesser: salon_services.enter_room(user=guesser, room=room, password="yanlis")
        for guesser in guessers
    ])
    codes = sorted(getattr(result, "code", "?") for result in results)
    assert set(codes) <= {"wrong_password", "room_locked"}, codes
    assert len(checks) <= 8, f"{len(checks)} checks of {PASSWORD_RACERS}"
    assert codes.count("wrong_password") == len(checks)


def test_parallel_room_openings_in_two_salons_never_pass_the_open_room_limit():
    """One account opening rooms in two salons at the same instant: each salon's lock keeps its own
    rooms in order, and only the player's own lock keeps their count under the limit."""
    from salons import services as salon_services
    from salons.models import Room, Salon

    from .conftest import make_user

    player = make_user()
    over = 0
    for number in range(SEAT_RACE_ROUNDS):
        first, second = (Salon.objects.create(slug=f"oda-{number}-{side}", name=f"Salon {number}{side}") for side in "ab")
        Room.objects.filter(owner=player).update(status=Room.Status.CLOSED)
        for n in range(salon_services.MAX_OPEN_ROOMS_PER_USER - 1):
            salon_services.open_room(user=player, salon=first, name=f"Önceki oda {n}")
        results = run_together(
            lambda first=first: salon_services.open_room(user=player, salon=first, name="Birinci"),
            lambda second=second: salon_services.open_room(user=player, salon=second, name="İkinci"),
        )
        opened = Room.objects.filter(owner=player, status=Room.Status.OPEN).count()
        over += opened > salon_services.MAX_OPEN_ROOMS_PER_USER
        refused = [r for r in results if isinstance(r, salon_services.ServiceError)]
        assert opened > salon_services.MAX_OPEN_ROOMS_PER_USER or [r.code for r in refused] == ["too_many_rooms"]
    assert over == 0, f"{over} of {SEAT_RACE_ROUNDS} rounds opened more than the limit"
