"""Eşli (partners) at the table, played to the match's end in the browser: the partner's badge on
the seat opposite, both teams' scores before and after the finish, one result row per team with
both partners' names, the team's win in the title — and a hand an opponent finishes shows the
person's team losing. At the three sizes, for the countdown and the penalty preset, with nothing
wider than the screen."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games import services
from games.engine.rules import RuleSet
from games.models import MatchPlayer
from tests.e2e.table_helpers import (
    OTHERS,
    VIEWPORTS,
    WINNING,
    current_hand,
    in_thread,
    open_table,
    table_with_bots,
)
from tests.e2e.test_table_result import HYPHEN_NUMBER, fits
from tests.games.conftest import make_user, rig_hand

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Each preset: its rules (one finish ends the match), the team scores before the finish, and what
# a normal finish (Y13 put on the centre, no okey) moves on the opposing team: countdown takes 2
# from each of its members (one team score, 2 → 0), penalty adds 20 (0 → 20).
PRESETS = {
    "countdown": {"rules": RuleSet(partners=True, start_points=2), "start": 2, "charged": -2},
    "penalty": {"rules": RuleSet(scoring="penalty", partners=True), "start": 0, "charged": 20},
}


def minus(n: int) -> str:
    return f"\u2212{abs(n)}" if n < 0 else str(n)


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else minus(n)


def rig_start(table, *, seat: int):
    """``seat`` starts the current hand holding a finished rack (it may finish at once)."""
    hand = current_hand(table)
    racks = list(OTHERS)
    racks.insert(seat, WINNING)
    rig_hand(hand, racks=racks, indicator="S7", starting_seat=seat)
    match = hand.match
    match.state = {**match.state, "next_starting_seat": seat}
    match.save(update_fields=["state"])
    hand.deadline = timezone.now() + timedelta(seconds=120)
    hand.save(update_fields=["deadline"])
    return hand


def nicknames(table) -> dict[int, str]:
    return dict(MatchPlayer.objects.filter(match__table=table).values_list("seat", "user__username"))


def no_sideways_scroll(page) -> None:
    overflow = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"the page scrolls sideways by {overflow}px"


def teams_on_the_felt(page, names: dict[int, str]) -> None:
    """Seat 0 (me) and seat 2 (the partner, opposite) are team A; seats 1 and 3 team B. The
    partner's badge is on the top seat box, and on no other."""
    expect(page.locator(".pbox[data-rel='0']")).to_have_class(re.compile(r"\bteam-a\b"))
    expect(page.locator(".pbox[data-rel='2']")).to_have_class(re.compile(r"\bteam-a\b"))
    expect(page.locator(".pbox[data-rel='1']")).to_have_class(re.compile(r"\bteam-b\b"))
    expect(page.locator(".pbox[data-rel='3']")).to_have_class(re.compile(r"\bteam-b\b"))
    partner = page.locator(".pbox[data-rel='2']")
    expect(partner.locator(".name")).to_have_text(names[2])
    expect(page.locator(".tag--partner")).to_have_count(1)
    expect(partner.locator(".tag--partner")).to_be_visible()
    # The seat opposite is drawn at the top: above the other seats, between the left and right ones.
    boxes = {rel: page.locator(f".pbox[data-rel='{rel}']").bounding_box() for rel in "0123"}
    assert boxes["2"]["y"] < min(boxes[rel]["y"] for rel in "013"), f"the partner's box is not the top one: {boxes}"
    middle = boxes["2"]["x"] + boxes["2"]["width"] / 2
    sides = sorted(boxes[rel]["x"] + boxes[rel]["width"] / 2 for rel in "13")
    assert sides[0] < middle < sides[1], f"the partner's box is not between the side seats: {boxes}"
    badge = page.locator(".pbox[data-rel='2'] .tag--partner").bounding_box()
    top = boxes["2"]
    assert top["x"] - 0.5 <= badge["x"] and badge["x"] + badge["width"] <= top["x"] + top["width"] + 0.5, \
        "the partner's badge sticks out of its seat box"


