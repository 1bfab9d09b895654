"""The profile's rating chart on a phone in Turkish: the browser accepts every coordinate (no console
error) and the last match's dot sits on the line's end (issue 19, item 12)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.engine.rules import RuleSet
from games.models import Match, RatingPoint
from tests.e2e.table_helpers import VIEWPORTS
from tests.games.conftest import make_table

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_rating_chart_draws_without_console_errors_on_a_turkish_phone(new_page, asgi_live_server):
    table, users = make_table()
    player = users[0]
    for ordinal in (0.0, 1.37, -0.71, 2.05):
        match = Match.objects.create(table=table, rules=RuleSet().to_dict(), status=Match.Status.FINISHED)
        RatingPoint.objects.create(user=player, match=match, ordinal=ordinal)
    page = new_page(viewport=VIEWPORTS["portrait"], language="tr-TR")
    page.goto(f"/players/{player.username}/")
    chart = page.get_by_test_id("rating-chart")
    expect(chart).to_be_visible()
    # The dot is drawn where the line ends (an unreadable cx put it at 0, 0).
    end = page.evaluate("""() => {
        const line = document.querySelector('[data-testid="rating-chart"] polyline');
        const dot = document.querySelector('[data-testid="rating-chart"] circle');
        const last = line.points.getItem(line.points.numberOfItems - 1);
        return {points: line.points.numberOfItems, x: last.x, y: last.y, cx: dot.cx.baseVal.value, cy: dot.cy.baseVal.value};
    }""")
    assert end["points"] == 4
    assert end["cx"] > 0 and abs(end["cx"] - end["x"]) < 0.2 and abs(end["cy"] - end["y"]) < 0.2
    # new_page fails the test on any console error ("Error: <circle> attribute cx: Expected length").
