"""PostgreSQL: compress a hand's state with lz4 instead of pglz. The state (a few KB of JSON) is
rewritten on every move; lz4 compresses and decompresses it several times faster. Nothing to do
on SQLite."""

from django.db import migrations


def use_lz4(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    with schema_editor.connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' "
                       "AND 'lz4' = ANY(enumvals)")
        if cursor.fetchone():  # servers built without lz4 keep pglz
            schema_editor.execute("ALTER TABLE games_hand ALTER COLUMN state SET COMPRESSION lz4")


def use_pglz(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE games_hand ALTER COLUMN state SET COMPRESSION pglz")


class Migration(migrations.Migration):
    dependencies = [("games", "0002_hand_commitment_hand_salt_playerrating")]
    operations = [migrations.RunPython(use_lz4, use_pglz)]
