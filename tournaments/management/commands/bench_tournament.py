"""Players and a knockout for the tournament bench (``bench/tournament.py``); never used by the site.

    manage.py bench_tournament --players 256 --start-in 60   # register N players, print the plan (JSON)
    manage.py bench_tournament --report ID                   # when round 1 started, its tables, moves
    manage.py bench_tournament --teardown ID                 # cancel it (refunds, stops its tables)

Run with ``DJANGO_SETTINGS_MODULE=okeysite.settings_bench`` (MD5 hashes) and the servers' DATABASE_URL.
"""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone

SALON_SLUG = "bench-tournaments"
PASSWORD = "bench-Parola-2026"


def nickname(index: int) -> str:
    return f"btour{index:04d}"


class Command(BaseCommand):
    help = "Create, report on or cancel the tournament bench's knockout."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--players", type=int, default=0)
        parser.add_argument("--start-in", type=float, default=60.0)
        parser.add_argument("--turn-seconds", type=int, default=20)
        parser.add_argument("--report", type=int, default=0)
        parser.add_argument("--teardown", type=int, default=0)

    def handle(self, *args: Any, **options: Any) -> None:
        if options["teardown"]:
            self.stdout.write(json.dumps(teardown(options["teardown"])))
        elif options["report"]:
            self.stdout.write(json.dumps(report(options["report"])))
        elif options["players"] >= 2:
            self.stdout.write(json.dumps(setup(options["players"], options["start_in"], options["turn_seconds"])))
        else:
            raise CommandError("give --players N, --report ID or --teardown ID")


def setup(count: int, start_in: float, turn_seconds: int) -> dict[str, Any]:
    from allauth.account.models import EmailAddress

    from games.engine.rules import RuleSet
    from salons.models import Salon, SalonStaff
    from tournaments import services

    User = get_user_model()
    names = [nickname(i) for i in range(count)] + ["btourstaff"]
    password = make_password(PASSWORD)
    with transaction.atomic():
        salon, _ = Salon.objects.get_or_create(slug=SALON_SLUG, defaults={"name": "Bench turnuva", "position": 99})
        existing = set(User.objects.filter(username__in=names).values_list("username", flat=True))
        User.objects.bulk_create([User(username=n, email=f"{n}@bench.invalid", password=password)
                                  for n in names if n not in existing], batch_size=500)
        User.objects.filter(username__in=names).update(password=password)
        users = dict(User.objects.filter(username__in=names).values_list("username", "id"))
        have = set(EmailAddress.objects.filter(user_id__in=users.values()).values_list("user_id", flat=True))
        EmailAddress.objects.bulk_create([EmailAddress(user_id=uid, email=f"{n}@bench.invalid", primary=True,
                                                       verified=True) for n, uid in users.items() if uid not in have])
        staff = User.objects.get(username="btourstaff")
        SalonStaff.objects.get_or_create(salon=salon, user=staff)
    now = timezone.now()
    tournament = services.create_tournament(
        actor=staff, salon=salon, starts_at=now + timedelta(seconds=start_in), name=f"Bench {now:%H:%M:%S}",
        rules=RuleSet().to_dict(), turn_seconds=turn_seconds, min_players=2, max_players=max(count, 2),
        registration_minutes=60)
    for name in names[:-1]:
        services.register(user=User.objects.get(username=name), tournament_id=tournament.pk)
    return {"tournament": tournament.pk, "password": PASSWORD, "players": names[:-1],
            "starts_at": tournament.starts_at.timestamp()}


def report(tournament_id: int) -> dict[str, Any]:
    from django.db.models import Max, Min

    from games.models import Move
    from tournaments.models import Tournament, TournamentTable

    tournament = Tournament.objects.get(pk=tournament_id)
    tables = TournamentTable.objects.filter(tournament=tournament, round=1)
    span = tables.aggregate(first=Min("created_at"), last=Max("created_at"))
    return {
        "status": tournament.status,
        "started_at": tournament.started_at.timestamp() if tournament.started_at else None,
        "tables": tables.count(),
        "first_table_at": span["first"].timestamp() if span["first"] else None,
        "last_table_at": span["last"].timestamp() if span["last"] else None,
        "moves": Move.objects.filter(hand__match_id__in=tables.values("match_id")).exclude(number=0).count(),
        "auto_moves": Move.objects.filter(hand__match_id__in=tables.values("match_id"), auto=True).count(),
    }


def teardown(tournament_id: int) -> dict[str, Any]:
    from django.contrib.auth import get_user_model

    from tournaments import services
    from tournaments.models import Tournament

    tournament = Tournament.objects.get(pk=tournament_id)
    if tournament.status in (Tournament.Status.SCHEDULED, Tournament.Status.RUNNING):
        services.cancel(actor=get_user_model().objects.get(username="btourstaff"), tournament_id=tournament_id,
                        reason="bench over")
    return {"cancelled": tournament_id}
