"""Accounts: sign-up with a nickname, log in with either nickname or e-mail, verification by code,
rate limits, the admin login behind allauth, nicknames that may not be taken, chips."""

from __future__ import annotations

import re

import pytest
from allauth.account.models import EmailAddress
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.test import override_settings

from accounts import services as account_services
from accounts.errors import ServiceError
from accounts.models import ChipTransaction, User
from accounts.validators import (
    normalize_nickname,
    register_nickname_check,
    unregister_nickname_check,
    validate_nickname_policy,
)
from salons.models import SalonStaff
from tests.conftest import PASSWORD, make_player, make_salon

pytestmark = pytest.mark.django_db


def email_code(body: str) -> str:
    """The verification code line of allauth's e-mail (e.g. "CFSK-GFFZ")."""
    return re.search(r"^\s*([A-Z0-9]{4,}(?:-[A-Z0-9]{4,})*)\s*$", body, re.M).group(1)


def signup(client, nickname="Kral06", email="kral06@private.example", **extra):
    data = {
        "username": nickname,
        "email": email,
        "password1": PASSWORD,
        "password2": PASSWORD,
        "accept_rules": "on",
        **extra,
    }
    return client.post("/accounts/signup/", data)


def test_signup_gives_chips_and_asks_for_the_emailed_code(client, mailoutbox, settings):
    response = signup(client)
    assert response.status_code == 302
    user = User.objects.get(username="Kral06")
    assert user.chips == settings.OKEY_STARTING_CHIPS
    ledger = list(user.chip_transactions.all())
    assert [(t.kind, t.amount, t.balance_after) for t in ledger] == [("welcome", user.chips, user.chips)]
    assert len(mailoutbox) == 1 and mailoutbox[0].to == ["kral06@private.example"]
    code = email_code(mailoutbox[0].body)
    # Mandatory verification: the code page first, then the site.
    verify = client.get(response["Location"])
    assert verify.status_code == 200
    done = client.post(response["Location"], {"code": code})
    assert done.status_code == 302
    assert EmailAddress.objects.get(user=user).verified
    home = client.get("/")
    assert home.context["user"] == user


def test_signup_requires_accepting_the_salon_rules(client):
    response = signup(client, accept_rules="")
    assert response.status_code == 200
    assert not User.objects.filter(username="Kral06").exists()
    assert "salon kurallarını kabul edin" in response.content.decode()


def test_nicknames_are_unique_case_insensitively(client):
    make_player("Ali")
    response = signup(client, nickname="aLi", email="other@private.example")
    assert response.status_code == 200
    assert User.objects.filter(username__iexact="ali").count() == 1
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user(username="ALI", email="x@private.example", password=PASSWORD)


@pytest.mark.parametrize(
    "nickname",
    ["admin", "Admin", "ADM1N", "Moderator", "m0d3rat0r_ali", "Yönetici", "SalonSorumlusu", "sistem", "Destek.Ekibi", "okey"],
)
def test_reserved_and_staff_looking_nicknames_are_refused(client, nickname):
    response = signup(client, nickname=nickname, email="n@private.example")
    assert response.status_code == 200
    assert not User.objects.filter(username=nickname).exists()


def test_look_alikes_of_salon_staff_are_refused(db):
    staff = make_player("Ayşe")
    SalonStaff.objects.create(salon=make_salon(), user=staff)
    assert normalize_nickname("AY5E") == normalize_nickname("Ayşe")
    with pytest.raises(ValidationError):
        validate_nickname_policy("Ay5e")
    validate_nickname_policy("Aysel")  # a different name is fine


@pytest.mark.parametrize("nickname", ["ab", "a" * 21, "ali veli", "_ali", "ali@site", "<b>"])
def test_badly_formed_nicknames_are_refused(client, nickname):
    response = signup(client, nickname=nickname, email="n@private.example")
    assert response.status_code == 200
    assert not User.objects.filter(is_bot=False).exists()


def test_other_apps_can_plug_a_nickname_check(client):
    def no_bad_words(value: str) -> None:
        if "kotu" in value.lower():
            raise ValidationError("bad word", code="offensive")

    register_nickname_check(no_bad_words)
    try:
        assert signup(client, nickname="KotuAdam").status_code == 200
        assert not User.objects.filter(username="KotuAdam").exists()
    finally:
        unregister_nickname_check(no_bad_words)


