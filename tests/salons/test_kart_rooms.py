"""Kart Okey rooms (RULES.md "Kart Okey (source 004: a 52-card rummy)"): a player opens a room of
2, 3 or 4 seats from the room form's third game; Kart Okey's options come from its own catalogue and
the engine (``RulesKart`` through the game type) refuses what it will not play, in words, next to
the option at fault; the room stores ``{"game": "kart", …}`` and seats ``players`` a table; the
lists show a Kart Okey badge and filter by it; the rules pages explain the game, with rule 9's
prize example worked out by the engine.

The cases marked "en" read the English catalogue: they pass once the lead has merged
/tmp/kart_salons_en.json into locale/en and compiled it."""

from __future__ import annotations

import re
from dataclasses import fields
from html import unescape

import pytest
from django.test import Client

from accounts.errors import ServiceError
from games.engine.kart.rules import RulesKart
from games.engine.kart.scoring import prize_split
from games.engine.rules import RuleSet
from salons import quickplay, rules_kart_catalog, selectors, services
from salons.forms import RoomForm
from salons.models import Room, Seat
from salons.rules_catalog import describe_rules, option_badges, plain_rules
from tests.conftest import make_player, make_room, make_salon
from tests.salons.test_okey101_listings import rows_of
from tests.salons.test_okey101_rooms import form101_data
from tests.site.test_salon_views import room_form_data

pytestmark = pytest.mark.django_db


def kart(**options):
    """What a Kart Okey room stores: the game, then every option as the engine writes it."""
    return {"game": "kart", **RulesKart(**options).to_dict()}


def form_kart_data(**overrides):
    """What the page sends for Kart Okey with its script: the chosen game's fieldset only."""
    data = {
        "game": "kart",
        "name": "Kart Keyfi",
        "turn_seconds": "30",
        "table_count": "2",
        "rulekart_players": "4",
        "rulekart_decks": "auto",
        "rulekart_rounds": "1",
        "rulekart_prize_pool": "0",
    }
    data.update(overrides)
    return {key: value for key, value in data.items() if value is not None}


def text_of(html: str) -> str:
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


def client_in(language: str) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.cookies["django_language"] = language
    return client


def signed_in(language: str = "tr") -> Client:
    client = client_in(language)
    client.force_login(make_player())
    return client


# -- the form ---------------------------------------------------------------------------------------


def test_every_kart_option_is_described_and_in_the_form_after_the_other_games():
    assert rules_kart_catalog.undescribed_fields() == []
    form = RoomForm()
    assert [value for value, _label in form.fields["game"].choices] == ["okey", "okey101", "kart"]
    assert [name for name in form.fields if name.startswith("rulekart_")] == [
        "rulekart_" + field.name for field in fields(RulesKart)]
    assert [value for value, _label in form.fields["rulekart_players"].choices] == ["2", "3", "4"]
    assert [value for value, _label in form.fields["rulekart_decks"].choices] == ["auto", "1", "2"]
    assert [value for value, _label in form.fields["rulekart_rounds"].choices] == ["1", "2", "3"]
    # A new room starts at four players, decks by the table size, one round and no prize pool.
    assert (form["rulekart_players"].value(), form["rulekart_decks"].value(), form["rulekart_rounds"].value(),
            form["rulekart_prize_pool"].value()) == ("4", "auto", "1", 0)


def test_the_form_gives_the_engines_shape_for_kart():
    form = RoomForm(form_kart_data(rulekart_players="3", rulekart_rounds="2", rulekart_prize_pool="50"))
    assert form.is_valid(), form.errors
    assert form.rules_data() == {"game": "kart", "players": 3, "decks": None, "rounds": 2, "prize_pool": 50}
    # Choices left out (a partial request) are the engine's defaults.
    short = RoomForm({"game": "kart", "name": "Kısa", "turn_seconds": "20", "table_count": "1"})
    assert short.is_valid(), short.errors
    assert short.rules_data() == {"game": "kart", "players": 4, "decks": None, "rounds": 1, "prize_pool": 0}


