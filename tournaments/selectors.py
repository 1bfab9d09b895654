"""Read side of tournaments: lists, standings, rounds, the site notice and the profile line."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db.models import Count, Min, Sum
from django.utils import timezone

from tournaments.models import Entry, Format, Tournament, TournamentTable

# The site reminds a registered player this long before their tournament starts.
REMINDER_MINUTES = 15
LIST_LIMIT = 20
STRIP_LIMIT = 4


def tournament_lists(now: datetime | None = None) -> dict[str, list[Tournament]]:
    base = Tournament.objects.select_related("salon").annotate(players=Count("entries"))
    return {
        "upcoming": list(base.filter(status=Tournament.Status.SCHEDULED).order_by("starts_at")[:LIST_LIMIT]),
        "running": list(base.filter(status=Tournament.Status.RUNNING).order_by("started_at")[:LIST_LIMIT]),
        "finished": list(base.filter(status__in=[Tournament.Status.FINISHED, Tournament.Status.CANCELLED])
                         .order_by("-finished_at")[:LIST_LIMIT]),
    }


def lobby_strip() -> list[Tournament]:
    """The next few tournaments, running ones first: one query."""
    return list(Tournament.objects.filter(status__in=[Tournament.Status.SCHEDULED, Tournament.Status.RUNNING])
                .annotate(players=Count("entries")).order_by("-status", "starts_at")[:STRIP_LIMIT])


def prize_pool(tournament: Tournament) -> int:
    """The pool as players should read it: fixed at the start; before it, the buy-ins taken so far
    plus the chips staff add (what the start will fix, unless someone unregisters or is banned)."""
    if tournament.status != Tournament.Status.SCHEDULED:
        return tournament.pool
    paid = (Entry.objects.filter(tournament=tournament).exclude(state=Entry.State.REMOVED)
            .aggregate(total=Sum("paid"))["total"]) or 0
    return paid + tournament.added_chips


def entry_of(tournament: Tournament, user: Any) -> Entry | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return Entry.objects.filter(tournament=tournament, user=user).first()


def standings_rows(tournament: Tournament) -> list[dict[str, Any]]:
    """The standings as shown: finished → by place; running knockout → still in first, by seed;
    arena → by points."""
    from tournaments.services import standings

    entries = {e.user_id: e for e in Entry.objects.filter(tournament=tournament).select_related("user")}
    if tournament.status == Tournament.Status.FINISHED:
        order = sorted(entries, key=lambda u: (entries[u].place or 10**6, u))
    elif tournament.status == Tournament.Status.RUNNING:
        order = standings(tournament)
        if tournament.format == Format.KNOCKOUT:
            still_in = [u for u in entries if entries[u].state in (Entry.State.PLAYING, Entry.State.WAITING)]
            still_in.sort(key=lambda u: (entries[u].seed or 0, u))
            order = still_in + [u for u in order if u not in still_in]
    else:
        order = sorted(entries, key=lambda u: (entries[u].registered_at, u))
    order += [u for u in entries if u not in order]
    # Who is at which table now: their state links to it (anyone may watch a tournament table).
    at_table = {}
    if tournament.status == Tournament.Status.RUNNING:
        for table_id, players in TournamentTable.objects.filter(
                tournament=tournament, status=TournamentTable.Status.PLAYING).values_list("table_id", "players"):
            at_table.update({user_id: f"/tables/{table_id}/" for user_id in players if user_id is not None})
    return [{"rank": index, "entry": entries[user_id], "nickname": entries[user_id].user.username,
             "table_url": at_table.get(user_id) if entries[user_id].state == Entry.State.PLAYING else None}
            for index, user_id in enumerate(order, start=1)]


def rounds(tournament: Tournament) -> list[dict[str, Any]]:
    """Every round's tables: players (bots marked), scores and who went on, with the watch link."""
    from django.contrib.auth import get_user_model

    tables = list(TournamentTable.objects.filter(tournament=tournament).select_related("match").order_by("round", "pk"))
    user_ids = {u for t in tables for u in t.players if u is not None}
    names = dict(get_user_model().objects.filter(pk__in=user_ids).values_list("pk", "username"))
    hands = {}
    if tables:
        from games.models import Hand

        hands = dict(Hand.objects.filter(match_id__in=[t.match_id for t in tables if t.match_id])
                     .values_list("match_id").annotate(first=Min("pk")))
    by_round: dict[int, list[dict[str, Any]]] = {}
    for table in tables:
        order = table.ranking or list(range(len(table.players)))
        seats = []
        for place, seat in enumerate(order, start=1):
            user_id = table.players[seat]
            seats.append({
                "nickname": names.get(user_id, "") if user_id is not None else None,
                "bot": user_id is None,
                "score": table.scores[seat] if table.scores else None,
                "went_on": user_id in (table.went_on or []),
                "place": place if table.ranking else None,
            })
        by_round.setdefault(table.round, []).append({
            "table": table, "seats": seats, "watch_url": f"/tables/{table.table_id}/",
            "first_hand": hands.get(table.match_id),
        })
    return [{"number": number, "tables": items} for number, items in sorted(by_round.items())]


def notice_for(user: Any, now: datetime | None = None) -> dict[str, Any]:
    """For the site notice: the user's tournaments starting within the reminder window or running
    with them in it (``tournaments``); ``listen``: they are in some tournament not over, so their
    pages keep the push socket open; ``recheck``: seconds until the next reminder window opens."""
    if not getattr(user, "is_authenticated", False):
        return {"tournaments": [], "listen": False, "recheck": None}
    now = now or timezone.now()
    soon = now + timedelta(minutes=REMINDER_MINUTES)
    entries = (Entry.objects.filter(user=user).exclude(state__in=[Entry.State.REMOVED, Entry.State.OUT,
                                                                    Entry.State.LEFT])
               .filter(tournament__status__in=[Tournament.Status.SCHEDULED, Tournament.Status.RUNNING])
               .select_related("tournament"))
    notices = []
    later = []
    for entry in entries:
        tournament = entry.tournament
        if tournament.status == Tournament.Status.SCHEDULED and tournament.starts_at > soon:
            later.append((tournament.starts_at - soon).total_seconds())
            continue
        table = _table_of(tournament, user.pk) if entry.state == Entry.State.PLAYING else None
        notices.append({
            "tournament": tournament.pk, "name": tournament.name, "url": tournament.get_absolute_url(),
            "status": tournament.status, "starts_at": tournament.starts_at.isoformat(),
            "seconds_to_start": max(0, int((tournament.starts_at - now).total_seconds())),
            "table_url": f"/tables/{table}/" if table else None,
        })
    return {"tournaments": notices, "listen": bool(notices or later),
            "recheck": int(min(later)) + 1 if later else None}


def _table_of(tournament: Tournament, user_id: int) -> int | None:
    for table_id, players in TournamentTable.objects.filter(
            tournament=tournament, status=TournamentTable.Status.PLAYING).values_list("table_id", "players"):
        if user_id in players:
            return table_id
    return None


def profile_line(user_id: int) -> dict[str, Any]:
    """Tournaments played (finished ones) and the best place."""
    stats = Entry.objects.filter(user_id=user_id, tournament__status=Tournament.Status.FINISHED).aggregate(
        played=Count("pk"), best=Min("place"))
    return {"played": stats["played"] or 0, "best": stats["best"]}
