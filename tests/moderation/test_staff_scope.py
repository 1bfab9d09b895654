"""Staff scope (issue 10, item 2).

A salon moderator could site-ban anyone — staff of other salons included — and lift a site ban a
site admin had applied. Now only site admins apply or lift site bans; salon staff act only within
their salons (salon ban, mute, room removal, warning) and never against a staff member of any
salon or a site admin. The rule lives in ``moderation.services``, so the admin, the views and any
other caller get it; every refusal leaves a line in the moderation log, as an action would.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from moderation import services
from moderation.models import ModerationLog, Report, Sanction
from tests.conftest import make_player
from tests.moderation.conftest import make_moderator

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]


def refusals():
    return list(ModerationLog.objects.filter(action="refused").order_by("id"))


def refused(code: str, call, **kwargs):
    with pytest.raises(services.ServiceError) as error:
        call(**kwargs)
    assert error.value.code == code, error.value.code
    return error.value


# --- through the services ------------------------------------------------------------------------


def test_salon_staff_cannot_site_ban_and_the_attempt_is_logged(world):
    refused("site_admin_only", services.apply_sanction, actor=world.moderator, user=world.troll, kind="site_ban",
            reason="Reklam yaptı", salon=world.salon)
    assert not Sanction.objects.exists()
    [entry] = refusals()
    assert (entry.actor, entry.target, entry.salon) == (world.moderator, world.troll, world.salon)
    assert entry.reason == "Reklam yaptı"
    assert entry.details["attempted"] == "apply_sanction" and entry.details["kind"] == "site_ban"
    assert entry.details["code"] == "site_admin_only"


def test_salon_staff_cannot_lift_a_site_ban(world):
    ban = services.apply_sanction(actor=world.admin, user=world.troll, kind="site_ban", reason="Reklam yaptı",
                                  salon=world.salon)
    refused("site_admin_only", services.lift_sanction, actor=world.moderator, sanction=ban, reason="Affettim")
    ban.refresh_from_db()
    assert ban.is_active()
    [entry] = refusals()
    assert (entry.actor, entry.target, entry.sanction) == (world.moderator, world.troll, ban)
    assert entry.details["attempted"] == "lift_sanction"
    services.lift_sanction(actor=world.admin, sanction=ban, reason="İtiraz haklı")
    ban.refresh_from_db()
    assert ban.status == "lifted"


@pytest.mark.parametrize("kind", ["warning", "mute", "salon_ban", "room_removal"])
def test_salon_staff_never_sanction_staff_of_any_salon_or_a_site_admin(world, kind):
    only_is_staff = make_player("Gorevli", is_staff=True)
    # The other salon's moderator plays in this salon: still staff, still out of reach.
    targets = [world.other_moderator, make_moderator("Sorumlu3", world.salon), world.admin, only_is_staff]
    for target in targets:
        refused("sanction_staff", services.apply_sanction, actor=world.moderator, user=target, kind=kind,
                reason="deneme sebep", duration=timedelta(hours=1), salon=world.salon, room=world.room)
    assert not Sanction.objects.exists()
    assert [(entry.target, entry.details["code"]) for entry in refusals()] == [(t, "sanction_staff") for t in targets]


def test_salon_staff_act_in_their_own_salon_only_and_outside_attempts_are_logged(world):
    attempts = [("mute", {"salon": world.other_salon}), ("salon_ban", {"salon": world.other_salon}),
                ("room_removal", {"room": world.other_room}), ("mute", {"salon": None}), ("warning", {"salon": None})]
    for kind, where in attempts:
        refused("not_allowed", services.apply_sanction, actor=world.moderator, user=world.troll, kind=kind,
                reason="deneme sebep", duration=timedelta(hours=1), **where)
    assert len(refusals()) == len(attempts)
    # Within their salon, every kind but the site ban works.
    for kind in ("warning", "mute", "salon_ban"):
        services.apply_sanction(actor=world.moderator, user=world.troll, kind=kind, reason="kendi salonu",
                                duration=timedelta(hours=1), salon=world.salon)
    services.apply_sanction(actor=world.moderator, user=world.troll, kind="room_removal", reason="kendi odası",
                            duration=timedelta(hours=1), room=world.room)
    assert Sanction.objects.filter(created_by=world.moderator).count() == 4


def test_lifting_another_salons_sanction_is_refused_and_logged(world):
    theirs = services.apply_sanction(actor=world.other_moderator, user=world.troll, kind="mute", reason="başka salon",
                                     duration=timedelta(hours=1), salon=world.other_salon)
    refused("not_allowed", services.lift_sanction, actor=world.moderator, sanction=theirs, reason="yetkim yok")
    assert [e.details["attempted"] for e in refusals()] == ["lift_sanction"]


def test_a_site_ban_from_the_report_queue_needs_a_site_admin(world):
    report = services.file_report(reporter=world.reporter, reported=world.troll, reason="insult", room=world.room)
    refused("site_admin_only", services.act_on_report, actor=world.moderator, report=report, action="site_ban")
    report.refresh_from_db()
    assert report.status == "open" and not Sanction.objects.exists()
    [entry] = refusals()
    assert entry.report == report and entry.details["kind"] == "site_ban"
    services.act_on_report(actor=world.admin, report=report, action="site_ban")
    assert Sanction.objects.get().kind == "site_ban"


def test_reports_about_staff_are_for_site_admins(world):
    report = services.file_report(reporter=world.reporter, reported=world.other_moderator, reason="insult",
                                  room=world.room)
    for action in ("dismiss", "warn"):
        refused("sanction_staff", services.act_on_report, actor=world.moderator, report=report, action=action)
    assert len(refusals()) == 2
    services.act_on_report(actor=world.admin, report=report, action="warn")


def test_site_admins_may_site_ban_salon_staff_but_nobody_bans_a_site_admin(world):
    services.apply_sanction(actor=world.admin, user=world.other_moderator, kind="site_ban", reason="Yetkiyi kötüye kullandı")
    other_admin = make_player("Patron2", is_staff=True, is_superuser=True)
    refused("sanction_staff", services.apply_sanction, actor=world.admin, user=other_admin, kind="warning",
            reason="deneme sebep")
    assert len(refusals()) == 1


def test_the_refusal_log_survives_a_caller_that_rolls_back(world):
    """Refusals are logged after the service's own transaction is rolled back, by the outermost
    service call: a view or task catching the error still leaves the line."""
    from django.db import transaction

    with pytest.raises(services.ServiceError), transaction.atomic():
        services.apply_sanction(actor=world.moderator, user=world.troll, kind="site_ban", reason="Reklam yaptı")
    # The caller's own block rolled back, so that line went with it — as any write of theirs would...
    assert refusals() == []
    # ...but a refusal in a service called on its own is kept.
    refused("site_admin_only", services.apply_sanction, actor=world.moderator, user=world.troll, kind="site_ban",
            reason="Reklam yaptı")
    assert len(refusals()) == 1


# --- through the admin pages ----------------------------------------------------------------------


def test_the_admin_refuses_a_site_ban_by_salon_staff_and_logs_it(world, client):
    client.force_login(world.moderator)
    form = client.get("/admin/moderation/sanction/add/")
    assert "site_ban" not in [value for value, _label in form.context["adminform"].form.fields["kind"].widget.choices]
    response = client.post("/admin/moderation/sanction/add/", {
        "nickname": "Trol", "kind": "site_ban", "salon": world.salon.pk, "duration": "permanent", "reason": "Reklam yaptı",
    })
    assert response.status_code == 200  # the form again, with the error
    assert not Sanction.objects.exists()
    assert len(refusals()) == 1


def test_the_admin_refuses_sanctioning_staff_and_logs_it(world, client):
    client.force_login(world.moderator)
    response = client.post("/admin/moderation/sanction/add/", {
        "nickname": world.other_moderator.username, "kind": "mute", "salon": world.salon.pk, "duration": "1h",
        "reason": "Sohbeti bozdu",
    })
    assert response.status_code == 200
    assert "Salon sorumlularına" in response.content.decode()
    assert not Sanction.objects.exists()
    [entry] = refusals()
    assert entry.target == world.other_moderator and entry.details["code"] == "sanction_staff"


def test_the_queue_offers_no_site_ban_to_salon_staff_and_refuses_a_forged_one(world, client):
    report = services.file_report(reporter=world.reporter, reported=world.troll, reason="insult", room=world.room)
    client.force_login(world.moderator)
    page = client.get(f"/admin/moderation/report/{report.pk}/change/").content.decode()
    assert "Siteden yasakla" not in page and "Salondan yasakla" in page
    response = client.post(f"/admin/moderation/report/{report.pk}/act/", {"action": "site_ban", "reason": "Sürekli hakaret"})
    assert response.status_code == 302
    assert not Sanction.objects.exists() and Report.objects.get().status == "open"
    assert len(refusals()) == 1
    client.force_login(world.admin)
    assert "Siteden yasakla" in client.get(f"/admin/moderation/report/{report.pk}/change/").content.decode()


def test_the_admin_refuses_lifting_a_site_ban_by_salon_staff_and_logs_it(world, client):
    ban = services.apply_sanction(actor=world.admin, user=world.troll, kind="site_ban", reason="Reklam yaptı",
                                  salon=world.salon)
    client.force_login(world.moderator)
    page = client.get(f"/admin/moderation/sanction/{ban.pk}/change/")
    assert page.status_code == 200 and not page.context["can_lift"]
    client.post(f"/admin/moderation/sanction/{ban.pk}/lift/", {"reason": "Affettim"})
    client.post("/admin/moderation/sanction/", {"action": "lift_selected", "_selected_action": [ban.pk]})
    ban.refresh_from_db()
    assert ban.is_active()
    assert [e.details["attempted"] for e in refusals()] == ["lift_sanction", "lift_sanction"]


def test_acting_on_another_salons_report_or_sanction_in_the_admin_is_a_404_and_logged(world, client):
    report = services.file_report(reporter=world.reporter, reported=world.troll, reason="insult", room=world.other_room)
    theirs = services.apply_sanction(actor=world.other_moderator, user=world.troll, kind="mute", reason="başka salon",
                                     duration=timedelta(hours=1), salon=world.other_salon)
    client.force_login(world.moderator)
    assert client.post(f"/admin/moderation/report/{report.pk}/act/", {"action": "warn", "reason": "deneme"}).status_code == 404
    assert client.post(f"/admin/moderation/sanction/{theirs.pk}/lift/", {"reason": "yetkim yok"}).status_code == 404
    assert client.post("/admin/moderation/report/999999/act/", {"action": "warn"}).status_code == 404
    report.refresh_from_db()
    theirs.refresh_from_db()
    assert report.status == "open" and theirs.is_active()
    assert [(e.details["attempted"], e.salon) for e in refusals()] == [("act_on_report", world.other_salon),
                                                                        ("lift_sanction", world.other_salon)]
