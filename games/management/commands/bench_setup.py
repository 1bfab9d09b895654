"""Tables, seats and players for the load test (``bench/load.py``); never used by the site itself.

    manage.py bench_setup --tables 500            # create/reset, print the plan as JSON
    manage.py bench_setup --report --since ISO    # moves, auto moves and hands on bench tables since ISO
    manage.py bench_setup --teardown              # abandon the bench tables' running matches

Run it with ``DJANGO_SETTINGS_MODULE=okeysite.settings_bench`` (MD5 password hashes, so 2,000
sign-ins stay cheap) and the same ``DATABASE_URL`` as the servers under test. Bench players are
ordinary accounts with a verified address, so they sign in through the real allauth form; they live
in their own salon (``bench``), in rooms of eight tables, and are re-used from run to run.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils.dateparse import parse_datetime

from accounts.validators import nickname_key

SALON_SLUG = "bench"
PASSWORD = "bench-Parola-2026"
TABLES_PER_ROOM = 8


def nickname(table_index: int, seat: int) -> str:
    return f"bench{table_index:04d}s{seat}"


class Command(BaseCommand):
    help = "Create (or reset) load-test tables and players; report on or tear down a load test."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--tables", type=int, default=0)
        parser.add_argument("--turn-seconds", type=int, default=10)
        parser.add_argument("--report", action="store_true")
        parser.add_argument("--since", default="")
        parser.add_argument("--hands-file", default="", help="JSON list of hand ids the clients saw end")
        parser.add_argument("--teardown", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["teardown"]:
            self.stdout.write(json.dumps({"abandoned": teardown()}))
        elif options["report"]:
            since = parse_datetime(options["since"]) if options["since"] else None
            if options["since"] and since is None:
                raise CommandError("--since must be an ISO date-time")
            hand_ids = json.loads(Path(options["hands_file"]).read_text()) if options["hands_file"] else None
            self.stdout.write(json.dumps(report(since, hand_ids)))
        elif options["tables"] > 0:
            if "MD5PasswordHasher" not in settings.PASSWORD_HASHERS[0]:
                self.stderr.write("note: not running with okeysite.settings_bench; sign-ins will be slow")
            self.stdout.write(json.dumps(setup(options["tables"], options["turn_seconds"])))
        else:
            raise CommandError("give --tables N, --report or --teardown")


def bench_tables():
    from salons.models import Table

    return Table.objects.filter(room__salon__slug=SALON_SLUG)


def teardown() -> int:
    from games import services
    from games.models import Match

    table_ids = list(Match.objects.filter(table__in=bench_tables(), status=Match.Status.RUNNING)
                     .values_list("table_id", flat=True))
    for table_id in table_ids:
        services.abandon_match(table_id=table_id, reason="bench")
    return len(table_ids)


def report(since, hand_ids: list[int] | None = None) -> dict[str, Any]:
    """What the database holds for the run: with ``hand_ids``, only the hands the clients saw end
    (so autoplay of tables whose players already left does not count)."""
    from games.models import Hand, Move

    moves = Move.objects.filter(hand__match__table__in=bench_tables()).exclude(number=0)
    hands = Hand.objects.filter(match__table__in=bench_tables(), status=Hand.Status.OVER)
    if since is not None:
        moves = moves.filter(created_at__gte=since)
        hands = hands.filter(finished_at__gte=since)
    if hand_ids is not None:
        moves = moves.filter(hand_id__in=hand_ids)
        hands = hands.filter(pk__in=hand_ids)
    auto = moves.filter(auto=True)
    return {
        "moves": moves.count(),
        "auto_moves": auto.count(),
        # One timeout is one auto turn: a draw (unless the player had drawn) and a discard.
        "timeouts": auto.filter(action="discard").count() + auto.filter(action="pile_out").count(),
        "hands_over": hands.count(),
    }


def setup(tables: int, turn_seconds: int) -> dict[str, Any]:
    from allauth.account.models import EmailAddress

    from games.engine.rules import RuleSet
    from games.models import ReadyMark
    from salons.models import Room, Salon, Seat, Table

    teardown()
    User = get_user_model()
    names = [nickname(t, s) for t in range(tables) for s in range(4)]
    with transaction.atomic():
        salon, _ = Salon.objects.get_or_create(
            slug=SALON_SLUG, defaults={"name": "Bench", "description": "load test", "position": 99})
        existing = set(User.objects.filter(username__in=names).values_list("username", flat=True))
        password = make_password(PASSWORD)
        User.objects.bulk_create(
            [User(username=name, nickname_key=nickname_key(name), email=f"{name}@bench.invalid", password=password)
             for name in names
             if name not in existing], batch_size=500)
        User.objects.filter(username__in=names).update(password=password)
        users = dict(User.objects.filter(username__in=names).values_list("username", "id"))
        have_email = set(EmailAddress.objects.filter(user_id__in=users.values()).values_list("user_id", flat=True))
        EmailAddress.objects.bulk_create(
            [EmailAddress(user_id=uid, email=f"{name}@bench.invalid", primary=True, verified=True)
             for name, uid in users.items() if uid not in have_email], batch_size=500)

        rooms = list(Room.objects.filter(salon=salon).order_by("pk"))
        plan_tables = []
        for index in range(tables):
            room_index, number = divmod(index, TABLES_PER_ROOM)
            while len(rooms) <= room_index:
                owner_id = users[nickname(len(rooms) * TABLES_PER_ROOM, 0)]
                rooms.append(Room.objects.create(salon=salon, name=f"Bench {len(rooms) + 1}", owner_id=owner_id,
                                                 rules=RuleSet().to_dict(), turn_seconds=turn_seconds))
            room = rooms[room_index]
            if room.turn_seconds != turn_seconds or room.status != Room.Status.OPEN:
                Room.objects.filter(pk=room.pk).update(turn_seconds=turn_seconds, status=Room.Status.OPEN,
                                                       closed_at=None)
            table, _ = Table.objects.get_or_create(room=room, number=number + 1)
            if table.status != Table.Status.WAITING:
                Table.objects.filter(pk=table.pk).update(status=Table.Status.WAITING)
            ReadyMark.objects.filter(table=table).delete()
            seat_users = [users[nickname(index, seat)] for seat in range(4)]
            # Free the bench players' seats elsewhere first (seat_one_per_user_per_table is per table).
            Seat.objects.filter(user_id__in=seat_users).exclude(table=table).update(user=None)
            for seat, uid in enumerate(seat_users):
                Seat.objects.update_or_create(table=table, position=seat, defaults={"user_id": uid})
            plan_tables.append({"id": table.pk, "players": [nickname(index, seat) for seat in range(4)]})
    return {"password": PASSWORD, "turn_seconds": turn_seconds, "tables": plan_tables}
