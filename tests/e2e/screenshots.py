"""`make screenshots`: drives Chromium through a table with bots and the site's main pages, in
Turkish and English, and writes PNGs to screenshots/ (git-ignored) for a person to look at.

Run through pytest for its live server and browser fixtures (the file is not collected by the
normal test run: its name does not start with ``test_``):

    pytest -p no:randomly tests/e2e/screenshots.py
"""

from __future__ import annotations

import pathlib

import pytest
from playwright.sync_api import expect

from games.engine.rules import RuleSet
from games.models import Hand
from tests.e2e.table_helpers import (
    VIEWPORTS,
    current_hand,
    open_table,
    play_bots_until_seat,
    play_one_turn_for_the_clock,
    rig_okey_and_joker_for_seat_zero,
    rig_win_for_seat_zero,
    table_with_bots,
)
from tests.games.conftest import make_user

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

OUT = pathlib.Path(__file__).resolve().parents[2] / "screenshots"

# Issue 19's result moments, the away player's "Buradayım" and eşli, and the 101 Okey table (the
# composer, the staged turn, mid-hand with melds and a penalty, the score sheet): their own modules.
from tests.e2e.screenshots_101 import test_101_table_screenshots  # noqa: E402, F401
from tests.e2e.screenshots_kart import test_kart_table_screenshots  # noqa: E402, F401
from tests.e2e.screenshots_moments import (  # noqa: E402, F401
    test_away_player_screenshots,
    test_partners_screenshots,
    test_result_moment_screenshots,
)


def shot(page, name: str, *, full_page: bool = False) -> None:
    OUT.mkdir(exist_ok=True)
    # No motion: a picture taken mid-slide says nothing about the layout.
    page.emulate_media(reduced_motion="reduce")
    page.screenshot(path=str(OUT / f"{name}.png"), full_page=full_page)


def drag(page, source, target) -> None:
    source.hover()  # waits until the tile stands still (a drawn tile slides in from the pile)
    box, goal = source.bounding_box(), target.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(goal["x"] + goal["width"] / 2, goal["y"] + goal["height"] / 2, steps=8)
    page.mouse.up()


@pytest.mark.parametrize("language", ["tr", "en"])
def test_table_screenshots(new_page, asgi_live_server, language):
    locale = "tr-TR" if language == "tr" else "en-GB"
    person = make_user("Ayşe" if language == "tr" else "Alice")
    table, _ = table_with_bots(person)
    hand = current_hand(table)
    # The deal, as it looks before anyone moved (the starter may be a bot).
    page = new_page(person, viewport=VIEWPORTS["desktop"], language=locale)
    if language == "en":
        page.context.add_cookies([{"name": "django_language", "value": "en", "url": asgi_live_server.url}])
    open_table(page, table)
    expect(page.locator("#rack .tile")).not_to_have_count(0)  # the deal has arrived, not the empty felt
    shot(page, f"{language}-table-deal-desktop")
    # Bots play until it is the person's turn.
    hand = play_bots_until_seat(table, 0)
    expect(page.locator("#clock")).to_have_class("clock mine")
    shot(page, f"{language}-table-your-turn-desktop")
    # The person draws, sorts and throws; the bots go round once more: four discard piles.
    if hand.state["phase"] == "draw":
        page.locator("#pile").click()
        expect(page.locator("#rack .tile")).to_have_count(15)
    page.locator("#btn-sort-sets").click()
    page.locator("#rack .tile:not(.okey)").last.click()  # the okey asks before it goes
    page.locator("#btn-discard").click()
    expect(page.locator("#rack .tile")).to_have_count(14)
    play_bots_until_seat(table, 0)
    expect(page.locator("#clock")).to_have_class("clock mine")
    for name, viewport in VIEWPORTS.items():
        page.set_viewport_size(viewport)
        shot(page, f"{language}-table-mid-hand-{name}")
    # Colour-blind marks: a shape per colour under each number.
    page.set_viewport_size(VIEWPORTS["portrait"])
    page.locator("#btn-colorblind").click()
    shot(page, f"{language}-table-colorblind-portrait")
    page.locator("#btn-colorblind").click()
    # The phone drawer with the feed and the chat.
    page.locator("#btn-drawer").click()
    shot(page, f"{language}-table-drawer-portrait")
    page.locator("#side-close").click()
    # A watcher sees the public table.
    watcher = make_user("Izleyici" if language == "tr" else "Watcher")
    watch = new_page(watcher, viewport=VIEWPORTS["desktop"], language=locale)
    if language == "en":
        watch.context.add_cookies([{"name": "django_language", "value": "en", "url": asgi_live_server.url}])
    open_table(watch, table)
    shot(watch, f"{language}-table-watcher-desktop")

    # A short match (countdown from 2): the person finishes at once; result and match end.
    short, _ = table_with_bots(person, rules=RuleSet(start_points=2), name="Kısa maç")
    rig_win_for_seat_zero(short)
    page.set_viewport_size(VIEWPORTS["desktop"])
    open_table(page, short)
    drag(page, page.locator('#rack .tile[data-tile="Y13"]'), page.locator("#finish-zone"))
    expect(page.locator("#result-dialog")).to_be_visible()
    shot(page, f"{language}-table-match-end-desktop")
    page.set_viewport_size(VIEWPORTS["portrait"])
    shot(page, f"{language}-table-match-end-portrait")
    assert current_hand(short).status == Hand.Status.OVER


