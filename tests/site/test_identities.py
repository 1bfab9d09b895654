"""Identities (issue 10, items 3 and 4): bot accounts that nobody can take over, and nicknames
that nobody can imitate with look-alike letters.

Each attack signs up through the real allauth form, or seats bots through the real services.
"""

from __future__ import annotations

import pytest
from django.apps import apps as django_apps
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from accounts import bots as account_bots
from accounts.models import User
from accounts.validators import nickname_key, validate_nickname_policy
from games import practice
from games.models import Match, MatchPlayer
from salons.models import SalonStaff
from tests.conftest import PASSWORD, make_player, make_salon

pytestmark = pytest.mark.django_db


def signup(client, nickname: str, email: str = "new@private.example"):
    return client.post("/accounts/signup/", {
        "username": nickname, "email": email, "password1": PASSWORD, "password2": PASSWORD, "accept_rules": "on",
    })


def refused(response, nickname: str) -> bool:
    return response.status_code == 200 and not User.objects.filter(username=nickname, is_bot=False).exists()


# --- item 4: look-alike nicknames ---------------------------------------------------------------

RESERVED_LOOKALIKES = [
    "аdmin",  # Cyrillic а
    "mоderator",  # Cyrillic о
    "ΑDMIN",  # Greek capital alpha
    "ａｄｍｉｎ",  # fullwidth
    "Adm1n",
    "ad\u200bmin",  # zero-width space
    "ꜱᴛᴀꜰꜰ",  # Latin small capitals
    "Ꮪupport",  # Cherokee S
    "salon",  # a site word
]


@pytest.mark.parametrize("nickname", RESERVED_LOOKALIKES)
def test_look_alikes_of_reserved_names_are_refused(client, nickname):
    assert refused(signup(client, nickname), nickname)


VICTIM_LOOKALIKES = ["Ｖictim", "vіctim", "VICTIM", "v1ctim", "Vıctım", "victim_", "vic.tim", "VlCTlM", "ᴠɪᴄᴛɪᴍ"]


@pytest.mark.parametrize("nickname", VICTIM_LOOKALIKES)
def test_look_alikes_of_an_existing_player_are_refused(client, nickname):
    make_player("victim")
    response = signup(client, nickname)
    assert refused(response, nickname)
    assert "çok benziyor" in response.content.decode() or "zaten kullanılıyor" in response.content.decode()


def test_a_different_name_next_to_an_existing_one_is_fine(client):
    make_player("victim")
    response = signup(client, "victory")
    assert response.status_code == 302
    assert User.objects.filter(username="victory").exists()


@pytest.mark.parametrize("nickname", ["Ауşе", "AY5E", "Ayse_", "ΑΥŞΕ"])
def test_look_alikes_of_staff_are_refused_as_impersonation(nickname):
    staff = make_player("Ayşe")
    SalonStaff.objects.create(salon=make_salon(), user=staff)
    with pytest.raises(ValidationError) as error:
        validate_nickname_policy(nickname)
    assert error.value.code == "nickname_impersonation"


def test_the_database_keeps_one_account_per_key():
    make_player("victim")
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user(username="Ｖictim", email="x@private.example", password=PASSWORD)
    assert User.objects.get(username="victim").nickname_key == nickname_key("Ｖictim") == "victim"


def test_the_admin_form_refuses_a_look_alike_with_a_message():
    make_player("victim")
    with pytest.raises(ValidationError) as error:
        User(username="vіctim", email="y@private.example").full_clean()
    assert "username" in error.value.message_dict


def test_the_key_follows_a_renamed_account():
    player = make_player("Kral06")
    player.username = "Sultan07"
    player.save(update_fields=["username"])
    player.refresh_from_db()
    assert player.nickname_key == nickname_key("Sultan07")


def test_the_migration_fills_keys_and_keeps_old_duplicates_apart():
    """Accounts made before the key existed may already look alike: both keep their nickname."""
    from importlib import import_module

    fill_keys = import_module("accounts.migrations.0003_user_nickname_key").fill_keys
    first = make_player("ali_veli")
    second = make_player("oyuncu_x")
    User.objects.filter(pk=second.pk).update(username="aliveli")  # as it was possible before
    User.objects.filter(pk__in=[first.pk, second.pk]).update(nickname_key=None)
    fill_keys(django_apps, None)
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.nickname_key == nickname_key("aliveli") == "aiiveii"
    assert second.nickname_key == f"aiiveii~{second.pk}"


# --- item 3: bot accounts -----------------------------------------------------------------------


def test_the_bots_exist_after_migrate_and_cannot_log_in():
    bots = User.objects.filter(is_bot=True)
    assert sorted(bots.values_list("username", flat=True)) == sorted(account_bots.BOT_NAMES)
    assert not any(bot.has_usable_password() for bot in bots)


@pytest.mark.parametrize("nickname", ["BotAyla", "Botayla", "BOTAYLA", "B0tAyla", "ΒotCem", "BotCem_2", "bot.deniz"])
def test_bot_names_and_their_look_alikes_are_reserved(client, nickname):
    assert refused(signup(client, nickname), nickname)


def test_a_person_holding_a_bot_name_is_never_seated_as_a_bot():
    """The attack of the review: someone got "BotAyla" before the bots existed."""
    from tests.games.conftest import make_user

    User.objects.filter(username="BotAyla").delete()
    squatter = make_player("BotAyla")
    make_salon()
    table = practice.start_practice(user=make_user("Pratikçi"))
    match = Match.objects.get(table=table)
    seated = list(MatchPlayer.objects.filter(match=match).select_related("user").order_by("seat"))
    assert squatter.pk not in {p.user_id for p in seated}
    assert [p.user.is_bot for p in seated] == [False, True, True, True]


def test_practice_works_for_everyone_even_with_bot_names_squatted():
    """No 500 for everyone: bots are found by is_bot, and a name a person holds is not used."""

    User.objects.filter(is_bot=True).delete()
    squatters = {make_player(name).pk for name in account_bots.BOT_NAMES[:11]}
    make_salon()
    table = practice.start_practice(user=make_player("Pratikçi"))
    seated = [p.user for p in MatchPlayer.objects.filter(match__table=table).select_related("user")]
    bots = [user for user in seated if user.is_bot]
    assert len(bots) == 3
    assert not squatters & {user.pk for user in seated}


def test_bots_come_back_when_a_database_lost_them():
    User.objects.filter(is_bot=True).delete()
    chosen = account_bots.bot_accounts(3)
    assert len(chosen) == 3 and all(bot.is_bot for bot in chosen)
    assert User.objects.filter(is_bot=True).count() == len(account_bots.BOT_NAMES)
