from django.urls import path

import okeysite.converters  # noqa: F401  (registers <id:...>)

from . import views

app_name = "moderation"

urlpatterns = [
    path("report/", views.report, name="report"),
    path("report/<str:nickname>/", views.report, name="report_player"),
    path("warnings/<id:sanction_id>/seen/", views.warning_seen, name="warning_seen"),
]
