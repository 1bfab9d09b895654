"""The end of a tournament: the standings, final places and prizes paid through the chip ledger, or
a cancellation that pays every buy-in back."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.services import change_chips
from games.engine.game_types import game_type_of
from games.engine.kart.rules import RulesKart
from games.engine.rules import RuleSet
from salons.models import Room
from tournaments import events, logic
from tournaments.entries import _refund
from tournaments.models import Entry, Format, Tournament, TournamentLog, TournamentTable
from tournaments.service_common import REASON_MAX, _lock, _lock_for_staff, _public_text


def standings(tournament: Tournament) -> list[int]:
    """User ids from first to last (removed players last)."""
    entries = list(Entry.objects.filter(tournament=tournament))
    removed = {e.user_id for e in entries if e.state == Entry.State.REMOVED}
    if tournament.format == Format.ARENA:
        players = [logic.ArenaPlayer(player_id=e.user_id, points=e.points, rating=e.rating)
                   for e in entries if e.user_id not in removed]
        placed = logic.arena_standings(players, {e.user_id: e.hands_won for e in entries})
        # Someone the clock played for at every table they were seated at comes after everyone
        # who played (RULES.md "Absent players never win").
        played = arena_players_who_played(tournament)
        return [u for u in placed if u in played] + [u for u in placed if u not in played] + sorted(removed)
    results = [logic.TableResult(round=t.round, seats=tuple(t.players), ranking=tuple(t.ranking))
               for t in TournamentTable.objects.filter(tournament=tournament, status=TournamentTable.Status.FINISHED)]
    placed = logic.knockout_standings(results, removed=removed)
    # Those still in come first: a person put out for not playing a table is never placed above
    # the person who went on from a table of the same round.
    still_in = {e.user_id for e in entries if e.state in (Entry.State.PLAYING, Entry.State.WAITING)}
    placed = [u for u in placed if u in still_in] + [u for u in placed if u not in still_in]
    never_seated = sorted(e.user_id for e in entries if e.user_id not in placed)
    return placed + never_seated


def arena_players_who_played(tournament: Tournament) -> set[int]:
    """The people who made at least one move of their own at one of the arena's tables."""
    from games.models import MatchPlayer

    match_ids = TournamentTable.objects.filter(tournament=tournament).values("match_id")
    return set(MatchPlayer.objects.filter(match_id__in=match_ids, own_moves__gt=0).values_list("user_id", flat=True))