@pytest.mark.parametrize(("players", "decks", "stored_decks"), [("2", "auto", 1), ("3", "auto", 1), ("4", "auto", 2),
                                                                 ("4", "1", 1), ("3", "1", 1)])
def test_opening_a_kart_room_of_2_3_or_4_through_the_page(players, decks, stored_decks):
    salon = make_salon()
    client = signed_in()
    response = client.post(f"/salons/{salon.slug}/rooms/new/",
                           form_kart_data(rulekart_players=players, rulekart_decks=decks, rulekart_rounds="3",
                                          rulekart_prize_pool="120"))
    assert response.status_code == 302, response.context["form"].errors if response.context else response
    room = Room.objects.get()
    assert room.rules == {"game": "kart", "players": int(players), "decks": stored_decks, "rounds": 3, "prize_pool": 120}
    assert room.rule_set == RulesKart(players=int(players), decks=stored_decks, rounds=3, prize_pool=120)
    assert room.players == int(players)
    assert room.tables.count() == 2
    for table in room.tables.all():
        assert list(table.seats.order_by("position").values_list("position", flat=True)) == list(range(int(players)))
    # A Kart hand pays no chips: nobody needs chips to sit down.
    assert room.chip_cover == 0


@pytest.mark.parametrize(("language", "field", "value", "expected"), [
    ("tr", "rulekart_decks", "2", "Deste sayısı 1 ya da 2 olur; iki deste yalnızca 4 kişilik masada oynanır."),
    ("en", "rulekart_decks", "2", "A table plays 1 or 2 decks; two decks only at a table of 4."),
])
def test_two_decks_at_a_table_of_three_are_refused_next_to_the_decks(language, field, value, expected):
    salon = make_salon()
    response = signed_in(language).post(f"/salons/{salon.slug}/rooms/new/",
                                        form_kart_data(rulekart_players="3", **{field: value}))
    assert response.status_code == 200
    assert response.context["form"].errors[field] == [expected]
    assert expected in response.content.decode()
    assert Room.objects.count() == 0


@pytest.mark.parametrize(("language", "field", "value", "expected"), [
    ("tr", "rulekart_players", "5", "Kart Okey 2, 3 ya da 4 kişiyle oynanır."),
    ("tr", "rulekart_players", "1", "Kart Okey 2, 3 ya da 4 kişiyle oynanır."),
    ("tr", "rulekart_decks", "3", "Deste sayısı 1 ya da 2 olur; iki deste yalnızca 4 kişilik masada oynanır."),
    ("tr", "rulekart_rounds", "4", "Kart Okey masası 1, 2 ya da 3 el sürer."),
    ("tr", "rulekart_prize_pool", "-1", "Ödül havuzu 0 ile 1000000 çip arasında bir tam sayı olmalı."),
    ("tr", "rulekart_prize_pool", "yüz", "Ödül havuzu 0 ile 1000000 çip arasında bir tam sayı olmalı."),
    ("tr", "rulekart_prize_pool", "1000001", "Ödül havuzu 0 ile 1000000 çip arasında bir tam sayı olmalı."),
    ("en", "rulekart_players", "5", "Rummy is played by 2, 3 or 4 players."),
    ("en", "rulekart_rounds", "4", "A Rummy table lasts 1, 2 or 3 hands."),
    ("en", "rulekart_prize_pool", "-1", "The prize pool is a whole number of chips from 0 to 1000000."),
])
def test_a_bad_kart_value_is_refused_in_words_next_to_the_field(language, field, value, expected):
    salon = make_salon()
    response = signed_in(language).post(f"/salons/{salon.slug}/rooms/new/", form_kart_data(**{field: value}))
    assert response.status_code == 200
    assert response.context["form"].errors[field] == [expected]
    assert expected in response.content.decode()
    assert Room.objects.count() == 0


