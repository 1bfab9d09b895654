"""Tournament pages, the lobby strip, the site notice, the profile line, and the pushes over the
real ASGI stack: "your table is ready" to every open page of a player, "changed" to the page."""

from __future__ import annotations

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils import timezone

from okeysite.asgi import application
from tournaments import services
from tournaments.models import Entry, Format, Tournament, TournamentTable

from .conftest import make_players, make_site_admin, make_staff, new_tournament, play_tables, register_all

ORIGIN = "http://127.0.0.1:8000"


def client_for(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.mark.django_db
def test_list_detail_register_and_unregister_pages(salon):
    tournament = new_tournament(salon=salon, name="Cuma gecesi", buy_in=25)
    player = make_players(1)[0]
    anonymous = client_for()
    assert "Cuma gecesi" in anonymous.get("/tournaments/").content.decode()
    page = anonymous.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "Cuma gecesi" in page and 'data-testid="register"' not in page
    client = client_for(player)
    assert 'data-testid="register"' in client.get(f"/tournaments/{tournament.pk}/").content.decode()
    response = client.post(f"/tournaments/{tournament.pk}/register/", follow=True)
    assert "Turnuvaya kaydoldunuz." in response.content.decode()
    assert Entry.objects.filter(tournament=tournament, user=player).exists()
    again = client.post(f"/tournaments/{tournament.pk}/register/", follow=True)
    assert again.status_code == 200 and "zaten kayıtlısınız" in again.content.decode()
    fragment = client.get(f"/tournaments/{tournament.pk}/standings/").content.decode()
    assert player.username in fragment
    client.post(f"/tournaments/{tournament.pk}/unregister/")
    assert not Entry.objects.filter(tournament=tournament, user=player).exists()
    assert client.post(f"/tournaments/{tournament.pk}/nonsense/").status_code == 404
    assert client.get(f"/tournaments/{tournament.pk}/register/").status_code == 405
    assert client_for().post(f"/tournaments/{tournament.pk}/register/").status_code == 302  # to the login
    assert client.get("/tournaments/999999/").status_code == 404


@pytest.mark.django_db
def test_the_pool_grows_with_each_registration_before_the_start(salon):
    # Before the start the page says what the pool holds so far, not the 0 it is fixed from.
    tournament = new_tournament(salon=salon, buy_in=50, added_chips=100)
    first, second = make_players(2)
    page = client_for(first)
    assert "ödül havuzu 100 çip" in page.get(f"/tournaments/{tournament.pk}/").content.decode()
    register_all(tournament, [first, second])
    assert "ödül havuzu 200 çip" in page.get(f"/tournaments/{tournament.pk}/standings/").content.decode()
    services.unregister(user=second, tournament_id=tournament.pk)
    assert "ödül havuzu 150 çip" in page.get(f"/tournaments/{tournament.pk}/").content.decode()
    services.sweep(now=tournament.starts_at)  # too few left: cancelled, every buy-in refunded
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.CANCELLED
    assert "ödül havuzu 0 çip" in page.get(f"/tournaments/{tournament.pk}/").content.decode()


@pytest.mark.django_db
def test_staff_create_page_and_others_are_refused(salon):
    staff = make_staff(salon)
    player = make_players(1)[0]
    assert client_for(player).get(f"/tournaments/new/{salon.slug}/").status_code == 403
    client = client_for(staff)
    assert client.get(f"/tournaments/new/{salon.slug}/").status_code == 200
    starts = (timezone.localtime() + timedelta(hours=2)).strftime("%Y-%m-%dT%H:%M")
    data = {"name": "Pazar eleme", "format": "knockout", "scoring": "penalty", "hands_per_match": 1, "players": 4,
            "turn_seconds": 20, "starts_at": starts, "registration_minutes": 180, "min_players": 4,
            "max_players": 64, "buy_in": 0, "added_chips": 500, "duration_minutes": 30, "go_on": 2}
    assert 'name="added_chips"' not in client.get(f"/tournaments/new/{salon.slug}/").content.decode()
    response = client.post(f"/tournaments/new/{salon.slug}/", data)
    assert response.status_code == 302
    made = Tournament.objects.get(name="Pazar eleme")
    # Salon staff cannot add chips to a prize: the field is not theirs, a posted value is ignored.
    assert made.go_on == 2 and made.added_chips == 0 and made.rules["scoring"] == "penalty"
    admin_page = client_for(make_site_admin())
    assert 'name="added_chips"' in admin_page.get(f"/tournaments/new/{salon.slug}/").content.decode()
    assert admin_page.post(f"/tournaments/new/{salon.slug}/", {**data, "name": "Büyük ödül"}).status_code == 302
    assert Tournament.objects.get(name="Büyük ödül").added_chips == 500
    bad = client.post(f"/tournaments/new/{salon.slug}/", {**data, "min_players": 80})
    assert bad.status_code == 200 and "Oyuncu sayısı" in bad.content.decode()


@pytest.mark.django_db
def test_staff_make_a_tournament_repeat_each_week_and_can_stop_it(salon):
    from tests.conftest import make_salon

    staff = make_staff(salon)
    client = client_for(staff)
    starts = timezone.localtime() + timedelta(hours=2)
    data = {"name": "Akşam arenası", "format": "arena", "scoring": "penalty", "hands_per_match": 1, "players": 4,
            "turn_seconds": 20, "starts_at": starts.strftime("%Y-%m-%dT%H:%M"), "registration_minutes": 60,
            "min_players": 4, "max_players": 64, "buy_in": 10, "added_chips": 0, "duration_minutes": 30, "go_on": 1,
            "repeat_on": ["5", "1", "3"]}
    page = client.get(f"/tournaments/new/{salon.slug}/").content.decode()
    assert 'name="repeat_on"' in page and page.count('type="checkbox"') >= 7
    assert client.post(f"/tournaments/new/{salon.slug}/", data).status_code == 302
    first = Tournament.objects.get(name="Akşam arenası")
    schedule = first.schedule
    assert schedule.weekdays == "135" and schedule.time_of_day == starts.replace(second=0, microsecond=0).time()
    assert (schedule.format, schedule.buy_in, schedule.duration_minutes) == ("arena", 10, 30)
    assert services.create_scheduled(now=first.starts_at - timedelta(minutes=30)) == 0  # the first exists already
    detail = client.get(first.get_absolute_url()).content.decode()
    assert "Tekrarı durdur" in detail and "Pzt, Çar, Cum" in detail
    # Staff of another salon and players cannot stop it; the salon's staff can.
    outsider = client_for(make_staff(make_salon("baska")))
    assert "yetkiniz yok" in outsider.post(f"/tournaments/{first.pk}/stop_schedule/", follow=True).content.decode()
    client_for(make_players(1)[0]).post(f"/tournaments/{first.pk}/stop_schedule/")
    schedule.refresh_from_db()
    assert schedule.is_active
    done = client.post(f"/tournaments/{first.pk}/stop_schedule/", follow=True).content.decode()
    assert "Tekrar durduruldu" in done
    schedule.refresh_from_db()
    assert not schedule.is_active
    assert services.create_scheduled(now=first.starts_at + timedelta(days=7)) == 0
    # A one-off tournament has no schedule to stop; a bad day is a form error, nothing is made.
    once = new_tournament(salon=salon, staff=staff)
    assert client.post(f"/tournaments/{once.pk}/stop_schedule/").status_code == 404
    bad = client.post(f"/tournaments/new/{salon.slug}/", {**data, "name": "Yanlış gün", "repeat_on": ["8"]})
    assert bad.status_code == 200 and not Tournament.objects.filter(name="Yanlış gün").exists()


@pytest.mark.django_db
def test_salon_staff_read_their_salons_tournaments_in_the_admin_only(salon):
    from tests.conftest import make_salon

    other = make_salon("komsu")
    ours = new_tournament(salon=salon, name="Bizim turnuva")
    theirs = new_tournament(salon=other, name="Komşu turnuva")
    players = make_players(2)
    register_all(ours, players)
    staff = make_staff(salon)
    staff.is_staff = True
    staff.save()
    client = client_for(staff)
    listing = client.get("/admin/tournaments/tournament/")
    assert listing.status_code == 200
    body = listing.content.decode()
    assert "Bizim turnuva" in body and "Komşu turnuva" not in body
    assert client.get(f"/admin/tournaments/tournament/{theirs.pk}/change/").status_code in (302, 403, 404)
    page = client.get(f"/admin/tournaments/tournament/{ours.pk}/change/").content.decode()
    assert players[0].username in page and "@private.example" not in page
    assert 'name="_save"' not in page  # read-only: changes go through the site's services
    for path in ("tournamenttable", "tournamentlog", "schedule"):
        assert client.get(f"/admin/tournaments/{path}/").status_code == 200
    log = client.get("/admin/tournaments/tournamentlog/").content.decode()
    assert "@private.example" not in log
    # Lookups that are not the admin's own filters are refused before any query runs.
    assert client.get("/admin/tournaments/tournament/?created_by__email__startswith=s").status_code == 400


@pytest.mark.django_db
def test_disqualify_and_cancel_forms_for_staff_only(salon):
    staff = make_staff(salon)
    tournament = new_tournament(salon=salon, staff=staff)
    players = make_players(2)
    register_all(tournament, players)
    client_for(players[0]).post(f"/tournaments/{tournament.pk}/disqualify/",
                                {"nickname": players[1].username, "reason": "hile yaptı"})
    assert Entry.objects.get(user=players[1]).state == Entry.State.REGISTERED
    client_for(staff).post(f"/tournaments/{tournament.pk}/disqualify/",
                           {"nickname": players[1].username, "reason": "hile yaptı"})
    assert Entry.objects.get(user=players[1]).state == Entry.State.REMOVED
    response = client_for(staff).post(f"/tournaments/{tournament.pk}/cancel/", {"reason": ""}, follow=True)
    assert "Sebep" in response.content.decode()
    client_for(staff).post(f"/tournaments/{tournament.pk}/cancel/", {"reason": "yağmur"})
    tournament.refresh_from_db()
    assert tournament.status == "cancelled"


@pytest.mark.django_db
def test_lobby_strip_notice_and_profile_line(salon):
    now = timezone.now()
    soon = new_tournament(salon=salon, name="Birazdan", starts_in=timedelta(minutes=5))
    later = new_tournament(salon=salon, name="Yarın akşam", starts_in=timedelta(days=1), registration_minutes=2000)
    player = make_players(1)[0]
    register_all(soon, [player])
    register_all(later, [player])
    lobby = client_for(player).get("/").content.decode()
    assert 'data-testid="tournament-strip"' in lobby and "Birazdan" in lobby and "Yarın akşam" in lobby
    assert "tournaments/notice.js" in lobby
    assert "tournaments/notice.js" not in client_for().get("/").content.decode()
    notice = client_for(player).get("/tournaments/notice.json").json()
    # Only the one starting within the reminder window.
    assert [t["name"] for t in notice["tournaments"]] == ["Birazdan"]
    assert notice["tournaments"][0]["seconds_to_start"] <= 300
    assert client_for().get("/tournaments/notice.json").json()["tournaments"] == []
    profile = client_for().get(f"/players/{player.username}/").content.decode()
    assert "0 turnuva oynadı" in profile
    # Played: the profile counts it and shows the best place.
    quick = new_tournament(salon=salon, now=now - timedelta(minutes=10))
    others = make_players(3)
    register_all(quick, [player, *others], now=now - timedelta(minutes=5))
    services.sweep(now=quick.starts_at)
    notices = {t["tournament"]: t for t in client_for(player).get("/tournaments/notice.json").json()["tournaments"]}
    assert notices[quick.pk]["status"] == "running" and notices[quick.pk]["table_url"].startswith("/tables/")
    play_tables(quick)
    services.sweep(now=quick.starts_at + timedelta(minutes=20))
    place = Entry.objects.get(tournament=quick, user=player).place
    profile = client_for().get(f"/players/{player.username}/").content.decode()
    assert "1 turnuva oynadı" in profile and f"en iyi yeri: {place}." in profile
    finished = client_for().get(f"/tournaments/{quick.pk}/").content.decode()
    assert "maçı incele" in finished and "/hands/" in finished


# -- sockets ------------------------------------------------------------------------------------------------


def session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


async def open_socket(user, path: str) -> WebsocketCommunicator:
    headers = [(b"origin", ORIGIN.encode()), (b"host", b"127.0.0.1:8000")]
    if user is not None:
        cookie = await sync_to_async(session_cookie)(user)
        headers.append((b"cookie", cookie.encode()))
    communicator = WebsocketCommunicator(application, path, headers=headers)
    return communicator


def started_tournament(count: int):
    from tests.conftest import make_salon

    salon = make_salon()
    tournament = new_tournament(salon=salon, now=timezone.now() - timedelta(minutes=10), format=Format.ARENA)
    players = make_players(count)
    register_all(tournament, players, now=timezone.now() - timedelta(minutes=5))
    return tournament, players


@pytest.mark.django_db(transaction=True)
async def test_every_open_page_of_a_player_is_taken_to_their_table():
    tournament, players = await sync_to_async(started_tournament)(4)
    first_tab = await open_socket(players[0], "/ws/tournaments/me/")
    second_tab = await open_socket(players[0], f"/ws/tournaments/{tournament.pk}/")
    watcher = await open_socket(None, f"/ws/tournaments/{tournament.pk}/")
    anonymous_me = await open_socket(None, "/ws/tournaments/me/")
    for communicator in (first_tab, second_tab, watcher):
        assert (await communicator.connect())[0]
    assert (await anonymous_me.connect())[0]  # accepted, told why, closed for good
    told = await anonymous_me.receive_json_from(timeout=5)
    assert (told["type"], told["code"], told["close"]) == ("error", "login_required", 4401)
    closed = await anonymous_me.receive_output(timeout=5)
    assert (closed["type"], closed["code"]) == ("websocket.close", 4401)
    await sync_to_async(services.sweep)(now=tournament.starts_at)
    table_id = await sync_to_async(
        lambda: TournamentTable.objects.get(tournament=tournament).table_id)()
    for tab in (first_tab, second_tab):
        frames = [await tab.receive_json_from(timeout=5) for _ in range(1 + (tab is second_tab))]
        pushes = [frame for frame in frames if frame["type"] == "table"]
        assert pushes == [{"type": "table", "tournament": tournament.pk, "table": table_id,
                           "url": f"/tables/{table_id}/"}]
    seen = await watcher.receive_json_from(timeout=5)
    assert seen == {"type": "changed", "tournament": tournament.pk}
    assert await watcher.receive_nothing(timeout=0.3)  # a watcher gets nobody's table push
    for communicator in (first_tab, second_tab, watcher):
        await communicator.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_site_ban_closes_the_tournament_sockets_of_the_player():
    from channels.layers import get_channel_layer

    tournament, players = await sync_to_async(started_tournament)(1)
    socket = await open_socket(players[0], "/ws/tournaments/me/")
    assert (await socket.connect())[0]
    await get_channel_layer().group_send(f"user-{players[0].pk}", {"type": "user.kicked", "user_id": 0})
    assert await socket.receive_nothing(timeout=0.2)  # another app's message: ignored, still open
    await get_channel_layer().group_send(f"user-{players[0].pk}", {"type": "user.banned", "message": "x"})
    told = await socket.receive_json_from(timeout=2)
    assert told["type"] == "banned" and told["message"] == "Hesabınız kapatıldı; bağlantınız sonlandırıldı."
    closed = await socket.receive_output(timeout=2)
    assert (closed["type"], closed["code"]) == ("websocket.close", 4403)
    await socket.disconnect()
