from django.urls import path

import okeysite.converters  # noqa: F401  (registers <id:...>)
from tournaments import views

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("new/<slug:salon_slug>/", views.tournament_create, name="create"),
    path("notice.json", views.notice, name="notice"),
    path("<id:tournament_id>/", views.tournament_detail, name="detail"),
    path("<id:tournament_id>/standings/", views.standings_fragment, name="standings"),
    path("<id:tournament_id>/<str:action>/", views.tournament_action, name="action"),
]
