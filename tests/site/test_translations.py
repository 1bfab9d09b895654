"""The English catalogue is the one place English lives: every Turkish source string must be in it,
translated, and not fuzzy. The check re-extracts the strings from the source tree into a copy of the
catalogue (as `makemessages` would), so a string added without its translation fails here."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command

CATALOGUE = Path(settings.BASE_DIR) / "locale" / "en" / "LC_MESSAGES" / "django.po"


def entries(po_text: str) -> list[dict]:
    """A small .po reader: each entry's flags, msgid and msgstr(s), with continuation lines joined."""
    found = []
    for block in po_text.split("\n\n"):
        lines = [line for line in block.splitlines() if line and not line.startswith("#~")]
        if not any(line.startswith("msgid ") for line in lines):
            continue
        entry: dict = {"flags": "", "msgid": "", "msgstr": []}
        field = None
        for line in lines:
            if line.startswith("#,"):
                entry["flags"] += line
            elif line.startswith("#"):
                continue
            elif m := re.match(r'^(msgid|msgid_plural|msgctxt|msgstr(?:\[\d\])?) "(.*)"$', line):
                field = m.group(1)
                if field.startswith("msgstr"):
                    entry["msgstr"].append(m.group(2))
                else:
                    entry[field] = m.group(2)
            elif line.startswith('"') and field:
                if field.startswith("msgstr"):
                    entry["msgstr"][-1] += line[1:-1]
                else:
                    entry[field] = entry.get(field, "") + line[1:-1]
        found.append(entry)
    return found


def problems(po_text: str) -> list[str]:
    bad = []
    for entry in entries(po_text):
        if entry["msgid"] == "":  # the header
            continue
        if "fuzzy" in entry["flags"]:
            bad.append(f"fuzzy: {entry['msgid']!r}")
        elif not all(entry["msgstr"]):
            bad.append(f"untranslated: {entry['msgid']!r}")
    return bad


def test_the_reader_sees_untranslated_and_fuzzy_entries():
    sample = (
        'msgid ""\nmsgstr ""\n"Language: en\\n"\n\n'
        'msgid "Otur"\nmsgstr ""\n\n'
        '#, fuzzy\nmsgid "Kalk"\nmsgstr "Stand"\n\n'
        'msgid "%(n)s oda"\nmsgid_plural "%(n)s oda"\nmsgstr[0] "%(n)s room"\nmsgstr[1] ""\n\n'
        'msgid "Boş"\nmsgstr ""\n"Empty"\n'
    )
    assert problems(sample) == ["untranslated: 'Otur'", "fuzzy: 'Kalk'", "untranslated: '%(n)s oda'"]


@pytest.mark.parametrize("language", ["en", "tr"])
def test_committed_catalogues_have_no_untranslated_or_fuzzy_entry(language):
    """English holds every source string; Turkish holds our wording of allauth's and Django's own."""
    catalogue = Path(settings.BASE_DIR) / "locale" / language / "LC_MESSAGES" / "django.po"
    assert catalogue.exists()
    assert problems(catalogue.read_text(encoding="utf-8")) == []


def test_every_source_string_is_in_the_catalogue(tmp_path, settings, monkeypatch):
    """Extract in a copy of the tree: makemessages writes to the catalogue beside the files it reads."""
    assert shutil.which("xgettext"), "GNU gettext is needed (apt-get install gettext)"
    base = Path(settings.BASE_DIR)
    tree = tmp_path / "tree"
    skip = shutil.ignore_patterns(".venv", ".git", "node_modules", "staticfiles", "screenshots", "__pycache__", "*.sqlite3")
    shutil.copytree(base, tree, ignore=skip)
    monkeypatch.chdir(tree)
    settings.LOCALE_PATHS = [tree / "locale"]
    call_command(
        "makemessages", locale=["en"], verbosity=0, no_obsolete=True,
        ignore_patterns=["tests/*", "bench/*"],
    )
    assert problems((tree / "locale" / "en" / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")) == []
