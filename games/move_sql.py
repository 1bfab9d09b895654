"""Hand-written SQL of the hot path: every move locks its hand, updates it and inserts its Move rows.
Django's ORM spent more CPU building these statements than PostgreSQL spent running them; the
values still go through each field's own preparation, as ``save()`` would."""

from __future__ import annotations

import orjson
from django.conf import settings
from django.db import connection, models
from django.utils.translation import gettext as _
from psycopg.types.json import Jsonb

from games.errors import GameError
from games.models import Hand, Match

# Every move writes one Hand row and inserts its Move rows. Django's save() and bulk_create() spend
# more CPU compiling these statements than PostgreSQL spends running them, so the SQL is built once
# per model and fields, and the values prepared by the fields themselves (as save() would).
_statements: dict[tuple, str] = {}


def update_row(obj: models.Model, fields: tuple[str, ...]) -> None:
    """``obj.save(update_fields=fields)`` for a model without signals or custom save()."""
    sql, values = _update_statement(obj, fields)
    with connection.cursor() as cursor:
        cursor.execute(sql, values)


def insert_rows(objs: list[models.Model]) -> None:
    """``bulk_create(objs)`` for rows whose ids nobody reads back (the move log)."""
    if not objs:
        return
    sql, values = _insert_statement(objs)
    with connection.cursor() as cursor:
        cursor.execute(sql, values)


def update_and_insert(obj: models.Model, fields: tuple[str, ...], objs: list[models.Model]) -> None:
    """``update_row(obj, fields)`` and ``insert_rows(objs)``; on PostgreSQL in one statement (a
    data-modifying WITH), one round trip fewer for every move."""
    if not objs or connection.vendor != "postgresql":
        update_row(obj, fields)
        insert_rows(objs)
        return
    update, update_values = _update_statement(obj, fields)
    insert, insert_values = _insert_statement(objs)
    _execute_prepared(f"WITH updated AS ({update} RETURNING 1) {insert}", [*update_values, *insert_values])


def _execute_prepared(sql: str, params: list, *, fetch: bool = False):
    """Run one of the move path's statements on PostgreSQL as a prepared statement (parameters bound
    by the server; planned once per pooled connection, not on every move as Django's client-side
    binding makes PostgreSQL do), in the current transaction, through Django's cursor wrapper (its
    error translation and query log). Returns the first row if ``fetch``."""
    from django.db.backends.postgresql.base import ServerBindingCursor

    connection.ensure_connection()
    raw = connection.connection
    if settings.DB_PREPARED_MOVES and raw.prepare_threshold is None:
        # Django turns psycopg's preparation off; its own cursors bind on the client side and never
        # prepare, so with a threshold of 0 only the server-binding cursors of this module do.
        raw.prepare_threshold = 0
    with connection._prepare_cursor(ServerBindingCursor(raw)) as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone() if fetch else None


def _update_statement(obj: models.Model, fields: tuple[str, ...]) -> tuple[str, list]:
    meta = type(obj)._meta
    key = ("update", connection.vendor, meta.label, fields)
    if key not in _statements:
        quote = connection.ops.quote_name
        assignments = ", ".join(f"{quote(meta.get_field(name).column)} = %s" for name in fields)
        _statements[key] = f"UPDATE {quote(meta.db_table)} SET {assignments} WHERE {quote(meta.pk.column)} = %s"
    return _statements[key], [*(_prepared(meta.get_field(name), getattr(obj, name)) for name in fields), obj.pk]


def _insert_statement(objs: list[models.Model]) -> tuple[str, list]:
    meta = type(objs[0])._meta
    columns = [field for field in meta.concrete_fields if not field.primary_key]
    key = ("insert", connection.vendor, meta.label, len(objs))
    if key not in _statements:
        quote = connection.ops.quote_name
        row = "(" + ", ".join(["%s"] * len(columns)) + ")"
        _statements[key] = (f"INSERT INTO {quote(meta.db_table)} ({', '.join(quote(f.column) for f in columns)}) "
                            f"VALUES {', '.join([row] * len(objs))}")
    return _statements[key], [_prepared(field, field.pre_save(obj, True)) for obj in objs for field in columns]


