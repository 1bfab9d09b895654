# The constraint in its own migration: on PostgreSQL a table whose rows were just updated in the
# same transaction may not be altered while deferred triggers are pending.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0003_user_nickname_key"),
    ]

    operations = [
        migrations.AlterField(
            model_name="user",
            name="nickname_key",
            field=models.CharField(editable=False, max_length=255, null=True, unique=True, verbose_name="rumuz anahtarı"),
        ),
    ]
