from django.urls import path
from rest_framework.routers import DefaultRouter

from accounts.api import MeView, TokenView, UsersImportView
from core.api import WorkerCheckViewSet

router = DefaultRouter(trailing_slash=True)
router.register("worker-checks", WorkerCheckViewSet, basename="worker-check")

urlpatterns = [
    path("auth/token/", TokenView.as_view(), name="auth-token"),
    path("me/", MeView.as_view(), name="me"),
    path("users/import/", UsersImportView.as_view(), name="users-import"),
    *router.urls,
]
