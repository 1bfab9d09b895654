from django.urls import path

from . import views

app_name = "accounts"

urlpatterns = [
    path("me/", views.my_account, name="me"),
    path("players/<str:nickname>/", views.profile, name="profile"),
]
