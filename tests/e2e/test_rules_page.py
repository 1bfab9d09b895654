"""The rules page on a phone: the room options are all on the screen, nothing cut off or scrolled
sideways (issue 19, item 15); the indicator's row is in every scoring table."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.table_helpers import VIEWPORTS

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("viewport", ["portrait", "landscape", "desktop"])
@pytest.mark.parametrize("language", ["tr-TR", "en-GB"])
def test_the_options_table_fits_the_screen(new_page, asgi_live_server, viewport, language):
    size = VIEWPORTS[viewport]
    page = new_page(viewport=size, language=language)
    page.goto("/rules/")
    table = page.get_by_test_id("options-table")
    expect(table).to_be_visible()
    fit = page.evaluate("""() => {
        const table = document.querySelector('[data-testid="options-table"]');
        const cells = [...table.querySelectorAll('th, td')].filter((cell) => cell.offsetParent);
        return {
            page: document.documentElement.scrollWidth,
            table: table.scrollWidth - table.clientWidth,
            right: Math.max(...cells.map((cell) => cell.getBoundingClientRect().right)),
            left: Math.min(...cells.map((cell) => cell.getBoundingClientRect().left)),
        };
    }""")
    assert fit["page"] <= size["width"], "the page scrolls sideways"
    assert fit["table"] <= 1, "the table hides part of itself behind a scroll"
    assert fit["left"] >= 0 and fit["right"] <= size["width"], fit
    # Every option's name and description can be read where it is.
    first = table.locator("tbody tr").first
    first.scroll_into_view_if_needed()
    expect(first.locator("th")).to_be_in_viewport()
    expect(first.locator("td").first).to_be_in_viewport()
    assert page.locator('.score-table th:text-is("Gösterge yapmak"), .score-table th:text-is("Showing the indicator")').count() == 3
