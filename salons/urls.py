from django.urls import path

from . import views

app_name = "salons"

urlpatterns = [
    path("rules/", views.rules_page, name="rules"),
    path("salons/<slug:slug>/", views.salon_detail, name="salon"),
    path("salons/<slug:slug>/rooms/", views.salon_rooms_fragment, name="salon_rooms"),
    path("salons/<slug:slug>/rooms/new/", views.room_create, name="room_create"),
    path("rooms/invite/<str:token>/", views.room_invite, name="invite"),
    path("rooms/<int:room_id>/", views.room_detail, name="room"),
    path("rooms/<int:room_id>/rules/", views.room_rules, name="room_rules"),
    path("rooms/<int:room_id>/enter/", views.room_enter, name="room_enter"),
    path("rooms/<int:room_id>/edit/", views.room_edit, name="room_edit"),
    path("rooms/<int:room_id>/close/", views.room_close, name="room_close"),
    path("rooms/<int:room_id>/tables/add/", views.table_add, name="table_add"),
    path("rooms/<int:room_id>/tables/<int:table_id>/sit/<int:position>/", views.seat_take, name="seat_take"),
    path("rooms/<int:room_id>/tables/<int:table_id>/leave/", views.seat_leave, name="seat_leave"),
    path("rooms/<int:room_id>/remove/", views.room_remove_user, name="room_remove"),
    path("rooms/<int:room_id>/chat/", views.room_chat, name="room_chat"),
]
