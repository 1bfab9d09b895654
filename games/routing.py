from django.urls import path

import okeysite.converters  # noqa: F401  (registers <id:...>)
from games.consumers import TableConsumer

websocket_urlpatterns = [
    path("ws/tables/<id:table_id>/", TableConsumer.as_asgi()),
]
