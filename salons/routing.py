from django.urls import path

import okeysite.converters  # noqa: F401  (registers <id:...>)

from . import consumers

websocket_urlpatterns = [
    path("ws/lobby/", consumers.LobbyConsumer.as_asgi()),
    path("ws/salons/<id:salon_id>/", consumers.SalonConsumer.as_asgi()),
    path("ws/rooms/<id:room_id>/", consumers.RoomConsumer.as_asgi()),
]
