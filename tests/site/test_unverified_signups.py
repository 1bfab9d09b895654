"""Unverified sign-ups do not squat nicknames (issue 18, item 6).

The attack: sign up with a made-up e-mail address, never verify, and the nickname and all its
look-alikes are blocked for everyone — twenty of them a minute per address. A sign-up holds its
nickname while its code can still arrive (48 hours); after that an account that never verified,
never signed in and left no trace no longer holds it: the next sign-up with that nickname or a
look-alike removes it in the same transaction, and a periodic clean-up removes the rest. Verified
accounts, bots, staff and anything with a trace (a seat, a room, a ledger line beyond the welcome
chips) are never touched.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from allauth.account.models import EmailAddress
from django.conf import settings
from django.core.cache import cache
from django.test import Client
from django.utils import timezone

from accounts.models import ChipTransaction, User
from salons.models import SalonStaff
from tests.conftest import PASSWORD, make_player, make_room, make_salon

pytestmark = pytest.mark.django_db


def remove_stale() -> int:
    """What the periodic clean-up does (``accounts.signups``)."""
    from accounts import signups

    return signups.remove_stale_unverified()


def sign_up(client, nickname, email):
    client.logout()
    return client.post("/accounts/signup/", {
        "username": nickname, "email": email, "password1": PASSWORD, "password2": PASSWORD, "accept_rules": "on"})


def taken(response) -> bool:
    return response.status_code == 200 and "username" in response.context["form"].errors


def days_old(user, hours):
    User.objects.filter(pk=user.pk).update(date_joined=timezone.now() - timedelta(hours=hours))


def squat(client, nickname, email="uydurma@nowhere.invalid", hours=49):
    """The attacker's sign-up: a made-up address, never verified, ``hours`` ago."""
    assert sign_up(client, nickname, email).status_code == 302
    squatter = User.objects.get(username=nickname)
    assert not EmailAddress.objects.get(user=squatter).verified
    days_old(squatter, hours)
    if hours >= 48:
        cache.clear()  # that long after, allauth's limits on mails to one address have long run out
    return squatter


def test_an_unverified_sign_up_no_longer_holds_its_nickname_after_48_hours(client, mailoutbox):
    squatter = squat(client, "Kral06")
    response = sign_up(client, "Kral06", "gercek@private.example")
    assert response.status_code == 302, response.context["form"].errors if response.status_code == 200 else ""
    owner = User.objects.get(username="Kral06")
    assert owner.pk != squatter.pk and not User.objects.filter(pk=squatter.pk).exists()
    assert not EmailAddress.objects.filter(email="uydurma@nowhere.invalid").exists()
    # The new owner is an ordinary new account: welcome chips and the code by e-mail.
    assert [t.kind for t in owner.chip_transactions.all()] == ["welcome"]
    assert mailoutbox[-1].to == ["gercek@private.example"]


@pytest.mark.parametrize("look_alike", ["kral06", "KRAL06", "Kra1O6", "Кral06"])  # the last with a Cyrillic К
def test_a_look_alike_frees_a_stale_unverified_nickname_too(client, look_alike):
    squatter = squat(client, "Kral06")
    assert sign_up(client, look_alike, "gercek@private.example").status_code == 302
    assert not User.objects.filter(pk=squatter.pk).exists()
    assert User.objects.get(nickname_key=squatter.nickname_key).username == look_alike


def test_during_the_first_48_hours_the_sign_up_keeps_its_nickname(client):
    squat(client, "Kral06", hours=47)
    assert taken(sign_up(client, "Kral06", "gercek@private.example"))
    assert taken(sign_up(client, "KraI06", "gercek@private.example"))
    assert User.objects.filter(username="Kral06").count() == 1


def test_a_verified_account_keeps_its_nickname_however_old(client):
    player = make_player("Kral06")
    days_old(player, 24 * 365)
    assert taken(sign_up(client, "Kral06", "gercek@private.example"))
    assert taken(sign_up(client, "kra1o6", "gercek@private.example"))
    assert User.objects.filter(pk=player.pk).exists()


def test_an_unverified_account_that_did_something_is_kept(client):
    """Never verified, yet not empty: signed in once (an address verified then removed), salon staff,
    a room, a ledger line beyond the welcome chips. Nothing is deleted that is not empty; such an
    account keeps its name for staff to decide."""
    signed_in = make_player("Girdi", verified=False, last_login=timezone.now() - timedelta(days=9))
    staff = make_player("Gorevli", verified=False)
    SalonStaff.objects.create(salon=make_salon(), user=staff)
    owner = make_player("OdaSahibi", verified=False)
    make_room(owner=owner)
    paid = make_player("Cipli", verified=False)
    ChipTransaction.objects.create(user=paid, amount=5, balance_after=paid.chips + 5, kind="admin")
    admin = make_player("Yonetmen", verified=False, is_superuser=True)
    kept = [signed_in, staff, owner, paid, admin]
    for user in kept:
        days_old(user, 24 * 30)
    for user in kept:
        assert taken(sign_up(client, user.username, f"{user.username.lower()}@private.example")), user
    assert remove_stale() == 0
    assert User.objects.filter(pk__in=[u.pk for u in kept]).count() == len(kept)