@pytest.mark.parametrize("language", ["tr", "en"])
def test_tile_faces_screenshots(new_page, asgi_live_server, language):
    """A false joker next to the okey, a selected (lifted) tile, and a result whose run holds the
    okey drawn as the tile it stands for."""
    locale = "tr-TR" if language == "tr" else "en-GB"
    person = make_user("Ayşe" if language == "tr" else "Alice")
    table, _ = table_with_bots(person, name="Taşlar")
    rig_okey_and_joker_for_seat_zero(table)
    page = new_page(person, viewport=VIEWPORTS["desktop"], language=locale)
    if language == "en":
        page.context.add_cookies([{"name": "django_language", "value": "en", "url": asgi_live_server.url}])
    open_table(page, table)
    expect(page.locator('#rack .tile[data-tile="J"]')).to_be_visible()
    page.locator('#rack .tile[data-tile="M6"]').click()
    expect(page.locator('#rack .tile[data-tile="M6"]')).to_have_class("tile blue selected")
    for name, viewport in VIEWPORTS.items():
        page.set_viewport_size(viewport)
        shot(page, f"{language}-table-tiles-{name}")
    page.set_viewport_size(VIEWPORTS["desktop"])
    drag(page, page.locator('#rack .tile[data-tile="Y13"]'), page.locator("#finish-zone"))
    expect(page.locator("#result-dialog")).to_be_visible()
    for name in ("desktop", "portrait"):
        page.set_viewport_size(VIEWPORTS[name])
        shot(page, f"{language}-table-result-okey-in-run-{name}")


@pytest.mark.parametrize("language", ["tr", "en"])
def test_turn_clock_screenshots(new_page, asgi_live_server, language):
    """The turn clock: a bot's turn (who plays, no seconds), the person's turn with the ring draining
    round her seat, and her last seconds in white on red."""
    from games.models import Match
    from tests.e2e.table_helpers import bot_draws_and_throws, throw_a_tile

    locale = "tr-TR" if language == "tr" else "en-GB"
    person = make_user("Ayşe" if language == "tr" else "Alice")
    table, _ = table_with_bots(person, name="Saat")
    Match.objects.filter(table=table).update(turn_seconds=12)
    page = new_page(person, viewport=VIEWPORTS["portrait"], language=locale)
    if language == "en":
        page.context.add_cookies([{"name": "django_language", "value": "en", "url": asgi_live_server.url}])
    open_table(page, table)
    if current_hand(table).turn_seat == 0:
        throw_a_tile(page)
    while current_hand(table).turn_seat != 3:
        bot_draws_and_throws(table)
    shot(page, f"{language}-table-clock-bot-portrait")
    bot_draws_and_throws(table)
    expect(page.locator("#clock")).to_have_class("clock mine")
    page.wait_for_timeout(3000)  # a quarter of the ring gone
    for name in ("portrait", "desktop"):
        page.set_viewport_size(VIEWPORTS[name])
        shot(page, f"{language}-table-clock-yours-{name}")
    expect(page.locator("#clock")).to_have_class("clock mine urgent", timeout=10000)
    for name in ("portrait", "landscape", "desktop"):
        page.set_viewport_size(VIEWPORTS[name])
        shot(page, f"{language}-table-clock-last-seconds-{name}")


