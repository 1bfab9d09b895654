"""The dispute-settling check: ``check(...)`` and ``python -m games.engine check``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine import CheckError, check

ROOT = Path(__file__).resolve().parents[2]
FINISHING = "K1 K2 K3 S7 M7 Y7 M10 M11 M12 M13 Y2 Y3 Y4 Y5 S12"


def test_a_finishing_rack_reports_its_discard_and_sets():
    result = check(FINISHING, "K5")
    assert result["finishes"] is True
    assert result["kind"] == "sets"
    assert result["discard"] == "S12"
    assert result["okey_finish"] is False
    assert sorted(result["sets"]) == [["K1", "K2", "K3"], ["M10", "M11", "M12", "M13"], ["S7", "M7", "Y7"], ["Y2", "Y3", "Y4", "Y5"]]
    assert result["okey"] == "K6"


def test_tiles_may_be_a_list_and_any_case():
    assert check(FINISHING.lower().split(), "k5") == check(FINISHING, "K5")


def test_14_tiles_are_checked_as_shown_without_a_discard():
    result = check(FINISHING.rsplit(" ", 1)[0], "K5")
    assert result["finishes"] and result["discard"] is None and result["okey_finish"] is False


def test_a_rack_that_does_not_finish():
    result = check("K1 K2 K3 S7 M7 Y7 M10 M11 M12 M13 Y2 Y3 Y4 S9 S12", "K5")
    assert {key: result[key] for key in ("finishes", "kind", "okey_finish", "discard", "sets")} == {
        "finishes": False, "kind": None, "okey_finish": False, "discard": None, "sets": [],
    }


def test_throwing_the_okey_is_reported():
    result = check("K1 K2 K3 S4 S5 S6 M7 M8 M9 M10 Y10 Y11 Y12 Y13 K6", "K5")
    assert result["discard"] == "K6" and result["okey_finish"] is True and result["value"] == 4


def test_pairs_and_the_pairs_only_option():
    rack = "K1 K1 S4 S4 M9 M9 Y13 Y13 K7 K7 S11 S11 M2 M2 Y5"
    result = check(rack, "K5", pairs_only=True)
    assert result["kind"] == "pairs" and result["discard"] == "Y5"
    assert ["K1", "K1"] in result["sets"]
    assert check(FINISHING, "K5", pairs_only=True)["finishes"] is False


def test_rule_options_change_the_verdict():
    rack = "S9 K6 K6 K1 K2 K3 S4 S5 S6 Y10 Y11 Y12 Y13 Y1 M8"  # S9 or M8 needs both okeys
    assert check(rack, "K5")["finishes"] is True
    assert check(rack, "K5", max_jokers_per_set=1)["finishes"] is False
    assert check(rack, "K5", scoring="chips")["finishes"] is False, "chips always allows one joker per set"


def test_colour_finishes_are_reported():
    result = check("M1 M2 M3 M4 M5 M6 M7 M8 M9 M10 M11 M12 M13 M1 S8", "K5", color_finish=True)
    assert result["color"] == "ordered" and result["value"] == 10_000


@pytest.mark.parametrize(
    ("tiles", "indicator", "options", "message"),
    [
        ("K1 K2 X3 " + "K4 " * 12, "K5", {}, "'X3'"),
        ("K1 K2 K3", "K5", {}, "14 or 15 tiles, not 3"),
        (FINISHING + " Y9", "K5", {}, "not 16"),
        ("K1 K1 K1 K2 K3 S7 M7 Y7 M10 M11 M12 M13 Y2 Y3 Y4", "K5", {}, "'K1' appears 3 times"),
        ("J J J K2 K3 S7 M7 Y7 M10 M11 M12 M13 Y2 Y3 Y4", "K5", {}, "'J' appears 3 times"),
        (FINISHING, "J", {}, "false joker"),
        (FINISHING, "K0", {}, "indicator: 'K0'"),
        (FINISHING, "", {}, "indicator is missing"),
        ("S12 " + FINISHING.replace("K1 ", ""), "S12", {}, "both S12"),
        (FINISHING, "K5", {"jokers": 1}, "unknown option(s): jokers"),
        (FINISHING, "K5", {"scoring": "poker"}, "poker"),
        (FINISHING, "K5", {"max_jokers_per_set": 2}, "max_jokers_per_set"),
        (FINISHING, "K5", {"pairs_only": "yes"}, "pairs_only"),
    ],
)
def test_bad_input_is_a_check_error_that_says_what_is_wrong(tiles, indicator, options, message):
    with pytest.raises(CheckError) as error:
        check(tiles, indicator, **options)
    assert message in str(error.value)
    assert isinstance(error.value, ValueError)


# --- the command line ---


def run(*args: str) -> tuple[int, dict]:
    done = subprocess.run(
        [sys.executable, "-m", "games.engine", *args], cwd=ROOT, capture_output=True, text=True, timeout=60,
    )
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 1, f"exactly one JSON line, got {done.stdout!r} {done.stderr!r}"
    return done.returncode, json.loads(lines[0])


def test_the_command_prints_one_json_object_and_exits_0():
    code, result = run("check", "--indicator", "K5", *FINISHING.split())
    assert code == 0
    assert result["finishes"] is True and result["discard"] == "S12"


def test_the_command_passes_rule_options():
    rack = "S9 K6 K6 K1 K2 K3 S4 S5 S6 Y10 Y11 Y12 Y13 Y1 M8".split()
    assert run("check", "--indicator", "K5", *rack)[1]["finishes"] is True
    assert run("check", "--indicator", "K5", "--max-jokers-per-set", "1", *rack)[1]["finishes"] is False
    assert run("check", "--indicator", "K5", "--scoring", "chips", *rack)[1]["finishes"] is False
    pairs = "K1 K1 S4 S4 M9 M9 Y13 Y13 K7 K7 S11 S11 M2 M2 Y5".split()
    code, result = run("check", "--indicator", "K5", "--pairs-only", *pairs)
    assert code == 0 and result["kind"] == "pairs"


def test_the_command_keeps_turkish_text_readable():
    done = subprocess.run(
        [sys.executable, "-m", "games.engine", "check", "--indicator", "K5", "Ş1"],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 2
    assert "'Ş1'" in done.stdout, "ensure_ascii=False: the bad token is shown as typed"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["check", "--indicator", "K5", "K1", "Q2"], "'Q2'"),
        (["check", "K1", "K2"], "--indicator"),
        (["check", "--indicator", "J", *FINISHING.split()], "false joker"),
        (["check", "--indicator", "K5", "--scoring", "poker", *FINISHING.split()], "poker"),
        (["check", "--indicator", "K5", "--max-jokers-per-set", "3", *FINISHING.split()], "joker limit"),
        (["check", "--indicator", "K5", "--frobnicate", *FINISHING.split()], "--frobnicate"),
        (["solve", "K1"], "solve"),
        ([], "command"),
    ],
)
def test_bad_input_prints_an_error_object_and_exits_2(args, message):
    code, result = run(*args)
    assert code == 2
    assert list(result) == ["error"] and message in result["error"]
