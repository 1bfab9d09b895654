"""Reports: from the table, the room or a profile; evidence attached; routed to the salon's staff;
priority grows with repeated reports; flooding refused; the reporter only learns "received"."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from moderation import services
from moderation.models import ModerationLog, Report
from salons import services as salon_services

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]


def test_a_report_from_the_table_carries_the_chat_around_it(world):
    salon_services.post_chat_message(user=world.reporter, room=world.room, table=world.table, text="iyi oyunlar")
    salon_services.post_chat_message(user=world.troll, room=world.room, table=world.table, text="sen ne salaksın")
    salon_services.post_chat_message(user=world.troll, room=world.room, text="odada da yazdım")
    report = services.file_report(reporter=world.reporter, reported=world.troll, reason="insult", note="sürekli hakaret",
                                  table=world.table)
    assert (report.salon, report.room, report.table, report.source) == (world.salon, world.room, world.table, "table")
    texts = [line["text"] for line in report.evidence]
    assert texts == ["iyi oyunlar", "sen ne ********", "odada da yazdım"]
    censored = report.evidence[1]
    assert censored["original"] == "sen ne salaksın" and censored["filter"] == "censor"
    assert ModerationLog.objects.filter(action="report_filed", report=report).exists()


def test_a_report_from_a_profile_goes_to_site_admins(world):
    salon_services.post_chat_message(user=world.troll, room=world.other_room, text="selam")
    report = services.file_report(reporter=world.reporter, reported=world.troll, reason="other")
    assert report.salon is None and report.source == "profile"
    assert [line["text"] for line in report.evidence] == ["selam"]
    from moderation import selectors

    assert list(selectors.report_queue(world.admin)) == [report]
    assert list(selectors.report_queue(world.moderator)) == []


def test_repeated_reports_of_one_player_raise_its_priority(world):
    from tests.conftest import make_player

    first = services.file_report(reporter=world.reporter, reported=world.troll, reason="insult", room=world.room)
    assert first.priority == 1
    for n in range(3):
        services.file_report(reporter=make_player(f"Tanik{n}"), reported=world.troll, reason="insult", room=world.room)
    first.refresh_from_db()
    assert first.priority == 4
    quiet = services.file_report(reporter=world.reporter, reported=world.moderator, reason="other", room=world.room)
    from moderation import selectors

    queue = list(selectors.report_queue(world.moderator))
    assert queue[-1] == quiet and queue[0].reported == world.troll


def test_a_reporter_cannot_flood(world):
    from tests.conftest import make_player

    services.file_report(reporter=world.reporter, reported=world.troll, reason="insult", room=world.room)
    with pytest.raises(services.ServiceError) as again:
        services.file_report(reporter=world.reporter, reported=world.troll, reason="insult", room=world.room)
    assert again.value.code == "already_reported"
    for n in range(services.REPORT_BURST - 1):
        services.file_report(reporter=world.reporter, reported=make_player(f"Hedef{n}"), reason="other", room=world.room)
    with pytest.raises(services.ServiceError) as flood:
        services.file_report(reporter=world.reporter, reported=make_player("BirDaha"), reason="other", room=world.room)
    assert flood.value.code == "too_many_reports"
    # Later, the reporter may report again (the clock is passed in, not waited for).
    later = timezone.now() + services.REPORT_REPEAT_WINDOW + timedelta(minutes=1)
    services.file_report(reporter=world.reporter, reported=world.troll, reason="insult", room=world.room, now=later)


@pytest.mark.parametrize(("reason", "code"), [("nonsense", "bad_reason")])
def test_bad_reports_are_refused(world, reason, code):
    with pytest.raises(services.ServiceError) as refused:
        services.file_report(reporter=world.reporter, reported=world.troll, reason=reason)
    assert refused.value.code == code
    with pytest.raises(services.ServiceError) as itself:
        services.file_report(reporter=world.reporter, reported=world.reporter, reason="other")
    assert itself.value.code == "report_self"


def test_the_report_endpoint_answers_received_and_nothing_else(world, client):
    client.force_login(world.reporter)
    response = client.post(
        "/moderation/report/",
        {"reported": "Trol", "reason": "advertising", "note": "link attı", "table": world.table.pk},
        HTTP_ACCEPT="application/json",
    )
    assert response.status_code == 200
    body = json.loads(response.content)
    assert body == {"ok": True, "message": body["message"]} and "alındı" in body["message"]
    report = Report.objects.get()
    assert report.table == world.table and report.salon == world.salon
    # Staff decide; the reporter's next answer says nothing about it.
    services.act_on_report(actor=world.moderator, report=report, action="mute_24h")
    again = client.post("/moderation/report/", {"reported": "Trol", "reason": "insult"}, HTTP_ACCEPT="application/json")
    assert json.loads(again.content)["error"]["code"] == "already_reported"
    assert "sustur" not in again.content.decode().lower()


def test_the_report_form_page_from_a_profile(world, client):
    client.force_login(world.reporter)
    profile = client.get("/players/Trol/").content.decode()
    assert "/moderation/report/Trol/" in profile
    page = client.get(f"/moderation/report/Trol/?room={world.room.pk}")
    assert page.status_code == 200 and "Trol" in page.content.decode()
    done = client.post("/moderation/report/", {"reported": "Trol", "reason": "cheating", "room": world.room.pk,
                                                "next": "/players/Trol/"})
    assert done.status_code == 302 and done["Location"] == "/players/Trol/"
    assert Report.objects.get().source == "room"


def test_reports_need_a_login(client, world):
    response = client.post("/moderation/report/", {"reported": "Trol", "reason": "insult"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not Report.objects.exists()


def test_one_click_actions_go_through_the_services_and_close_the_players_reports(world):
    report = services.file_report(reporter=world.reporter, reported=world.troll, reason="insult", room=world.room)
    from tests.conftest import make_player

    second = services.file_report(reporter=make_player("Tanik"), reported=world.troll, reason="insult", room=world.room)
    services.act_on_report(actor=world.moderator, report=report, action="mute_1h", reason="Hakaret")
    report.refresh_from_db()
    second.refresh_from_db()
    assert report.status == second.status == "actioned"
    sanction = report.sanctions.get()
    assert sanction.kind == "mute" and sanction.salon == world.salon
    assert timedelta(minutes=59) < sanction.expires_at - sanction.starts_at <= timedelta(hours=1)
    with pytest.raises(services.ServiceError) as closed:
        services.act_on_report(actor=world.moderator, report=report, action="warn")
    assert closed.value.code == "report_closed"


def test_dismissing_is_logged(world):
    report = services.file_report(reporter=world.reporter, reported=world.troll, reason="leaving", room=world.room)
    services.act_on_report(actor=world.moderator, report=report, action="dismiss", reason="Kanıt yok")
    report.refresh_from_db()
    assert report.status == "dismissed" and report.resolution == "Kanıt yok"
    assert ModerationLog.objects.filter(action="report_dismissed", report=report).exists()


def test_staff_of_another_salon_cannot_act_on_the_report(world):
    report = services.file_report(reporter=world.reporter, reported=world.troll, reason="insult", room=world.room)
    for action in ("dismiss", "warn", "site_ban"):
        with pytest.raises(services.ServiceError) as refused:
            services.act_on_report(actor=world.other_moderator, report=report, action=action)
        assert refused.value.code == "not_allowed"


def test_reports_name_only_rooms_the_reporter_may_be_in(world):
    from salons.models import Room

    Room.objects.filter(pk=world.other_room.pk).update(is_private=True)
    world.other_room.refresh_from_db()
    with pytest.raises(services.ServiceError) as refused:
        services.file_report(reporter=world.reporter, reported=world.troll, reason="insult", room=world.other_room)
    assert refused.value.code == "no_access"
    # Removed by the owner: may still report (the owner, for an unfair removal).
    salon_services.remove_from_room(owner=world.room.owner, room=world.room, user=world.reporter, reason="keyfi", minutes=30)
    report = services.file_report(reporter=world.reporter, reported=world.room.owner, reason="unfair_removal", room=world.room)
    assert report.salon == world.salon


def test_the_room_page_offers_a_report_link_for_others(world, client):
    client.force_login(world.reporter)
    from salons.models import RoomPresence

    RoomPresence.objects.create(room=world.room, user=world.troll, channel_name="test-channel")
    html = client.get(f"/rooms/{world.room.pk}/").content.decode()
    assert f"/moderation/report/Trol/?room={world.room.pk}" in html
    assert "/moderation/report/Sikayetci/" not in html
