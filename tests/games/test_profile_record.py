"""Profiles add up (issue 13): hands and matches played and won, finishes by kind, the rating as one
number with its history chart, recent matches; the hand history gives each hand's result; bots
wear a badge and cannot be reported; practice never counts."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.errors import ServiceError
from games import bot_players, practice, services, stats
from games.engine.rules import RuleSet
from games.models import Hand, Match, MatchPlayer, Move
from games.templatetags.numbers import signed
from moderation import services as moderation_services

from .conftest import make_table, make_user, play_hand_out

pytestmark = pytest.mark.django_db


def play_penalty_match(users=None, *, absent=()):
    """A one-hand penalty match the players play themselves (those in ``absent`` never connect:
    the turn clock plays them)."""
    table, users = make_table(rules=RuleSet.preset("penalty", hands_per_match=1), players=users)
    services.start_match(user=table.room.owner, table_id=table.id)
    hand = play_hand_out(Hand.objects.get(match__table=table, status=Hand.Status.PLAYING), absent=absent)
    return table, users, hand


def test_the_record_counts_hands_matches_finishes_and_rating():
    table, users, hand = play_penalty_match()
    finish = Move.objects.filter(hand=hand, action="finish").first()
    for seat, user in enumerate(users):
        record = stats.player_record(user)
        assert record["hands_played"] == 1 and record["matches_played"] == 1
        won = finish is not None and finish.seat == seat
        assert record["hands_won"] == int(won)
        assert record["finishes"].total == int(won)
        assert record["rating"] is not None and record["rated_matches"] == 1
        assert record["recent"][0]["room"] == table.room.name
    assert sum(stats.player_record(user)["matches_won"] for user in users) >= 1


def test_the_profile_page_shows_it_with_a_rating_chart_after_two_matches():
    table, users, hand = play_penalty_match()
    play_penalty_match(users)
    client = Client()
    page = client.get(f"/players/{users[0].username}/").content.decode()
    assert 'data-stat="hands_played">2<' in page and 'data-stat="matches_played">2<' in page
    assert 'data-testid="rating-chart"' in page and "<polyline" in page
    assert "μ" not in page and "OpenSkill" not in page
    assert "Son maçlar" in page


def test_hand_history_lists_the_result_and_links_to_replay_and_proof():
    table, users, hand = play_penalty_match()
    page = Client().get(f"/players/{users[0].username}/hands/").content.decode()
    assert f"/hands/{hand.id}/" in page and f"/hands/{hand.id}/proof.json" in page
    finish = Move.objects.filter(hand=hand, action="finish").first()
    if finish is not None:
        assert users[finish.seat].username in page
        # One hand: the player's match score is what that hand brought them (a shown indicator
        # adds its +10 to a finish's +20, +40 or +80).
        points = MatchPlayer.objects.get(match__table=table, user=users[0]).score
        assert f">{signed(points)}<" in page  # +20, +30, … or 0 when they finished it themselves
    else:
        assert "Kimse (taşlar bitti)" in page and "+10" in page


def test_practice_never_counts():
    player = make_user("Pratikçi")
    table = practice.start_practice(user=player)
    Match.objects.filter(table=table).update(status=Match.Status.FINISHED)
    record = stats.player_record(player)
    assert record["hands_played"] == 0 and record["matches_played"] == 0 and record["rating"] is None


def test_a_bot_has_a_badge_and_cannot_be_reported():
    (bot,) = bot_players.bot_users(1)
    viewer = make_user("Bakan")
    client = Client()
    client.force_login(viewer)
    page = client.get(f"/players/{bot.username}/").content.decode()
    assert 'data-testid="bot-badge"' in page and 'data-testid="report-player"' not in page
    with pytest.raises(ServiceError) as refused:
        moderation_services.file_report(reporter=viewer, reported=bot, reason="cheating")
    assert refused.value.code == "report_bot"


def test_the_leaderboard_lists_people_with_enough_rated_matches_as_one_number():
    from games.models import PlayerRating

    table, users, hand = play_penalty_match()
    PlayerRating.objects.filter(salon=None).update(matches=stats.MIN_RATED_MATCHES)
    (bot,) = bot_players.bot_users(1)
    PlayerRating.objects.create(user=bot, salon=None, ordinal=50, matches=10)
    rows = stats.leaderboard()
    assert {row["nickname"] for row in rows} == {user.username for user in users}
    assert all(isinstance(row["rating"], int) for row in rows)
    page = Client().get("/leaderboard/").content.decode()
    assert 'class="tab-bar__tab"' in page and "Tüm salonlar" in page and bot.username not in page


def test_the_fair_deal_page_speaks_plainly_and_folds_the_technical_details():
    table, users, hand = play_penalty_match()
    page = Client().get(f"/hands/{hand.id}/").content.decode()
    section = page.split('data-testid="fair-deal"')[1].split("</section>")[0]
    plain, details = section.split("<details>")
    assert "Bu el adil dağıtıldı mı?" in plain and "Dağıtım adil" in plain
    for technical in ("SHA-256", "taahhüt", "Tuz", "python -m"):
        assert technical not in plain
    assert hand.commitment in details and "python -m games.engine verify" in details


def test_the_rating_chart_is_valid_svg_in_turkish_and_english():
    """SVG numbers take a dot whatever the language: a Turkish page once wrote "314,0", which the
    browser refused (a console error) and drew as a stray dot in the corner."""
    import re

    from games.models import RatingPoint

    table, users = make_table()
    player = users[0]
    for ordinal in (0.0, 1.37, -0.71, 2.05):
        match = Match.objects.create(table=table, rules=RuleSet().to_dict(), status=Match.Status.FINISHED)
        RatingPoint.objects.create(user=player, match=match, ordinal=ordinal)
    number = re.compile(r"^\d+(?:\.\d+)?$")
    for language in ("tr", "en"):
        client = Client()
        client.cookies["django_language"] = language
        page = client.get(f"/players/{player.username}/").content.decode()
        polyline = re.search(r'<polyline points="([^"]*)"', page)
        circle = re.search(r'<circle cx="([^"]*)" cy="([^"]*)"', page)
        view_box = re.search(r'<svg viewBox="0 0 (\S+) (\S+)"', page)
        assert polyline and circle and view_box, page
        pairs = [pair.split(",") for pair in polyline.group(1).split()]
        assert len(pairs) == 4 and all(len(pair) == 2 for pair in pairs), polyline.group(1)
        width, height = float(view_box.group(1)), float(view_box.group(2))
        for x, y in [*pairs, (circle.group(1), circle.group(2))]:
            assert number.match(x) and number.match(y), f"{language}: {x!r}, {y!r} is not an SVG number"
            assert 0 <= float(x) <= width and 0 <= float(y) <= height
        # The dot sits on the line's last point, not at the corner.
        assert (circle.group(1), circle.group(2)) == tuple(pairs[-1])
