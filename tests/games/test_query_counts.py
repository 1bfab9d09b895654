"""Queries per move and per page: a ceiling a little above what each path costs today, so a slow
path (a query per seat, per player, per table) cannot creep back in unnoticed.

A move is counted whole: the service's transaction and what runs after commit (the per-seat frames
published to the table). If a change needs more, look at why before raising a limit.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games import services
from games.engine.tiles import format_tile
from games.models import Hand, Match
from salons.models import Table

from .conftest import make_table

pytestmark = pytest.mark.django_db

# Measured on SQLite and PostgreSQL (tests count SAVEPOINT/RELEASE where the site has BEGIN/COMMIT):
# draw 7 and discard 7 (hand, match, players, move log, hand state; the frames are built from what
# was written, the next turn's clock is a column), timeout 7 (+ the player's time-out count), table
# page 6, lobby 8 (one for the tables and free seats of every salon, one for the player's own table in the banner, one for the tournament strip), salon page 11 (eight rooms: no query per room), room page 15 (eight tables: none
# per table).
MAX_DRAW = 8
MAX_DISCARD = 8
MAX_TIMEOUT = 8
MAX_TABLE_PAGE = 7
MAX_LOBBY = 9
MAX_SALON_PAGE = 12
MAX_ROOM_PAGE = 16


def started(table, users) -> tuple[Match, Hand]:
    match = services.start_match(user=table.room.owner, table_id=table.id)
    return match, match.hands.get()


def seated_client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def playing(django_capture_on_commit_callbacks):
    table, users = make_table()
    with django_capture_on_commit_callbacks(execute=True):
        match, hand = started(table, users)
    return table, users, hand


def test_a_draw_and_a_discard(playing, django_assert_max_num_queries, django_capture_on_commit_callbacks):
    table, users, hand = playing
    # The starting seat holds 15 tiles: it discards first.
    hand.refresh_from_db()
    seat = hand.turn_seat
    tile = format_tile(hand.state["racks"][seat][-1])
    with django_assert_max_num_queries(MAX_DISCARD), django_capture_on_commit_callbacks(execute=True):
        services.play(user=users[seat], table_id=table.id, action="discard", move=hand.move, args={"tile": tile})
    hand.refresh_from_db()
    with django_assert_max_num_queries(MAX_DRAW), django_capture_on_commit_callbacks(execute=True):
        services.play(user=users[hand.turn_seat], table_id=table.id, action="draw", move=hand.move,
                      args={"source": "pile"})
    hand.refresh_from_db()
    assert hand.move == 2


def test_a_timeout_resolution(playing, django_assert_max_num_queries, django_capture_on_commit_callbacks):
    table, users, hand = playing
    Hand.objects.filter(pk=hand.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    hand.refresh_from_db()
    with django_assert_max_num_queries(MAX_TIMEOUT), django_capture_on_commit_callbacks(execute=True):
        assert services.resolve_timeout(hand_id=hand.id, move=hand.move)


def test_the_table_page(playing, django_assert_max_num_queries):
    table, users, hand = playing
    client = seated_client(users[0])
    with django_assert_max_num_queries(MAX_TABLE_PAGE):
        response = client.get(f"/tables/{table.id}/")
    assert response.status_code == 200


def many_rooms_and_tables() -> tuple:
    """Eight rooms, one with eight full tables: pages must not cost a query per room or table."""
    table, users = make_table()
    room = table.room
    for number in range(2, 9):
        make_table(owner=room.owner)  # a room of its own each
        extra = Table.objects.create(room=room, number=number)
        for position in range(4):
            from salons.models import Seat

            Seat.objects.create(table=extra, position=position, user=users[position] if number == 2 else None)
    return room, users


def test_the_lobby_page(django_assert_max_num_queries):
    room, users = many_rooms_and_tables()
    client = seated_client(users[0])
    with django_assert_max_num_queries(MAX_LOBBY):
        response = client.get("/")
    assert response.status_code == 200


def test_a_salon_page(django_assert_max_num_queries):
    room, users = many_rooms_and_tables()
    client = seated_client(users[0])
    with django_assert_max_num_queries(MAX_SALON_PAGE):
        response = client.get(f"/salons/{room.salon.slug}/")
    assert response.status_code == 200


def test_a_room_page(django_assert_max_num_queries):
    room, users = many_rooms_and_tables()
    client = seated_client(users[0])
    with django_assert_max_num_queries(MAX_ROOM_PAGE):
        response = client.get(f"/rooms/{room.id}/")
    assert response.status_code == 200


def test_a_move_is_two_statements_and_on_postgresql_both_run_prepared(playing, django_capture_on_commit_callbacks):
    """The move path's own SQL (games.move_sql): the hand locked with its match and players in one
    statement, its update and Move rows written in one; on PostgreSQL both prepared once per
    connection (pg_prepared_statements), so a move is not planned again."""
    from django.db import connection

    table, users, hand = playing
    hand.refresh_from_db()
    for _ in range(3):
        seat = hand.turn_seat
        executed: list[str] = []

        def recorded(execute, sql, params, many, context, executed=executed):
            executed.append(sql)
            return execute(sql, params, many, context)

        with connection.execute_wrapper(recorded), django_capture_on_commit_callbacks(execute=True):
            if hand.state["phase"] == "draw":
                services.play(user=users[seat], table_id=table.id, action="draw", move=hand.move,
                              args={"source": "pile"})
            else:
                tile = format_tile(hand.state["racks"][seat][-1])
                services.play(user=users[seat], table_id=table.id, action="discard", move=hand.move,
                              args={"tile": tile})
        hand.refresh_from_db()
        statements = [sql for sql in executed if not sql.startswith(("SAVEPOINT", "RELEASE"))]
        if connection.vendor == "postgresql":
            assert len(statements) == 2, statements
            assert "FOR UPDATE OF h" in statements[0] and "json_agg" in statements[0]
            assert statements[1].startswith("WITH updated AS (UPDATE") and "INSERT INTO" in statements[1]
        else:
            # SQLite: the same reads and writes, a statement each (lock, players, update, insert).
            assert len(statements) == 4, statements
    assert hand.move == 3
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT statement FROM pg_prepared_statements")
            prepared = [row[0] for row in cursor.fetchall()]
        assert any("FOR UPDATE OF h" in statement for statement in prepared), prepared
        assert any(statement.startswith("WITH updated AS (UPDATE") for statement in prepared), prepared
