"""Errors a player can cause. Each has a stable ``code`` the site translates for the user."""

from __future__ import annotations


class EngineError(Exception):
    """An illegal action or bad input. The state it was raised against is unchanged."""

    code = "illegal"

    def __init__(self, message: str, *, code: str | None = None, **details: object):
        super().__init__(message)
        if code is not None:
            self.code = code
        self.details = details

    def to_dict(self) -> dict[str, object]:
        return {"code": self.code, "message": str(self), **self.details}


class RulesError(EngineError):
    """A game's rule set the engine will not play (101 Okey, Kart Okey); ``field`` names the option
    at fault, so a form can put the error next to it. Classic Okey's is ``rules.RuleSetError``."""

    code = "bad_rules"

    def __init__(self, message: str, *, code: str, field: str | None = None):
        super().__init__(message, code=code, field=field)
        self.field = field


def check_option(ok: bool, field: str, message: str) -> None:
    """Refuse an option's value (``bad_option``) unless ``ok``."""
    if not ok:
        raise RulesError(message, code="bad_option", field=field)
