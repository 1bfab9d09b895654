"""Create the bot accounts once (issue 10: bots were made on first use by name, so a person
holding "BotAyla" was seated as a bot). The names are frozen here; a name whose key some account
already holds is skipped (that person keeps it, and is never taken for a bot: bots are found by
``is_bot``)."""

from django.contrib.auth.hashers import make_password
from django.db import migrations

BOT_NAMES = ("BotAyla", "BotCem", "BotDeniz", "BotEce", "BotFatih", "BotGizem", "BotHakan", "BotIpek",
             "BotKerem", "BotLale", "BotMert", "BotNil")


def create_bots(apps, schema_editor):
    from accounts.validators import nickname_key

    User = apps.get_model("accounts", "User")
    for name in BOT_NAMES:
        key = nickname_key(name)
        if User.objects.filter(nickname_key=key).exists() or User.objects.filter(username__iexact=name).exists():
            continue
        User.objects.create(
            username=name, nickname_key=key, email="", is_bot=True, password=make_password(None),
        )


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0004_user_nickname_key_unique"),
    ]

    operations = [
        migrations.RunPython(create_bots, migrations.RunPython.noop),
    ]
