"""The one error type services raise for things a user can cause.

It lives in ``accounts`` because that is the lowest app every other app already depends on;
``salons.services`` re-exports it as ``salons.services.ServiceError``.
"""

from __future__ import annotations

from django.utils.encoding import force_str


class ServiceError(Exception):
    """A refused action: ``code`` is stable (tests, clients, logs), ``message`` is translated.

    The message may be a lazy translation; ``str(error)`` renders it in the active language, so
    a consumer that activated the user's language gets the user's language.
    """

    def __init__(self, code: str, message: object, **details: object) -> None:
        super().__init__(code)
        self.code = code
        self._message = message
        self.details = details

    @property
    def message(self) -> str:
        return force_str(self._message)

    def __str__(self) -> str:
        return self.message

    def to_dict(self) -> dict[str, object]:
        return {"code": self.code, "message": self.message, **self.details}
