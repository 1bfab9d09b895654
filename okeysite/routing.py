"""WebSocket routes of every app, gathered in one list."""

from games.routing import websocket_urlpatterns as games_websocket_urlpatterns
from salons.routing import websocket_urlpatterns as salons_websocket_urlpatterns

websocket_urlpatterns: list = [*salons_websocket_urlpatterns, *games_websocket_urlpatterns]
