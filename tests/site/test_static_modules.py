"""The table page is native ES modules (issue 20, no build step). Released with hashed names, every
module must import the others by their hashed names (``okeysite.static_storage``), and every page
must load a module as a module."""

from __future__ import annotations

import json
import posixpath
import re
from pathlib import Path

from django.conf import settings
from django.core.management import call_command

ROOT = Path(settings.BASE_DIR)
IMPORT = re.compile(r"""^\s*(?:import|export)\b[^;]*?\bfrom\s*["']([^"']+)["']\s*;""", re.M | re.S)


def modules() -> list[Path]:
    return [path for path in (ROOT / "static" / "js").rglob("*.js") if IMPORT.search(path.read_text(encoding="utf-8"))
            or re.search(r"^export ", path.read_text(encoding="utf-8"), re.M)]


def test_the_table_replay_and_guest_practice_are_modules_sharing_one_tile_drawing():
    sources = {path.relative_to(ROOT / "static").as_posix(): path.read_text(encoding="utf-8") for path in modules()}
    for page in ("js/table.js", "js/replay.js", "js/guest_practice.js"):
        assert page in sources, f"{page} is not a module"
        assert 'from "./tiles.js";' in sources[page]
    assert "window.OkeyTiles" not in "".join(sources.values())


def test_every_template_loads_a_module_as_a_module():
    names = {path.relative_to(ROOT / "static").as_posix() for path in modules()}
    bad = []
    for template in ROOT.glob("**/templates/**/*.html"):
        if ".venv" in template.parts:
            continue
        for tag in re.findall(r"<script[^>]*\{% static '([^']+)' %\}[^>]*>", template.read_text(encoding="utf-8")):
            line = next(line for line in template.read_text(encoding="utf-8").splitlines() if f"'{tag}'" in line)
            if tag in names and 'type="module"' not in line:
                bad.append(f"{template.relative_to(ROOT)}: {tag}")
    assert not bad, bad


def test_released_modules_import_each_other_by_their_hashed_names(tmp_path, settings):
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {**settings.STORAGES,
                         "staticfiles": {"BACKEND": "okeysite.static_storage.ModuleAwareStaticFilesStorage"}}
    call_command("collectstatic", "--noinput", verbosity=0)
    manifest = json.loads((tmp_path / "staticfiles.json").read_text())["paths"]
    checked = 0
    sources = [name for name in manifest if name.startswith("js/") and name.endswith(".js")]
    for source in sources:
        hashed = (tmp_path / manifest[source]).read_text(encoding="utf-8")
        for target in IMPORT.findall(hashed):
            resolved = posixpath.normpath(posixpath.join(posixpath.dirname(manifest[source]), target))
            assert resolved in manifest.values(), f"{source} imports {target}: not a hashed file"
            assert (tmp_path / resolved).exists()
            checked += 1
    assert checked >= 6
