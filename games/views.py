"""The table page: a shell that the table script fills from the socket's frames."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import practice as practice_tables
from games import selectors
from games.consumers import table_access


@login_required
def table_page(request: HttpRequest, table_id: int) -> HttpResponse:
    from salons.models import Table

    table = Table.objects.select_related("room", "room__salon", "practice").filter(pk=table_id).first()
    if table is None:
        raise Http404
    practice = getattr(table, "practice", None)
    if practice is not None and not practice.is_open and practice.user_id == request.user.pk:
        return redirect("home")  # a practice table that closed: nothing to come back to
    if table_access(request.user, table_id, table=table) is not None:
        return render(request, "games/forbidden.html", {"table": table}, status=403)
    from games.services import NEXT_HAND_PAUSE_SECONDS
    from tournaments.models import Tournament

    # A tournament's table: its result is the tournament's, it offers no rematch.
    tournament = Tournament.objects.filter(room_id=table.room_id).only("pk").first()
    game = table_game(table.room.rules)
    strings = table_strings()
    if game == "okey101":
        from games.strings101 import table101_strings

        strings.update(table101_strings())
    elif game == "kart":
        from games.stringskart import tablekart_strings

        strings.update(tablekart_strings())
    return render(request, "games/table.html", {
        "table": table, "room": table.room, "strings": strings, "game": game,
        "quick_phrases": quick_phrases(), "quick_emoji": QUICK_EMOJI, "next_hand_seconds": NEXT_HAND_PAUSE_SECONDS,
        "practice": practice, "tournament": tournament,
    })


def table_game(rules) -> str:
    """The name of the game a room plays (classic Okey's table for a game this site does not know:
    the page opens and the server's frames say what is wrong, never a 500)."""
    from games.engine import game_types

    try:
        return game_types.game_type_of(rules).name
    except game_types.UnknownGameType:
        return game_types.CLASSIC


# Sent as chat lines like any other: through the same filter and limits.
QUICK_EMOJI = ("☺", "♥", "✌", "☕", "★", "☘")  # in every common font, phones and desktops alike


def quick_phrases() -> list[str]:
    """The table chat's one-tap lines, the ones players use at every table."""
    return [_("İyi oyunlar"), _("Kolay gelsin"), _("Eline sağlık"), _("Bol şans"), _("Teşekkürler"), _("Pardon")]


def table_strings() -> dict[str, str]:
    """Texts the table script shows, translated on the server (Turkish first, English too)."""
    return {
        "connected": _("Bağlı"),
        "connecting": _("Bağlanıyor…"),
        "disconnected": _("Bağlantı koptu, yeniden bağlanılıyor…"),
        "closed": _("Bağlantı kapandı."),
        "your_turn": _("Sıra sizde"),
        "turn_of": _("Sıra: %(name)s"),
        "waiting_seats": _("Oyuncular bekleniyor · %(n)s/%(total)s oturdu"),
        "waiting_ready": _("Herkes “Hazırım” deyince başlar · %(n)s/%(total)s hazır"),
        "bots_in": _("%(n)s sn sonra boş yerlere botlar oturur"),
        "start_match": _("Maçı başlat"),
        "start_with_bots": _("Botlarla başlat"),
        "empty_seat": _("Boş"),
        "sit": _("Otur"),
        "leave": _("Kalk"),
        "ready": _("hazır"),
        "away": _("uzakta"),
        "hand_over": _("El bitti"),
        "match_over": _("Maç bitti"),
        "winner": _("Kazanan: %(names)s"),
        "finished_by": _("%(name)s eli bitirdi"),
        "pile_out": _("Ortadaki taşlar bitti; el yarım kaldı."),
        "zero_by_indicator": _("Gösterilen gösterge bir oyuncunun puanını sıfıra indirdi; maç bitti."),
        "pairs": _("çift"),
        "sets": _("seri"),
        "okey_finish": _("okey atarak"),
        "seconds": _("%(n)s sn"),
        # The turn of a seat the server plays (a bot, an away or gone player): no seconds to count.
        "plays_now": _("%(name)s oynuyor…"),
        "time_up": _("süre doldu"),
        "indicator_shown": _("%(name)s gösterge yaptı"),
        "declared_pairs": _("%(name)s çifte gidiyor"),
        "drew_pile": _("%(name)s ortadan çekti"),
        "drew_discard": _("%(name)s yerden %(tile)s aldı"),
        "discarded": _("%(name)s %(tile)s attı"),
        "select_tile": _("Önce bir taş seçin."),
        "okey_discard_warning": _("Bu taş okey: atarsanız sağınızdaki oyuncu alabilir. Yine de atmak için bir daha atın."),
        "bots": _("(otomatik)"),
        "bot": _("bot"),
        # Tiles in words: never "K5" in what a player reads.
        "color_red": _("kırmızı"),
        "color_black": _("siyah"),
        "color_blue": _("mavi"),
        "color_green": _("yeşil"),
        "false_joker": _("sahte okey"),
        "false_joker_as": _("sahte okey (%(tile)s)"),
        "okey_word": _("okey"),
        # An okey inside a meld, named by the tile it stands for there.
        "okey_as": _("okey, %(tile)s yerine"),
        "title_your_turn": _("● Sıra sizde"),
        "pile_label": _("Ortadan taş çek (%(n)s taş kaldı)"),
        "pile_label_empty": _("Orta"),
        "hand_number": _("El %(n)s"),
        "commitment_title": _("Bu elin adil dağıtım kodu:"),
        "left_bot": _("kalktı · saat oynuyor"),
        "offline": _("bağlı değil"),
        "going_pairs": _("çifte gidiyor"),
        "showed_indicator": _("gösterge yaptı"),
        "starter": _("başlayan"),  # the hand's first player (15 tiles), for any seat, yours too
        "rematch_yes": _("✓ tekrar"),
        "tiles_in_rack": _("Istakada %(n)s taş"),
        "score": _("Puan"),
        "score_of": _("Puan: %(n)s"),  # a seat's score, for screen readers and the tooltip
        "discard_of": _("%(name)s attı: %(tile)s"),
        "discard_empty": _("%(name)s henüz taş atmadı"),
        "feed_deal": _("El %(n)s dağıtıldı; %(name)s başlıyor."),
        "feed_drew": _("%(name)s ortadan çekti"),
        "feed_took": _("%(name)s yerden aldı: %(tile)s"),
        "feed_threw": _("%(name)s attı: %(tile)s"),
        "feed_finished": _("%(name)s eli bitirdi: %(tile)s"),
        "feed_indicator": _("%(name)s gösterge yaptı: %(tile)s"),
        "feed_take_indicator": _("%(name)s göstergeyi aldı: %(tile)s"),
        "feed_lay_okey": _("%(name)s ilk okeyi bıraktı: %(tile)s"),
        "feed_auto": _("(süresi doldu: sıra saati oynadı)"),
        "feed_auto_away": _("(uzakta: sıra saati oynadı)"),
        "feed_auto_left": _("(masadan kalktı: sıra saati oynadı)"),
        # Your own moves, said to you.
        "my_drew": _("Ortadan çektiniz"),
        "my_took": _("Yerden aldınız: %(tile)s"),
        "my_threw": _("Attınız: %(tile)s"),
        "my_finished": _("Eli bitirdiniz: %(tile)s"),
        "my_indicator": _("Gösterge yaptınız: %(tile)s"),
        "my_declared_pairs": _("Çifte gidiyorsunuz"),
        "my_take_indicator": _("Göstergeyi aldınız: %(tile)s"),
        "my_lay_okey": _("İlk okeyi bıraktınız: %(tile)s"),
        "feed_away": _("%(name)s uzakta; sırası gelince 1 saniye sonra sıra saati oynuyor."),
        "feed_back": _("%(name)s geri döndü."),
        "feed_left": _("%(name)s masadan kalktı; yerine sıra saati taş çekip atıyor."),
        "feed_returned": _("%(name)s masaya döndü."),
        "finish_no_split": _("%(tile)s ortaya konunca kalan 14 taş ne seri ve perlere ayrılıyor ne de 7 çift oluyor."),
        "finish_not_pairs": _("%(tile)s ortaya konunca kalan 14 taş 7 çift olmuyor; çifte gittiğiniz için yalnızca çiftle bitebilirsiniz."),
        "how_sets": _("seri ve perlerle"),
        "how_pairs": _("çiftle"),
        "how_color": _("renkten"),
        "how_ordered_color": _("sıralı renkten"),
        "double_okey": _("çift okey"),
        "finishing_tile": _("Bitiren taş"),
        "group_run": _("seri"),
        "group_set": _("per"),
        "group_pair": _("çift"),
        "player": _("Oyuncu"),
        "change": _("Bu el"),
        "total": _("Toplam"),
        "chips_word": _("çip"),
        "prizes": _("Ödüller"),
        "next_hand_in": _("Yeni el %(n)s sn sonra"),
        # The result panel (issue 19, item 5): who won and how, each change explained.
        "you_won_hand": _("Kazandınız!"),
        "you_won_match": _("Maçı kazandınız!"),
        "match_won_by": _("Maçı %(names)s kazandı"),
        # Eşli (partners): the partner's badge, the two team scores, the team's result.
        "partner": _("Eşiniz"),
        "team_us": _("Takımınız"),
        "team_them": _("Rakip takım"),
        "your_team_won_match": _("Takımınız maçı kazandı!"),
        "match_won_by_team": _("Maçı %(names)s takımı kazandı"),
        "partner_finished": _("Eşiniz %(name)s eli bitirdi!"),
        "match_no_winner": _("Maç bitti: kazanan yok"),
        "you_finished_how": _("Eli %(how)s bitirdiniz."),
        "they_finished_how": _("%(name)s eli %(how)s bitirdi."),
        "winning_hand": _("Bitiren el"),
        "part_finish": _("bitiş"),
        "part_indicator": _("gösterge"),
        "part_pile_out": _("taşlar bitti"),
        "no_change": _("değişmedi"),
        "rating_change": _("Derece %(before)s → %(after)s"),
        "chips_won": _("%(n)s çip"),
        "what_next_hand": _("Yeni el %(n)s sn sonra dağıtılıyor."),
        "what_next_match": _("Aynı masada tekrar oynayabilir ya da kalkabilirsiniz."),
        "what_next_tournament": _("Sonraki masanızı turnuva belirler."),
        "tournament_link": _("Turnuvaya dön"),
        "replay_link": _("Eli baştan izle"),
        "proof_link": _("Adil dağıtım kanıtı"),
        "rematch_waiting": _("Tekrar oynamayı kabul ettiniz; diğerleri bekleniyor."),
        "mute": _("Sustur"),
        "unmute": _("Susturmayı kaldır"),
        "watchers": _("%(n)s kişi izliyor"),
    }



def leaderboard(request: HttpRequest, salon_slug: str | None = None) -> HttpResponse:
    from salons.models import Salon

    salon = None
    if salon_slug is not None:
        salon = Salon.objects.filter(slug=salon_slug, is_active=True).first()
        if salon is None:
            raise Http404
    from games import stats

    return render(request, "games/leaderboard.html", {
        "rows": stats.leaderboard(salon=salon),
        "salon": salon,
        "salons": Salon.objects.filter(is_active=True).order_by("position", "name"),
        "min_matches": stats.MIN_RATED_MATCHES,
    })


def hand_history(request: HttpRequest, nickname: str) -> HttpResponse:
    from django.contrib.auth import get_user_model

    player = get_user_model().objects.filter(username__iexact=nickname).first()
    if player is None:
        raise Http404
    from games import stats

    return render(request, "games/hand_history.html", {
        "player": player, "rows": stats.hand_rows(user=player, viewer=request.user),
    })


def hand_replay(request: HttpRequest, hand_id: int) -> HttpResponse:
    # A hand in play, or one of a private room the viewer may not open, does not exist for them.
    hand = selectors.viewable_finished_hand(hand_id=hand_id, viewer=request.user)
    if hand is None:
        raise Http404
    data = selectors.replay_frames(hand=hand, viewer=request.user)
    game = table_game(hand.match.rules)
    strings = {**table_strings(), **(replaykart_strings() if game == "kart" else replay101_strings())}
    return render(request, "games/replay.html", {"hand": hand, "replay": data, "game": game, "strings": strings})


def replay101_strings() -> dict[str, str]:
    """The replay page's words for a 101 hand's moves (RULES.md "101 Okey")."""
    return {
        "r101_opened_melds": _("%(name)s eli açtı: %(total)s sayı"),
        "r101_opened_pairs": _("%(name)s çiftten açtı: %(total)s çift"),
        "r101_laid_down": _("%(name)s per indirdi"),
        "r101_laid_off": _("%(name)s %(tile)s işledi"),
        "r101_swapped": _("%(name)s okeyi aldı, yerine %(tile)s koydu"),
        "r101_took": _("%(name)s %(tile)s taşını aldı"),
        "r101_discarded": _("%(name)s %(tile)s attı"),
        "r101_penalty_okey_discard": _("+101: %(name)s okey attı"),
        "r101_penalty_islek": _("+101: %(name)s işlek taş attı"),
        "r101_melds_of": _("%(name)s · açış %(total)s"),
        "r101_pairs_of": _("%(name)s · %(total)s çift"),
        "r101_finished": _("%(name)s eli bitirdi"),
        "r101_pile_out": _("Orta taşlar bitti: herkes elindekini yazar"),
        "r101_cancelled": _("Dördü de çiftten açtı: el iptal, yeniden dağıtılır"),
    }


def replaykart_strings() -> dict[str, str]:
    """The replay page's words for a Kart Okey hand (RULES.md "Kart Okey"): each step's line, the
    cards named in words for screen readers (shown as cards: rank and suit symbol), the table's
    captions and the hand's end."""
    from django.utils.translation import pgettext

    return {
        # Each step's line; %(card)s and %(cards)s are drawn as cards.
        "rk_dealt": _("Kartlar dağıtıldı: %(name)s başlıyor, yerde %(card)s açık"),
        "rk_drew_stock": _("%(name)s desteden çekti"),
        "rk_took": _("%(name)s yerden %(card)s aldı"),
        "rk_melded_run": _("%(name)s seri indirdi: %(cards)s"),
        "rk_melded_set": _("%(name)s per indirdi: %(cards)s"),
        "rk_laid_off": _("%(name)s %(card)s işledi"),
        "rk_discarded": _("%(name)s %(card)s attı"),
        "rk_went_out": _("%(name)s son kartını atıp çıktı"),
        "rk_went_rummy": _("%(name)s okey yaptı: diğer herkese +25"),
        "rk_rebuilt": _("Deste bitti: yerdeki kartlar karıştırılıp yeni deste yapıldı"),
        "rk_stock_out": _("Deste ikinci kez bitti: kazanan yok, herkes elindekini yazar"),
        # The cards in words (the suit's name, then the rank; ace and the faces by name).
        "rk_card_words": _("%(suit)s %(rank)s"),
        "rk_suit_M": _("maça"),
        "rk_suit_K": _("kupa"),
        "rk_suit_R": _("karo"),
        "rk_suit_S": _("sinek"),
        "rk_rank_A": pgettext("kart", "as"),
        "rk_rank_J": _("vale"),
        "rk_rank_Q": _("kız"),
        "rk_rank_K": _("papaz"),
        # The table.
        "rk_stock": pgettext("kart", "Deste"),
        "rk_discard_pile": pgettext("kart", "Yer"),
        "rk_discard_pile_cards": _("Yerdeki kartlar (en üstteki sonda)"),
        "rk_cards": _("%(n)s kart"),
        "rk_hand_value": _("Elde %(n)s puan"),
        "rk_melds_title": _("Masadaki seri ve perler"),
        "rk_melds_none": _("Masada henüz seri ya da per yok."),
        "rk_meld_run": _("seri"),
        "rk_meld_set": pgettext("kart", "per"),
        "rk_hand_score": _("Bu el: %(n)s"),
        "rk_winner": _("Kazanan"),
        "rk_rummy_badge": _("Okey yaptı"),
    }


@login_required
@require_POST
def practice(request: HttpRequest) -> HttpResponse:
    """Three bots and the player, started at once (or the open practice table, resumed)."""
    from django.contrib import messages

    from games import services

    try:
        table = practice_tables.start_practice(user=request.user, level=request.POST.get("level") or "normal",
                                               game=request.POST.get("game") or "okey")
    except services.GameError as error:
        messages.error(request, str(error))
        return redirect("home")
    return redirect("games:table", table_id=table.id)


@login_required
@require_POST
def leave_practice(request: HttpRequest) -> HttpResponse:
    """Leave the practice table at any time; it closes."""
    from django.contrib import messages

    from games import services

    if services.leave_practice(user=request.user):
        messages.info(request, _("Pratik masasından kalktınız; masa kapandı."))
    return redirect("home")


def hand_proof(request: HttpRequest, hand_id: int) -> HttpResponse:
    """The revealed deck, salt and moves of a finished hand as JSON, for ``python -m games.engine verify``."""
    from django.http import JsonResponse

    hand = selectors.viewable_finished_hand(hand_id=hand_id, viewer=request.user)
    if hand is None:
        raise Http404
    return JsonResponse(selectors.fair_deal_proof(hand), json_dumps_params={"ensure_ascii": False})
