"""Verifiable deals: commit to the shuffled deck before the hand, reveal it after.

Before a hand the server publishes ``commitment(deck, salt)``: the SHA-256 (hex) of the canonical
text of the deck order — the 106 tiles in notation, top first, joined by single spaces — then one
space and the salt (64 lowercase hex digits, 32 random bytes from ``secrets``)::

    sha256("K7 M13 J S2 … Y4 3f9a…c01d".encode("ascii")).hexdigest()

so anyone can recompute it with ``printf '%s' "<deck> <salt>" | sha256sum``. The salt keeps the
commitment from giving the deck away (106! orders are too many to guess, but a deck dealt from a
weak or reused seed would not be); it is revealed with the deck after the hand.

After the hand ``verify_hand`` checks the reveal: the commitment matches, the deck is the 106
tiles, and replaying the hand's public moves on ``deck.deal_from_deck(deck)`` reproduces what the
players saw — the indicator, a player's own dealt rack, every tile drawn from the pile and every
finish. A server that changed the deck after the deal, or slipped a chosen tile to someone, fails.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .deck import deal_from_deck
from .errors import EngineError
from .hand import PILE, HandState, apply, finish_public, pile_out_action
from .replay import made_by_engine
from .rules import RuleSet
from .tiles import FALSE_JOKER, NotationError, Tile, format_tile, format_tiles, full_set, parse_tile

SALT_BYTES = 32
_HEX = re.compile(r"^[0-9a-f]+$")


class FairnessError(ValueError):
    """Input that cannot be checked at all (a salt that is not hex, a deck that does not parse)."""

    code = "bad_reveal"


def new_salt() -> str:
    """32 bytes from the operating system's CSPRNG, as 64 lowercase hex digits."""
    return secrets.token_hex(SALT_BYTES)


def normal_salt(salt: str) -> str:
    """The salt as hashed (lowercase), or ``FairnessError`` when it is not 32 bytes of hex."""
    if not isinstance(salt, str):
        raise FairnessError("the salt is a hex string")
    text = salt.strip().lower()
    if len(text) != 2 * SALT_BYTES or not _HEX.match(text):
        raise FairnessError(f"the salt must be {2 * SALT_BYTES} hex digits ({SALT_BYTES} bytes)")
    return text


def _deck_tiles(deck: Sequence[Tile] | str) -> list[Tile]:
    """A deck as tiles: a list of ints, a list of notation tokens, or one string of tokens."""
    if isinstance(deck, str):
        tokens: list[object] = list(deck.replace(",", " ").split())
    elif isinstance(deck, Iterable):
        tokens = list(deck)
    else:
        raise FairnessError("a deck is a list of tiles or a string of notation tokens")
    return [_one_tile(token) for token in tokens]


def _one_tile(token: object) -> Tile:
    if isinstance(token, str):
        try:
            return parse_tile(token)
        except NotationError as error:
            raise FairnessError(f"deck: {error}") from None
    if isinstance(token, bool) or not isinstance(token, int) or not 0 <= token <= FALSE_JOKER:
        raise FairnessError(f"deck: {token!r} is not a tile")
    return token


def canonical_deck(deck: Sequence[Tile] | str) -> str:
    """The deck order as the commitment hashes it: notation tokens, top first, single spaces."""
    return format_tiles(_deck_tiles(deck))


def commitment(deck: Sequence[Tile] | str, salt: str) -> str:
    """SHA-256 hex of ``"<canonical deck> <salt>"`` (see the module doc)."""
    message = f"{canonical_deck(deck)} {normal_salt(salt)}"
    return hashlib.sha256(message.encode("ascii")).hexdigest()


_commit = commitment  # the parameters below are named after the published value, as in the API


def verify_commitment(deck: Sequence[Tile] | str, salt: str, commitment: str) -> bool:
    """Whether the revealed deck and salt hash to the published commitment (any hex case)."""
    if not isinstance(commitment, str):
        return False
    try:
        expected = _commit(deck, salt)
    except FairnessError:
        return False
    return hmac.compare_digest(expected, commitment.strip().lower())


