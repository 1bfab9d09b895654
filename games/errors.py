"""Errors of live play, in a module of their own so that every layer (selectors, services,
consumers, views) can raise and catch them without importing the layer that writes."""

from __future__ import annotations

from typing import Any


class GameError(Exception):
    """An action a user cannot take now; ``code`` is stable, the message translated."""

    def __init__(self, code: str, message: str, **details: Any):
        super().__init__(message)
        self.code = code
        self.details = details

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": str(self), **self.details}
