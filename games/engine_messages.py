"""The engine's refusals in the player's language: its codes, worded in Turkish (English through the
catalogue), and ``engine_error`` that turns an ``EngineError`` into the site's ``GameError``. Every
game type's ``error_codes`` must have a line here (``tests/engine/test_game_types.py``)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.engine.errors import EngineError
from games.errors import GameError

# Engine codes shown to users in their language; the engine's own English text is the fallback.
ENGINE_MESSAGES = {
    "not_your_turn": lambda: _("Sıra sizde değil."),
    "must_draw_first": lambda: _("Önce taş çekmelisiniz."),
    "already_drew": lambda: _("Bu turda zaten taş çektiniz."),
    "tile_not_in_rack": lambda: _("Bu taş ıstakanızda yok."),
    "discard_pile_empty": lambda: _("Alınacak atılmış taş yok."),
    "invalid_finish": lambda: _("Bu taşlarla el bitmiyor."),
    "hand_over": lambda: _("El bitti."),
    "not_first_turn": lambda: _("Gösterge yalnızca ilk turunuzda, ilk atışınızdan önce yapılabilir."),
    "no_indicator_tile": lambda: _("Göstergenin eşi sizde değil."),
    "already_shown": lambda: _("Zaten gösterge yaptınız."),
    "already_declared": lambda: _("Zaten çifte gidiyorsunuz."),
    "option_off": lambda: _("Bu masanın kurallarında bu seçenek kapalı."),
    "bad_source": lambda: _("Taş ortadan ya da önceki oyuncunun attığından çekilir."),
    "bad_tile": lambda: _("Geçersiz taş."),
    "bad_action": lambda: _("Geçersiz hamle."),
    "bad_seat": lambda: _("Bu masada böyle bir koltuk yok."),
    "not_shown": lambda: _("Göstergeyi yalnızca gösterge yapan oyuncu alabilir."),
    "not_declared": lambda: _("Gösterge yalnızca çifte giden oyuncunun çiftini bağlar."),
    "indicator_taken": lambda: _("Gösterge zaten alındı."),
    "too_early": lambda: _("Gösterge ikinci turunuzdan itibaren alınabilir."),
    "already_laid": lambda: _("Bu elde ilk okey zaten ortaya kondu."),
    "need_both_okeys": lambda: _("Bunun için iki okey de ıstakanızda olmalı."),
    # Raised only by the site's own bookkeeping (dealing, replays), never by a player's action.
    "match_over": lambda: _("Maç bitti."),
    "unknown_game": lambda: _("Bu masanın oyun türü bu sitede oynanmıyor."),
    "hand_not_over": lambda: _("El hâlâ oynanıyor."),
    "wrong_hand": lambda: _("Bu el bu maçın değil."),
    "bad_event": lambda: _("Geçersiz hamle."),
    "must_finish": lambda: _("Orta taşlar bitti: son atılan taşı yalnızca elinizi bitirmek için alabilirsiniz; şimdi bitirin."),
    "pile_empty": lambda: _("Orta taşlar bitti: göstergeyi alamazsınız, yalnızca son atılan taşı bitirmek için alabilirsiniz."),
    # 101 Okey (RULES.md "101 Okey"): a turn is a pile draw, then the rest sent whole.
    "bad_turn": lambda: _("Bu hamle okunamadı: taşları yeniden dizip tekrar deneyin."),
    "bad_meld": lambda: _("Bu taşlar bir seri, per ya da çift oluşturmuyor."),
    "must_draw": lambda: _("Önce ortadan taş çekin ya da önceki oyuncunun attığı taşı alın."),
    "no_draw_first_turn": lambda: _("İlk turda 22 taşınız var: taş çekmeden bir taş atın."),
    "already_opened": lambda: _("Bu elde elinizi zaten açtınız."),
    "not_opened": lambda: _("Önce elinizi açmalısınız."),
    "mixed_opening": lambda: _("El ya seri ve perlerle ya da çiftlerle açılır, ikisi birden olmaz."),
    "wrong_kind": lambda: _("Çiftle açan yalnızca çift, seri ve perle açan yalnızca seri ve per indirebilir."),
    "opening_too_low": lambda: _("Açışınız yetmiyor: en az 101 sayı ya da 5 çift gerekir."),
    "no_such_meld": lambda: _("Masada böyle bir per yok."),
    "not_layable": lambda: _("Bu taş o pere işlenemez."),
    "bad_swap": lambda: _("Bu taş o perin okeyinin yerine konamaz."),
    "layoff_limit": lambda: _("Çiftle açan bir turda en çok 2 taş işleyebilir."),
    "discard_unused": lambda: _("Aldığınız taşı bu turda masaya koymalısınız; koyamıyorsanız geri bırakıp ortadan çekin."),
    "must_discard": lambda: _("Her tur bir taş atarak biter: son taşınız pere giremez."),
    # Kart Okey (RULES.md "Kart Okey"): codes of its own; the shared ones are worded for cards below.
    "bad_card": lambda: _("Geçersiz kart."),
    "card_not_in_hand": lambda: _("Bu kart elinizde yok."),
    "stock_empty": lambda: _("Destede kart kalmadı."),
    "discard_taken": lambda: _("Yerden aldığınız kartı aynı turda atamazsınız."),
    "unknown_option": lambda: _("Bu masa kurallarında bilinmeyen bir seçenek var."),
    "bad_option": lambda: _("Bu masa kurallarında geçersiz bir değer var."),
}

# A game whose words differ from the tile games' (cards, not tiles): its line wins over the one above.
GAME_MESSAGES = {
    "kart": {
        "bad_turn": lambda: _("Bu hamle okunamadı: kartları yeniden dizip tekrar deneyin."),
        "bad_meld": lambda: _("Bu kartlar bir seri ya da per oluşturmuyor."),
        "must_draw": lambda: _("Önce desteden kart çekin ya da yerdeki kartı alın."),
        "already_drew": lambda: _("Bu turda zaten kart çektiniz."),
        "discard_pile_empty": lambda: _("Yerde alınacak kart yok."),
        "not_layable": lambda: _("Bu kart o pere işlenemez."),
        "must_discard": lambda: _("Her tur bir kart atarak biter: son kartınızı atarak çıkarsınız."),
    },
}

# Refusals that say more when the engine gives the figures (else the line above stands alone).
DETAILED_MESSAGES = {
    "opening_too_low": lambda d: (
        _("Açışınız %(total)s çift; en az %(needed)s çift gerekir.") if d.get("kind") == "pairs"
        else _("Açışınız %(total)s sayı; en az %(needed)s gerekir.")) % {"total": d["total"], "needed": d["needed"]},
    "discard_unused": lambda d: _(
        "%(tile)s taşını aldınız: bu turda masaya koyun ya da geri bırakıp ortadan çekin.") % {"tile": d["tile"]},
    "layoff_limit": lambda d: _("Çiftle açan bir turda en çok %(limit)s taş işleyebilir.") % {"limit": d["limit"]},
    "discard_taken": lambda d: _("%(card)s kartını yerden aldınız: aynı turda atamazsınız.") % {"card": d["card"]},
    "card_not_in_hand": lambda d: _("Elinizde olmayan kart: %(cards)s") % {"cards": d["cards"]},
}

# Why a finish is not valid (``invalid_finish`` carries it as ``reason``: a stable code), in words.
FINISH_REASONS = {
    "no_valid_split": lambda tile: _("%(tile)s olmadan kalan 14 taşınız ne seri ve perlere ayrılıyor ne 7 çift oluyor.") % {"tile": tile},
    "not_pairs": lambda tile: _("%(tile)s olmadan kalan 14 taşınız 7 çift değil (çifte gittiniz, yalnızca çiftle bitebilirsiniz).") % {"tile": tile},
}


def engine_error(error: EngineError, *, game: str | None = None) -> GameError:
    """``game``: the game type's name, for the lines worded for its pieces (``GAME_MESSAGES``)."""
    message = GAME_MESSAGES.get(game or "", {}).get(error.code) or ENGINE_MESSAGES.get(error.code)
    details = {key: value for key, value in error.details.items() if isinstance(value, str | int | bool | None)}
    text = message() if message else str(error)
    detailed = DETAILED_MESSAGES.get(error.code)
    if detailed is not None:
        try:
            text = detailed(details)
        except (KeyError, TypeError, ValueError):
            pass  # a refusal without its figures keeps the plain line
    reason = FINISH_REASONS.get(details.get("reason")) if error.code == "invalid_finish" else None
    if reason is not None:
        # ``reason`` stays the engine's stable code; its words follow in the user's language.
        details["reason_message"] = reason(details.get("tile", ""))
    return GameError(error.code, text, **details)
