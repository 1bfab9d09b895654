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
