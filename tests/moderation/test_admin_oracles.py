"""Admin filters as an oracle (issue 10, item 1).

A salon moderator tried to read other users' e-mails and password hashes one character at a time
by adding lookups to changelist URLs and comparing result counts (a matching prefix lists a row,
a wrong one lists none). Every admin a salon moderator can open now takes only the lookups of its
own filters and search: anything else is refused with a 400 before any query runs, so the count
tells nothing. Site admins keep every lookup.
"""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.test import RequestFactory

from salons import services as salon_services
from tests.conftest import make_player
from tests.moderation.conftest import make_moderator

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]


@pytest.fixture
def removals(world):
    """An owner removal in the moderator's salon (so the removal admins list a row) and a peer
    moderator whose e-mail the attacker is after."""
    peer = make_moderator("Sorumlu3", world.salon)
    victim = make_player("Atilan")
    salon_services.remove_from_room(owner=world.room.owner, room=world.room, user=victim, reason="sebepsiz", minutes=5)
    salon_services.post_chat_message(user=world.troll, room=world.room, text="selam")  # troll is "seen" in the salon
    return {"owner": world.room.owner, "peer": peer, "victim": victim, "troll": world.troll}


def count_or_refusal(client, url: str, params: dict) -> int | str:
    response = client.get(url, params)
    if response.status_code == 200:
        return response.context["cl"].result_count
    return f"refused {response.status_code}"


def oracle(client, url: str, lookup: str, secret: str) -> tuple[int | str, int | str]:
    """(rows for the right prefix, rows for a wrong one): equal numbers or refusals leak nothing."""
    return count_or_refusal(client, url, {lookup: secret[:6]}), count_or_refusal(client, url, {lookup: "zz~no"})


ATTACKS = [
    # (changelist, lookup, whose secret)
    ("/admin/moderation/player/", "email__startswith", "troll.email"),
    ("/admin/moderation/player/", "password__startswith", "troll.password"),
    ("/admin/moderation/removingowner/", "email__startswith", "owner.email"),
    ("/admin/moderation/removingowner/", "password__startswith", "owner.password"),
    ("/admin/moderation/ownerremoval/", "removed_by__email__startswith", "owner.email"),
    ("/admin/moderation/ownerremoval/", "removed_by__password__startswith", "owner.password"),
    ("/admin/moderation/ownerremoval/", "removed_by__owned_rooms__salon__staff__user__email__startswith", "peer.email"),
    ("/admin/moderation/ownerremoval/", "removed_by__owned_rooms__salon__staff__user__password__startswith", "peer.password"),
    ("/admin/moderation/ownerremoval/", "user__email__startswith", "victim.email"),
    ("/admin/moderation/report/", "reported__email__startswith", "troll.email"),
    ("/admin/moderation/chatline/", "author__password__startswith", "troll.password"),
]


@pytest.mark.parametrize(("url", "lookup", "secret"), ATTACKS)
def test_a_salon_moderator_cannot_use_changelist_counts_as_an_oracle(world, removals, client, url, lookup, secret):
    from moderation import services
    from moderation.models import Report

    services.file_report(reporter=world.reporter, reported=world.troll, reason="insult", room=world.room)
    assert Report.objects.count() == 1
    whose, field = secret.split(".")
    value = getattr(removals[whose], field)
    client.force_login(world.moderator)
    right, wrong = oracle(client, url, lookup, value)
    assert right == wrong == "refused 400", (url, lookup, right, wrong)


def test_the_search_box_matches_nicknames_only(world, removals, client):
    client.force_login(world.moderator)
    for url in ("/admin/moderation/player/", "/admin/moderation/removingowner/", "/admin/moderation/ownerremoval/"):
        page = client.get(url, {"q": world.room.owner.email})
        assert page.status_code == 200 and page.context["cl"].result_count == 0, url
        page = client.get(url, {"q": world.troll.password})
        assert page.status_code == 200 and page.context["cl"].result_count == 0, url


def test_the_admins_own_filters_still_work_for_salon_staff(world, removals, client):
    client.force_login(world.moderator)
    owner = world.room.owner
    cases = [
        ("/admin/moderation/ownerremoval/", {"removed_by__id__exact": owner.pk}, 1),
        ("/admin/moderation/ownerremoval/", {"removed_by__id__exact": world.troll.pk}, 0),
        ("/admin/moderation/ownerremoval/", {"salon": world.salon.pk}, 1),
        ("/admin/moderation/sanction/", {"kind__exact": "mute", "status__exact": "active"}, 0),
        ("/admin/moderation/report/", {"status": "all", "reason__exact": "insult"}, 0),
        ("/admin/moderation/chatline/", {"visible__exact": "1"}, 1),
        ("/admin/moderation/moderationlog/", {"created_at__year": "2020"}, 0),
        ("/admin/moderation/chatline/", {"q": "selam"}, 1),
        ("/admin/moderation/player/", {"q": "Trol"}, 1),
    ]
    for url, params, expected in cases:
        assert count_or_refusal(client, url, params) == expected, (url, params)


