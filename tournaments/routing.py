from django.urls import path

import okeysite.converters  # noqa: F401  (registers <id:...>)
from tournaments.consumers import TournamentConsumer

websocket_urlpatterns = [
    path("ws/tournaments/me/", TournamentConsumer.as_asgi()),
    path("ws/tournaments/<id:tournament_id>/", TournamentConsumer.as_asgi()),
]
