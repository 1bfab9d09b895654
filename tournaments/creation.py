"""Creating tournaments: one at a time or on a schedule (and the sweep that makes each scheduled
one), their settings checked, and the site admin's say on whether salon staff may play."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.engine.errors import EngineError, RulesError
from games.engine.game_types import UnknownGameType, game_type_of
from games.engine.kart.rules import GAME as GAME_KART
from games.engine.kart.rules import RulesKart
from games.engine.rules import CHIPS, RuleSet
from salons import rules101_catalog, rules_kart_catalog
from salons.models import Salon
from tournaments import events
from tournaments.models import Format, Schedule, Tournament, TournamentLog
from tournaments.service_common import TournamentError, _lock, _public_text, can_manage, is_site_admin

log = logging.getLogger(__name__)

TURN_SECONDS_RANGE = (10, 60)
MAX_PLAYERS_LIMIT = 1024


def allow_staff_to_play(*, actor: Any, tournament_id: Any, allowed: bool = True) -> Tournament:
    """A site admin lets the salon's staff play (or not) in this tournament's prizes; logged."""
    if not is_site_admin(actor):
        raise TournamentError("not_allowed", _("Bunu yalnızca site yöneticileri yapabilir."))
    with transaction.atomic():
        tournament = _lock(tournament_id)
        if tournament.staff_may_play != allowed:
            Tournament.objects.filter(pk=tournament.pk).update(staff_may_play=allowed)
            tournament.staff_may_play = allowed
            TournamentLog.objects.create(tournament=tournament, actor=actor,
                                         action="staff_play_on" if allowed else "staff_play_off")
    return tournament


def _clean_settings(*, actor: Any, salon: Salon, fields: dict[str, Any]) -> dict[str, Any]:
    """The shared settings of a tournament or a schedule, checked; a clear error for each field."""
    unknown = set(fields) - set(SCHEDULE_FIELDS)
    if unknown:
        raise TypeError(f"unknown tournament field(s): {', '.join(sorted(unknown))}")
    clean = dict(fields)
    name = " ".join(_public_text(clean.get("name") or "", code="bad_name").split())
    if not 3 <= len(name) <= 60:
        raise TournamentError("bad_name", _("Turnuva adı 3–60 karakter olmalı."))
    clean["name"] = name
    clean["format"] = clean.get("format", Format.KNOCKOUT)
    if clean["format"] not in Format.values:
        raise TournamentError("bad_format", _("Biçim eleme ya da arena olmalı."))
    stored = clean.get("rules") or RuleSet().to_dict()
    try:
        game = game_type_of(stored) if isinstance(stored, dict) else None
        if game is None:
            raise TypeError("rules are a mapping of options")
        rules = game.rules(stored)
    except UnknownGameType:
        raise TournamentError("bad_rules", _("Bu oyun türü bu sitede oynanmıyor.")) from None
    except RulesError as error:
        # A game of its own words its refusal as its room form does (the engine's text is English).
        catalog = rules_kart_catalog if game.name == GAME_KART else rules101_catalog
        raise TournamentError("bad_rules", catalog.rule_error_message(error)) from None
    except (EngineError, TypeError, ValueError) as error:
        raise TournamentError("bad_rules", _("Geçersiz kural seçimi: %(error)s") % {"error": error}) from None
    if isinstance(rules, RuleSet) and rules.scoring == CHIPS:
        raise TournamentError("bad_rules", _("Turnuvalar çipli kurallarla oynanmaz; geri sayım ya da ceza puanı seçin."))
    if getattr(rules, "partners", False):
        # Players enter a tournament alone; pairing partners across its rounds is not built.
        raise TournamentError("bad_rules", _("Turnuvalar eşli oynanmaz: her oyuncu kendi adına girer."))
    if isinstance(rules, RulesKart) and rules.prize_pool:
        # The tournament pays its final table from its own pool (buy-ins and added chips): a table
        # paying a pool of its own would pay chips nobody put in.
        raise TournamentError("bad_rules", _("Turnuva masalarının kendi ödül havuzu olmaz: ödüller turnuvanın "
                                             "havuzundan ödenir."))
    # A game of its own names itself in the stored rules (101 Okey, Kart Okey: RULES.md "Tournaments").
    clean["rules"] = game.stored_rules(rules)
    numbers = {"turn_seconds": 20, "registration_minutes": 60, "min_players": 2, "max_players": 256,
               "buy_in": 0, "added_chips": 0, "duration_minutes": 30, "go_on": 1}
    for field, default in numbers.items():
        value = clean.get(field, default)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise TournamentError("bad_number", _("Geçersiz sayı: %(field)s") % {"field": field}, field=field)
        clean[field] = value
    if not TURN_SECONDS_RANGE[0] <= clean["turn_seconds"] <= TURN_SECONDS_RANGE[1]:
        raise TournamentError("bad_turn_seconds", _("Hamle süresi 10–60 saniye olmalı."))
    if not 2 <= clean["min_players"] <= clean["max_players"] <= MAX_PLAYERS_LIMIT:
        raise TournamentError("bad_players", _("Oyuncu sayısı en az 2 olmalı, en çok en az sayıdan küçük olamaz (en çok %(max)d).")
                              % {"max": MAX_PLAYERS_LIMIT})
    if clean["go_on"] not in (1, 2):
        raise TournamentError("bad_go_on", _("Bir masadan bir ya da iki kişi üst tura çıkar."))
    if clean["format"] == Format.ARENA and not 5 <= clean["duration_minutes"] <= 24 * 60:
        raise TournamentError("bad_duration", _("Arena süresi 5 dakika ile 24 saat arasında olmalı."))
    # Added chips are chips no player paid in: only a site admin may create them (docs/security.md).
    if clean["added_chips"] and not is_site_admin(actor):
        raise TournamentError("added_chips_admin_only",
                              _("Ödüle çip yalnızca site yöneticileri ekleyebilir; giriş ücretleri ödül havuzunu oluşturur."),
                              field="added_chips")
    clean["staff_may_play"] = bool(clean.get("staff_may_play", False))
    if clean["staff_may_play"] and not is_site_admin(actor):
        raise TournamentError("staff_play_admin_only",
                              _("Salon görevlilerinin ödüllü turnuvada oynamasına yalnızca site yöneticileri izin verebilir."),
                              field="staff_may_play")
    return clean


def create_tournament(*, actor: Any, salon: Salon, starts_at: datetime, schedule: Schedule | None = None,
                      now: datetime | None = None, **fields: Any) -> Tournament:
    """Site admins and the salon's staff create a tournament; registration opens at once or at
    ``starts_at - registration_minutes``."""
    now = now or timezone.now()
    if not can_manage(actor, salon.pk):
        raise TournamentError("not_allowed", _("Bu salonda turnuva açma yetkiniz yok."))
    if not isinstance(starts_at, datetime) or starts_at <= now:
        raise TournamentError("bad_start", _("Başlangıç zamanı ileride olmalı."))
    clean = _clean_settings(actor=actor, salon=salon, fields=fields)
    with transaction.atomic():
        tournament = Tournament.objects.create(salon=salon, created_by=actor, starts_at=starts_at, schedule=schedule,
                                               next_step_at=starts_at, **clean)
        TournamentLog.objects.create(tournament=tournament, actor=actor, action="create")
        _log_added_chips(tournament, actor=actor)
        transaction.on_commit(lambda: events.tournament_changed(tournament.pk))
    return tournament


def _log_added_chips(tournament: Tournament, *, actor: Any) -> None:
    """Every chip added to a prize pool is written down: who added how many, to which tournament."""
    if tournament.added_chips:
        TournamentLog.objects.create(tournament=tournament, actor=actor, action="prize_added",
                                     reason=f"{tournament.added_chips} chips added to the prize pool")
        log.info("tournament %s: %s chips added by user %s", tournament.pk, tournament.added_chips,
                 getattr(actor, "pk", None))


def create_schedule(*, actor: Any, salon: Salon, time_of_day, weekdays: str = "1234567", **fields: Any) -> Schedule:
    if not can_manage(actor, salon.pk):
        raise TournamentError("not_allowed", _("Bu salonda turnuva açma yetkiniz yok."))
    if not weekdays or any(day not in "1234567" for day in weekdays):
        raise TournamentError("bad_weekdays", _("Günler 1 (pazartesi) ile 7 (pazar) arası rakamlar olmalı."))
    clean = _clean_settings(actor=actor, salon=salon, fields=fields)
    return Schedule.objects.create(salon=salon, created_by=actor, time_of_day=time_of_day,
                                   weekdays="".join(sorted(set(weekdays))), **clean)


def create_recurring(*, actor: Any, salon: Salon, starts_at: datetime, weekdays: str,
                     now: datetime | None = None, **fields: Any) -> Tournament:
    """A tournament at ``starts_at`` that repeats at the same time on ``weekdays`` ("1".."7",
    Monday to Sunday): a schedule whose sweep makes each next one, and this first one, together."""
    # One transaction: if the first tournament is refused (a start in the past, say), no schedule stays.
    with transaction.atomic():
        schedule = create_schedule(actor=actor, salon=salon, time_of_day=timezone.localtime(starts_at).time(),
                                   weekdays=weekdays, **fields)
        return create_tournament(actor=actor, salon=salon, starts_at=starts_at, schedule=schedule, now=now, **fields)


def stop_schedule(*, actor: Any, schedule_id: Any) -> Schedule:
    """No more tournaments from this schedule (the ones already made stay); its salon's staff or a
    site admin. Idempotent."""
    with transaction.atomic():
        schedule = Schedule.objects.select_for_update().filter(pk=schedule_id).first()
        if schedule is None:
            raise TournamentError("no_schedule", _("Böyle bir turnuva takvimi yok."))
        if not can_manage(actor, schedule.salon_id):
            log.warning("schedule stop refused: user %s, schedule %s", getattr(actor, "pk", None), schedule.pk)
            raise TournamentError("not_allowed", _("Bu salonda turnuva açma yetkiniz yok."))
        if schedule.is_active:
            schedule.is_active = False
            schedule.save(update_fields=["is_active"])
            log.info("schedule %s stopped by user %s", schedule.pk, actor.pk)
    return schedule


SCHEDULE_FIELDS = ("name", "format", "rules", "turn_seconds", "registration_minutes", "min_players", "max_players",
                   "buy_in", "added_chips", "duration_minutes", "go_on", "staff_may_play")


def create_scheduled(*, now: datetime | None = None) -> int:
    """The sweep: every active schedule gets its next tournament once registration for it would
    open (idempotent: one tournament per schedule and start time, a unique constraint)."""
    now = now or timezone.now()
    made = 0
    for schedule in Schedule.objects.filter(is_active=True).select_related("created_by"):
        local = timezone.localtime(now)
        for days in range(0, 8):
            day = (local + timedelta(days=days)).date()
            if str(day.isoweekday()) not in schedule.weekdays:
                continue
            starts_at = timezone.make_aware(datetime.combine(day, schedule.time_of_day))
            if starts_at <= now:
                continue
            if starts_at - timedelta(minutes=schedule.registration_minutes) > now:
                break
            with transaction.atomic():
                if Tournament.objects.filter(schedule=schedule, starts_at=starts_at).exists():
                    break
                fields = {name: getattr(schedule, name) for name in SCHEDULE_FIELDS}
                if not is_site_admin(schedule.created_by):
                    # Whoever made the schedule is no longer a site admin: no more chips from nowhere.
                    fields.update(added_chips=0, staff_may_play=False)
                tournament = Tournament.objects.create(
                    salon_id=schedule.salon_id, created_by_id=schedule.created_by_id, schedule=schedule,
                    starts_at=starts_at, next_step_at=starts_at, **fields)
                _log_added_chips(tournament, actor=schedule.created_by)
                made += 1
            break
    return made
