"""ASGI entry point: HTTP through Django, WebSockets through Channels with session auth and an
origin check (a page on another site must not open a socket with our cookies)."""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "okeysite.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from okeysite.routing import websocket_urlpatterns  # noqa: E402

# Garbage collection: a server process holds hundreds of thousands of long-lived objects (Django,
# Twisted, a consumer per socket), and every full collection walked them all, holding up every
# socket of the process for tens of milliseconds. What is loaded at start-up is frozen out of the
# collector, and collections run less often (most of a move's garbage is freed by reference counting).
gc.freeze()
gc.set_threshold(*(int(part) for part in os.environ.get("GC_THRESHOLDS", "50000,20,100").split(",")))

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)
