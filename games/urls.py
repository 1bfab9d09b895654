from django.urls import path

from games import views

app_name = "games"

urlpatterns = [
    path("tables/<int:table_id>/", views.table_page, name="table"),
    path("practice/", views.practice, name="practice"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    path("leaderboard/<slug:salon_slug>/", views.leaderboard, name="salon_leaderboard"),
    path("players/<str:nickname>/hands/", views.hand_history, name="hand_history"),
    path("hands/<int:hand_id>/", views.hand_replay, name="hand_replay"),
    path("hands/<int:hand_id>/proof.json", views.hand_proof, name="hand_proof"),
]
