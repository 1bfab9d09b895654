"""Imports run one way. The modules' own import statements (at module level, in functions, under
TYPE_CHECKING: all of them, since a lazy import is still a circle) are read with ``ast`` and must
form no cycle among the games app's modules, the engine's layers must stay in their order, and the
services must never reach the Celery tasks (which call the services)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# The engine's layers, lowest first (issue 11): a module may import only from layers below it.
ENGINE_LAYERS = ["tiles", "melds", "finish", "hand", "scoring", "match", "game_types"]


APPS = ["accounts", "salons", "games", "moderation", "tournaments", "okeysite"]


def module_names() -> dict[str, Path]:
    modules = {}
    for path in (path for app in APPS if (ROOT / app).is_dir() for path in (ROOT / app).rglob("*.py")):
        if "migrations" in path.parts or "management" in path.parts:
            continue
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        modules[name] = path
    return modules


def imported_by(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The project modules ``name`` imports anywhere in its source."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([node.module] if node.module else [])])
            # "from pkg import mod" depends on the submodule; "from mod import name" on the module.
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]
        else:
            continue
        found.update(target for target in targets if target in modules and target != name)
    return found


def import_graph() -> dict[str, set[str]]:
    modules = module_names()
    return {name: imported_by(name, path, modules) for name, path in modules.items()}


def find_cycle(graph: dict[str, set[str]], within: str, *, across: bool = False) -> list[str] | None:
    """One import cycle among the modules named ``within``… (``across``: one that starts there and
    may run through every module of the project), as a path, or None."""
    nodes = set(graph) if across else {name for name in graph if name == within or name.startswith(within + ".")}
    state: dict[str, int] = {}  # 1 = on the current path, 2 = done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for target in sorted(graph[node] & nodes):
            if state.get(target) == 1:
                return path[path.index(target):] + [target]
            if target not in state and (cycle := visit(target)):
                return cycle
        path.pop()
        state[node] = 2
        return None

    for node in sorted(nodes):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        for target in graph[todo.pop()]:
            if target not in seen:
                seen.add(target)
                todo.append(target)
    return seen


@pytest.mark.parametrize("within", ["games.engine", *APPS])
def test_there_is_no_import_cycle_inside_an_app(within):
    cycle = find_cycle(import_graph(), within)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_there_is_no_import_cycle_across_the_apps():
    """Every project module at once (issue 20): tournaments use games and never the other way;
    games tell the apps above them through signals (``games.signals``)."""
    graph = import_graph()
    cycle = next((found for app in APPS if (found := find_cycle(graph, app, across=True))), None)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_the_games_app_never_imports_tournaments_below_its_pages():
    """Play, scoring and the clock know nothing of tournaments. The table page alone (a view, the
    top of the house) reads whether its room is a tournament's, to link back to it."""
    graph = import_graph()
    leaks = sorted(f"{name} -> {target}" for name, targets in graph.items()
                   if name.startswith("games") and name != "games.views"
                   for target in targets if target.startswith("tournaments"))
    assert not leaks, leaks


def test_the_engine_layers_import_only_downwards():
    graph = import_graph()
    for index, layer in enumerate(ENGINE_LAYERS):
        above = {f"games.engine.{name}" for name in ENGINE_LAYERS[index + 1:]}
        assert not reachable(graph, f"games.engine.{layer}") & above, f"{layer} reaches a layer above it"


def test_the_engine_imports_nothing_of_the_site():
    graph = import_graph()
    for name, targets in graph.items():
        if name == "games.engine" or name.startswith("games.engine."):
            assert all(target.startswith("games.engine.") or target == "games.engine" for target in targets), name
    sources = [path.read_text(encoding="utf-8") for path in (ROOT / "games" / "engine").rglob("*.py")]
    assert not any("import django" in text or "from django" in text for text in sources)


def test_tasks_call_services_and_never_the_other_way():
    graph = import_graph()
    assert "games.services" in graph["games.tasks"]
    assert "games.tasks" not in reachable(graph, "games.services")
    assert "games.services" not in reachable(graph, "games.selectors")


def test_salons_and_moderation_services_do_not_import_each_other():
    """Salons call the chat filter (moderation.chat); moderation's services enforce sanctions through
    salons' services. One direction only."""
    graph = import_graph()
    assert "moderation.chat" in graph["salons.services"]
    assert "moderation.services" not in reachable(graph, "salons.services")
    assert "salons.services" not in reachable(graph, "moderation.chat")


def test_the_checker_sees_a_circle_when_there_is_one():
    graph = {"games.a": {"games.b"}, "games.b": {"games.c"}, "games.c": {"games.a"}, "games.d": set()}
    assert find_cycle(graph, "games") == ["games.a", "games.b", "games.c", "games.a"]
    assert find_cycle({**graph, "games.c": set()}, "games") is None
