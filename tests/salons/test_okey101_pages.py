"""101 Okey on the rules pages and the room form's preview (RULES.md "101 Okey", rules 9–13 and
"Eşli"): the site's rules page has a 101 section with its options and rule 11's worked examples,
a 101 room's rules page describes that room's 101, and every figure is the engine's
(``scoring.hand_scores``), in Turkish and in English."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.engine.okey101.rules import Rules101
from games.engine.okey101.scoring import MELDS, PAIRS, hand_scores
from games.engine.tiles import parse_tile, parse_tiles
from salons import rules101_catalog
from salons.rules_catalog import describe_rules, option_badges, plain_rules
from tests.conftest import make_room

pytestmark = pytest.mark.django_db

RULES101 = {"game": "okey101", **Rules101().to_dict()}


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def client_in(language: str) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.cookies["django_language"] = language
    return client


def test_rule11_examples_are_the_engines_scores():
    okey = parse_tile("S5")
    racks = ([], parse_tiles("K1 K2"), [], [okey, *parse_tiles("Y4")])
    expected = [
        hand_scores(racks, (MELDS, MELDS, None, MELDS), okey, Rules101(), finisher=0),
        hand_scores(racks, (MELDS, MELDS, None, MELDS), okey, Rules101(), finisher=0, okey_finish=True),
        hand_scores(racks, (PAIRS, MELDS, None, MELDS), okey, Rules101(), finisher=0, okey_finish=True),
    ]
    examples = rules101_catalog.score_examples()
    assert [list(example.scores) for example in examples] == expected
    # RULES.md rule 11's own figures.
    assert expected == [[-101, 3, 202, 105], [-202, 6, 404, 210], [-404, 12, 808, 420]]


def test_the_examples_follow_a_rooms_options():
    examples = rules101_catalog.score_examples(Rules101(unopened_penalty=303, partners=True))
    assert [example.scores for example in examples] == [(-101, 3, 0, 105), (-202, 6, 0, 210), (-404, 12, 0, 420)]
    assert rules101_catalog.score_examples(Rules101(unopened_penalty=101))[2].scores[2] == 404
    # At an eşli table the never-opened seat 2 is the finisher's partner, and is named so.
    rows = rules101_catalog.example_rows(Rules101(partners=True))
    assert rows[2] == {"seat": "Eli bitirenin eşi (elini hiç açmamış)", "scores": [0, 0, 0]}
    assert rules101_catalog.example_rows()[2]["seat"] == "Elini hiç açmamış"


def test_the_preview_writes_101_in_a_few_sentences():
    lines = plain_rules(Rules101(hands=5, islek_penalty=False, partners=True), turn_seconds=30)
    text = " ".join(lines)
    assert "101 Okey, 4 kişilik masa: herkese 21, başlayana 22 taş." in lines
    assert "El en az 101 sayılık seri ve perlerle ya da en az 5 çiftle açılır." in lines
    assert "Maç 5 el sürer; toplam puanı en düşük olan kazanır." in lines
    assert "Eli bitiren -101 yazar" in text and "hiç açmamış olanlar 202" in text
    assert "101 ceza puanı: Okey atma cezası." in lines
    assert "Eşli" in text and "30 saniyesi" in text
    assert "Okey ve işlek taş atmanın cezası yok." in plain_rules(Rules101(okey_discard_penalty=False, islek_penalty=False))
    assert any("303" in line for line in plain_rules(RULES101 | {"unopened_penalty": 303}))


@pytest.mark.parametrize(("language", "words"), [
    ("tr", ["101 Okey, 4 kişilik masa: herkese 21, başlayana 22 taş.", "Maç 9 el sürer", "hiç açmamış olanlar 303"]),
    ("en", ["101 Okey, a table of 4: 21 tiles each, 22 for the starting player.", "The match lasts 9 hands",
            "those who never opened 303"]),
])
def test_the_preview_endpoint_answers_for_101(language, words):
    response = client_in(language).get("/rules/preview/", {
        "game": "okey101", "rule101_hands": "9", "rule101_unopened_penalty": "303", "turn_seconds": "45",
        "name": "Önizleme", "table_count": "1"})
    assert response.status_code == 200
    text = text_of(response.content.decode())
    for word in words:
        assert word in text


def test_a_broken_101_preview_still_answers_with_101s_defaults():
    response = Client().get("/rules/preview/", {"game": "okey101", "rule101_hands": "4", "rule101_partners": "x"})
    assert response.status_code == 200
    assert "Maç 7 el sürer" in response.content.decode()


def test_a_101_room_has_its_own_rule_lines_and_badges():
    lines = {line.name: line for line in describe_rules({**RULES101, "hands": 11, "pairs_layoff_limit": None})}
    assert lines["game"].value == "101 Okey"
    assert lines["hands"].value == "11 el" and lines["pairs_layoff_limit"].value == "Sınırsız"
    assert "players" not in lines and "stake" not in lines
    assert option_badges({**RULES101, "hands": 11, "islek_penalty": False}) == [
        "Maçtaki el sayısı: 11 el", "İşlek taş atma cezası kapalı"]
    assert option_badges(RULES101) == []


@pytest.mark.parametrize(("language", "words"), [
    ("tr", ["101 Okey", "Normal bitiş", "Okey atarak bitiş", "Çiftle açıp okey atarak bitiş",
            "Okey atmak: +101 ceza puanı", "Elden bitme", "Eşli 101", "Hiç açmayanın cezası", "Yükselen açma"]),
    ("en", ["101 Okey", "Normal finish", "Okey finish", "Okey finish after opening with pairs",
            "Discarding an okey: +101 penalty points", "Going out in one turn", "101 with partners",
            "Penalty for never opening", "Rising opening"]),
])
def test_the_sites_rules_page_has_a_101_section(language, words):
    response = client_in(language).get("/rules/")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="okey101"' in html
    section = text_of(html[html.index('id="okey101"'):])
    for word in words:
        assert word in section, word
    # Rule 11's three examples, by the engine, row by row (finisher, K1 K2, never opened, okey + Y4).
    rows = re.findall(r"<tr><th scope=\"row\">[^<]*</th>((?:<td>-?\d+</td>){3})</tr>", html)
    assert [re.findall(r"-?\d+", row) for row in rows] == [
        ["-101", "-202", "-404"], ["3", "6", "12"], ["202", "404", "808"], ["105", "210", "420"]]
    # Elden bitme and eşli with their figures.
    assert "−202" in section or "-202" in section
    assert "-101" in section and "108" in section
    # Every 101 option in its own table.
    for name in rules101_catalog.rule101_field_names():
        assert f'data-rule="{name}" data-game="okey101"' in html


@pytest.mark.parametrize(("language", "words"), [
    ("tr", ["101 Okey", "Maçtaki el sayısı", "5 el", "İşlek taş atmak", "kapalı", "Elden bitme"]),
    ("en", ["101 Okey", "Hands per match", "5 hands", "Discarding a tile that could be laid off", "off",
            "Going out in one turn"]),
])
def test_a_101_rooms_rules_page(language, words):
    room = make_room(rules={**RULES101, "hands": 5, "islek_penalty": False, "unopened_penalty": 303})
    response = client_in(language).get(f"/rooms/{room.pk}/rules/")
    assert response.status_code == 200
    text = text_of(response.content.decode())
    for word in words:
        assert word in text, word
    # The room's own unopened penalty in the examples: 303, ×2, ×4.
    html = response.content.decode()
    assert re.search(r"<td>303</td><td>606</td><td>1212</td>", html)


def test_a_classic_rooms_rules_page_is_unchanged():
    room = make_room()
    text = text_of(Client().get(f"/rooms/{room.pk}/rules/").content.decode())
    assert "Geri sayım (klasik salon)" in text and "Çiftle açıp okey atarak bitiş" not in text
