from django.urls import path

from leaderboard import views

app_name = "leaderboard"
urlpatterns = [path("", views.board_page, name="board")]