def team_scores(page, ours: int, theirs: int, *, us: str = "Takımınız", them: str = "Rakip takım") -> None:
    """Both team scores in the header line (ours first), and each seat's own score the same as its
    team's (on a phone the header line gives way: the seats say it)."""
    expect(page.locator("#hand-info")).to_contain_text(f"{us} {minus(ours)} · {them} {minus(theirs)}")
    for rel, score in (("0", ours), ("2", ours), ("1", theirs), ("3", theirs)):
        expect(page.locator(f".pbox[data-rel='{rel}'] .score .v")).to_have_text(minus(score))


@pytest.mark.parametrize("size", list(VIEWPORTS))
@pytest.mark.parametrize("preset", list(PRESETS))
def test_an_eşli_match_won_by_the_person_and_the_partner(preset, size, new_page):
    setting = PRESETS[preset]
    start, charged = setting["start"], setting["charged"]
    person = make_user("Ayşe")
    table, _ = table_with_bots(person, rules=setting["rules"], name="Eşli masa")
    rig_start(table, seat=0)
    names = nicknames(table)
    page = new_page(person, viewport=VIEWPORTS[size])
    open_table(page, table)
    teams_on_the_felt(page, names)
    team_scores(page, start, start)
    no_sideways_scroll(page)

    page.locator('#rack .tile[data-tile="Y13"]').click()
    expect(page.locator("#btn-finish")).to_be_enabled()
    page.locator("#btn-finish").click()

    dialog = page.locator("#result-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator("#result-title")).to_have_text("Takımınız maçı kazandı!")
    expect(dialog).to_have_class(re.compile(r"\bwon\b"))
    rows = dialog.locator(".result-table tr[data-team]")
    expect(rows).to_have_count(2)
    expect(dialog.locator(".result-table tr[data-seat]")).to_have_count(2)
    ours, theirs = dialog.locator('tr[data-team="0"]'), dialog.locator('tr[data-team="1"]')
    expect(ours).to_have_class(re.compile(r"\bwinner\b"))
    expect(ours).to_have_class(re.compile(r"\bme\b"))
    expect(ours.locator(".name")).to_have_text(f"{names[0]} & {names[2]}")
    expect(ours.locator("td.delta b")).to_have_text("0")
    expect(ours.locator("td").last).to_have_text(minus(start))
    expect(theirs).not_to_have_class(re.compile(r"\bwinner\b"))
    expect(theirs.locator(".name")).to_have_text(f"{names[1]} & {names[3]}")
    expect(theirs.locator("td.delta b")).to_have_text(signed(charged))
    expect(theirs.locator("td.delta")).to_have_class(re.compile(r"\bdown\b"))
    expect(theirs.locator("td").last).to_have_text(minus(start + charged))
    # The winners row is the first (the match is over) and names both partners.
    expect(rows.first).to_have_attribute("data-team", "0")
    expect(dialog.locator("tr.winner")).to_have_count(1)
    expect(dialog.locator("tr.winner .name")).to_contain_text(names[0])
    expect(dialog.locator("tr.winner .name")).to_contain_text(names[2])
    winners = set(MatchPlayer.objects.filter(match__table=table, is_winner=True).values_list("seat", flat=True))
    assert winners == {0, 2}, "the server's record: both partners won"
    assert not HYPHEN_NUMBER.search(dialog.inner_text()), "every minus is U+2212, never a hyphen"
    assert fits(page), "the result panel fits the screen"
    expect(page.locator("#result-close")).to_be_in_viewport()
    no_sideways_scroll(page)
    # Behind the panel the frame after the finish carries both teams' new scores.
    team_scores(page, start, start + charged)


@pytest.mark.parametrize("size", list(VIEWPORTS))
@pytest.mark.parametrize("preset", list(PRESETS))
def test_a_hand_an_opponent_finishes_shows_the_persons_team_losing(preset, size, new_page):
    setting = PRESETS[preset]
    start, charged = setting["start"], setting["charged"]
    person = make_user("Ayşe")
    table, _ = table_with_bots(person, rules=setting["rules"], name="Eşli masa")
    hand = rig_start(table, seat=1)
    names = nicknames(table)
    page = new_page(person, viewport=VIEWPORTS[size])
    open_table(page, table)
    teams_on_the_felt(page, names)
    team_scores(page, start, start)

    rival = MatchPlayer.objects.select_related("user").get(match__table=table, seat=1).user
    in_thread(services.play, user=rival, table_id=table.id, action="finish", move=hand.move, args={"tile": "Y13"})

    dialog = page.locator("#result-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator("#result-title")).to_have_text(f"Maçı {names[1]} & {names[3]} takımı kazandı")
    expect(dialog).not_to_have_class(re.compile(r"\bwon\b"))
    expect(dialog.locator(".result-table tr[data-team]")).to_have_count(2)
    ours, theirs = dialog.locator('tr[data-team="0"]'), dialog.locator('tr[data-team="1"]')
    expect(ours).to_have_class(re.compile(r"\bme\b"))
    expect(ours).not_to_have_class(re.compile(r"\bwinner\b"))
    expect(ours.locator(".name")).to_have_text(f"{names[0]} & {names[2]}")
    expect(ours.locator("td.delta b")).to_have_text(signed(charged))
    expect(ours.locator("td.delta")).to_have_class(re.compile(r"\bdown\b"))
    expect(ours.locator("td").last).to_have_text(minus(start + charged))
    expect(theirs).to_have_class(re.compile(r"\bwinner\b"))
    expect(theirs.locator("td.delta b")).to_have_text("0")
    expect(theirs.locator("td").last).to_have_text(minus(start))
    winners = set(MatchPlayer.objects.filter(match__table=table, is_winner=True).values_list("seat", flat=True))
    assert winners == {1, 3}
    assert fits(page), "the result panel fits the screen"
    no_sideways_scroll(page)
    team_scores(page, start + charged, start)


def test_in_english(new_page):
    person = make_user("Alice")
    table, _ = table_with_bots(person, rules=PRESETS["countdown"]["rules"], name="Partners")
    rig_start(table, seat=0)
    names = nicknames(table)
    page = new_page(person, viewport=VIEWPORTS["landscape"], language="en-US")
    open_table(page, table)
    expect(page.locator(".pbox[data-rel='2'] .tag--partner")).to_have_text("Partner")
    team_scores(page, 2, 2, us="Your team", them="Other team")
    page.locator('#rack .tile[data-tile="Y13"]').click()
    page.locator("#btn-finish").click()
    dialog = page.locator("#result-dialog")
    expect(dialog.locator("#result-title")).to_have_text("Your team won the match!")
    expect(dialog.locator("tr.winner .name")).to_have_text(f"{names[0]} & {names[2]}")
    team_scores(page, 2, 0, us="Your team", them="Other team")


def test_the_room_form_offers_eşli_only_at_a_table_of_four_for_points(new_page, asgi_live_server):
    from salons.models import Salon

    salon, _ = Salon.objects.get_or_create(slug="genel", defaults={"name": "Genel"})
    page = new_page(make_user("Kurucu"), viewport=VIEWPORTS["portrait"])
    page.goto(f"/salons/{salon.slug}/rooms/new/")
    partners = page.locator('[name="rule_partners"]')
    field = page.locator(".field", has=partners)
    expect(field).to_be_visible()
    page.select_option('[name="rule_players"]', "2")
    expect(field).to_be_hidden()
    page.select_option('[name="rule_players"]', "4")
    expect(field).to_be_visible()
    partners.check()
    page.select_option('[name="rule_scoring"]', "chips")
    expect(field).to_be_hidden()
    assert not partners.is_checked(), "a hidden option never stays on"
    page.select_option('[name="rule_scoring"]', "penalty")
    expect(field).to_be_visible()