def test_bad_filter_values_are_a_clean_answer_not_a_500(world, removals, client):
    client.force_login(world.moderator)
    for url, params in [
        ("/admin/moderation/ownerremoval/", {"salon": "abc"}),
        ("/admin/moderation/ownerremoval/", {"removed_by__id__exact": "abc"}),
        ("/admin/moderation/report/", {"salon": "99999999999999999999999"}),
        ("/admin/moderation/player/", {"_to_field": "email", "_popup": "1"}),
    ]:
        response = client.get(url, params)
        assert response.status_code in (200, 302, 400), (url, params, response.status_code)


def test_every_admin_a_salon_moderator_opens_refuses_lookups_outside_its_filters(world, removals, client):
    """The sweep: whatever admin is added later, salon staff get only its declared filters."""
    from accounts.models import User

    client.force_login(world.moderator)
    request = RequestFactory().get("/admin/")
    request.user = world.moderator
    opened = []
    for model, model_admin in admin.site._registry.items():
        if not model_admin.has_view_permission(request):
            continue
        url = f"/admin/{model._meta.app_label}/{model._meta.model_name}/"
        assert client.get(url).status_code == 200, url
        opened.append(url)
        probes = [{"id__gte": "0"}, {"pk__in": "1,2,3"}]
        if issubclass(model, User):
            probes += [{"email__startswith": "s"}, {"password__contains": "$"}, {"last_login__isnull": "False"}]
        for field in model._meta.get_fields():
            if field.is_relation and field.many_to_one and issubclass(field.related_model, User):
                probes += [{f"{field.name}__email__startswith": "s"}, {f"{field.name}__password__contains": "$"}]
        for probe in probes:
            assert client.get(url, probe).status_code == 400, (url, probe)
    assert "/admin/moderation/player/" in opened and "/admin/moderation/ownerremoval/" in opened


def test_site_admins_keep_djangos_lookups(world, removals, client):
    client.force_login(world.admin)
    owner = world.room.owner
    assert count_or_refusal(client, "/admin/moderation/player/", {"email__startswith": owner.email[:6]}) == 1
    assert count_or_refusal(client, "/admin/moderation/ownerremoval/", {"removed_by__id__exact": owner.pk}) == 1
    assert count_or_refusal(client, "/admin/moderation/ownerremoval/", {"id__gte": 0}) == 1
    assert count_or_refusal(client, "/admin/accounts/user/", {"q": owner.email}) == 1


def test_no_salon_staff_page_shows_an_email_or_a_password_hash(world, removals, client):
    from accounts.models import User
    from moderation import services
    from salons.models import RoomRemoval

    report = services.file_report(reporter=world.reporter, reported=world.troll, reason="insult", room=world.room)
    warning = services.apply_sanction(actor=world.moderator, user=world.troll, kind="warning", reason="Uyarı sebebi",
                                      salon=world.salon)
    client.force_login(world.moderator)
    secrets = []
    for user in User.objects.all():
        secrets += [user.email, user.password, user.email.split("@")[0]]
    pages = [
        "/admin/moderation/player/",
        f"/admin/moderation/player/{world.troll.pk}/change/",
        f"/admin/moderation/player/{world.room.owner.pk}/change/",
        "/admin/moderation/removingowner/",
        "/admin/moderation/ownerremoval/",
        f"/admin/moderation/ownerremoval/{RoomRemoval.objects.get().pk}/change/",
        "/admin/moderation/report/",
        f"/admin/moderation/report/{report.pk}/change/",
        "/admin/moderation/sanction/",
        f"/admin/moderation/sanction/{warning.pk}/change/",
        "/admin/moderation/sanction/add/",
        "/admin/moderation/moderationlog/",
        "/admin/moderation/chatline/",
    ]
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        html = response.content.decode()
        leaked = [secret for secret in secrets if secret and secret in html]
        assert not leaked, (url, leaked)
    history = client.get(f"/admin/moderation/player/{world.troll.pk}/change/")
    shown = [field for fieldset in history.context["adminform"].fieldsets for field in fieldset[1]["fields"]]
    assert shown == ["username", "date_joined", "is_active"]  # no last login either
    # The raw-id / autocomplete helpers of the other admins are closed to salon staff.
    autocomplete = client.get("/admin/autocomplete/", {"app_label": "salons", "model_name": "salonstaff",
                                                        "field_name": "user", "term": "pat"})
    assert autocomplete.status_code == 403