def test_a_page_without_its_script_sends_every_games_fields_and_kart_still_opens():
    """Without JavaScript every fieldset is sent: classic's (its table size of 4 among them) and
    101's do not count for Kart Okey, which has a table size of its own."""
    salon = make_salon()
    data = {**room_form_data(rule_start_points=""), **form101_data(rule101_hands="4"),
            **form_kart_data(rulekart_players="3")}
    response = signed_in().post(f"/salons/{salon.slug}/rooms/new/", data)
    assert response.status_code == 302
    room = Room.objects.get()
    assert room.rules == kart(players=3)
    assert Seat.objects.filter(table__room=room).count() == 2 * 3


def test_chips_asked_for_kart_are_refused_in_words():
    salon = make_salon()
    response = signed_in().post(f"/salons/{salon.slug}/rooms/new/",
                                {**room_form_data(rule_scoring="chips"), **form_kart_data()})
    assert response.status_code == 200
    assert response.context["form"].errors["rule_scoring"] == [
        "Kart Okey'de elde çip ödenmez: ceza puanıyla oynanır; çip yalnızca masanın sonunda ödül havuzundan dağıtılır."]
    assert Room.objects.count() == 0


def test_the_form_has_a_kart_fieldset_with_its_own_table_size():
    salon = make_salon()
    page = signed_in().get(f"/salons/{salon.slug}/rooms/new/").content.decode()
    start = page.index('<fieldset data-game="kart"')
    fieldset = page[start:page.index("</fieldset>", start)]
    for name in ("rulekart_players", "rulekart_decks", "rulekart_rounds", "rulekart_prize_pool"):
        assert f'name="{name}"' in fieldset
    assert 'name="rule_players"' not in fieldset and 'name="rule_scoring"' not in fieldset
    assert 'data-rule="decks"' in fieldset and 'data-option-players="2:4"' in fieldset
    assert '<option value="kart">Kart Okey</option>' in page


@pytest.mark.parametrize("data", [
    {"rulekart_players": "x" * 500}, {"rulekart_decks": "None"}, {"rulekart_decks": ""}, {"rulekart_rounds": "1.5"},
    {"rulekart_prize_pool": "1e9"}, {"rulekart_prize_pool": "٣"}, {"game": ["kart", "okey101"]},
])
def test_nonsense_is_refused_or_read_without_a_500(data):
    salon = make_salon()
    response = signed_in().post(f"/salons/{salon.slug}/rooms/new/", {**form_kart_data(), **data})
    assert response.status_code in (200, 302)
    # Whatever opened plays rules its game type reads (two games sent: the form reads the last).
    for room in Room.objects.all():
        assert room.rule_set is not None and room.rules["game"] in ("kart", "okey101")


def test_a_game_not_offered_is_refused_in_words():
    salon = make_salon()
    response = signed_in().post(f"/salons/{salon.slug}/rooms/new/", {**form_kart_data(), "game": "tavla"})
    assert response.status_code == 200
    assert response.context["form"].errors["game"] == ["Oyun Okey, 101 Okey ya da Kart Okey olmalı."]


# -- the service -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("rules", "words"), [
    ({"game": "kart", "players": 5}, "Kart Okey 2, 3 ya da 4 kişiyle oynanır."),
    ({"game": "kart", "players": "3"}, "Kart Okey 2, 3 ya da 4 kişiyle oynanır."),
    ({"game": "kart", "players": 3, "decks": 2}, "iki deste yalnızca 4 kişilik masada oynanır"),
    ({"game": "kart", "rounds": 5}, "Kart Okey masası 1, 2 ya da 3 el sürer."),
    ({"game": "kart", "prize_pool": -5}, "Ödül havuzu 0 ile 1000000 çip arasında"),
    ({"game": "kart", "scoring": "chips", "stake": 50}, "Kart Okey'de elde çip ödenmez"),
    ({"game": "kart", "partners": True}, "Kart Okey eşli oynanmaz"),
    ({"game": "kart", "jokers": 2}, "Kart Okey'de “jokers” diye bir seçenek yok."),
])
def test_the_service_refuses_what_the_engine_will_not_play_in_words(rules, words):
    with pytest.raises(ServiceError) as refused:
        make_room(rules=rules)
    assert refused.value.code == "bad_rules"
    assert words in refused.value.message
    assert Room.objects.count() == 0


