"""Add ``User.nickname_key`` and fill it for existing accounts (issue 10: look-alike nicknames).

Accounts that already share a key (made before the key existed) keep their nicknames; the later
ones get their key suffixed with their id, so the unique constraint of the next migration holds
and only new sign-ups are refused.
"""

from django.db import migrations, models


def fill_keys(apps, schema_editor):
    from accounts.validators import nickname_key

    User = apps.get_model("accounts", "User")
    seen: set[str] = set()
    for user in User.objects.order_by("date_joined", "pk").only("pk", "username").iterator():
        key = nickname_key(user.username)
        if key in seen:
            key = f"{key}~{user.pk}"
        seen.add(key)
        User.objects.filter(pk=user.pk).update(nickname_key=key)


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0002_user_is_bot"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="nickname_key",
            field=models.CharField(editable=False, max_length=255, null=True, verbose_name="rumuz anahtarı"),
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
    ]
