"""ASGI entry point: HTTP through Django, WebSockets through Channels behind the site's socket guards
(okeysite/sockets.py: origin check by scheme, host and port — a page on another site or port must not
open a socket with our cookies — session auth, caps per user and address, a message budget)."""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "okeysite.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from okeysite.observability import SocketIdMiddleware  # noqa: E402
from okeysite.proxy import TrustedProxyMiddleware  # noqa: E402
from okeysite.routing import websocket_urlpatterns  # noqa: E402
from okeysite.sockets import guarded  # noqa: E402

# Garbage collection: a server process holds hundreds of thousands of long-lived objects (Django,
# Twisted, a consumer per socket), and every full collection walked them all, holding up every
# socket of the process for tens of milliseconds. What is loaded at start-up is frozen out of the
# collector, and collections run less often (most of a move's garbage is freed by reference counting).
gc.freeze()
gc.set_threshold(*(int(part) for part in os.environ.get("GC_THRESHOLDS", "50000,20,100").split(",")))

application = TrustedProxyMiddleware(SocketIdMiddleware(ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": guarded(URLRouter(websocket_urlpatterns)),
    }
)))
