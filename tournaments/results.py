"""Results: the live-play side calls ``hand_recorded`` (through ``tournaments.receivers``) from
inside the transaction that records a finished hand, so a table's result and the tournament's
standings are written together with the hand."""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from salons.models import Table
from tournaments import events, logic
from tournaments.models import Entry, Format, Tournament, TournamentTable

# Knockout: results stay on screen this long before the next round is seated.
ROUND_PAUSE_SECONDS = 10


def hand_recorded(*, match, match_state, not_present: set[int] = frozenset(),
                  clock_played: set[int] = frozenset()) -> set[int] | None:
    """A hand of some match was recorded; if the match is a tournament table, score it and return
    the seats the tournament names as the table's winners (None: not a tournament table, or its
    match goes on).

    Arena: every finished hand scores tournament points and ends that table (its players are free
    again and are re-seated by score); a seat the turn clock played for most of the hand
    (``clock_played``) scores nothing. Knockout: when the match is over, the table's result decides
    who goes on; a person the clock played for all match long, or who left it (``not_present``),
    never goes on and is placed after the people who played (RULES.md "Absent players never win").
    Locks the tournament's table and entries only — never the tournament row, which is locked
    before tables and matches elsewhere — and leaves the next step to the sweep.
    """
    from games.engine.game_types import game_type_of

    tournament_table = (TournamentTable.objects.select_for_update().select_related("tournament")
                        .filter(match_id=match.pk, status=TournamentTable.Status.PLAYING).first())
    if tournament_table is None:
        return None
    tournament = tournament_table.tournament
    now = timezone.now()
    seats = tournament_table.players
    people = [user_id for user_id in seats if user_id is not logic.BOT]
    entries = {entry.user_id: entry for entry in
               Entry.objects.select_for_update().filter(tournament=tournament, user_id__in=people)}
    if tournament.format == Format.ARENA:
        entry = match_state.history[-1] if match_state.history else {}
        game = game_type_of(match.rules).name
        points = [0 if seat in clock_played else value
                  for seat, value in enumerate(logic.arena_hand_points(entry, len(seats), game=game))]
        for seat, user_id in enumerate(seats):
            player = entries.get(user_id)
            if player is None or player.state == Entry.State.REMOVED:
                continue
            player.points += points[seat]
            player.hands_won += 1 if logic.hand_winner(entry) == seat and seat not in clock_played else 0
            if player.state == Entry.State.PLAYING:
                player.state = Entry.State.PAUSED if player.wants_pause else Entry.State.WAITING
                player.free_since = now
                player.wants_pause = False
        ranking = sorted(range(len(seats)), key=lambda seat: -points[seat])
        # The table's winner: the person whose hand scored the most (none when nobody scored).
        scored = [seat for seat, user_id in enumerate(seats)
                  if user_id in entries and entries[user_id].state != Entry.State.REMOVED and points[seat] > 0]
        best = max((points[seat] for seat in scored), default=0)
        named = {seat for seat in scored if points[seat] == best}
        _end_arena_match(match)
    else:
        if not game_type_of(match.rules).is_over(match_state):
            return None
        seed_rank = {user_id: entry.seed or 0 for user_id, entry in entries.items()}
        scoring = game_type_of(match.rules).scoring(match_state.rules)
        ranking = logic.table_ranking(seats, match_state.scores, scoring, seed_rank=seed_rank)
        # People who did not play the match are placed after those who did (bots keep their place:
        # they never count among the table's people).
        ranking = ([seat for seat in ranking if seat not in not_present]
                   + [seat for seat in ranking if seat in not_present])
        removed = {user_id for user_id, entry in entries.items() if entry.state == Entry.State.REMOVED}
        absent = {seats[seat] for seat in not_present if seats[seat] is not logic.BOT}
        going = logic.advancers(seats, ranking, tournament.go_on, out=removed | absent)
        final = TournamentTable.objects.filter(tournament=tournament, round=tournament_table.round).count() == 1
        for user_id, player in entries.items():
            if player.state == Entry.State.REMOVED:
                continue
            # At the final table everyone who played waits for the places; nobody absent does.
            through = user_id in going or (final and user_id not in absent)
            player.state = Entry.State.WAITING if through else Entry.State.OUT
        tournament_table.went_on = [] if final else going
        champion = logic.advancers(seats, ranking, 1, out=removed | absent) if final else going
        named = {seat for seat, user_id in enumerate(seats) if user_id is not logic.BOT and user_id in champion}
    Entry.objects.bulk_update(entries.values(), ["points", "hands_won", "state", "free_since", "wants_pause"])
    tournament_table.status = TournamentTable.Status.FINISHED
    tournament_table.finished_at = now
    tournament_table.ranking = ranking
    tournament_table.scores = list(match_state.scores)
    tournament_table.save(update_fields=["status", "finished_at", "ranking", "scores", "went_on"])
    # The next step is due: at once in an arena, after the results pause between knockout rounds.
    pause = 0 if tournament.format == Format.ARENA else ROUND_PAUSE_SECONDS
    due = now + timedelta(seconds=pause)
    if tournament.format == Format.ARENA and tournament.ends_at and due > tournament.ends_at:
        due = now
    Tournament.objects.filter(pk=tournament.pk).update(next_step_at=due)
    transaction.on_commit(lambda: events.tournament_changed(tournament.pk))
    return named


def _end_arena_match(match) -> None:
    """An arena table plays one hand: the match ends with it and the table is free."""
    from games.models import Match

    Match.objects.filter(pk=match.pk, status=Match.Status.RUNNING).update(
        status=Match.Status.FINISHED, finished_at=timezone.now())
    Table.objects.filter(pk=match.table_id).update(status=Table.Status.WAITING)
