"""Errors of live play, in a module of their own so that every layer (selectors, services,
consumers, views) can raise and catch them without importing the layer that writes.

One error base for the whole site (issue 20): ``GameError`` is the games app's name for
``accounts.errors.ServiceError`` — the same code, translated message and details — so a view or
consumer that words a ``ServiceError`` words a game's refusal too."""

from __future__ import annotations

from accounts.errors import ServiceError


class GameError(ServiceError):
    """An action a user cannot take now; ``code`` is stable, the message translated."""
