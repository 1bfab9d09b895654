"""Open the chip ledger of accounts that were created without one: the bot accounts of
``0005_bot_accounts`` were made by a data migration (no ``post_save`` handler runs there) with the
starting chips and no welcome line, so 12 bots × 1,000 chips were balances no ledger explained.

The welcome line records the starting amount the account was created with (``OKEY_STARTING_CHIPS``
then, as now by default), dated when it joined; whatever moved since went through the ledger, so
the balance is explained again. An account that still differs afterwards is for the ledger check
(``manage.py check_chip_ledger``) to report, not for this migration to paper over."""

from django.conf import settings
from django.db import migrations


def open_missing_ledgers(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    ChipTransaction = apps.get_model("accounts", "ChipTransaction")
    starting = settings.OKEY_STARTING_CHIPS
    for user in User.objects.filter(chip_transactions__isnull=True).only("pk", "chips", "date_joined"):
        line = ChipTransaction.objects.create(user=user, amount=starting, balance_after=starting, kind="welcome",
                                              note="ledger opened by migration 0007")
        ChipTransaction.objects.filter(pk=line.pk).update(created_at=user.date_joined)


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0006_user_session_generation"),
    ]

    operations = [
        migrations.RunPython(open_missing_ledgers, migrations.RunPython.noop),
    ]
