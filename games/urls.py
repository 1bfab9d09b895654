from django.urls import path

import okeysite.converters  # noqa: F401  (registers <id:...>)
from games import guest_views, views

app_name = "games"

urlpatterns = [
    path("tables/<id:table_id>/", views.table_page, name="table"),
    path("practice/", views.practice, name="practice"),
    path("practice/leave/", views.leave_practice, name="leave_practice"),
    # A visitor's practice hand: no account, kept only in the cache (games/guest_practice.py).
    path("practice/try/", guest_views.page, name="guest_practice"),
    path("practice/try/start/", guest_views.start, name="guest_practice_start"),
    path("practice/try/move/", guest_views.move, name="guest_practice_move"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    path("leaderboard/<slug:salon_slug>/", views.leaderboard, name="salon_leaderboard"),
    path("players/<str:nickname>/hands/", views.hand_history, name="hand_history"),
    path("hands/<id:hand_id>/", views.hand_replay, name="hand_replay"),
    path("hands/<id:hand_id>/proof.json", views.hand_proof, name="hand_proof"),
]
