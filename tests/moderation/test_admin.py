"""The staff side in the admin: the queue with evidence, history and one-click actions; held lines;
sanctions with lift; the log that can't be edited; word lists and the test tool; chat search;
removal counts per owner — and salon staff confined to their own salons everywhere."""

from __future__ import annotations

from datetime import timedelta

import pytest

from moderation import services
from moderation.models import FilteredLine, ModerationLog, Report, Sanction, WatchedWord
from salons import services as salon_services
from salons.models import ChatMessage
from tests.conftest import make_player

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]


@pytest.fixture
def reports(world):
    salon_services.post_chat_message(user=world.troll, room=world.room, table=world.table, text="sen ne salaksın")
    mine = services.file_report(reporter=world.reporter, reported=world.troll, reason="insult", table=world.table)
    theirs = services.file_report(reporter=world.reporter, reported=make_player("Baskasi"), reason="advertising",
                                  room=world.other_room)
    return mine, theirs


def as_user(client, user):
    client.force_login(user)
    return client


def test_the_queue_shows_a_moderator_only_their_salons_reports(world, reports, client):
    mine, theirs = reports
    page = as_user(client, world.moderator).get("/admin/moderation/report/")
    assert page.status_code == 200
    listed = list(page.context["cl"].result_list)
    assert listed == [mine]
    assert client.get(f"/admin/moderation/report/{theirs.pk}/change/").status_code == 302  # "does not exist"
    response = client.post(f"/admin/moderation/report/{theirs.pk}/act/", {"action": "site_ban", "reason": "deneme"})
    assert response.status_code == 404
    assert not Sanction.objects.exists()


def test_the_site_admin_sees_every_report(world, reports, client):
    page = as_user(client, world.admin).get("/admin/moderation/report/")
    assert set(page.context["cl"].result_list) == set(reports)


def test_a_report_page_has_the_evidence_the_history_and_the_actions(world, reports, client):
    mine, _theirs = reports
    services.apply_sanction(actor=world.moderator, user=world.troll, kind="warning", reason="Önceki uyarı",
                            salon=world.salon)
    page = as_user(client, world.moderator).get(f"/admin/moderation/report/{mine.pk}/change/")
    html = page.content.decode()
    assert page.status_code == 200
    assert "sen ne salaksın" in html  # the original words, not only the stars
    assert "Önceki uyarı" in html  # history
    for label in ("Reddet", "Uyar", "1 saat sustur", "24 saat sustur", "Salondan yasakla"):
        assert label in html
    assert "Siteden yasakla" not in html  # site bans are for site admins (test_staff_scope)


def test_one_click_ban_from_the_queue(world, reports, client):
    mine, _theirs = reports
    response = as_user(client, world.admin).post(
        f"/admin/moderation/report/{mine.pk}/act/", {"action": "site_ban", "reason": "Sürekli hakaret"}
    )
    assert response.status_code == 302 and response["Location"].endswith("/admin/moderation/report/")
    sanction = Sanction.objects.get()
    assert (sanction.kind, sanction.user, sanction.reason, sanction.report) == ("site_ban", world.troll, "Sürekli hakaret", mine)
    mine.refresh_from_db()
    assert mine.status == "actioned"


def test_held_lines_are_approved_from_the_admin(world, client):
    salon_services.post_chat_message(user=world.troll, room=world.room, text="erdoğan kazanır")
    salon_services.post_chat_message(user=world.troll, room=world.other_room, text="kılıçdaroğlu kazanır")
    mine = FilteredLine.objects.get(salon=world.salon)
    as_user(client, world.moderator)
    page = client.get("/admin/moderation/filteredline/")
    assert list(page.context["cl"].result_list) == [mine]
    theirs = FilteredLine.objects.get(salon=world.other_salon)
    client.post("/admin/moderation/filteredline/", {"action": "approve", "_selected_action": [mine.pk, theirs.pk]})
    mine.refresh_from_db()
    theirs.refresh_from_db()
    assert mine.review == "approved" and mine.message.visible
    assert theirs.review == "pending"  # not theirs to approve: not even in the queryset


