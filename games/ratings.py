"""Ratings after each finished match: OpenSkill's Plackett-Luce model (a maintained, open
TrueSkill-like rating), overall and per salon. Called by the services inside their transaction."""

from __future__ import annotations

from dataclasses import replace

from openskill.models import PlackettLuce

from games.engine.scoring import Scoring, scoring_for
from games.models import PlayerRating, RatingPoint

_model = PlackettLuce()


def display_rating(ordinal: float) -> int:
    """The rating as players see it: one whole number, 1000 for a newcomer. OpenSkill's cautious
    estimate (mean minus three deviations) starts at 0 and moves a few points a match; scaled so a
    match moves it by tens, never shown with a sign or a decimal comma."""
    return max(0, round(1000 + 40 * ordinal))


def finishing_ranks(*, scoring: str | Scoring, scores: list[int]) -> list[int] | None:
    """Rank 1 is best; equal scores share a rank (the engine's ``Scoring`` decides which way scores
    go: a classic preset's name, or a game type's own ``Scoring``). Chip tables are not rated."""
    if isinstance(scoring, str):
        return scoring_for(scoring).ranks(scores)
    # ``scores`` are one per rated unit (a team counted once already): rank them as players alone.
    return replace(scoring, teams=None).ranks(scores)


def update_ratings(*, user_ids: list[int], salon_id: int, scoring: str | Scoring, scores: list[int],
                   match_id: int | None = None, team_of: list[int] | None = None) -> None:
    """Fold one match into the overall and the salon rating of each player (seat order).

    ``team_of``: per player, a team key (eşli: partners share one and are rated as one team, so
    both share the result); None when everyone plays alone."""
    keys = team_of if team_of is not None else list(range(len(user_ids)))
    units = list(dict.fromkeys(keys))  # teams in order of first seat
    members = [[index for index, key in enumerate(keys) if key == unit] for unit in units]
    ranks = finishing_ranks(scoring=scoring, scores=[scores[group[0]] for group in members])
    if ranks is None or len(set(user_ids)) < 2 or len(units) < 2:
        return
    for salon in (None, salon_id):
        rows = []
        for user_id in user_ids:
            row, _ = PlayerRating.objects.select_for_update().get_or_create(user_id=user_id, salon_id=salon)
            rows.append(row)
        teams = [[_model.rating(mu=rows[index].mu, sigma=rows[index].sigma) for index in group] for group in members]
        rated = _model.rate(teams, ranks=ranks)
        for group, ratings_after, rank in zip(members, rated, ranks, strict=True):
            for index, rating in zip(group, ratings_after, strict=True):
                row = rows[index]
                row.mu, row.sigma = rating.mu, rating.sigma
                row.ordinal = rating.ordinal()
                row.matches += 1
                row.wins += rank == 1
        PlayerRating.objects.bulk_update(rows, ["mu", "sigma", "ordinal", "matches", "wins"])
        if salon is None and match_id is not None:
            # The overall rating's history, one point per match (the profile's chart).
            RatingPoint.objects.bulk_create(
                [RatingPoint(user_id=row.user_id, match_id=match_id, ordinal=row.ordinal) for row in rows],
                ignore_conflicts=True)