@dataclass
class VerifyReport:
    """The outcome of checking one revealed hand; ``valid`` only when there is no problem at all."""

    commitment_ok: bool
    deck_ok: bool
    problems: list[str] = field(default_factory=list)
    moves_checked: int = 0
    draws_checked: int = 0
    indicator: str | None = None
    okey: str | None = None
    starting_seat: int | None = None
    racks: list[list[str]] | None = None
    result: dict[str, Any] | None = None

    @property
    def valid(self) -> bool:
        return self.commitment_ok and self.deck_ok and not self.problems

    def to_dict(self) -> dict[str, Any]:
        return {
            "valid": self.valid,
            "problems": list(self.problems),
            "commitment_ok": self.commitment_ok,
            "deck_ok": self.deck_ok,
            "moves_checked": self.moves_checked,
            "draws_checked": self.draws_checked,
            "indicator": self.indicator,
            "okey": self.okey,
            "starting_seat": self.starting_seat,
            "racks": self.racks,
            "result": self.result,
        }


def deal_entry(moves: Sequence[Any]) -> dict[str, Any]:
    """The moves' ``deal`` entry (the hand's first event), or an empty one."""
    return next((move for move in moves if isinstance(move, dict) and move.get("type") == "deal"), {})


def commitment_report(*, commitment_ok: bool, salt: str, starting_seat: Any) -> VerifyReport:
    """A report that starts from the commitment's check: a failed one says why, a malformed salt
    or a deck and salt that do not hash to what was published (every game's proof begins so)."""
    report = VerifyReport(commitment_ok=commitment_ok, deck_ok=False, starting_seat=starting_seat)
    if not commitment_ok:
        try:
            normal_salt(salt)
            report.problems.append("the deck and salt do not hash to the published commitment")
        except FairnessError as error:
            report.problems.append(str(error))
    return report


# Move types the replay applies through hand.apply; "pile_out" is the event of a draw from the
# empty pile and "deal" is the hand's first event (checked against the deal, not applied).
_TURN_ACTIONS = ("draw", "discard", "finish", "show_indicator", "take_indicator", "lay_first_okey")


def verify_hand(
    deck: Sequence[Tile] | str,
    salt: str,
    commitment: str,
    *,
    rules: RuleSet | None = None,
    starting_seat: int | None = None,
    moves: Iterable[dict[str, Any]] = (),
) -> VerifyReport:
    """Check a revealed hand: commitment, deck, deal, and the public moves replayed on the deck.

    ``moves`` are dicts like ``{"seat": 1, "type": "draw", "source": "pile", "tile": "K5"}`` —
    ``hand.HandState.events`` has exactly this shape, so the server's event log can be passed as is.
    Checked where given: a ``deal`` entry's ``indicator``, ``starting_seat`` and ``players``, and a
    seat's dealt ``rack`` (any order); each draw's ``tile`` against the tile the deck puts there;
    a finish's ``kind`` and ``okey_finish``. Without ``starting_seat`` the ``deal`` entry's is used
    (else 0); given both, they must agree. The deal entry's ``ending_shows`` (seats whose show ends
    the match) is dealt with the hand. Every move must be legal when replayed, and a move the
    engine makes itself (a pile out, the match's end) must be where the engine makes it; the first
    one that is not ends the replay with a problem naming it.

    Raises ``FairnessError`` only when the deck cannot be read at all (a bad token); everything
    else that is wrong is a problem in the report, so one call lists all it can find.
    """
    rules = rules or RuleSet()
    moves = list(moves)
    dealt = deal_entry(moves)
    if starting_seat is None:
        starting_seat = dealt.get("starting_seat", 0)
    ending = dealt.get("ending_shows", [])
    if not isinstance(ending, list) or not all(isinstance(seat, int) and not isinstance(seat, bool) for seat in ending):
        ending = []
    tiles = _deck_tiles(deck)
    report = commitment_report(commitment_ok=verify_commitment(tiles, salt, commitment), salt=salt,
                               starting_seat=starting_seat)
    if len(tiles) != len(full_set()) or Counter(tiles) != Counter(full_set()):
        report.problems.append(f"the deck is not the 106 tiles (it has {len(tiles)}: {_difference(tiles)})")
        return report
    report.deck_ok = True
    try:
        state = deal_from_deck(tiles, rules, starting_seat=starting_seat, ending_shows=ending)
    except EngineError as error:
        report.problems.append(f"cannot deal: {error}")
        return report
    report.indicator = format_tile(state.indicator)
    report.okey = format_tile(state.okey)
    report.racks = [[format_tile(tile) for tile in rack] for rack in state.racks]
    position = 0  # the move number in the hand: the deal is 0
    for number, move in enumerate(moves, start=1):
        if isinstance(move, dict) and move.get("type") != "deal":
            position += 1
        problem, state = _replay(state, move, number, position, report)
        if problem is not None:
            report.problems.append(problem)
            break
    if state.result is not None:
        report.result = state.result.to_dict()
    return report