def test_the_periodic_clean_up_removes_only_stale_empty_unverified_accounts(client):
    stale = [squat(client, f"Hayalet{n}", email=f"h{n}@nowhere.invalid") for n in range(3)]
    fresh = squat(client, "Yeni1", email="yeni@nowhere.invalid", hours=2)
    verified = make_player("Dogrulanmis")
    days_old(verified, 24 * 10)
    no_address = User.objects.create_user(username="Kabukta", password=PASSWORD)  # made in the shell: no address
    days_old(no_address, 24 * 10)
    bots = list(User.objects.filter(is_bot=True))
    assert bots  # made by a migration, with no e-mail address
    User.objects.filter(pk__in=[b.pk for b in bots]).update(date_joined=timezone.now() - timedelta(days=400))

    assert remove_stale() == 3
    assert not User.objects.filter(pk__in=[u.pk for u in stale]).exists()
    for user in (fresh, verified, no_address, *bots):
        assert User.objects.filter(pk=user.pk).exists(), user
    assert remove_stale() == 0  # idempotent: nothing left to do


def test_the_clean_up_runs_on_the_beat_schedule():
    from okeysite.celery import app

    entry = next(e for e in settings.CELERY_BEAT_SCHEDULE.values() if e["task"] == "accounts.remove_stale_signups")
    assert entry["schedule"] <= 3600
    app.loader.import_default_modules()
    assert app.tasks["accounts.remove_stale_signups"]() == 0


def test_the_squatter_cannot_come_back_with_its_old_code(client, mailoutbox):
    """The code sent to the squatter's address belongs to an account that is gone: nothing to verify."""
    client.logout()
    squatter_client = client.__class__()
    assert sign_up(squatter_client, "Kral06", "uydurma@nowhere.invalid").status_code == 302
    code = re.search(r"^\s*([A-Z0-9]{4,}(?:-[A-Z0-9]{4,})*)\s*$", mailoutbox[-1].body, re.M).group(1)
    days_old(User.objects.get(username="Kral06"), 49)
    assert sign_up(client, "Kral06", "gercek@private.example").status_code == 302
    response = squatter_client.post("/accounts/confirm-email/", {"code": code}, follow=True)
    assert response.status_code == 200
    assert "48 saat içinde doğrulanmadığı için silindi" in response.content.decode()
    owner = User.objects.get(username="Kral06")
    assert EmailAddress.objects.filter(user=owner).values_list("email", flat=True).get() == "gercek@private.example"
    assert not EmailAddress.objects.filter(verified=True).exists()


def test_a_stale_unverified_sign_up_does_not_hold_the_address_it_gave_either(client, mailoutbox):
    """The squatter typed someone else's address: after 48 hours its owner signs up with it and gets
    a code, not an "an account with this address exists" mail."""
    squatter = squat(client, "Sahte1", email="kurban@private.example")
    assert sign_up(client, "Kurban", "kurban@private.example").status_code == 302
    assert not User.objects.filter(pk=squatter.pk).exists()
    owner = User.objects.get(username="Kurban")
    assert EmailAddress.objects.get(user=owner).email == "kurban@private.example"
    assert mailoutbox[-1].to == ["kurban@private.example"]
    assert re.search(r"^\s*[A-Z0-9]{4,}(?:-[A-Z0-9]{4,})*\s*$", mailoutbox[-1].body, re.M)


def test_within_48_hours_the_address_stays_with_its_sign_up(client, mailoutbox):
    squat(client, "Sahte1", email="kurban@private.example", hours=3)
    sign_up(client, "Kurban", "kurban@private.example")
    assert not User.objects.filter(username="Kurban").exists()  # allauth's "already exists" path


def test_two_sign_ups_racing_for_one_free_nickname_end_in_a_form_error_not_a_server_error(client, monkeypatch):
    """Both pass the form's check before either is saved; the database refuses the second. Here
    the second sign-up's check is made to miss the first (as it does when both run at once)."""
    from accounts import signups

    assert sign_up(client, "Yarisci", "ilk@private.example").status_code == 302
    from accounts import validators

    monkeypatch.setattr(signups, "nickname_holder", lambda username, now=None: None)
    monkeypatch.setattr(validators, "_holder_of_key", lambda key: None)
    second = sign_up(Client(), "Yarisci", "ikinci@private.example")
    assert taken(second)
    assert User.objects.filter(username__iexact="Yarisci").count() == 1
    assert not EmailAddress.objects.filter(email="ikinci@private.example").exists()
