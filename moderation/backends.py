"""Authentication backends that refuse site-banned players.

They replace Django's ``ModelBackend`` and allauth's backend in ``AUTHENTICATION_BACKENDS``:

* while signing in, ``user_can_authenticate`` is False for a banned player. Restoring a session
  (``get_user``, on every request and socket) does not check: a ban raises the player's session
  generation, part of the session hash that Django's and Channels' auth verify on every request
  and connect (``accounts.models.User.get_session_auth_hash``), so every older session is dropped
  whatever its key, and a query per request here would buy nothing;
* on a correct password of a banned player ``authenticate`` raises ``PermissionDenied``, which
  stops Django from asking the next backend. allauth has kept the user aside by then (as for an
  inactive account), so its adapter's ``pre_login`` shows the ban and why instead of "wrong
  password" (``accounts.adapter``).
"""

from __future__ import annotations

from typing import Any

from allauth.account.auth_backends import AuthenticationBackend
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied

from . import selectors


class _RefuseBanned:
    _banned: bool = False
    _signing_in: bool = False

    def user_can_authenticate(self, user: Any) -> bool:
        if not super().user_can_authenticate(user):  # type: ignore[misc]
            return False
        if self._signing_in and selectors.is_site_banned(user):
            self._banned = True
            return False
        return True

    def authenticate(self, request: Any, *args: Any, **credentials: Any) -> Any:
        self._banned = False
        self._signing_in = True
        try:
            user = super().authenticate(request, *args, **credentials)  # type: ignore[misc]
        finally:
            self._signing_in = False
        if user is None and self._banned:
            raise PermissionDenied("site ban")
        return user


class SanctionAwareAuthenticationBackend(_RefuseBanned, AuthenticationBackend):
    """allauth's backend (nickname or e-mail), refusing banned players."""


class SanctionAwareModelBackend(_RefuseBanned, ModelBackend):
    """Django's backend (direct ``authenticate(username=..., password=...)``), refusing banned players."""
