from django.urls import path

import okeysite.converters  # noqa: F401  (registers <id:...>)

from . import preview_views, quickplay_views, views

app_name = "salons"

urlpatterns = [
    path("rules/", views.rules_page, name="rules"),
    path("play/", quickplay_views.quick_play_view, name="quick_play"),
    path("rules/preview/", preview_views.rules_preview, name="rules_preview"),
    path("salons/<slug:slug>/", views.salon_detail, name="salon"),
    path("salons/<slug:slug>/rooms/", views.salon_rooms_fragment, name="salon_rooms"),
    path("salons/<slug:slug>/rooms/new/", views.room_create, name="room_create"),
    path("rooms/invite/<str:token>/", views.room_invite, name="invite"),
    path("rooms/<id:room_id>/", views.room_detail, name="room"),
    path("rooms/<id:room_id>/rules/", views.room_rules, name="room_rules"),
    path("rooms/<id:room_id>/enter/", views.room_enter, name="room_enter"),
    path("rooms/<id:room_id>/edit/", views.room_edit, name="room_edit"),
    path("rooms/<id:room_id>/close/", views.room_close, name="room_close"),
    path("rooms/<id:room_id>/invite/new/", views.room_invite_new, name="invite_new"),
    path("rooms/<id:room_id>/tables/add/", views.table_add, name="table_add"),
    path("rooms/<id:room_id>/tables/<id:table_id>/sit/<id:position>/", views.seat_take, name="seat_take"),
    path("rooms/<id:room_id>/tables/<id:table_id>/leave/", views.seat_leave, name="seat_leave"),
    path("rooms/<id:room_id>/remove/", views.room_remove_user, name="room_remove"),
    path("rooms/<id:room_id>/chat/", views.room_chat, name="room_chat"),
]
