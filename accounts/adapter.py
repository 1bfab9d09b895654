"""allauth hooks for nicknames."""

from __future__ import annotations

from allauth.account.adapter import DefaultAccountAdapter


class AccountAdapter(DefaultAccountAdapter):
    def clean_username(self, username: str, shallow: bool = False) -> str:
        # Surrounding spaces are a typing slip, not part of the nickname.
        return super().clean_username(username.strip(), shallow=shallow)