def test_the_service_stores_the_game_types_rules_and_seats_by_players():
    salon = make_salon(min_stake=100, max_stake=200)
    # The salon's stake limits are about classic chip stakes: a Kart prize pool is not one.
    duo = make_room(salon=salon, rules={"game": "kart", "players": 2, "prize_pool": 5000}, table_count=3)
    assert duo.rules == {"game": "kart", "players": 2, "decks": 1, "rounds": 1, "prize_pool": 5000}
    assert [table.seats.count() for table in duo.tables.all()] == [2, 2, 2]
    trio = make_room(salon=salon, rules=RulesKart(players=3, rounds=2), name="Üçlü kart")
    assert trio.rules == kart(players=3, rounds=2) and trio.players == 3
    quartet = make_room(salon=salon, rules=kart(), name="Dörtlü kart")
    assert quartet.rules["decks"] == 2 and quartet.tables.get().seats.count() == 4


def test_editing_a_kart_room_keeps_its_game_and_a_new_size_reseats_its_tables():
    owner = make_player()
    room = make_room(owner=owner, rules=kart(players=4, decks=1, rounds=2), table_count=2)
    client = client_in("tr")
    client.force_login(owner)
    page = client.get(f"/rooms/{room.pk}/edit/")
    form = page.context["form"]
    assert form["game"].value() == "kart"
    assert (form["rulekart_players"].value(), form["rulekart_decks"].value(), form["rulekart_rounds"].value()) == (
        "4", "1", "2")
    assert '<option value="kart" selected>' in page.content.decode()
    response = client.post(f"/rooms/{room.pk}/edit/",
                           form_kart_data(name="Yeni ad", rulekart_players="2", rulekart_rounds="2"))
    assert response.status_code == 302
    room.refresh_from_db()
    assert room.name == "Yeni ad" and room.rules == kart(players=2, rounds=2)
    assert [table.seats.count() for table in room.tables.all()] == [2, 2]
    # And to classic Okey: four seats again, a rule set naming no game.
    services.update_room(user=owner, room=room, name=room.name, rules=RuleSet().to_dict(),
                         turn_seconds=room.turn_seconds, is_private=False)
    room.refresh_from_db()
    assert "game" not in room.rules and [table.seats.count() for table in room.tables.all()] == [4, 4]


def test_a_kart_rules_change_waits_for_empty_seats():
    owner = make_player()
    room = make_room(owner=owner, rules=kart(players=3))
    services.take_seat(user=make_player(), table=room.tables.get(), position=2)
    same = services.update_room(user=owner, room=room, name="Ad değişti", rules=kart(players=3),
                                turn_seconds=room.turn_seconds, is_private=False)
    assert same.name == "Ad değişti"
    with pytest.raises(ServiceError) as refused:
        services.update_room(user=owner, room=room, name="Ad değişti", rules=kart(players=2),
                             turn_seconds=room.turn_seconds, is_private=False)
    assert refused.value.code == "seats_taken"
    assert Room.objects.get(pk=room.pk).players == 3


# -- the lists ---------------------------------------------------------------------------------------


def test_the_summary_names_the_game_and_its_table_size():
    summary = selectors.room_summary_for(make_room(name="Kart oda", rules=kart(players=3, prize_pool=40)))
    assert (summary["game"], summary["game_label"], summary["scoring"], summary["scoring_label"]) == (
        "kart", "Kart Okey", None, "")
    assert summary["players"] == 3 and summary["stake"] is None and summary["free_seats"] == 3


