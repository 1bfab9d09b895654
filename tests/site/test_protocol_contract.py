"""docs/protocol.md is a contract: every error code a socket can send is in its list, every listed
code can be sent, and every engine code has a message in both languages.

The codes are read from the source (not from a hand-kept list): every ``EngineError(code=...)`` of
the engine, and every code raised or sent by what the sockets run — the consumers, the socket
guards, and the services and selectors they call, followed call by call through the project's
modules."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from django.utils import translation

ROOT = Path(__file__).resolve().parents[2]
PROTOCOL = ROOT / "docs" / "protocol.md"
APPS = ("accounts", "games", "salons", "moderation", "okeysite")
# Where a socket's work begins: every function and method of these modules.
ENTRY_MODULES = ("games.consumers", "salons.consumers", "okeysite.sockets")
# Calls whose first argument (or ``code=``) is an error code sent to the client.
ERROR_CALLS = {"ServiceError", "GameError", "SalonRefused", "FrameError", "ChatBlocked", "EngineError",
               "send_error", "error_frame", "refuse",
               "__init__"}  # an error class naming its own code: ``super().__init__("chat_blocked", ...)``


class Module:
    def __init__(self, name: str, path: Path):
        self.name = name
        self.tree = ast.parse(path.read_text())
        self.functions: dict[str, list[ast.AST]] = {}  # methods of one name in several classes: all
        self.aliases: dict[str, str] = {}  # local name -> module or module.function
        for node in ast.walk(self.tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                self.functions.setdefault(node.name, []).append(node)
            elif isinstance(node, ast.ClassDef):  # ``ChatBlocked(...)`` runs its ``__init__``
                self.functions.setdefault(node.name, []).extend(
                    item for item in node.body if isinstance(item, ast.FunctionDef) and item.name == "__init__")
            elif isinstance(node, ast.ImportFrom) and node.module is not None:
                base = node.module if node.level == 0 else self.resolve_relative(node)
                for alias in node.names:
                    self.aliases[alias.asname or alias.name] = f"{base}.{alias.name}"
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    self.aliases[alias.asname or alias.name.split(".")[0]] = alias.name

    def resolve_relative(self, node: ast.ImportFrom) -> str:
        package = self.name.rsplit(".", node.level)[0]
        return f"{package}.{node.module}" if node.module else package


def load_modules() -> dict[str, Module]:
    modules = {}
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts or "engine" in path.parts:
                continue
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            modules[name] = Module(name, path)
    return modules


def literal_code(call: ast.Call, name: str) -> str | None:
    for keyword in call.keywords:
        if keyword.arg == "code" and isinstance(keyword.value, ast.Constant) and isinstance(keyword.value.value, str):
            return keyword.value.value
    args = call.args[1:] if name in ("error_frame", "refuse") else call.args
    if name == "refuse":
        args = call.args[2:]
    if args and isinstance(args[0], ast.Constant) and isinstance(args[0].value, str):
        return args[0].value
    return None


def called_name(call: ast.Call) -> tuple[str | None, str]:
    """(qualifier or None, name) of ``f(...)``, ``x.f(...)`` or ``self.f(...)``."""
    func = call.func
    if isinstance(func, ast.Name):
        return None, func.id
    if isinstance(func, ast.Attribute):
        value = func.value
        return (value.id if isinstance(value, ast.Name) else None), func.attr
    return None, ""


def socket_codes() -> set[str]:
    """Codes raised or sent by everything a socket runs (besides the engine's)."""
    modules = load_modules()
    seen: set[tuple[str, str]] = set()
    todo = [(module, name) for module in ENTRY_MODULES for name in modules[module].functions]
    codes: set[str] = set()
    while todo:
        module_name, function_name = todo.pop()
        if (module_name, function_name) in seen:
            continue
        seen.add((module_name, function_name))
        module = modules[module_name]
        nodes = [node for function in module.functions[function_name] for node in ast.walk(function)]
        for node in nodes:
            if isinstance(node, ast.Dict):  # {"type": "error", "code": "..."} and error dicts
                for key, value in zip(node.keys, node.values, strict=True):
                    if (isinstance(key, ast.Constant) and key.value == "code"
                            and isinstance(value, ast.Constant) and isinstance(value.value, str)):
                        codes.add(value.value)
            # A function called, or handed on to be called (``in_db_thread(services.play)(...)``).
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                todo.extend(resolve(modules, module, node.value.id, node.attr))
            elif isinstance(node, ast.Name):
                todo.extend(resolve(modules, module, None, node.id))
            if isinstance(node, ast.Call):
                name = called_name(node)[1]
                if name in ERROR_CALLS:
                    code = literal_code(node, name)
                    if code is not None:
                        codes.add(code)
    return codes


def resolve(modules: dict[str, Module], module: Module, qualifier: str | None, name: str) -> list[tuple[str, str]]:
    if qualifier in (None, "self", "cls"):
        if name in module.functions:
            return [(module.name, name)]
        target = module.aliases.get(name, "")
        owner, _, function = target.rpartition(".")
        return [(owner, function)] if owner in modules and function in modules[owner].functions else []
    target = module.aliases.get(qualifier)
    if target in modules and name in modules[target].functions:
        return [(target, name)]
    return []


def engine_sources() -> list[Path]:
    """The engine's modules and every registered game type's package (a game not registered, still
    being built, sends nothing)."""
    from games.engine import game_types

    engine = ROOT / "games" / "engine"
    packages = {type(game_types.game_type(name)).__module__.split(".")[2] for name in game_types.names()}
    paths = list(engine.glob("*.py"))
    for package in sorted(packages):
        if (engine / package).is_dir():
            paths += sorted((engine / package).rglob("*.py"))
    return paths


def engine_codes() -> set[str]:
    codes = set()
    for path in engine_sources():
        for node in ast.walk(ast.parse(path.read_text())):
            # ``EngineError(..., code=...)``, and an error class of its own: ``super().__init__(..., code=...)``.
            if isinstance(node, ast.Call) and called_name(node)[1] in ("EngineError", "__init__"):
                code = literal_code(node, "EngineError") if called_name(node)[1] == "EngineError" else next(
                    (keyword.value.value for keyword in node.keywords if keyword.arg == "code"
                     and isinstance(keyword.value, ast.Constant) and isinstance(keyword.value.value, str)), None)
                if code is not None:
                    codes.add(code)
    return codes


def documented_codes() -> set[str]:
    text = PROTOCOL.read_text()
    section = text.split("## Error codes", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `([a-z_]+)` \|", section, flags=re.MULTILINE))


def test_the_document_lists_exactly_the_codes_the_sockets_can_send():
    sent = socket_codes() | engine_codes()
    documented = documented_codes()
    assert sent - documented == set(), f"sent but not in docs/protocol.md: {sorted(sent - documented)}"
    assert documented - sent == set(), f"in docs/protocol.md but never sent: {sorted(documented - sent)}"


def test_the_engine_codes_and_finish_reasons_are_found():
    # A guard on the reader above: the codes issue 11 named are seen.
    assert {"bad_seat", "not_shown", "not_declared", "indicator_taken", "too_early", "already_laid",
            "need_both_okeys", "invalid_finish"} <= engine_codes()
    assert {"rate_limited", "too_many_sockets", "not_found", "stale", "bad_message", "login_required",
            "seat_taken", "too_fast"} <= socket_codes()


@pytest.mark.parametrize("code", sorted(engine_codes()))
def test_every_engine_code_has_a_message_in_both_languages(code):
    from games import services

    assert code in services.ENGINE_MESSAGES, f"{code}: no message (the engine's English would be shown)"
    with translation.override("tr"):
        turkish = services.ENGINE_MESSAGES[code]()
    with translation.override("en"):
        english = services.ENGINE_MESSAGES[code]()
    assert turkish != english, f"{code}: not translated"


@pytest.mark.parametrize("reason", ["no_valid_split", "not_pairs"])
def test_finish_reasons_have_words_in_both_languages(reason):
    from games import services

    with translation.override("tr"):
        turkish = services.FINISH_REASONS[reason]("K5")
    with translation.override("en"):
        english = services.FINISH_REASONS[reason]("K5")
    assert "K5" in turkish and "K5" in english and turkish != english


def test_every_finish_reason_of_the_engine_is_documented():
    source = (ROOT / "games" / "engine" / "hand.py").read_text()
    reasons = set(re.findall(r'reason = "([a-z_]+)"', source))
    assert reasons == {"no_valid_split", "not_pairs"}
    text = PROTOCOL.read_text()
    for reason in reasons:
        assert f"`{reason}`" in text


def game_worded_codes() -> list[tuple[str, str]]:
    from games.engine_messages import GAME_MESSAGES

    return [(game, code) for game, lines in sorted(GAME_MESSAGES.items()) for code in sorted(lines)]


@pytest.mark.parametrize("game, code", game_worded_codes())
def test_a_games_own_wording_is_of_its_codes_translated_and_not_the_shared_line(game, code):
    from games.engine import game_types
    from games.engine_messages import ENGINE_MESSAGES, GAME_MESSAGES

    assert code in game_types.game_type(game).error_codes
    line = GAME_MESSAGES[game][code]
    with translation.override("tr"):
        turkish, shared = line(), ENGINE_MESSAGES[code]()
    with translation.override("en"):
        english = line()
    assert turkish != english and turkish != shared