def test_sanctions_are_added_and_lifted_in_the_admin(world, client):
    as_user(client, world.moderator)
    form = client.get("/admin/moderation/sanction/add/")
    assert form.status_code == 200
    salons_offered = {s.pk for s in form.context["adminform"].form.fields["salon"].queryset}
    assert salons_offered == {world.salon.pk}
    response = client.post(
        "/admin/moderation/sanction/add/",
        {"nickname": "Trol", "kind": "mute", "salon": world.salon.pk, "room": "", "duration": "24h", "reason": "Küfür"},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    sanction = Sanction.objects.get()
    assert (sanction.kind, sanction.user, sanction.created_by) == ("mute", world.troll, world.moderator)
    refused = client.post(
        "/admin/moderation/sanction/add/",
        {"nickname": "Trol", "kind": "mute", "salon": world.other_salon.pk, "duration": "24h", "reason": "Küfür"},
    )
    assert refused.status_code == 200 and Sanction.objects.count() == 1
    page = client.get(f"/admin/moderation/sanction/{sanction.pk}/change/")
    assert "Yaptırımı kaldır" in page.content.decode()
    client.post(f"/admin/moderation/sanction/{sanction.pk}/lift/", {"reason": "Yanlışlık"})
    sanction.refresh_from_db()
    assert sanction.status == "lifted"
    other = services.apply_sanction(actor=world.admin, user=world.troll, kind="salon_ban", reason="başka salonda",
                                    duration=timedelta(days=1), salon=world.other_salon)
    assert client.post(f"/admin/moderation/sanction/{other.pk}/lift/", {"reason": "deneme"}).status_code == 404
    assert list(client.get("/admin/moderation/sanction/").context["cl"].result_list) == [sanction]


def test_the_log_is_filterable_and_never_editable(world, reports, client):
    as_user(client, world.admin)
    page = client.get("/admin/moderation/moderationlog/?action=report_filed")
    assert page.status_code == 200 and len(page.context["cl"].result_list) == 2
    entry = ModerationLog.objects.first()
    assert client.get("/admin/moderation/moderationlog/add/").status_code == 403
    assert client.post(f"/admin/moderation/moderationlog/{entry.pk}/delete/").status_code == 403
    change = client.post(f"/admin/moderation/moderationlog/{entry.pk}/change/", {"reason": "x"})
    assert change.status_code == 403
    as_user(client, world.moderator)
    scoped = client.get("/admin/moderation/moderationlog/").context["cl"].result_list
    assert {e.salon_id for e in scoped} == {world.salon.pk}


def test_word_lists_and_the_test_tool(world, client):
    as_user(client, world.moderator)
    assert client.get("/admin/moderation/watchedword/").status_code == 200
    assert client.get("/admin/moderation/watchedword/add/").status_code == 403
    tried = client.get("/admin/moderation/watchedword/try/", {"text": "sen ne salaksın"})
    assert tried.status_code == 200
    html = tried.content.decode()
    assert "censor" in html and "insult" in html and "sen ne ********" in html and "salak" in html
    as_user(client, world.admin)
    response = client.post("/admin/moderation/watchedword/add/",
                           {"word": "kumar", "category": "custom", "action": "block", "match": "", "note": ""})
    assert response.status_code == 302
    assert WatchedWord.objects.get().created_by == world.admin
    assert ModerationLog.objects.filter(action="word_changed").exists()
    assert client.post("/admin/moderation/allowedword/add/", {"word": "Akpınar", "note": "köy"}).status_code == 302


def test_chat_history_search_is_scoped_and_can_hide(world, client):
    salon_services.post_chat_message(user=world.troll, room=world.room, text="burada yazdım")
    salon_services.post_chat_message(user=world.troll, room=world.other_room, text="orada yazdım")
    as_user(client, world.moderator)
    page = client.get("/admin/moderation/chatline/", {"q": "yazdım"})
    assert [m.text for m in page.context["cl"].result_list] == ["burada yazdım"]
    here = ChatMessage.objects.get(text="burada yazdım")
    there = ChatMessage.objects.get(text="orada yazdım")
    client.post("/admin/moderation/chatline/", {"action": "hide", "_selected_action": [here.pk, there.pk]})
    here.refresh_from_db()
    there.refresh_from_db()
    assert not here.visible and there.visible


def test_removals_are_counted_per_owner_for_the_salons_staff(world, client):
    victims = [make_player(f"Atilan{n}") for n in range(3)]
    for victim in victims:
        salon_services.remove_from_room(owner=world.room.owner, room=world.room, user=victim, reason="sebepsiz", minutes=5)
    salon_services.remove_from_room(owner=world.other_room.owner, room=world.other_room, user=victims[0], reason="x y z",
                                    minutes=5)
    as_user(client, world.moderator)
    page = client.get("/admin/moderation/removingowner/")
    rows = [(u.username, u.removal_count) for u in page.context["cl"].result_list]
    assert rows == [("OdaSahibi", 3)]
    listed = client.get("/admin/moderation/ownerremoval/", {"removed_by__id__exact": world.room.owner.pk})
    assert listed.status_code == 200 and len(listed.context["cl"].result_list) == 3
    as_user(client, world.admin)
    rows = [(u.username, u.removal_count) for u in client.get("/admin/moderation/removingowner/").context["cl"].result_list]
    assert rows == [("OdaSahibi", 3), ("BaskaSahip", 1)]


def test_player_history_is_limited_to_players_seen_in_the_salon(world, reports, client):
    stranger = make_player("Yabanci")
    salon_services.post_chat_message(user=stranger, room=world.other_room, text="selam")
    as_user(client, world.moderator)
    names = {p.username for p in client.get("/admin/moderation/player/").context["cl"].result_list}
    assert "Trol" in names and "Yabanci" not in names
    page = client.get(f"/admin/moderation/player/{world.troll.pk}/change/")
    assert page.status_code == 200 and "Oyuncunun geçmişi" in page.content.decode()
    assert client.get(f"/admin/moderation/player/{stranger.pk}/change/").status_code == 302


def test_salon_staff_get_nothing_else_of_the_admin(world, client):
    as_user(client, world.moderator)
    for url in ("/admin/salons/chatmessage/", "/admin/accounts/user/", "/admin/salons/room/", "/admin/salons/roomremoval/"):
        assert client.get(url).status_code == 403, url
    index = client.get("/admin/").content.decode()
    assert "/admin/moderation/report/" in index


def test_players_cannot_open_the_admin(world, client):
    as_user(client, world.troll)
    assert client.get("/admin/moderation/report/").status_code == 302
    assert Report.objects.count() == 0