def _dumps(value) -> str:
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def _prepared(field: models.Field, value):
    """The value as ``save()`` would send it; JSON encoded by orjson (the hand's state is the largest
    value a move writes, and the standard library took several times longer to encode it)."""
    if isinstance(field, models.JSONField) and field.encoder is None and connection.vendor == "postgresql":
        return None if value is None else Jsonb(value, dumps=_dumps)
    return field.get_db_prep_save(value, connection)


def _columns(model: type[models.Model], alias: str) -> str:
    return ", ".join(f"{alias}.{connection.ops.quote_name(field.column)}" for field in model._meta.concrete_fields)


_converters: dict[tuple, list] = {}


def _db_converters(column) -> list:
    """The backend's converters, then the field's (as the SQL compiler applies them)."""
    return connection.ops.get_db_converters(column) + column.get_db_converters(connection)


def _from_row(model: type[models.Model], values: tuple):
    """A model instance from its concrete columns, as the ORM would build it (each field's own
    database converters; JSON read by orjson instead of the standard library)."""
    fields = model._meta.concrete_fields
    key = (connection.vendor, model._meta.label)
    if key not in _converters:
        _converters[key] = [
            None if isinstance(field, models.JSONField) and field.decoder is None
            else _db_converters(field.get_col(model._meta.db_table))
            for field in fields]
    converted = []
    for field, converters, value in zip(fields, _converters[key], values, strict=True):
        if converters is None:
            value = orjson.loads(value) if isinstance(value, str | bytes) else value
        else:
            for converter in converters:
                value = converter(value, field, connection)
        converted.append(value)
    return model.from_db(connection.alias, [field.attname for field in fields], converted)


def select_rows(model: type[models.Model], alias: str, extra: str, rest: str, params: list) -> list:
    """``[(instance, extra values)]`` of ``SELECT <model's columns>, <extra> <rest>``: the ORM's raw
    query without its per-row Python (for the move path's reads)."""
    key = ("select", connection.vendor, model._meta.label, alias, extra, rest)
    if key not in _statements:
        _statements[key] = f"SELECT {_columns(model, alias)}, {extra} {rest}"
    split = len(model._meta.concrete_fields)
    with connection.cursor() as cursor:
        cursor.execute(_statements[key], params)
        return [(_from_row(model, row[:split]), row[split:]) for row in cursor.fetchall()]


def lock_current_hand(table_id: int) -> Hand:
    """The table's current hand, locked, with its match, in one statement. Plain SQL and instances
    built from the row: this runs for every move, and the ORM's raw queries (two of them) cost
    several times more Python than PostgreSQL took to answer."""
    lock = " FOR UPDATE OF h" if connection.features.has_select_for_update_of else ""
    key = ("lock_current_hand", connection.vendor)
    if key not in _statements:
        _statements[key] = (
            f"SELECT {_columns(Hand, 'h')}, {_columns(Match, 'm')} FROM {Hand._meta.db_table} h "
            f"JOIN {Match._meta.db_table} m ON m.id = h.match_id "
            f"WHERE m.table_id = %s AND m.status = %s ORDER BY h.number DESC LIMIT 1{lock}")
    with connection.cursor() as cursor:
        cursor.execute(_statements[key], [table_id, Match.Status.RUNNING])
        row = cursor.fetchone()
    return _playing_hand(row)


def _playing_hand(row: tuple | None) -> Hand:
    """The hand, with its match, from a locked row of their columns (then anything else), or the
    refusal when there is no running match or its hand is over."""
    if row is None:
        raise GameError("no_game", _("Bu masada süren bir oyun yok."))
    split = len(Hand._meta.concrete_fields)
    hand = _from_row(Hand, row[:split])
    hand.match = _from_row(Match, row[split:split + len(Match._meta.concrete_fields)])
    if hand.status != Hand.Status.PLAYING:
        raise GameError("hand_over", _("El bitti; yeni el birazdan dağıtılacak."), move=hand.move)
    return hand


