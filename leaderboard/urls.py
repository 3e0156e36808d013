from django.urls import path

from leaderboard import views

app_name = "leaderboard"
urlpatterns = [
    path("", views.board_page, name="board"),
    path("boards/", views.boards_page, name="boards"),
    path("matrix/", views.matrix_page, name="matrix"),
    path("tasks/", views.tasks_page, name="tasks"),
    path("workloads/<path:workload>/", views.workload_page, name="workload"),
    path("submissions/<int:pk>/compare/", views.compare_page, name="compare"),
    path("submissions/<int:pk>/trace/<str:backend>/<path:workload>/", views.trace_page, name="trace"),
]