@pytest.mark.parametrize("language", ["tr", "en"])
def test_result_of_a_hand_screenshots(new_page, asgi_live_server, language):
    locale = "tr-TR" if language == "tr" else "en-GB"
    person = make_user("Ayşe" if language == "tr" else "Alice")
    table, _ = table_with_bots(person)
    rig_win_for_seat_zero(table)
    page = new_page(person, viewport=VIEWPORTS["desktop"], language=locale)
    if language == "en":
        page.context.add_cookies([{"name": "django_language", "value": "en", "url": asgi_live_server.url}])
    open_table(page, table)
    drag(page, page.locator('#rack .tile[data-tile="Y13"]'), page.locator("#finish-zone"))
    expect(page.locator("#result-dialog")).to_be_visible()
    for name, viewport in VIEWPORTS.items():
        page.set_viewport_size(viewport)
        shot(page, f"{language}-table-result-{name}")
    # A hand played to its end by the clock (a rigged one has no deck to replay).
    played, _ = table_with_bots(person, name="Tekrar masası")
    for _ in range(300):
        if not play_one_turn_for_the_clock(played):
            break
    hand = current_hand(played)
    # The pages around the table: replay (fair-deal proof inside), history, profile and the rest.
    pages = {
        "lobby": "/", "salon": f"/salons/{table.room.salon.slug}/", "room": f"/rooms/{table.room_id}/",
        "rules": "/rules/", "profile": f"/players/{person.username}/", "leaderboard": "/leaderboard/",
        "history": f"/players/{person.username}/hands/", "replay": f"/hands/{hand.pk}/",
    }
    for name, url in pages.items():
        for view, viewport in (("desktop", VIEWPORTS["desktop"]), ("portrait", VIEWPORTS["portrait"])):
            page.set_viewport_size(viewport)
            page.goto(url)
            if name == "replay":
                page.locator(".fairness details summary").click()
            shot(page, f"{language}-{name}-{view}")
    # The replay's table at the three sizes: mid-hand (racks open, discards) and at its end.
    for view, viewport in VIEWPORTS.items():
        page.set_viewport_size(viewport)
        page.goto(f"/hands/{hand.pk}/")
        page.evaluate("() => window.__okeyReplay.go(Math.floor(window.__okeyReplay.steps / 2))")
        shot(page, f"{language}-replay-table-{view}", full_page=True)
        page.locator("#replay-last").click()
        shot(page, f"{language}-replay-table-end-{view}", full_page=True)
    anonymous = new_page(None, viewport=VIEWPORTS["portrait"], language=locale)
    if language == "en":
        anonymous.context.add_cookies([{"name": "django_language", "value": "en", "url": asgi_live_server.url}])
    anonymous.goto("/accounts/signup/")
    shot(anonymous, f"{language}-signup-portrait")
    # The next page a newcomer meets: the e-mail code.
    anonymous.fill("[name=username]", f"Yeni{language}")
    anonymous.fill("[name=email]", f"yeni-{language}@example.com")
    anonymous.fill("[name=password1]", "Gizli-Sifre-42x")
    anonymous.fill("[name=password2]", "Gizli-Sifre-42x")
    anonymous.check("[name=accept_rules]")
    anonymous.locator("main form button[type=submit]").last.click()
    anonymous.wait_for_url("**/accounts/confirm-email/")
    shot(anonymous, f"{language}-email-code-portrait")


