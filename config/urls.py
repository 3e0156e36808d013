"""The root URLconf: the leaderboard's and the portal's pages, accounts, the admin and the API."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.http import JsonResponse
from django.urls import include, path
from django.views import defaults
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView
from rest_framework.routers import DefaultRouter

from leaderboard import api as leaderboard_api
from portal import api as portal_api
from portal import views as portal_views

router = DefaultRouter()
router.register("submissions", portal_api.SubmissionViewSet, basename="submission")
router.register("tasks", portal_api.TaskViewSet, basename="task")

urlpatterns = [
    path("", include("leaderboard.urls")),
    path("", include("portal.urls")),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/signup/", portal_views.signup, name="signup"),
    path("admin/", admin.site.urls),
    path("api/v1/", include(router.urls)),
    path("api/v1/leaderboard/", leaderboard_api.LeaderboardView.as_view(), name="api-leaderboard"),
    path("api/v1/leaderboard/export.<str:fmt>", leaderboard_api.ExportView.as_view(), name="api-leaderboard-export"),
    path("api/v1/leaderboard/boards/", leaderboard_api.BoardsView.as_view(), name="api-leaderboard-boards"),
    path("api/v1/leaderboard/matrix/", leaderboard_api.MatrixView.as_view(), name="api-leaderboard-matrix"),
    path("api/v1/backends/", portal_api.BackendsView.as_view(), name="api-backends"),
    path("api/v1/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
]


def not_found(request, exception):
    """A path under /api/ that names nothing is answered like every other API 404 (the JSON error
    body the schema documents); elsewhere, the page."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": "Not found."}, status=404)
    return defaults.page_not_found(request, exception)


handler404 = not_found