def lock_hand_and_players(table_id: int) -> tuple[Hand, dict]:
    """``lock_current_hand`` and ``selectors.match_players`` of its match; on PostgreSQL in one
    statement (the players as one JSON column of the locked row), one round trip fewer a move."""
    if connection.vendor != "postgresql":
        hand = lock_current_hand(table_id)
        return hand, match_players(hand.match_id)
    from django.contrib.auth import get_user_model

    from games.models import MatchPlayer

    fields = MatchPlayer._meta.concrete_fields
    key = ("lock_hand_and_players",)
    if key not in _statements:
        quote = connection.ops.quote_name
        player_columns = ", ".join(f"mp.{quote(field.column)}" for field in fields)
        # Each player: its columns, then nickname, bot flag and "left" (as selectors.match_players).
        players = (
            f"(SELECT json_agg(json_build_array({player_columns}, {_user_facts()}) "
            f"ORDER BY mp.seat)::text FROM {MatchPlayer._meta.db_table} mp "
            f"JOIN {get_user_model()._meta.db_table} u ON u.id = mp.user_id WHERE mp.match_id = m.id)")
        _statements[key] = (
            f"SELECT {_columns(Hand, 'h')}, {_columns(Match, 'm')}, {players} FROM {Hand._meta.db_table} h "
            f"JOIN {Match._meta.db_table} m ON m.id = h.match_id "
            f"WHERE m.table_id = %s AND m.status = %s ORDER BY h.number DESC LIMIT 1 FOR UPDATE OF h")
    row = _execute_prepared(_statements[key], [table_id, str(Match.Status.RUNNING)], fetch=True)
    hand = _playing_hand(row)
    names = [field.attname for field in fields]
    return hand, _by_seat((MatchPlayer.from_db(connection.alias, names, values[:len(fields)]), values[len(fields):])
                          for values in orjson.loads(row[-1] or "[]"))


def match_players(match_id: int) -> dict:
    """A match's players by seat, each with ``nickname`` and ``bot`` from its user and ``left``, in
    one query (``selectors.match_players``). The ORM took several times longer to build the join
    (and four full ``User`` objects) than the database took to answer it."""
    from django.contrib.auth import get_user_model

    from games.models import MatchPlayer

    # ``left``: the player stood up from a running match (games.services.leave_running_match frees
    # their seat at the table; nothing else frees a seat while the table plays). The turn clock plays for them.
    rows = select_rows(
        MatchPlayer, "mp",
        _user_facts(),
        f'FROM {MatchPlayer._meta.db_table} mp '
        f'JOIN {get_user_model()._meta.db_table} u ON u.id = mp.user_id JOIN {Match._meta.db_table} m ON m.id = mp.match_id '
        f'WHERE mp.match_id = %s ORDER BY mp.seat', [match_id])
    return _by_seat(rows)


# A player's nickname, bot flag and "left" (no seat at the table: games.services.leave_running_match),
# for a query joining ``mp`` (the player), ``u`` (its user) and ``m`` (its match).
def _user_facts() -> str:
    from salons.models import Seat

    return (f"u.username, u.is_bot, NOT EXISTS (SELECT 1 FROM {Seat._meta.db_table} s "
            f"WHERE s.table_id = m.table_id AND s.user_id = mp.user_id)")


def _by_seat(rows) -> dict:
    """``{seat: player}`` from (player, (nickname, bot flag, left)) pairs, the user facts set on each."""
    players = {}
    for player, (nickname, bot, left) in rows:
        player.nickname, player.bot, player.left = nickname, bool(bot), bool(left)
        players[player.seat] = player
    return players
