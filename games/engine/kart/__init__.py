"""Kart Okey (English: Rummy), RULES.md "Kart Okey (source 004: a 52-card rummy)": the pure rules
engine, a game of its own.

Stdlib only; it imports from ``games.engine`` only ``EngineError``, ``Scoring`` and the fair
deal's salt and report (``fairness``), and nothing of the site; ``game_types`` is not imported
(``game_types`` registers ``KartOkey``: the import points one way). Modules, lowest first: ``cards`` (the 52 cards and their
notation: suits M/K/R/S for maça ♠, kupa ♥, karo ♦, sinek ♣, ranks A 2-10 J Q K, e.g. ``MA``,
``K10``, ``RQ``), ``rules`` (``RulesKart``), ``melds`` (runs and sets read from unordered cards),
``scoring`` (a hand's scores, the prize pool), ``hand`` (the deal, ``apply_turn``, the stock's
reshuffle, ``view_for``, the turn clock), ``match`` (a table of 1-3 rounds), ``fair`` (the
commitment, ``verify_hand``, ``replay``), ``search`` (the best melds and lay-offs of a hand),
``bots`` (``play_bot_turn``, three levels), ``game`` (``KartOkey``, the ``GameType`` protocol) and
``__main__`` (``python -m games.engine.kart check …``).

**A turn is one action** (two messages at most), as 101's and for the same reasons: the rules speak
of the turn as a whole (the card taken from the discard pile cannot be the turn's discard; going
out is the turn's final discard; going rummy is the whole hand melded in one turn). The stock's top
is drawn first as a fact of its own (``draw``: the player must see it); the rest (``turn``: melds,
lay-offs, the discard, and taking the discard pile's top, which is known) is checked whole on a
copy and applied or refused with a stable code and nothing changed.

*Interpretations* (RULES.md and research/gametypes.md leave them open):

* Two decks at a table of four are two copies of every card; copies are not told apart. Two decks
  at a table of 2 or 3 are refused (rule 1 gives them one deck).
* The deal is one card at a time from the deck's top in play order from the starting seat (who
  plays first), then one card face up; play goes seat + 1. The starting seat of the first round is
  random and moves one seat each round (rule 10, "as at a tile table").
* "The card just taken from the discard pile cannot be discarded": with two decks, neither can its
  identical twin (the table could not tell them apart).
* No meld is needed to take the discard pile's top, and melds and lay-offs are unlimited per turn
  (research 3.4.2). A lay-off goes onto any meld on the table, anyone's, also one melded this turn.
* Going rummy: going out in a turn when the player had not melded or laid off in any earlier turn
  of the hand (the whole hand goes down in the one turn, lay-offs onto others' melds included).
* The stock runs out at the end of the turn of the player who drew its last card (that player may
  still go out in it). The first time, the discards under the top card are reshuffled into a new
  stock in an order fixed by the committed deck (``hand.reshuffle_order``: SHA-256 of the deck's
  canonical text, "reshuffle", its number and the card's place in the pile; verifiable once the
  deck is revealed, choosable by nobody). The second time the hand ends with no winner: everyone
  writes their own hand, no +25.
* A table has no winner only when none of its rounds had one; the lowest total wins otherwise
  (ties share). Prize remainders (rule 9): tied winners split the winner's part, what does not
  divide one chip each in play order from the first starting seat; at a table with no winner the
  remainder goes one chip each to the sharing players with the fewest points first; stakes back
  are the pool evenly, the remainder one chip each in play order. A table the site ends early has
  no prizes (the site decides).
* The turn clock draws from the stock and discards the highest card (most points, then the
  higher rank, then the suit order M K R S); it never melds, so it never goes out.
"""

from .game import KartOkey
from .hand import HandKart, apply_turn, clock_move, deal_from_deck, draw_from_stock, view_for
from .match import MatchKart
from .melds import read_meld
from .rules import RulesError, RulesKart
from .scoring import prize_split
from .search import best_plan

__all__ = ["HandKart", "KartOkey", "MatchKart", "RulesError", "RulesKart", "apply_turn", "best_plan",
           "clock_move", "deal_from_deck", "draw_from_stock", "prize_split", "read_meld", "view_for"]
