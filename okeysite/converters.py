"""URL converters. ``<id:...>``: a database id, bounded to the 64-bit signed range of the id columns
(BigAutoField), so ``/rooms/99999999999999999999999999/`` is a 404 rather than an OverflowError
from the database driver. Imported by every ``urls.py`` and websocket routing module."""

from django.urls import register_converter

MAX_ID = 2**63 - 1


class IdConverter:
    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if number > MAX_ID:
            raise ValueError("beyond the id range")  # no match: the resolver tries on, then 404s
        return number

    def to_url(self, value: int) -> str:
        return str(int(value))


register_converter(IdConverter, "id")
