"""Opening a practice table (issue 20: out of ``games.services``): one table per player against
three bots, outside the salons (its room belongs to the hidden salon of ``salons.practice``), never
rated. The rules real tables do not share: one open table per player, a per-user limit on new ones,
the bot level. Closing it, and the play it runs, are ``games.services``'."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import bot_players
from games.engine import game_types
from games.engine.rules import RuleSet
from games.errors import GameError
from games.models import Match, PracticeTable
from games.services import close_practice, start_seated_match
from salons import seating
from salons import services as salon_services
from salons.models import Table
from salons.practice import practice_salon

# New practice tables a player may open per hour (resuming the open one is always allowed): ten
# clicks must not make ten rooms and ten running matches.
PRACTICE_PER_HOUR = 6
PRACTICE_WINDOW = timedelta(hours=1)
LEVELS = tuple(PracticeTable.Level.values)


def open_practice_of(user) -> PracticeTable | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return PracticeTable.objects.filter(user=user, closed_at=None).select_related("table").first()


#: The games a practice table plays, each at its default rules (101 Okey: 7 hands) except for
#: ``PRACTICE_OPTIONS``.
PRACTICE_GAMES = ("okey", "okey101", "kart")

#: Kart Okey's table is one round by default (RULES.md "Kart Okey", rule 8: 1, 2 or 3). A round is
#: short (10 cards each), and a practice table is for learning: three rounds, the longest table,
#: give the player a second and third hand to try what the first taught, start a round of their own
#: (the starting seat moves each round) and see the lowest total win, without starting a new table.
#: Four players (the default) play two decks, as rule 1 gives a table of four; no prize pool.
PRACTICE_OPTIONS = {"kart": {"rounds": 3}}


def start_practice(*, user, level: str = PracticeTable.Level.NORMAL, game: str = "okey") -> Table:
    """The player's practice table against three bots: the open one if there is one, else a new one,
    started at once. Refused for sanctioned players, while a real match of theirs runs, and beyond
    ``PRACTICE_PER_HOUR`` new tables an hour. ``game``: classic Okey, 101 Okey or Kart Okey."""
    if not getattr(user, "is_authenticated", False) or user.is_bot:
        raise GameError("login_required", _("Bu işlem için giriş yapın."))
    if level not in LEVELS:
        raise GameError("bad_level", _("Bot seviyesi kolay, orta ya da zor olmalı."))
    if game not in PRACTICE_GAMES:
        raise GameError("bad_game", _("Pratik için oyun Okey, 101 Okey ya da Kart Okey olmalı."))
    with transaction.atomic():
        # The player's row first: two clicks at once queue up here and the second resumes.
        user = get_user_model().objects.select_for_update().get(pk=user.pk)
        if not user.is_active:
            raise GameError("inactive", _("Hesabınız etkin değil."))
        salon = practice_salon()
        from moderation.selectors import access_error as sanction_error

        sanction = sanction_error(user=user, salon=salon)
        if sanction is not None:
            raise GameError(sanction.code, str(sanction))
        current = PracticeTable.objects.select_for_update().filter(user=user, closed_at=None).first()
        if current is not None:
            if Match.objects.filter(table_id=current.table_id, status=Match.Status.RUNNING).exists():
                return current.table
            close_practice(current)  # its match ended without closing it: start afresh
        real = seating.seats_elsewhere(user=user, real_only=True)
        if any(seat.table.status == Table.Status.PLAYING for seat in real):
            raise GameError("already_playing",
                            _("Başka bir masada oyununuz sürüyor; pratik için önce o maçın bitmesini bekleyin."))
        since = timezone.now() - PRACTICE_WINDOW
        if PracticeTable.objects.filter(user=user, created_at__gte=since).count() >= PRACTICE_PER_HOUR:
            raise GameError("too_many_practice_tables",
                            _("Bir saatte en çok %(max)d yeni pratik masası açabilirsiniz; biraz sonra yeniden deneyin.")
                            % {"max": PRACTICE_PER_HOUR})
        if real:
            # One table at a time: a seat waiting at a real table is given up, as take_seat does.
            salon_services.release_seats(user=user)
        game_type = game_types.game_type(game)
        rules = game_type.rules(PRACTICE_OPTIONS.get(game, {})) if game != "okey" else RuleSet()
        bots = bot_players.bot_users(rules.players - 1, exclude={user.pk})
        table, seats = seating.open_private_table(salon=salon, owner=user, name=_("Pratik masası"),
                                                  rules=game_type.stored_rules(rules), people=[user, *bots])
        try:
            with transaction.atomic():
                PracticeTable.objects.create(user=user, table=table, level=level)
        except IntegrityError:
            raise GameError("practice_open", _("Pratik masanız zaten açık.")) from None
        start_seated_match(table=table, seats=seats)
        return table
