"""WebSocket routes of every app, gathered in one list; any other path gets a clean 4404 close."""

from django.urls import re_path

from games.routing import websocket_urlpatterns as games_websocket_urlpatterns
from okeysite.sockets import NotFoundConsumer
from salons.routing import websocket_urlpatterns as salons_websocket_urlpatterns
from tournaments.routing import websocket_urlpatterns as tournaments_websocket_urlpatterns

websocket_urlpatterns: list = [
    *salons_websocket_urlpatterns,
    *games_websocket_urlpatterns,
    *tournaments_websocket_urlpatterns,
    re_path(r"", NotFoundConsumer.as_asgi()),  # last: any other path is accepted and closed with 4404
]
