"""101 Okey (Yüzbir), RULES.md "101 Okey" and "Eşli": the pure rules engine, a game of its own.

Stdlib only; it imports from ``games.engine`` only the tiles, the deck's shuffle, ``EngineError``
and ``Scoring``, and nothing of the site. Modules, lowest first: ``rules`` (``Rules101``),
``melds`` (reading a set of tiles as a run, group or pair, and its value), ``scoring`` (a hand's
scores), ``hand`` (the deal, ``apply_turn``, ``view_for``, the turn clock), ``match`` (a fixed
number of hands), ``game`` (``Okey101``, the ``GameType`` protocol).

**Why a turn is one action.** In 101 a turn is a draw, any number of table actions (open, lay
down, lay off, swap an okey) and a discard, and most rules speak about the turn as a whole: a taken
discard must be on the table by the end of the turn (rule 6), an opening must reach 101 or 5 pairs
in the one turn (rule 7) but need not when the same turn finishes elden (rule 10), a pairs opener
lays off at most 2 tiles a turn (rule 8), the last tile is always discarded (rule 5), and an işlek
discard is judged against the table as the turn leaves it (rule 9). Played as separate messages,
every one of those would need a half-done turn stored, shown to the other players and then undone
when the player cannot complete it (the live table's take-backs and "geri bırak"). Here the client
stages the turn and sends it once; ``apply_turn`` checks all of it on a copy and either returns the
new state or raises an ``EngineError`` with a stable code, leaving the state untouched. So a
half-done turn never reaches other players as fact, nothing is ever taken back, and a refused
opening really changes nothing (rule 7). There is no ``give_back`` action either: a player who
took a discard they cannot use simply sends a turn that draws from the pile instead (rule 6). The
one exception is the pile draw (``draw_from_pile``): the drawer must see the tile before composing,
so it is a message and a fact of its own; the rest of the turn follows whole.

*Interpretations* (RULES.md and research/gametypes.md leave them open):

* The opening's total is the ``open`` action's melds alone; more melds laid down in the same turn
  and lay-offs are free but do not count towards it (rule 7).
* Elden bitme: the turn opens, lays down only its own melds (no lay-off, no swap) and discards its
  last tile while nobody else has opened; then the threshold does not apply and ×2 is scored.
* A meld keeps the kind it was laid as; melds are sets, so an okey in a run stands wherever the
  reading needs it (see ``melds``).
* A hand cancelled because all four opened with pairs is dealt again by the same starting seat.
* Pile out: the hand ends at the discard of the player who drew the last tile (that discard may
  still be penalised).

Also here: ``search`` (the best opening, pairs, finishing melds, işlek tiles, lay-offs and okey
swaps, for the bots and the tests), ``bots`` (three levels, deciding from the seat's view only)
and ``fair`` (the commitment, the hand replayed from its public events). Registered in
``games.engine.game_types``. Left out: rule 13's chip stake (101 rooms play for points).
"""

from .game import Okey101
from .hand import Hand101, apply_turn, deal_from_deck, is_islek, view_for
from .match import Match101
from .melds import read_meld
from .rules import Rules101, RulesError

__all__ = ["Hand101", "Match101", "Okey101", "Rules101", "RulesError", "apply_turn", "deal_from_deck",
           "is_islek", "read_meld", "view_for"]