@pytest.mark.parametrize("path", ["/salons/genel/", "/salons/genel/rooms/"])
def test_the_salon_list_shows_a_kart_badge(path):
    salon = make_salon("genel")
    make_room(salon=salon, name="Klasik oda")
    make_room(salon=salon, name="Kart oda", rules=kart(players=3, rounds=2, prize_pool=40))
    rows = rows_of(Client().get(path).content.decode())
    assert 'data-testid="game-badge">Kart Okey</span>' in rows["Kart oda"]
    assert "3 kişilik" in rows["Kart oda"] and "Masadaki el sayısı: 2 el" in rows["Kart oda"]
    assert "Ödül havuzu 40 çip" in rows["Kart oda"]
    assert 'data-game="kart"' in rows["Kart oda"] and "None" not in rows["Kart oda"]
    assert "game-badge" not in rows["Klasik oda"]


def test_the_badge_in_english():
    salon = make_salon("genel")
    make_room(salon=salon, name="Kart oda", rules=kart(rounds=3))
    rows = rows_of(client_in("en").get("/salons/genel/").content.decode())
    assert 'data-testid="game-badge">Rummy</span>' in rows["Kart oda"]
    assert "Hands per table: 3 hands" in rows["Kart oda"]


def test_the_filter_picks_kart_and_its_table_sizes():
    salon = make_salon("genel")
    make_room(salon=salon, name="Klasik oda")
    make_room(salon=salon, name="İkili klasik", rules=RuleSet(players=2).to_dict())
    make_room(salon=salon, name="Yüzbir oda", rules={"game": "okey101"})
    make_room(salon=salon, name="Üçlü kart", rules=kart(players=3))
    make_room(salon=salon, name="Dörtlü kart", rules=kart())
    make_room(salon=salon, name="İkili kart", rules=kart(players=2))
    client = Client()

    def names(**query):
        return sorted(room["name"] for room in client.get("/salons/genel/", query).context["rooms"])

    assert names(game="kart") == ["Dörtlü kart", "Üçlü kart", "İkili kart"]
    assert names(game="kart", players="3") == ["Üçlü kart"]
    assert names(players="3") == ["Üçlü kart"]
    assert names(players="2") == ["İkili kart", "İkili klasik"]
    assert names(players="4") == ["Dörtlü kart", "Klasik oda", "Yüzbir oda"]
    assert names(game="okey") == ["Klasik oda", "İkili klasik"]
    # A scoring preset is classic Okey's: no Kart room has one.
    assert names(scoring="countdown") == ["Klasik oda", "İkili klasik"]
    assert '<option value="kart">Kart Okey</option>' in client.get("/salons/genel/").content.decode()


def test_quick_play_never_seats_anyone_at_a_kart_table():
    salon = make_salon("genel")
    room = make_room(salon=salon, name="Kart oda", rules=kart(players=2))
    services.take_seat(user=make_player(), table=room.tables.get(), position=0)
    seated = quickplay.quick_play(user=make_player())
    assert seated.table.room_id != room.pk and "game" not in seated.table.room.rules


def test_the_room_admin_shows_and_filters_the_game_and_words_bad_kart_json():
    from salons.admin import RoomAdminForm

    admin_user = make_player("yonetici", is_staff=True, is_superuser=True)
    salon = make_salon("genel")
    make_room(salon=salon, name="Klasik oda")
    make_room(salon=salon, name="Kart oda", rules=kart(players=3))
    client = Client()
    client.force_login(admin_user)
    listing = client.get("/admin/salons/room/", {"game": "kart"})
    assert listing.status_code == 200
    names = [room.name for room in listing.context["cl"].result_list]
    assert names == ["Kart oda"]
    assert "Kart Okey" in listing.content.decode()
    room = Room.objects.get(name="Kart oda")
    data = {"salon": salon.pk, "owner": room.owner_id, "name": room.name, "rules": '{"game": "kart", "players": 3, '
            '"decks": 2}', "turn_seconds": 20, "status": "open", "bot_fill_seconds": 0}
    form = RoomAdminForm(data=data, instance=room)
    assert not form.is_valid()
    assert form.errors["rules"] == ["Deste sayısı 1 ya da 2 olur; iki deste yalnızca 4 kişilik masada oynanır."]


