"""The bot accounts: created once (migration ``0005_bot_accounts``), found by ``is_bot``.

Bots used to be created on first use with ``get_or_create(username=...)``: a person who signed up
as "BotAyla" first was then seated as a bot, and a look-alike ("Botayla") made the create fail for
everyone. Now a bot is only ever an account whose ``is_bot`` is set, bot names are reserved at
sign-up (``accounts.validators``), and a name some person already holds is simply not used.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction

from .models import User
from .validators import nickname_key

BOT_NAMES = ("BotAyla", "BotCem", "BotDeniz", "BotEce", "BotFatih", "BotGizem", "BotHakan", "BotIpek",
             "BotKerem", "BotLale", "BotMert", "BotNil")


def _candidate_names():
    yield from BOT_NAMES
    for number in range(1, 100):  # only when people hold bot names from before they were reserved
        yield f"Bot{number}"


def ensure_bot_accounts(minimum: int = len(BOT_NAMES)) -> int:
    """Make sure at least ``minimum`` bot accounts exist; returns how many were created.

    The migration creates them once. This runs again only when a database lost its rows after the
    migration (a test that flushed the tables) or a table needs more bots than exist. A name whose
    key any account holds is skipped, so a person is never turned into a bot.
    """
    have = User.objects.filter(is_bot=True).count()
    created = 0
    for name in _candidate_names():
        if have + created >= minimum:
            break
        if User.objects.filter(nickname_key=nickname_key(name)).exists():
            continue
        bot = User(username=name, email="", is_bot=True)
        bot.set_unusable_password()  # bots never log in
        try:
            with transaction.atomic():
                bot.save()
        except IntegrityError:  # another process created it at the same moment
            continue
        created += 1
    return created


def bot_accounts(count: int, *, exclude: set[int] | None = None) -> list[User]:
    """``count`` distinct bot accounts, not those in ``exclude`` (bots already at the table)."""
    exclude = exclude or set()

    def pick() -> list[User]:
        return list(User.objects.filter(is_bot=True).exclude(pk__in=exclude).order_by("pk")[:count])

    bots = pick()
    if len(bots) < count and ensure_bot_accounts(max(len(BOT_NAMES), count + len(exclude))):
        bots = pick()
    if len(bots) < count:
        raise RuntimeError("not enough bot accounts")
    return bots
