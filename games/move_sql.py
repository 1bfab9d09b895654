"""Hand-written SQL of the hot path: every move locks its hand, updates it and inserts its Move rows.
Django's ORM spent more CPU building these statements than PostgreSQL spent running them; the
values still go through each field's own preparation, as ``save()`` would."""

from __future__ import annotations

from django.db import connection, models
from django.utils.translation import gettext as _

from games.errors import GameError
from games.models import Hand, Match

# Every move writes one Hand row and inserts its Move rows. Django's save() and bulk_create() spend
# more CPU compiling these statements than PostgreSQL spends running them, so the SQL is built once
# per model and fields, and the values prepared by the fields themselves (as save() would).
_statements: dict[tuple, str] = {}


def update_row(obj: models.Model, fields: tuple[str, ...]) -> None:
    """``obj.save(update_fields=fields)`` for a model without signals or custom save()."""
    meta = type(obj)._meta
    key = ("update", connection.vendor, meta.label, fields)
    if key not in _statements:
        quote = connection.ops.quote_name
        assignments = ", ".join(f"{quote(meta.get_field(name).column)} = %s" for name in fields)
        _statements[key] = f"UPDATE {quote(meta.db_table)} SET {assignments} WHERE {quote(meta.pk.column)} = %s"
    values = [meta.get_field(name).get_db_prep_save(getattr(obj, name), connection) for name in fields]
    with connection.cursor() as cursor:
        cursor.execute(_statements[key], [*values, obj.pk])


def insert_rows(objs: list[models.Model]) -> None:
    """``bulk_create(objs)`` for rows whose ids nobody reads back (the move log)."""
    if not objs:
        return
    meta = type(objs[0])._meta
    columns = [field for field in meta.concrete_fields if not field.primary_key]
    key = ("insert", connection.vendor, meta.label, len(objs))
    if key not in _statements:
        quote = connection.ops.quote_name
        row = "(" + ", ".join(["%s"] * len(columns)) + ")"
        _statements[key] = (f"INSERT INTO {quote(meta.db_table)} ({', '.join(quote(f.column) for f in columns)}) "
                            f"VALUES {', '.join([row] * len(objs))}")
    values = [field.get_db_prep_save(field.pre_save(obj, True), connection) for obj in objs for field in columns]
    with connection.cursor() as cursor:
        cursor.execute(_statements[key], values)


def lock_current_hand(table_id: int) -> Hand:
    """The table's current hand, locked, with its match. Plain SQL, as in ``selectors.match_players``:
    it runs for every move, and building it through the ORM cost more than running it."""
    lock = " FOR UPDATE OF h" if connection.features.has_select_for_update_of else ""
    hand = next(iter(Hand.objects.raw(
        f"SELECT h.* FROM {Hand._meta.db_table} h JOIN {Match._meta.db_table} m ON m.id = h.match_id "
        f"WHERE m.table_id = %s AND m.status = %s ORDER BY h.number DESC LIMIT 1{lock}",
        [table_id, Match.Status.RUNNING])), None)
    if hand is None:
        raise GameError("no_game", _("Bu masada süren bir oyun yok."))
    hand.match = next(iter(Match.objects.raw(f"SELECT * FROM {Match._meta.db_table} WHERE id = %s", [hand.match_id])))
    if hand.status != Hand.Status.PLAYING:
        raise GameError("hand_over", _("El bitti; yeni el birazdan dağıtılacak."), move=hand.move)
    return hand