@pytest.mark.parametrize("login", ["Zeynep", "zeynep", "zeynep@private.example"])
def test_login_with_nickname_or_email(client, login):
    user = make_player("Zeynep", email="zeynep@private.example")
    response = client.post("/accounts/login/", {"login": login, "password": PASSWORD})
    assert response.status_code == 302
    assert client.get("/").context["user"] == user


def test_failed_logins_are_rate_limited(client):
    make_player("Zeynep", email="zeynep@private.example")
    for _ in range(5):
        client.post("/accounts/login/", {"login": "Zeynep", "password": "wrong-password"})
    response = client.post("/accounts/login/", {"login": "Zeynep", "password": PASSWORD})
    assert response.status_code in (200, 429)
    assert client.get("/").context["user"].is_anonymous


def test_the_admin_login_goes_through_allauth(client):
    response = client.get("/admin/login/?next=/admin/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")
    client.force_login(make_player("Sade"))
    assert client.get("/admin/login/").status_code == 403
    assert client.get("/admin/").status_code == 302  # not staff: the admin is closed


def test_admin_lists_are_for_site_admins(client):
    admin = make_player("Patron", is_staff=True, is_superuser=True)
    client.force_login(admin)
    for url in [
        "/admin/accounts/user/", "/admin/accounts/chiptransaction/", "/admin/salons/salon/", "/admin/salons/room/",
        "/admin/salons/table/", "/admin/salons/seat/", "/admin/salons/chatmessage/", "/admin/salons/roomremoval/",
        "/admin/salons/salonstaff/", "/admin/accounts/user/?q=Patron",
    ]:
        assert client.get(url).status_code == 200, url


def test_password_reset_sends_a_mail(client, mailoutbox):
    make_player("Zeynep", email="zeynep@private.example")
    response = client.post("/accounts/password/reset/", {"email": "zeynep@private.example"})
    assert response.status_code == 302
    assert len(mailoutbox) == 1


def test_logout_is_a_post(client):
    client.force_login(make_player("Zeynep"))
    assert client.post("/accounts/logout/").status_code == 302
    assert client.get("/").context["user"].is_anonymous


def test_profile_shows_nickname_and_public_stats_only(client):
    make_player("Deniz", email="deniz@private.example", first_name="Gerçek", last_name="Soyad")
    viewer = make_player("Bakan")
    client.force_login(viewer)
    page = client.get("/players/deniz/").content.decode()
    # The record comes from the games played (tests/games/test_profile_record.py plays them).
    assert "Deniz" in page and 'data-stat="matches_played">0<' in page and 'data-stat="hands_played">0<' in page
    for secret in ["deniz@private.example", "Gerçek", "Soyad"]:
        assert secret not in page
    assert client.get("/players/nobody/").status_code == 404


def test_my_account_shows_my_own_email(client):
    player = make_player("Deniz", email="deniz@private.example")
    client.force_login(player)
    page = client.get("/me/").content.decode()
    assert "deniz@private.example" in page
    assert client.get("/me/", follow=False).status_code == 200


@override_settings(OKEY_STARTING_CHIPS=250)
def test_chips_ledger_explains_the_balance():
    player = make_player("Deniz")
    assert player.chips == 250
    account_services.change_chips(user=player, amount=-100, note="masa 3")
    account_services.change_chips(user=player, amount=40)
    player.refresh_from_db()
    assert player.chips == 190
    assert sum(t.amount for t in player.chip_transactions.all()) == 190
    with pytest.raises(ServiceError) as error:
        account_services.change_chips(user=player, amount=-1000)
    assert error.value.code == "not_enough_chips"
    player.refresh_from_db()
    assert player.chips == 190 and player.chip_transactions.count() == 3
    with pytest.raises(ServiceError):
        account_services.change_chips(user=player, amount=5, kind="money")
    assert ChipTransaction.objects.filter(user=player).count() == 3


def test_game_results_feed_public_stats():
    player = make_player("Deniz")
    account_services.record_game_result(user=player, won=True, score_delta=12)
    account_services.record_game_result(user=player, won=False, score_delta=-4)
    player.refresh_from_db()
    assert (player.games_played, player.games_won, player.score, player.win_rate) == (2, 1, 8, 50)