def _difference(tiles: list[Tile]) -> str:
    have, want = Counter(tiles), Counter(full_set())
    extra = format_tiles(sorted((have - want).elements()))
    missing = format_tiles(sorted((want - have).elements()))
    return f"extra [{extra}], missing [{missing}]"


def _replay(state: HandState, move: Any, number: int, position: int,
            report: VerifyReport) -> tuple[str | None, HandState]:
    """Apply one public move; a problem string when it contradicts the deck or is illegal."""
    where = f"move {number}"
    if not isinstance(move, dict) or not isinstance(move.get("type"), str):
        return f"{where}: not an object with a 'type'", state
    kind = move["type"]
    if kind == "deal":
        return _check_deal(state, move, where), state
    try:
        if made_by_engine(state, position, move):
            report.moves_checked += 1
            return None, state
    except EngineError as error:
        return f"{where}: {error}", state
    seat = move.get("seat", state.turn if kind != "declare_pairs" else None)
    if seat is None:
        return f"{where}: declare_pairs needs a seat", state
    args: dict[str, Any] = {}
    if kind == "pile_out":
        kind, args = pile_out_action(state)
    elif kind == "draw":
        args = {"source": move.get("source", PILE)}
    elif kind == "discard":
        args = {"tile": move.get("tile")}
    elif kind == "finish":
        args = {"tile": move.get("tile", move.get("discard"))}
    elif kind not in (*_TURN_ACTIONS, "declare_pairs"):
        return f"{where}: unknown move type {kind!r}", state
    before = state
    try:
        state = apply(state, seat, kind, **args)
    except EngineError as error:
        return f"{where} ({kind} by seat {seat}): {error}", before
    report.moves_checked += 1
    if kind == "draw" and "tile" in move and not state.is_over:
        drawn = state.racks[seat][-1]
        claimed = move["tile"]
        report.draws_checked += 1
        if not _same_tile(claimed, drawn):
            source = "pile" if args["source"] == PILE else "discard"
            return (f"{where}: seat {seat} drew {claimed!r} from the {source}, "
                    f"but the deck gives {format_tile(drawn)}"), state
    if kind == "finish" and state.result is not None and state.result.finish is not None:
        found = state.result.finish
        if "kind" in move and move["kind"] != found.kind:
            return f"{where}: the finish is claimed as {move['kind']!r} but replays as {found.kind!r}", state
        if "okey_finish" in move and bool(move["okey_finish"]) != found.okey_finish:
            return f"{where}: okey_finish is claimed as {move['okey_finish']} but replays as {found.okey_finish}", state
        # The groups the table saw are the finisher's 14 tiles: a log changed earlier shows up here.
        if "groups" in move and move["groups"] != finish_public(found)["groups"]:
            return f"{where}: the finisher showed {move['groups']!r}, but the replay gives other tiles", state
    return None, state


def _same_tile(claimed: object, tile: Tile) -> bool:
    try:
        return (parse_tile(claimed) if isinstance(claimed, str) else claimed) == tile
    except NotationError:
        return False


def _check_deal(state: HandState, move: dict[str, Any], where: str) -> str | None:
    """A ``deal`` entry (the hand's first event, or a player's note of its own rack) must match."""
    if "players" in move and move["players"] != state.players:
        return f"{where}: the deal says {move['players']} players, the rules {state.players}"
    if "starting_seat" in move and move["starting_seat"] != state.starting_seat:
        return f"{where}: the deal says starting seat {move['starting_seat']}, the check uses {state.starting_seat}"
    for key, tile in (("indicator", state.indicator), ("okey", state.okey)):
        if key in move and not _same_tile(move[key], tile):
            return f"{where}: the {key} was {move[key]!r}, but the deck gives {format_tile(tile)}"
    if "rack" in move:
        seat = move.get("seat")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.players:
            return f"{where}: a dealt rack needs the seat it was dealt to"
        try:
            claimed = Counter(_deck_tiles(move["rack"]))
        except FairnessError as error:
            return f"{where}: {error}"
        if claimed != Counter(state.racks[seat]):
            return (f"{where}: seat {seat} was dealt {format_tiles(sorted(claimed.elements()))}, "
                    f"but the deck deals {format_tiles(sorted(state.racks[seat]))}")
    return None
