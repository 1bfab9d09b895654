from django.urls import path

from . import views

app_name = "moderation"

urlpatterns = [
    path("report/", views.report, name="report"),
    path("report/<str:nickname>/", views.report, name="report_player"),
    path("warnings/<int:sanction_id>/seen/", views.warning_seen, name="warning_seen"),
]