def finish(*, tournament_id: int, now: datetime | None = None) -> str:
    """Final places and prizes, paid through the chip ledger (paid out = the pool). Idempotent."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = _lock(tournament_id)
        if tournament.status != Tournament.Status.RUNNING:
            return "nothing"
        if TournamentTable.objects.filter(tournament=tournament, status=TournamentTable.Status.PLAYING).exists():
            return "tables_playing"
        order = standings(tournament)
        entries = {e.user_id: e for e in Entry.objects.select_for_update().select_related("user").filter(
            tournament=tournament)}
        removed = {user_id for user_id, e in entries.items() if e.state == Entry.State.REMOVED}
        # Who may take a prize place: nobody removed, nobody the clock played for all along
        # (RULES.md "Absent players never win").
        if tournament.format == Format.ARENA:
            played = arena_players_who_played(tournament)
            eligible = [u for u in order if u not in removed and u in played]
            payout = logic.arena_prizes(tournament.pool, eligible)
        else:
            final = TournamentTable.objects.filter(tournament=tournament, round=tournament.round).order_by("pk").first()
            if final is not None and TournamentTable.objects.filter(tournament=tournament,
                                                                    round=tournament.round).count() == 1:
                seated = [(final.players[seat], final.scores[seat]) for seat in final.ranking]
                # A finalist who did not play the final table was put out by it (hand_recorded).
                out = removed | {u for u in final.players if u in entries and entries[u].state == Entry.State.OUT}
                game = game_type_of(tournament.rules)
                rules = game.rules(tournament.rules)
                if isinstance(rules, RuleSet):
                    payout = logic.knockout_prizes(tournament.pool, seated, scoring=rules.scoring,
                                                   hands_per_match=rules.hands_per_match, out=out)
                elif isinstance(rules, RulesKart):
                    payout = _kart_final_payout(tournament, final, game, out=out)
                else:
                    payout = logic.knockout_prizes(tournament.pool, seated, scoring=logic.OKEY101, out=out)
                eligible = [u for u in order if u in final.players and u not in out]
            else:
                # Stopped before a final table (everyone else removed): the best-placed person takes it.
                people = [u for u in order if u not in removed and entries[u].state != Entry.State.OUT]
                payout = {people[0]: tournament.pool} if people and tournament.pool else {}
                eligible = people
        champion = eligible[0] if eligible else None
        if payout and sum(payout.values()) != tournament.pool:
            raise AssertionError("a payout must add up to the pool")
        if tournament.pool and not payout:
            # Nobody who played may take a prize place (everyone still in was absent): the buy-ins
            # go back rather than to nobody; chips staff added are simply not paid out.
            for entry in entries.values():
                _refund(entry, note=f"tournament {tournament.pk} no prize place taken")
        for place, user_id in enumerate(order, start=1):
            entry = entries[user_id]
            entry.place = place
            entry.prize = payout.get(user_id, 0)
            # The final word on everyone still in: first place won, the others played it out.
            if user_id == champion:
                entry.state = Entry.State.WON
            elif entry.state in (Entry.State.PLAYING, Entry.State.WAITING, Entry.State.PAUSED):
                entry.state = Entry.State.COMPLETED
            if entry.prize:
                change_chips(user=entry.user, amount=entry.prize, note=f"tournament {tournament.pk} place {place}")
        Entry.objects.bulk_update(entries.values(), ["place", "prize", "state"])
        tournament.status = Tournament.Status.FINISHED
        tournament.finished_at = now
        tournament.next_step_at = None
        tournament.save(update_fields=["status", "finished_at", "next_step_at"])
        if tournament.room_id:
            Room.objects.filter(pk=tournament.room_id).update(status=Room.Status.CLOSED, closed_at=now)
        TournamentLog.objects.create(tournament=tournament, action="finish")
        transaction.on_commit(lambda: events.tournament_changed(tournament.pk))
    return "finished"


def _kart_final_payout(tournament: Tournament, final: TournamentTable, game: Any, *, out: set[int]) -> dict[int, int]:
    """A Kart Okey final table pays by its own rule 9 (source 004's table, the engine's
    ``prize_split``): the table's totals, whether any hand of it was won and its play order come
    from the final match's state."""
    from games.models import Match

    stored = Match.objects.filter(pk=final.match_id).values_list("state", flat=True).first()
    if stored is None:
        # The match is gone (deleted by staff): the table's totals alone, a won table, seat order.
        rules = game.rules(tournament.rules)
        return logic.kart_knockout_prizes(tournament.pool, list(zip(final.players, final.scores, strict=True)),
                                          had_winner=True, limit=rules.prize_limit, out=out)
    match_state = game.match_from_dict(stored)
    return logic.kart_knockout_prizes(
        tournament.pool, list(zip(final.players, final.scores, strict=True)),
        had_winner=bool(game.winners(match_state)), limit=match_state.rules.prize_limit,
        order=match_state.play_order, out=out)


def cancel(*, actor: Any, tournament_id: Any, reason: str) -> Tournament:
    """Staff call a tournament off: every buy-in comes back, tables in play are stopped. The reason
    is shown to everyone on the tournament page, so it is public text."""
    reason = " ".join(_public_text(reason or "", code="bad_reason").split())
    with transaction.atomic():
        tournament = _lock_for_staff(actor=actor, tournament_id=tournament_id, reason=reason)
        TournamentLog.objects.create(tournament=tournament, actor=actor, action="cancel", reason=reason)
        _cancel(tournament, reason=reason, now=timezone.now())
    return tournament


def _cancel(tournament: Tournament, *, reason: str, now: datetime) -> None:
    for entry in Entry.objects.select_for_update().select_related("user").filter(tournament=tournament):
        _refund(entry, note=f"tournament {tournament.pk} cancelled")
    playing = list(TournamentTable.objects.filter(tournament=tournament, status=TournamentTable.Status.PLAYING)
                   .values_list("table_id", flat=True))
    TournamentTable.objects.filter(tournament=tournament, status=TournamentTable.Status.PLAYING).update(
        status=TournamentTable.Status.FINISHED, finished_at=now)
    tournament.status = Tournament.Status.CANCELLED
    tournament.cancel_reason = reason[:REASON_MAX]
    tournament.finished_at = now
    tournament.next_step_at = None
    tournament.save(update_fields=["status", "cancel_reason", "finished_at", "next_step_at"])
    if tournament.room_id:
        Room.objects.filter(pk=tournament.room_id).update(status=Room.Status.CLOSED, closed_at=now)
    tournament_id = tournament.pk

    def after() -> None:
        from games.services import abandon_match

        for table_id in playing:
            abandon_match(table_id=table_id, reason="tournament_cancelled")
        events.tournament_changed(tournament_id)

    transaction.on_commit(after)