# -- the rules pages and the preview -----------------------------------------------------------------


def test_rule9s_example_is_the_engines_split():
    example = rules_kart_catalog.prize_example()
    assert [row["share"] for row in example["rows"]] == prize_split(100, [0, 10, 30, 95], [0]) == [76, 14, 10, 0]
    assert [row["weight"] for row in example["rows"]] == ["—", "70", "50", "—"]
    # A room's own pool and limit (three hands: 240) when it has a pool.
    own = rules_kart_catalog.prize_example(RulesKart(rounds=3, prize_pool=1000))
    assert own["limit"] == 240
    assert [row["share"] for row in own["rows"]] == prize_split(1000, [0, 10, 30, 95], [0], limit=240)
    assert sum(row["share"] for row in own["rows"]) == 1000


def test_the_hand_example_writes_the_cards_left_and_the_rummy_25():
    rows = rules_kart_catalog.example_rows()
    # K7 + queen of spades 17; ace of clubs, 3 and 9 of diamonds 23; 2 of spades 2; +25 each for rummy.
    assert [row["scores"] for row in rows] == [[0, 0], [17, 42], [23, 48], [2, 27]]


def test_a_kart_room_has_its_own_rule_lines_badges_and_preview():
    lines = {line.name: line for line in describe_rules(kart(players=3, rounds=2, prize_pool=50))}
    assert lines["game"].value == "Kart Okey"
    assert (lines["players"].value, lines["decks"].value, lines["rounds"].value, lines["prize_pool"].value) == (
        "3 kişi", "Tek deste (52 kart)", "2 el", "50 çip")
    assert "scoring" not in lines and "stake" not in lines
    assert option_badges(kart()) == [] and option_badges(kart(players=2)) == []
    assert option_badges(kart(decks=1, rounds=3)) == ["Deste: Tek deste (52 kart)", "Masadaki el sayısı: 3 el"]
    preview = plain_rules(kart(players=3, rounds=2, prize_pool=50), turn_seconds=30)
    assert "Kart Okey, 3 kişilik masa, tek deste (52 kart): herkese 10 kart." in preview
    assert "Masa 2 el sürer; toplamı en düşük olan kazanır." in preview
    assert any("160 ceza puanının altında" in line for line in preview)
    assert any("30 saniyesi" in line for line in preview)


@pytest.mark.parametrize(("language", "words"), [
    ("tr", ["Kart Okey, 4 kişilik masa, iki deste (104 kart): herkese 10 kart.", "Masa 3 el sürer"]),
    ("en", ["Rummy, a table of 4, two decks (104 cards): 10 cards each.", "The table lasts 3 hands"]),
])
def test_the_preview_endpoint_answers_for_kart(language, words):
    response = client_in(language).get("/rules/preview/", {
        "game": "kart", "rulekart_players": "4", "rulekart_decks": "auto", "rulekart_rounds": "3",
        "name": "Önizleme", "table_count": "1", "turn_seconds": "20"})
    assert response.status_code == 200
    text = text_of(response.content.decode())
    for word in words:
        assert word in text, word


