"""The Kart Okey table's words (RULES.md "Kart Okey (source 004: a 52-card rummy)"): what
static/js/tablekart.js shows, translated on the server and merged into the table page's strings
(games/views.py ``table_page``) for a Kart table, over the shared table's (the few shared keys
given here again say "kart", not "taş"). Turkish first; the English is in the catalogue.

Glossary: kart (card), seri (run), per (set), per açmak (to meld), işlemek (to lay off), deste
(the stock), yer (the discard pile), dışarı çıkmak (going out), okey yapmak (going rummy).
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import pgettext


def tablekart_strings() -> dict[str, str]:
    return {
        # -- cards in words: never the notation ("K5") in what a player reads
        "k_suit_m": _("maça"),
        "k_suit_k": _("kupa"),
        "k_suit_r": _("karo"),
        "k_suit_s": _("sinek"),
        "k_suit_letter_m": pgettext("kart türünün kısaltması", "Ma"),
        "k_suit_letter_k": pgettext("kart türünün kısaltması", "Ku"),
        "k_suit_letter_r": pgettext("kart türünün kısaltması", "Ka"),
        "k_suit_letter_s": pgettext("kart türünün kısaltması", "Si"),
        "k_rank_a": pgettext("kart", "as"),
        "k_rank_j": _("vale"),
        "k_rank_q": _("kız"),
        "k_rank_k": _("papaz"),
        "k_card_words": _("%(suit)s %(rank)s"),
        # -- the shared table's words, said of cards
        "feed_drew": _("%(name)s desteden çekti"),
        "my_drew": _("Desteden çektiniz"),
        "tiles_in_rack": _("Elinde %(n)s kart"),
        "feed_left": _("%(name)s masadan kalktı; yerine sıra saati kart çekip atıyor."),
        "feed_away": _("%(name)s uzakta; sırası gelince 1 saniye sonra sıra saati kart çekip atıyor."),
        # -- the stock, the discard pile, the round
        "k_stock": pgettext("kart", "Deste"),
        "k_stock_label": _("Desteden kart çek (%(n)s kart kaldı)"),
        "k_discard_top": _("Yerdeki kart: %(card)s"),
        "k_discard_empty": _("Yerde kart yok"),
        "k_discard_count": _("%(n)s kart"),
        "k_take_label": _("Yerdeki kartı al: %(card)s"),
        "k_discard_label": _("Atmak için kartı buraya bırakın: hamleniz gider"),
        "k_go_out_label": _("Son kartınızı buraya bırakın: dışarı çıkarsınız"),
        "k_discard": pgettext("kart", "At"),
        "k_go_out": _("Çık"),
        "k_round_of": _("El %(n)s/%(total)s"),
        # The feed's deal line (static/js/table/feed.js): a card table deals rounds.
        "feed_deal": pgettext("kart", "El %(n)s dağıtıldı; %(name)s başlıyor."),
        "k_hand_value": _("Elde %(n)s puan"),
        "k_hand_value_title": _("Biri dışarı çıkarsa elinizdeki kartlar bu kadar ceza puanı yazar."),
        "k_melded_badge": pgettext("kart", "açtı"),
        # -- the melds on the table (101's melds area, with the cards' look)
        "k_you": _("Siz"),
        "k_staged": _("Kesik çizgili kartlar kartınızı atınca gider; o zamana kadar “Geri al” ile geri alabilirsiniz."),
        "k_meld_staged": _("hazırlanıyor"),
        "k_melds_value": _("%(n)s puan indirdi"),
        "k_run_label": _("%(name)s, seri: %(cards)s (%(value)s puan)"),
        "k_set_label": _("%(name)s, per: %(cards)s (%(value)s puan)"),
        "k_no_melds": _("Masada henüz seri ya da per yok."),
        "k_how_to_meld": _(
            "Kartlarınızı seçip “Per aç”a basın; masadaki bir pere kart işlemek için kartı seçip pere dokunun."),
        # -- hints, and what the page refuses before anything is sent (a reason key each)
        "k_hint_draw": _("Sıra sizde: desteden çekin ya da yerdeki kartı alın."),
        "k_hint_select": _(
            "Kartlara dokunarak seçin; “Per aç” seçtiklerinizden seri ya da per yapar. Sonra bir kart atın."),
        "k_took": _("%(card)s alındı: bu turda atamazsınız. Vazgeçmek için yere yeniden dokunun."),
        "k_give_back_first": _(
            "Yerden kart aldınız: desteden çekmek için önce onu geri koyun (yere dokunun ya da “Geri al”)."),
        "k_draw_first": _("Önce desteden çekin ya da yerdeki kartı alın."),
        "k_select_meld": _("Seri ya da per için en az 3 kart seçin."),
        "k_select_layoff": _("Önce işlenecek kartı seçin, sonra pere dokunun."),
        "k_select_discard": _("Atmak için bir kart seçin."),
        "k_discard_taken": _("%(card)s kartını yerden aldınız: aynı turda atamazsınız."),
        "k_not_in_hand": _("Bu kart elinizde yok."),
        "k_no_meld": _("Masada böyle bir per yok."),
        "k_not_layable": _("Bu kart o pere işlenemez."),
        "k_keep_one": _("Atmak için bir kart elinizde kalmalı: son kartı atarak dışarı çıkılır."),
        "k_drew_already": _("Bu turda zaten desteden çektiniz."),
        "k_meld_short": _("Seri ya da per en az 3 karttır."),
        "k_run_suit": _("Seri tek türden olur (hepsi maça, kupa, karo ya da sinek)."),
        "k_run_gap": _("Bu kartlar ardışık değil."),
        "k_run_twice": _("Bir seride aynı kart iki kez olmaz."),
        "k_run_aces": _("As ya küçük (A-2-3) ya büyük (Q-K-A) olur, bir seride ikisi birden olmaz."),
        "k_run_corner": _("Seri köşeyi dönmez: K-A-2 seri değildir."),
        "k_set_rank": _("Per aynı sayıdaki kartlardan olur."),
        "k_set_suits": _("Bir perin kartlarının türleri farklı olmalı."),
        "k_set_big": _("Per en çok 4 karttır."),
        # -- the move feed (the placeholder `tile` is the shared feed's: a small card)
        "k_feed_took": _("%(name)s yerden aldı: %(tile)s"),
        "k_my_took": _("Yerden aldınız: %(tile)s"),
        "k_feed_run": _("%(name)s seri açtı: %(cards)s"),
        "k_my_run": _("Seri açtınız: %(cards)s"),
        "k_feed_set": _("%(name)s per açtı: %(cards)s"),
        "k_my_set": _("Per açtınız: %(cards)s"),
        "k_feed_laid_off": _("%(name)s işledi: %(tile)s"),
        "k_my_laid_off": _("İşlediniz: %(tile)s"),
        "k_feed_threw": pgettext("kart", "%(name)s attı: %(tile)s"),
        "k_my_threw": pgettext("kart", "Attınız: %(tile)s"),
        "k_feed_out": _("%(name)s son kartını attı: %(tile)s"),
        "k_my_out": _("Son kartınızı attınız: %(tile)s"),
        "k_feed_reshuffle": _("Deste bitti: yerdeki kartlar (en üstteki hariç) karılıp yeni deste oldu."),
        # -- going out, going rummy, the round's result, the table's totals and prizes
        "k_went_out_by": _("%(name)s dışarı çıktı!"),
        "k_you_went_out": _("Dışarı çıktınız!"),
        "k_rummy_by": _("%(name)s okey yaptı! Herkese +25"),
        "k_you_rummy": _("Okey yaptınız! Herkese +25"),
        "k_rummy_note": _("(Bütün elini tek turda indirdi: diğer oyunculara 25’er ceza puanı.)"),
        "k_stock_out_end": _("Deste ikinci kez bitti: el kazanansız bitti, herkes elindeki kartları yazar."),
        "k_round_scores": pgettext("kart", "Bu elin puanları"),
        "k_table_scores": _("Masanın puanları"),
        "k_low_wins": _("en az puan kazanır"),
        "k_player": _("Oyuncu"),
        "k_cards_left": _("Elde kalan kartlar"),
        "k_value": _("Değer"),
        "k_rummy_bonus": _("Okey +25"),
        "k_score": _("Puan"),
        "k_total": _("Toplam"),
        "k_round_n": pgettext("kart", "%(n)s. el"),
        "k_kind_out": _("dışarı çıktı"),
        "k_kind_rummy": _("okey yaptı"),
        "k_prize": _("Ödül"),
        "k_prize_note": _(
            "Ödül havuzu %(pool)s çip: kazanan en az dörtte üçünü alır; kalan dörtte bir %(limit)s puanın altında kalanlara, sınıra uzaklıklarına göre paylaşılır."),
        "k_next_round_in": pgettext("kart", "Yeni el %(n)s sn sonra dağıtılıyor."),
        "k_rounds_left": pgettext("kart", "%(n)s el kaldı"),
    }
