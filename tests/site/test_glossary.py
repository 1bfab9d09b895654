"""One Turkish for the game (issue 19, item 11): every word a player reads follows
``docs/glossary.md``. A Turkish source string — any ``msgid`` of the catalogue, any template — with a
variant the glossary forbids fails here, and so does an English ``msgstr`` with a forbidden English
variant. The glossary is the one list: adding a forbidden variant there is all this test needs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.site.test_translations import entries

ROOT = Path(__file__).resolve().parents[2]
GLOSSARY = ROOT / "docs" / "glossary.md"
CATALOGUE = ROOT / "locale" / "en" / "LC_MESSAGES" / "django.po"
TEMPLATE_DIRS = ["templates", "games/templates", "salons/templates", "accounts/templates",
                 "tournaments/templates", "moderation/templates"]
# Strings about the site itself, not the game: the error page may say the server failed.
NOT_GAME_TEXT = ("Sunucuda beklenmedik bir hata", "Something unexpected went wrong on the server")


def forbidden() -> tuple[list[tuple[str, re.Pattern]], list[tuple[str, re.Pattern]]]:
    """(Turkish, English) forbidden variants from the glossary's last two columns."""
    turkish, english = [], []
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 5 or cells[0] in ("Türkçe", "---"):
            continue
        for cell, into in ((cells[3], turkish), (cells[4], english)):
            for variant in re.findall(r"`([^`]+)`", cell):
                prefix = variant.endswith("…")
                word = re.escape(variant.rstrip("…"))
                into.append((variant, re.compile(rf"(?<!\w){word}" + ("" if prefix else r"(?!\w)"), re.IGNORECASE)))
    return turkish, english


def template_texts() -> list[tuple[str, str]]:
    texts = []
    for folder in TEMPLATE_DIRS:
        for path in sorted((ROOT / folder).rglob("*.html")):
            texts.append((str(path.relative_to(ROOT)), path.read_text(encoding="utf-8")))
    return texts


def test_the_glossary_forbids_the_variants_the_issue_names():
    turkish, english = forbidden()
    names = {variant for variant, _ in turkish}
    for variant in ("sıralı seri", "grup", "perde…", "Per diz", "göstergeyi göster…", "sunucu", "sayma",
                    "Puan (rating)", "en iyi derece", "taahhü…", "%(name)s turnuvanız"):
        assert variant in names
    assert english


@pytest.mark.parametrize("text, hit", [
    ("Bir perdeki okey sayısı", "perde…"), ("%(name)s göstergeyi gösterdi", "göstergeyi göster…"),
    ("(süre doldu, sunucu oynadı)", "sunucu"), ("perlerle (seri ve grup)", "grup"),
    ("Sayma (20'den sıfıra)", "sayma"), ("Gece Turnuvası", None), ("Puanınız saymaz", None), ("seri ve perlerle", None),
])
def test_the_check_finds_what_it_should_and_nothing_else(text, hit):
    turkish, _ = forbidden()
    found = [variant for variant, pattern in turkish if pattern.search(text)]
    assert found == ([hit] if hit else [])


def test_no_turkish_source_string_uses_a_forbidden_variant():
    turkish, _ = forbidden()
    catalogue = entries(CATALOGUE.read_text(encoding="utf-8"))
    sources = [(f"msgid {entry['msgid'][:60]!r}", entry["msgid"]) for entry in catalogue]
    sources += [(f"msgid_plural {entry['msgid_plural'][:60]!r}", entry["msgid_plural"]) for entry in catalogue
                if entry.get("msgid_plural")]
    sources += template_texts()
    bad = [f"{where}: {variant}" for where, text in sources if not text.startswith(NOT_GAME_TEXT)
           for variant, pattern in turkish if pattern.search(text)]
    assert not bad, "not the glossary's words (docs/glossary.md):\n" + "\n".join(bad)


def test_no_english_string_uses_a_forbidden_variant():
    _, english = forbidden()
    catalogue = entries(CATALOGUE.read_text(encoding="utf-8"))
    bad = [f"{text[:60]!r}: {variant}" for entry in catalogue for text in entry["msgstr"]
           if not text.startswith(NOT_GAME_TEXT)
           for variant, pattern in english if pattern.search(text)]
    assert not bad, "not the glossary's words (docs/glossary.md):\n" + "\n".join(bad)