def test_a_broken_kart_preview_still_answers_with_what_is_valid():
    # Two decks at three players is refused: the preview keeps the three players, with their one deck.
    response = Client().get("/rules/preview/", {"game": "kart", "rulekart_players": "3", "rulekart_decks": "2"})
    assert response.status_code == 200
    assert "Kart Okey, 3 kişilik masa, tek deste (52 kart)" in text_of(response.content.decode())
    nonsense = Client().get("/rules/preview/", {"game": "kart", "rulekart_players": "9", "rulekart_rounds": "x"})
    assert nonsense.status_code == 200
    assert "Kart Okey, 4 kişilik masa, iki deste (104 kart)" in text_of(nonsense.content.decode())


@pytest.mark.parametrize(("language", "words"), [
    ("tr", ["Kart Okey", "Seri: aynı türden en az 3 ardışık kart", "Per: aynı sayıdan ya da resimden",
            "vale (J), kız (Q) ve papaz (K) 10; as 11", "Okey yapmak", "+25", "Deste ikinci kez biterse",
            "yerden aldığınız kartı aynı turda atamazsınız", "Ödül havuzu", "Kart Okey oda seçenekleri",
            "Oyuncu sayısına göre (4 kişide iki deste)"]),
    ("en", ["Rummy", "Run: at least 3 cards in a row of one suit", "Set: 3 or 4 cards of one rank",
            "jack (J), queen (Q) and king (K) 10; ace 11", "Going rummy", "+25", "runs out a second time",
            "a card taken from the discard pile cannot be discarded in the same turn", "Prize pool",
            "Rummy room options", "By the table size (two decks for 4)"]),
])
def test_the_sites_rules_page_has_a_kart_section(language, words):
    response = client_in(language).get("/rules/")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'href="#kart"' in html
    section_html = html[html.index('id="kart"'):]
    section_html = section_html[:section_html.index("</section>")]
    section = text_of(section_html)
    for word in words:
        assert word in section, word
    # Rule 8's example (normal and rummy) and rule 9's pool of 100 → 76 / 14 / 10 / 0, row by row.
    hands = re.findall(r"<tr><th scope=\"row\">[^<]*</th><td>(\d+)</td><td>(\d+)</td></tr>", section_html)
    assert hands == [("0", "0"), ("17", "42"), ("23", "48"), ("2", "27")]
    prizes = re.findall(r'<tr data-testid="prize-row"><th scope="row">[^<]*</th><td>(\d+)</td><td>[^<]*</td>'
                        r"<td>(\d+)</td></tr>", section_html)
    assert prizes == [("0", "76"), ("10", "14"), ("30", "10"), ("95", "0")]
    for name in rules_kart_catalog.rulekart_field_names():
        assert f'data-rule="{name}" data-game="kart"' in section_html
    # Developer words stay off the players' page.
    assert "RulesKart" not in section and "None" not in section


@pytest.mark.parametrize(("language", "words"), [
    ("tr", ["Kart Okey", "Oyuncu sayısı", "3 kişi", "Tek deste (52 kart)", "2 el", "60 çip",
            "Bu masanın ödül havuzu 60 çip.", "Hamle süresi: 20 saniye."]),
    ("en", ["Rummy", "Players", "3 players", "One deck (52 cards)", "2 hands", "60 chips",
            "This table's prize pool is 60 chips.", "Turn time: 20 seconds."]),
])
def test_a_kart_rooms_rules_page(language, words):
    room = make_room(rules=kart(players=3, rounds=2, prize_pool=60))
    response = client_in(language).get(f"/rooms/{room.pk}/rules/")
    assert response.status_code == 200
    html = response.content.decode()
    text = text_of(html)
    for word in words:
        assert word in text, word
    # The room's own pool of 60 at two hands (limit 160), by the engine.
    expected = prize_split(60, [0, 10, 30, 95], [0], limit=160)
    shares = re.findall(r'<tr data-testid="prize-row"><th scope="row">[^<]*</th><td>\d+</td><td>[^<]*</td>'
                        r"<td>(\d+)</td></tr>", html)
    assert [int(share) for share in shares] == expected
    assert 'href="/rules/#kart"' in html