@pytest.mark.parametrize("language", ["tr", "en"])
def test_tournament_screenshots(new_page, asgi_live_server, language):
    """A knockout in its first round (standings, tables to watch), the list, and the staff form."""
    from datetime import timedelta

    from django.utils import timezone

    from tests.tournaments.conftest import make_players, make_salon, make_staff, new_tournament, register_all
    from tournaments import services

    locale = "tr-TR" if language == "tr" else "en-GB"
    salon = make_salon(f"turnuva-{language}")
    staff = make_staff(salon)
    now = timezone.now()
    running = new_tournament(salon=salon, name="Cuma eleme" if language == "tr" else "Friday knockout",
                             now=now - timedelta(minutes=10), buy_in=50, added_chips=500)
    register_all(running, make_players(12, prefix="oyuncu"), now=now - timedelta(minutes=5))
    services.sweep(now=running.starts_at)
    new_tournament(salon=salon, staff=staff, name="Akşam arenası" if language == "tr" else "Evening arena",
                   format="arena", starts_in=timedelta(hours=3), registration_minutes=600)
    page = new_page(staff, viewport=VIEWPORTS["desktop"], language=locale)
    if language == "en":
        page.context.add_cookies([{"name": "django_language", "value": "en", "url": asgi_live_server.url}])
    pages = {"tournaments": "/tournaments/", "tournament-running": f"/tournaments/{running.pk}/",
             "tournament-form": f"/tournaments/new/{salon.slug}/"}
    for name, url in pages.items():
        for view, viewport in (("desktop", VIEWPORTS["desktop"]), ("portrait", VIEWPORTS["portrait"])):
            page.set_viewport_size(viewport)
            page.goto(url)
            shot(page, f"{language}-{name}-{view}", full_page=True)


@pytest.mark.parametrize("language", ["tr", "en"])
def test_sent_out_notice_screenshots(new_page, asgi_live_server, language):
    """A watcher of a table removed by the room's owner: the notice that says who, why and until when."""
    from salons import services as salon_services
    from tests.e2e.table_helpers import in_thread

    locale = "tr-TR" if language == "tr" else "en-GB"
    owner = make_user("Ayşe" if language == "tr" else "Alice")
    table, _ = table_with_bots(owner)
    watcher = make_user("Seyirci")
    page = new_page(watcher, viewport=VIEWPORTS["portrait"], language=locale)
    if language == "en":
        page.context.add_cookies([{"name": "django_language", "value": "en", "url": asgi_live_server.url}])
    open_table(page, table)
    in_thread(salon_services.remove_from_room, owner=owner, room=table.room, user=watcher,
              reason="Sürekli hakaret" if language == "tr" else "Insults at the table", minutes=30)
    expect(page.locator("#closed-notice")).to_be_visible()
    shot(page, f"{language}-table-sent-out-portrait")


@pytest.mark.parametrize("language", ["tr", "en"])
def test_waiting_table_screenshots(new_page, asgi_live_server, language):
    """A table before its match: who sat, the owner's "start with bots", the countdown to the bots."""
    from django.utils import timezone

    from salons.models import Room, Salon, Seat, Table

    locale = "tr-TR" if language == "tr" else "en-GB"
    salon, _ = Salon.objects.get_or_create(slug="genel", defaults={"name": "Genel"})
    owner = make_user("Ayşe" if language == "tr" else "Alice")
    room = Room.objects.create(salon=salon, name="Akşam masası", owner=owner, turn_seconds=30, bot_fill_seconds=60)
    table = Table.objects.create(room=room, number=1)
    for position in range(4):
        Seat.objects.create(table=table, position=position, user=owner if position == 0 else None,
                            taken_at=timezone.now() if position == 0 else None)
    page = new_page(owner, viewport=VIEWPORTS["portrait"], language=locale)
    if language == "en":
        page.context.add_cookies([{"name": "django_language", "value": "en", "url": asgi_live_server.url}])
    page.goto(f"/tables/{table.id}/")
    expect(page.locator("#btn-start")).to_be_visible()
    shot(page, f"{language}-table-waiting-portrait")


