"""The client's address behind a reverse proxy, trusting exactly the configured number of hops.

daphne's ``--proxy-headers`` takes the *first* ``X-Forwarded-For`` entry, which is whatever the
client wrote: behind a proxy that appends (nginx's ``$proxy_add_x_forwarded_for``, most platform
routers) anyone could pose as any address and walk past the per-address limits (allauth's login and
sign-up limits, the socket caps). Each proxy appends the address it saw, so the entry written by the
nearest of our N trusted proxies is the N-th from the right; everything left of it is the client's
say. With ``TRUSTED_PROXY_HOPS = 0`` (the default) no forwarded header is believed at all.
"""

from __future__ import annotations

import ipaddress


def client_from_forwarded_for(header: str, hops: int) -> str | None:
    """The address that our nearest trusted proxy saw, or None when the header cannot tell it."""
    if hops <= 0:
        return None
    entries = [entry.strip() for entry in header.split(",") if entry.strip()]
    if len(entries) < hops:
        return None
    candidate = entries[-hops]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return None


class TrustedProxyMiddleware:
    """ASGI middleware for HTTP and WebSocket scopes: rewrites ``scope["client"]``."""

    def __init__(self, app, hops: int | None = None):
        self.app = app
        self.hops = hops

    async def __call__(self, scope, receive, send):
        if scope["type"] in ("http", "websocket"):
            hops = self.hops
            if hops is None:
                from django.conf import settings

                hops = settings.TRUSTED_PROXY_HOPS
            if hops > 0:
                forwarded = b",".join(value for name, value in scope.get("headers") or () if name == b"x-forwarded-for")
                address = client_from_forwarded_for(forwarded.decode("latin-1"), hops)
                if address:
                    port = (scope.get("client") or (None, 0))[1]
                    scope = dict(scope, client=(address, port))
        return await self.app(scope, receive, send)
