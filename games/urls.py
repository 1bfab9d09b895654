from django.urls import path

from games import views

app_name = "games"

urlpatterns = [
    path("tables/<int:table_id>/", views.table_page, name="table"),
]