@pytest.mark.parametrize("language", ["tr", "en"])
def test_chat_bubbles_screenshots(new_page, asgi_live_server, language):
    """Table chat as bubbles at the seats (a player's, your own, a watcher's), at every size; then
    that player's card with their record."""
    import time

    from django.contrib.auth import get_user_model

    from games.models import PlayerRating
    from salons import services as salon_services
    from tests.e2e.table_helpers import in_thread

    locale = "tr-TR" if language == "tr" else "en-GB"
    person = make_user("Ayşe" if language == "tr" else "Alice")
    friend = make_user("Deniz Yıldız" if language == "tr" else "Dana Young")
    watcher = make_user("Seyirci" if language == "tr" else "Watcher")
    get_user_model().objects.filter(pk=friend.pk).update(games_played=37, games_won=11)
    PlayerRating.objects.create(user=friend, salon=None, ordinal=3.2, matches=37)
    table, _ = table_with_bots(person, name="Sohbet", people=(friend,))
    page = new_page(person, viewport=VIEWPORTS["portrait"], language=locale)
    if language == "en":
        page.context.add_cookies([{"name": "django_language", "value": "en", "url": asgi_live_server.url}])
    page.clock.install()  # paused once the bubbles are up, so every size shows the same three
    open_table(page, table)
    lines = [(friend, "İyi oyunlar, kolay gelsin herkese!" if language == "tr" else "Good luck everyone, have fun!"),
             (person, "Teşekkürler" if language == "tr" else "Thanks"),
             (watcher, "Güzel el!" if language == "tr" else "Nice hand!")]
    for user, text in lines:
        in_thread(salon_services.post_chat_message, user=user, room=table.room, table=table, text=text)
    expect(page.locator("#bubbles .bubble")).to_have_count(3)
    page.clock.pause_at(time.time() + 1)
    for name, viewport in VIEWPORTS.items():
        page.set_viewport_size(viewport)
        shot(page, f"{language}-table-chat-bubbles-{name}")
    # The player's card: their avatar and record.
    page.locator('.pbox[data-rel="1"] .name').click()
    expect(page.locator("#card-games")).not_to_have_text("…")
    for name in ("portrait", "desktop"):
        page.set_viewport_size(VIEWPORTS[name])
        shot(page, f"{language}-table-player-card-{name}")


@pytest.mark.parametrize("language", ["tr", "en"])
def test_guest_practice_screenshots(new_page, asgi_live_server, language):
    """A visitor's trial hand (no account): mid-hand with a tile selected, and its end with the
    open racks and the sign-up offer, at the three sizes."""
    locale = "tr-TR" if language == "tr" else "en-GB"
    page = new_page(None, viewport=VIEWPORTS["desktop"], language=locale)
    if language == "en":
        page.context.add_cookies([{"name": "django_language", "value": "en", "url": asgi_live_server.url}])
    page.goto("/practice/try/")
    page.locator("#guest-start").click()
    expect(page.locator("#gtable")).to_be_visible()
    if page.locator("#g-pile").is_enabled():
        page.locator("#g-pile").click()
        expect(page.locator("#g-rack .tile")).to_have_count(15)
    page.locator("#g-rack .tile").nth(3).click()
    for view, viewport in VIEWPORTS.items():
        page.set_viewport_size(viewport)
        shot(page, f"{language}-guest-practice-{view}", full_page=True)
    for _ in range(40):
        if page.locator("#guest").get_attribute("data-phase") == "over":
            break
        move = int(page.locator("#guest").get_attribute("data-move"))
        if page.locator("#g-pile").is_enabled():
            page.locator("#g-pile").click()
            expect(page.locator("#g-rack .tile")).to_have_count(15)
        page.locator("#g-rack .tile:not(.okey)").first.click()
        page.locator("#g-discard").click()
        page.wait_for_function(f"() => Number(document.getElementById('guest').dataset.move) > {move + 1}"
                               " || document.getElementById('guest').dataset.phase === 'over'")
    for view, viewport in VIEWPORTS.items():
        page.set_viewport_size(viewport)
        shot(page, f"{language}-guest-practice-end-{view}", full_page=True)
