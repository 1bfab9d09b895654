"""The end of a hand and of a match as a moment (issue 19, item 5): "Kazandınız!" for the finisher,
how it was won, the winning hand shown, each change explained (a −3 is "bitiş −2 · gösterge −1"),
numbers with a real minus sign, the rating moved at a rated match's end, what comes next — at
every size, with nothing cut off, and the winners always the server's record."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.engine.rules import RuleSet
from games.models import MatchPlayer
from tests.e2e.table_helpers import (
    VIEWPORTS,
    WINNING,
    open_table,
    rig_seat_zero_start,
    table_with_bots,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

HYPHEN_NUMBER = re.compile(r"(?<![\w-])-\d")


def rig_show_and_win(table):
    """Seat 0 starts holding the indicator's twin (S9) and a finished rack: show, then finish."""
    return rig_seat_zero_start(table, rack=WINNING, indicator="S9")


def show_and_finish(page):
    page.locator("#btn-show-indicator").click()
    expect(page.locator("#btn-show-indicator")).to_be_hidden()
    page.locator('#rack .tile[data-tile="Y13"]').click()
    expect(page.locator("#btn-finish")).to_be_enabled()
    page.locator("#btn-finish").click()


def fits(page) -> bool:
    """The result dialog lies inside the viewport and nothing in it is wider than it."""
    return page.evaluate("""() => {
        const d = document.getElementById('result-dialog'); const r = d.getBoundingClientRect();
        const inside = r.left >= 0 && r.top >= 0 && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5;
        return inside && d.scrollWidth <= d.clientWidth + 1;
    }""")


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_a_won_hand_says_so_and_explains_every_change(size, new_page):
    table, person = table_with_bots()
    rig_show_and_win(table)
    page = new_page(person, viewport=VIEWPORTS[size])
    open_table(page, table)
    show_and_finish(page)
    dialog = page.locator("#result-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator("#result-title")).to_have_text("Kazandınız!")
    expect(dialog).to_have_class(re.compile(r"\bwon\b"))
    expect(dialog.locator(".how")).to_have_text("Eli seri ve perlerle bitirdiniz.")
    expect(dialog.locator(".result-reveal .group .tile")).to_have_count(14)
    rows = dialog.locator(".result-table tr[data-seat]")
    expect(rows).to_have_count(4)
    for seat in ("1", "2", "3"):
        row = dialog.locator(f'.result-table tr[data-seat="{seat}"]')
        expect(row.locator("td.delta b")).to_have_text("−3")
        expect(row.locator("td.delta .parts")).to_have_text("bitiş −2 · gösterge −1")
        expect(row.locator("td").last).to_have_text("17")
    expect(dialog.locator('tr[data-seat="0"] td.delta .parts')).to_have_text("değişmedi")
    expect(dialog.locator(".what-next")).to_contain_text("Yeni el")
    text = dialog.inner_text()
    assert not HYPHEN_NUMBER.search(text), "every minus is U+2212, never a hyphen"
    assert fits(page), "the result panel fits the screen"
    expect(page.locator("#result-close")).to_be_in_viewport()


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_the_match_end_names_the_recorded_winner_and_each_rating(size, new_page):
    table, person = table_with_bots(rules=RuleSet(start_points=3))
    rig_show_and_win(table)
    page = new_page(person, viewport=VIEWPORTS[size])
    open_table(page, table)
    show_and_finish(page)
    dialog = page.locator("#result-dialog")
    expect(dialog.locator("#result-title")).to_have_text("Maçı kazandınız!")
    assert list(MatchPlayer.objects.filter(match__table=table, is_winner=True).values_list("seat", flat=True)) == [0]
    expect(dialog.locator("tr.winner")).to_have_count(1)
    expect(dialog.locator('tr.winner[data-seat="0"]')).to_have_count(1)
    # Bots are not rated; the person's rating moved and says from what to what.
    rating = dialog.locator('tr[data-seat="0"] .rating')
    expect(rating).to_have_text(re.compile(r"^Derece 1000 → \d+\s\(\+\d+\)$"))
    expect(dialog.locator(".rating")).to_have_count(1)
    for seat in ("1", "2", "3"):
        expect(dialog.locator(f'tr[data-seat="{seat}"] td').last).to_have_text("0")
        expect(dialog.locator(f'tr[data-seat="{seat}"] td.delta b')).to_have_text("−3")
    expect(dialog.locator(".what-next")).to_have_text("Aynı masada tekrar oynayabilir ya da kalkabilirsiniz.")
    expect(page.locator("#btn-rematch")).to_be_in_viewport()
    assert not HYPHEN_NUMBER.search(dialog.inner_text())
    assert fits(page)


def test_the_winner_is_the_servers_record_not_the_scores(new_page):
    """A watcher sees the match's winner as the server named it, even where the scores alone
    would say otherwise (here the server's record is changed by hand after the match)."""
    table, person = table_with_bots(rules=RuleSet(start_points=3))
    rig_show_and_win(table)
    page = new_page(person, viewport=VIEWPORTS["desktop"])
    open_table(page, table)
    show_and_finish(page)
    expect(page.locator("#result-title")).to_have_text("Maçı kazandınız!")
    MatchPlayer.objects.filter(match__table=table).update(is_winner=False)
    page.reload()
    page.wait_for_function("() => window.__okeyTest && window.__okeyTest.frames > 0")
    # The finished hand's result opens again by itself on a fresh page.
    expect(page.locator("#result-title")).to_have_text("Maç bitti: kazanan yok")
    expect(page.locator("#result-dialog tr.winner")).to_have_count(0)


def test_in_english(new_page):
    table, person = table_with_bots()
    rig_show_and_win(table)
    page = new_page(person, viewport=VIEWPORTS["portrait"], language="en-US")
    open_table(page, table)
    show_and_finish(page)
    dialog = page.locator("#result-dialog")
    expect(dialog.locator("#result-title")).to_have_text("You won!")
    expect(dialog.locator('tr[data-seat="1"] td.delta .parts')).to_have_text("finish −2 · indicator −1")
    expect(dialog.locator(".how")).to_have_text("You finished with runs and groups.")


def test_a_chip_table_shows_the_chips_the_ledger_moved(new_page):
    """Bots play for no chips: the person who beat three bots is paid nothing, and the panel says
    so (the ledger's figure, not the engine's +3 × stake)."""
    table, person = table_with_bots(rules=RuleSet.preset("chips", stake=10))
    rig_show_and_win(table)
    page = new_page(person, viewport=VIEWPORTS["portrait"])
    open_table(page, table)
    page.locator('#rack .tile[data-tile="Y13"]').click()
    page.locator("#btn-finish").click()
    dialog = page.locator("#result-dialog")
    expect(dialog.locator("#result-title")).to_have_text("Kazandınız!")
    expect(dialog.locator('tr[data-seat="0"] td.delta b')).to_have_text("0 çip")
    expect(dialog.locator('tr[data-seat="1"] td.delta b')).to_have_text("0 çip")
