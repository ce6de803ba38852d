from django.contrib.auth import views as auth_views
from django.urls import path

from accounts import views

app_name = "accounts"

urlpatterns = [
    path("", views.home, name="home"),
    path("accounts/login/", views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "accounts/set-password/<uidb64>/<token>/",
        views.SetPasswordView.as_view(),
        name="set-password",
    ),
    path("manage/", views.admin_home, name="admin-home"),
    path("manage/users/", views.users_page, name="users"),
]
