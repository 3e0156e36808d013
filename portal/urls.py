"""The portal's pages (namespace ``portal``); the root URLconf (``config.urls``) includes them
and routes the portal's API views."""

from django.urls import path

from portal import views

app_name = "portal"
urlpatterns = [
    path("submit/", views.submit, name="submit"),
    path("submit/endpoint/", views.submit_endpoint, name="submit-endpoint"),
    path("submissions/<int:pk>/", views.submission, name="submission"),
    path("submissions/<int:pk>/verify/", views.verify, name="verify"),
    path("submissions/<int:pk>/cancel/", views.cancel, name="cancel"),
    path("submissions/<int:pk>/rerun/", views.rerun, name="rerun"),
    path("account/token/", views.token, name="token"),
]
