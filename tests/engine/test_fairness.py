"""Verifiable deals: a commitment to the deck before the hand, the reveal checked after it."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine.bots import play_bot_turn
from games.engine.deck import deal_from_deck, shuffled_deck
from games.engine.fairness import (
    FairnessError,
    canonical_deck,
    commitment,
    new_salt,
    verify_commitment,
    verify_hand,
)
from games.engine.hand import HandState, apply
from games.engine.rules import RuleSet
from games.engine.tiles import format_tile, format_tiles

ROOT = Path(__file__).resolve().parents[2]
SALT = "00112233445566778899aabbccddeeff" * 2


def swapped(deck: list[int], i: int, j: int) -> list[int]:
    changed = list(deck)
    changed[i], changed[j] = changed[j], changed[i]
    assert changed != deck, "swap two different tiles"
    return changed


def played_hand(seed: int = 3, starting_seat: int = 1, rules: RuleSet | None = None) -> tuple[list[int], HandState]:
    deck = shuffled_deck(seed)
    state = deal_from_deck(deck, rules or RuleSet(), starting_seat=starting_seat)
    while not state.is_over:
        state = play_bot_turn(state, state.turn)
    return deck, state


def with_drawn_tiles(deck: list[int], state: HandState) -> list[dict]:
    """The event log, each pile draw annotated with the tile its seat saw (a player's own record)."""
    replay = deal_from_deck(deck, state.rules, starting_seat=state.starting_seat)
    moves = []
    for event in state.events[1:]:
        move = dict(event)
        if replay.is_over:
            pass  # the engine's own pile out or end of match, made with the action before
        elif event["type"] == "draw" and event["source"] == "pile":
            replay = apply(replay, event["seat"], "draw", source="pile")
            move["tile"] = format_tile(replay.racks[event["seat"]][-1])
        elif event["type"] in ("draw", "discard"):
            key = "source" if event["type"] == "draw" else "tile"
            replay = apply(replay, event["seat"], event["type"], **{key: event[key]})
        elif event["type"] == "finish":
            replay = apply(replay, event["seat"], "finish", tile=event["discard"])
        else:
            replay = apply(replay, event["seat"], event["type"])
        moves.append(move)
    return [state.events[0], *moves]


# -- commitment ---------------------------------------------------------------------------------------


def test_a_salt_is_32_fresh_random_bytes_in_hex():
    salts = {new_salt() for _ in range(20)}
    assert len(salts) == 20
    assert all(len(salt) == 64 and int(salt, 16) >= 0 and salt == salt.lower() for salt in salts)


def test_the_commitment_is_sha256_of_the_deck_text_and_the_salt_and_round_trips():
    deck = shuffled_deck(1)
    salt = new_salt()
    published = commitment(deck, salt)
    expected = hashlib.sha256(f"{format_tiles(deck)} {salt}".encode("ascii")).hexdigest()
    assert published == expected and len(published) == 64
    assert canonical_deck(deck) == format_tiles(deck) and canonical_deck(deck).count(" ") == 105
    assert verify_commitment(deck, salt, published)
    assert verify_commitment(format_tiles(deck).lower(), salt.upper(), published.upper()), "notation and hex case"
    assert verify_commitment([format_tile(tile) for tile in deck], salt, published)


def test_a_tampered_deck_salt_or_commitment_is_detected():
    deck = shuffled_deck(2)
    published = commitment(deck, SALT)
    assert not verify_commitment(swapped(deck, 10, 11 if deck[11] != deck[10] else 12), SALT, published)
    assert not verify_commitment(deck[:-1], SALT, published)
    assert not verify_commitment(deck, SALT[:-1] + ("0" if SALT[-1] != "0" else "1"), published)
    assert not verify_commitment(deck, SALT, published[:-1] + ("0" if published[-1] != "0" else "1"))
    assert not verify_commitment(deck, "not hex", published)
    assert not verify_commitment(deck, SALT, None)  # type: ignore[arg-type]


def test_a_salt_that_is_not_32_bytes_of_hex_is_refused():
    for salt in ("abc", "zz" * 32, SALT + "00", ""):
        with pytest.raises(FairnessError):
            commitment(shuffled_deck(0), salt)


def test_a_deck_that_does_not_parse_is_refused_naming_the_token():
    with pytest.raises(FairnessError, match="Q9"):
        commitment("K1 Q9", SALT)
    with pytest.raises(FairnessError):
        commitment([0, 53], SALT)


# -- the revealed hand --------------------------------------------------------------------------------


def test_a_fair_hand_verifies_with_its_event_log():
    deck, state = played_hand()
    report = verify_hand(deck, SALT, commitment(deck, SALT), rules=state.rules, moves=state.events)
    assert report.valid, report.problems
    assert report.starting_seat == 1, "taken from the deal event"
    assert report.moves_checked == len(state.events) - 1
    assert report.indicator == format_tile(state.indicator)
    assert report.racks == [[format_tile(tile) for tile in rack] for rack in deal_from_deck(deck, state.rules, starting_seat=1).racks]
    assert report.result == state.result.to_dict()
    data = report.to_dict()
    assert data["valid"] is True and json.loads(json.dumps(data)) == data


def test_every_pile_draw_a_player_recorded_is_checked_against_the_deck():
    deck, state = played_hand(seed=4, starting_seat=0)
    moves = with_drawn_tiles(deck, state)
    report = verify_hand(deck, SALT, commitment(deck, SALT), moves=moves)
    assert report.valid, report.problems
    pile_draws = sum(1 for move in moves if move["type"] == "draw")
    assert report.draws_checked == pile_draws > 5
    # The server slipped a different tile to a player: the record and the deck disagree.
    index = next(i for i, move in enumerate(moves) if move["type"] == "draw" and move["source"] == "pile")
    forged = [dict(move) for move in moves]
    forged[index]["tile"] = next(format_tile(t) for t in range(52) if format_tile(t) != moves[index]["tile"])
    report = verify_hand(deck, SALT, commitment(deck, SALT), moves=forged)
    assert not report.valid and report.commitment_ok
    assert report.problems == [f"move {index + 1}: seat {forged[index]['seat']} drew '{forged[index]['tile']}' "
                               f"from the pile, but the deck gives {moves[index]['tile']}"]


def test_a_deck_changed_after_the_commitment_is_caught_either_way():
    committed = shuffled_deck(5)
    published = commitment(committed, SALT)
    # The hand is really dealt from another order: the first pile tile swapped with a later one.
    first_pile = 1 + 15 + 3 * 14
    later = next(i for i in range(first_pile + 1, 106) if committed[i] != committed[first_pile])
    dealt = swapped(committed, first_pile, later)
    state = deal_from_deck(dealt, RuleSet())
    while not state.is_over:
        state = play_bot_turn(state, state.turn)
    moves = with_drawn_tiles(dealt, state)
    assert verify_hand(dealt, SALT, commitment(dealt, SALT), moves=moves).valid, "the records are honest"
    # Reveal the deck really used: it is not the one committed to.
    report = verify_hand(dealt, SALT, published, moves=moves)
    assert not report.commitment_ok and not report.valid
    # Reveal the committed deck: the first pile draw a player recorded contradicts it.
    report = verify_hand(committed, SALT, published, moves=moves)
    assert report.commitment_ok and not report.valid
    assert "from the pile, but the deck gives" in report.problems[0]


def test_the_deal_must_match_what_the_table_saw():
    deck, state = played_hand(seed=6, starting_seat=2)
    published = commitment(deck, SALT)
    deal_event = state.events[0]
    wrong_indicator = next(format_tile(t) for t in range(52) if t != state.indicator)
    cases = {
        "indicator": dict(deal_event, indicator=wrong_indicator),
        "starting seat": dict(deal_event, starting_seat=3),
        "players": dict(deal_event, players=2),
    }
    for what, event in cases.items():
        report = verify_hand(deck, SALT, published, starting_seat=2, moves=[event])
        assert not report.valid and report.commitment_ok, what
        assert report.problems[0].startswith("move 1: the deal says") or "but the deck gives" in report.problems[0]
    rack = [format_tile(tile) for tile in reversed(deal_from_deck(deck, RuleSet(), starting_seat=2).racks[1])]
    assert verify_hand(deck, SALT, published, starting_seat=2, moves=[{"type": "deal", "seat": 1, "rack": rack}]).valid
    forged = [*rack[1:], next(format_tile(t) for t in range(52) if format_tile(t) not in rack)]
    report = verify_hand(deck, SALT, published, starting_seat=2, moves=[{"type": "deal", "seat": 1, "rack": forged}])
    assert not report.valid and report.problems[0].startswith("move 1: seat 1 was dealt")


def test_an_illegal_move_in_the_log_is_a_problem_naming_it():
    deck, state = played_hand(seed=7, starting_seat=0)
    moves = [dict(event) for event in state.events]
    discard_index = next(i for i, move in enumerate(moves) if move["type"] == "discard")
    not_held = next(format_tile(t) for t in range(52) if t not in deal_from_deck(deck, RuleSet()).racks[0])
    moves[discard_index]["tile"] = not_held
    report = verify_hand(deck, SALT, commitment(deck, SALT), moves=moves)
    assert not report.valid
    assert report.problems == [f"move {discard_index + 1} (discard by seat 0): {not_held} is not in your rack"]
    moves = [*state.events, {"seat": 0, "type": "discard", "tile": "K1"}]
    assert "the hand is over" in verify_hand(deck, SALT, commitment(deck, SALT), moves=moves).problems[0]
    assert "unknown move type" in verify_hand(deck, SALT, commitment(deck, SALT), moves=[{"type": "peek"}]).problems[0]


def test_a_deck_that_is_not_the_106_tiles_is_reported():
    deck = shuffled_deck(8)
    broken = [*deck[:-1], deck[0]]
    report = verify_hand(broken, SALT, commitment(broken, SALT))
    assert report.commitment_ok and not report.deck_ok and not report.valid
    assert "not the 106 tiles" in report.problems[0] and "missing [" in report.problems[0]


def test_two_player_hands_verify_too():
    rules = RuleSet(players=2)
    deck, state = played_hand(seed=9, starting_seat=1, rules=rules)
    assert verify_hand(deck, SALT, commitment(deck, SALT), rules=rules, moves=state.events).valid
    assert not verify_hand(deck, SALT, commitment(deck, SALT), moves=state.events).valid, "4-player rules"


# -- command line -------------------------------------------------------------------------------------


def run(*args: str) -> tuple[int, dict]:
    done = subprocess.run([sys.executable, "-m", "games.engine", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 1, f"exactly one JSON line, got {done.stdout!r} {done.stderr!r}"
    return done.returncode, json.loads(lines[0])


def test_the_verify_command(tmp_path):
    deck, state = played_hand(seed=10, starting_seat=3)
    salt = new_salt()
    published = commitment(deck, salt)
    moves_file = tmp_path / "moves.json"
    moves_file.write_text(json.dumps(state.events))
    base = ["verify", "--deck", format_tiles(deck), "--salt", salt, "--commitment", published]

    code, report = run(*base, "--moves", str(moves_file))
    assert code == 0 and report["valid"] is True and report["problems"] == []
    assert report["moves_checked"] == len(state.events) - 1 and report["starting_seat"] == 3

    code, report = run(*base, "--starting-seat", "3")
    assert code == 0 and report["valid"] and report["moves_checked"] == 0

    tampered = format_tiles(swapped(deck, 0, next(i for i in range(1, 106) if deck[i] != deck[0])))
    code, report = run("verify", "--deck", tampered, "--salt", salt, "--commitment", published)
    assert code == 1 and report["valid"] is False and not report["commitment_ok"]

    code, report = run(*base, "--moves", str(moves_file), "--starting-seat", "0")
    assert code == 1 and "starting seat" in report["problems"][0]

    (tmp_path / "with_rules.json").write_text(json.dumps({"rules": RuleSet().to_dict(), "moves": state.events}))
    assert run(*base, "--moves", str(tmp_path / "with_rules.json"))[0] == 0


HASH = "ab" * 32


@pytest.mark.parametrize("args, message", [
    (["--salt", SALT, "--commitment", HASH], "--deck"),
    (["--deck", "K1 Q9", "--salt", SALT, "--commitment", HASH], "Q9"),
    (["--deck", "K1", "--salt", SALT, "--commitment", HASH, "--moves", "/nonexistent/moves.json"], "cannot read"),
    (["--deck", "K1", "--salt", SALT, "--commitment", HASH, "--players", "3"], "players"),
    (["--deck", "K1", "--salt", SALT, "--commitment", HASH, "--starting-seat", "7"], "starting-seat"),
    (["--deck", "K1", "--salt", "xyz", "--commitment", HASH], "salt"),
    (["--deck", "K1", "--salt", SALT, "--commitment", "00"], "--commitment"),
])
def test_bad_input_to_verify_exits_2_with_an_error(args, message):
    code, answer = run("verify", *args)
    assert code == 2 and message in answer["error"]


def test_bad_moves_files_exit_2(tmp_path):
    base = ["verify", "--deck", "K1", "--salt", SALT, "--commitment", HASH, "--moves"]
    for name, text in (("broken.json", "[{"), ("object.json", '{"moves": 5}'), ("items.json", "[1, 2]"),
                       ("rules.json", '{"rules": {"players": 3}, "moves": []}')):
        path = tmp_path / name
        path.write_text(text)
        code, answer = run(*base, str(path))
        assert code == 2 and "--moves" in answer["error"], name


# -- the proof file the site serves (RULES.md "Fair deals", issue: every starting seat) ---------------


def site_proof(deck: list[int], salt: str, state: HandState) -> dict:
    """``/hands/<id>/proof.json`` as ``games.selectors.fair_deal_proof`` builds it from the move log."""
    moves = [{"seat": event.get("seat"), "type": event["type"],
              **{key: value for key, value in event.items() if key not in ("move", "type", "seat")}}
             for event in state.events]
    return {"commitment": commitment(deck, salt), "salt": salt, "deck": [format_tile(tile) for tile in deck],
            "rules": state.rules.to_dict(), "starting_seat": state.starting_seat, "moves": moves}


def verify_proof(tmp_path: Path, proof: dict, *, deck: str | None = None, salt: str | None = None) -> tuple[int, dict]:
    """The command exactly as the README and the hand page print it: no other flag."""
    path = tmp_path / "proof.json"
    path.write_text(json.dumps(proof))
    return run("verify", "--deck", deck or " ".join(proof["deck"]), "--salt", salt or proof["salt"],
               "--commitment", proof["commitment"], "--moves", str(path))


@pytest.mark.parametrize("starting_seat", [0, 1, 2, 3])
def test_the_printed_command_verifies_a_genuine_proof_file_whatever_the_starting_seat(tmp_path, starting_seat):
    deck, state = played_hand(seed=20 + starting_seat, starting_seat=starting_seat)
    proof = site_proof(deck, new_salt(), state)
    assert proof["moves"][0]["type"] == "deal"
    code, report = verify_proof(tmp_path, proof)
    assert (code, report["problems"]) == (0, [])
    assert report["valid"] and report["starting_seat"] == starting_seat
    assert report["result"]["reason"] == state.result.reason


def test_the_printed_command_refuses_an_altered_proof_file(tmp_path):
    deck, state = played_hand(seed=31, starting_seat=2)
    genuine = site_proof(deck, new_salt(), state)
    assert verify_proof(tmp_path, genuine)[0] == 0

    other = next(i for i in range(1, 106) if deck[i] != deck[0])
    altered_deck = format_tiles(swapped(deck, 0, other))
    assert verify_proof(tmp_path, genuine, deck=altered_deck)[0] == 1
    assert verify_proof(tmp_path, {**genuine, "deck": altered_deck.split()})[0] == 1
    assert verify_proof(tmp_path, genuine, salt=new_salt())[0] == 1
    for seat in {0, 1, 3}:
        assert verify_proof(tmp_path, {**genuine, "starting_seat": seat})[0] == 1
        moves = [dict(genuine["moves"][0], starting_seat=seat), *genuine["moves"][1:]]
        assert verify_proof(tmp_path, {**genuine, "starting_seat": seat, "moves": moves})[0] == 1

    first_discard = next(i for i, move in enumerate(genuine["moves"]) if move["type"] == "discard")
    seat = genuine["moves"][first_discard]["seat"]
    dealt = deal_from_deck(deck, state.rules, starting_seat=2).racks[seat]
    foreign = next(format_tile(tile) for tile in range(53) if tile not in dealt)
    moves = [dict(move) for move in genuine["moves"]]
    moves[first_discard]["tile"] = foreign
    code, report = verify_proof(tmp_path, {**genuine, "moves": moves})
    assert code == 1 and f"move {first_discard + 1}" in report["problems"][0]
    dropped = genuine["moves"][:first_discard] + genuine["moves"][first_discard + 1:]
    assert verify_proof(tmp_path, {**genuine, "moves": dropped})[0] == 1
