"""Chips are money (issue 18): a balance changes only through its ledger, in one atomic statement,
and nothing that saves a whole account row can write an older balance back."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test import Client, override_settings
from django.utils import timezone

from accounts import selectors as account_selectors
from accounts import services as account_services
from accounts.models import ChipTransaction, User
from tests.conftest import PASSWORD, make_player, make_salon
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "Yeni-Okey-Parola-2025!"

hashing_started = threading.Event()
may_finish_hashing = threading.Event()


class SlowHasher(PBKDF2PasswordHasher):
    """A password hasher that holds the new password's hashing until the test lets it go: the
    second a real PBKDF2 takes, made as long as the race needs."""

    iterations = 1000

    def encode(self, password, salt, iterations=None):
        if password == NEW_PASSWORD:
            hashing_started.set()
            assert may_finish_hashing.wait(10)
        return super().encode(password, salt, iterations)


def ledger_sum(user) -> int:
    return sum(ChipTransaction.objects.filter(user=user).values_list("amount", flat=True))


@pytest.mark.django_db(transaction=True)
@override_settings(PASSWORD_HASHERS=["tests.site.test_chip_ledger.SlowHasher"])
def test_a_buy_in_during_a_password_change_is_never_written_back():
    """The attack: start a password change, register for a 500-chip tournament while it hashes.
    The password change used to save the whole row and write the old balance back, so the buy-in
    vanished and unregistering refunded chips never taken."""
    hashing_started.clear()
    may_finish_hashing.clear()
    player = make_player("Hizli", password=PASSWORD)
    staff = make_player("Sorumlu")
    salon = make_salon("race")
    from salons.models import SalonStaff

    SalonStaff.objects.create(salon=salon, user=staff)
    from games.engine.rules import RuleSet

    tournament = tournament_services.create_tournament(
        actor=staff, salon=salon, name="Gece kupası", rules=RuleSet.preset("penalty").to_dict(),
        starts_at=timezone.now() + timedelta(minutes=30), min_players=2, max_players=8,
        registration_minutes=60, buy_in=500,
    )
    browser = Client()
    browser.force_login(player)
    answers = []

    def change_password():
        try:
            answers.append(browser.post("/accounts/password/change/", {
                "oldpassword": PASSWORD, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD}))
        finally:
            connection.close()

    worker = threading.Thread(target=change_password)
    worker.start()
    assert hashing_started.wait(10), "the password change never reached its hashing"
    tournament_services.register(user=User.objects.get(pk=player.pk), tournament_id=tournament.pk)
    may_finish_hashing.set()
    worker.join(10)
    assert answers and answers[0].status_code == 302, "the password change went through"

    player.refresh_from_db()
    assert player.check_password(NEW_PASSWORD)
    assert player.chips == 500, "the buy-in stays taken"
    assert ledger_sum(player) == player.chips
    tournament_services.unregister(user=player, tournament_id=tournament.pk)
    player.refresh_from_db()
    assert player.chips == 1000, "unregistering gives back exactly what was taken"
    assert account_selectors.ledger_differences() == []


def test_a_stale_copy_of_an_account_saves_without_touching_chips_or_counters():
    player = make_player("Eski")
    stale = User.objects.get(pk=player.pk)
    account_services.change_chips(user=player, amount=-300, note="masa 1")
    account_services.record_game_result(user=player, won=True, score_delta=5)
    stale.first_name = "Ali"
    stale.save()
    player.refresh_from_db()
    assert (player.first_name, player.chips, player.games_played, player.games_won, player.score) == ("Ali", 700, 1, 1, 5)


@pytest.mark.parametrize("field", ["chips", "games_played", "games_won", "score", "session_generation"])
def test_no_save_may_name_a_column_its_service_owns(field):
    player = make_player()
    setattr(player, field, 99)
    with pytest.raises(ValueError):
        player.save(update_fields=[field])


def test_a_balance_never_goes_below_zero_and_a_refusal_writes_no_ledger_line():
    player = make_player()
    with pytest.raises(account_services.ServiceError) as error:
        account_services.change_chips(user=player, amount=-1001)
    assert error.value.code == "not_enough_chips" and error.value.details["balance"] == 1000
    player.refresh_from_db()
    assert player.chips == 1000 and ChipTransaction.objects.filter(user=player).count() == 1


@pytest.mark.django_db(transaction=True)
def test_concurrent_movements_on_one_balance_all_count():
    """Eight threads each take 10 chips five times from one balance: all 400 are taken."""
    player = make_player()
    errors = []

    def take():
        try:
            for _ in range(5):
                account_services.change_chips(user=User.objects.get(pk=player.pk), amount=-10, note="paralel")
        except Exception as error:  # pragma: no cover - the assertion below names it
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=take) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(20)
    assert errors == []
    player.refresh_from_db()
    assert player.chips == 600 and ledger_sum(player) == 600


def test_the_bot_accounts_have_a_ledger_that_explains_their_chips():
    """The data migration that made the bots gave them 1,000 chips each and no ledger line."""
    bots = User.objects.filter(is_bot=True)
    assert bots.count() >= 12
    for bot in bots:
        assert ledger_sum(bot) == bot.chips
    assert account_selectors.ledger_differences() == []


@pytest.mark.allow_server_errors  # the alert is an error line in the log, on purpose
def test_the_ledger_check_reports_and_alerts_on_a_balance_its_ledger_does_not_explain(caplog, capsys):
    honest = make_player("Durust")
    forged = make_player("Sahte")
    User.objects.filter(pk=forged.pk).update(chips=5000)  # what a lost update or a hand edit leaves
    with pytest.raises(CommandError) as error:
        call_command("check_chip_ledger")
    out = capsys.readouterr().out
    assert "Sahte" in out and "+4000" in out and "Durust" not in out
    assert "1 account(s)" in str(error.value)
    assert any(record.levelname == "ERROR" and str(forged.pk) in record.getMessage() for record in caplog.records)
    assert honest.chips == 1000


def test_the_ledger_check_is_quiet_when_every_balance_matches(capsys):
    make_player()
    call_command("check_chip_ledger")
    assert "every chip balance matches" in capsys.readouterr().out


@pytest.mark.allow_server_errors
def test_the_periodic_ledger_check_is_scheduled_and_counts_differences(settings):
    from accounts.tasks import check_chip_ledger

    assert settings.CELERY_BEAT_SCHEDULE["accounts-chip-ledger"]["task"] == "accounts.check_chip_ledger"
    forged = make_player()
    User.objects.filter(pk=forged.pk).update(chips=1)
    assert check_chip_ledger() == 1
