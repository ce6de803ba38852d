"""Pages of accounts: sign-in, the role-aware home, the admins' home, the users page.

The annotators' and reviewers' homes show their work: they live in `annotation.views`.
"""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils.translation import gettext as _
from rest_framework.throttling import BaseThrottle

from accounts.forms import UsersImportForm
from accounts.selectors import user_list
from accounts.services import set_password_path, users_import
from accounts.signin import (
    DEVICE_COOKIE,
    DEVICE_MAX_AGE,
    account_failed,
    account_locked,
    address_allowed,
    device_token,
    device_trusted,
    locked_message,
)
from core.errors import ServiceError
from core.forms import form_add_service_errors
from core.permissions import role_required
from core.roles import ROLE_HOMES, Role


class LoginView(auth_views.LoginView):
    """Sign-in, with the limits of accounts/signin.py: per address, and per account."""

    template_name = "accounts/login.html"
    redirect_authenticated_user = True

    def _refused(self, message: str):
        form = self.get_form()
        form.add_error(None, message)
        return self.render_to_response(self.get_context_data(form=form), status=429)

    def post(self, request, *args, **kwargs):
        username = request.POST.get("username", "")
        if not address_allowed(BaseThrottle().get_ident(request)):
            return self._refused(_("Too many attempts. Wait a minute, then try again."))
        trusted = device_trusted(request.COOKIES.get(DEVICE_COOKIE), username)
        if not trusted and account_locked(username):
            return self._refused(locked_message())
        response = super().post(request, *args, **kwargs)
        if request.user.is_authenticated:  # this browser is trusted for this account from now
            response.set_cookie(
                DEVICE_COOKIE,
                device_token(username),
                max_age=DEVICE_MAX_AGE,
                secure=settings.SESSION_COOKIE_SECURE,
                httponly=True,
                samesite="Lax",
            )
        elif username and not trusted:
            account_failed(username)
        return response


class SetPasswordView(auth_views.PasswordResetConfirmView):
    template_name = "accounts/set_password.html"
    success_url = reverse_lazy("accounts:login")
    post_reset_login = False

    def form_valid(self, form):
        messages.success(self.request, _("Your password is set. You can sign in now."))
        return super().form_valid(form)


def home(request):
    """Send a user to their role's home; a user with several roles chooses."""
    if not request.user.is_authenticated:
        return redirect("accounts:login")
    held = [r for r in Role.values if request.user.has_role(r)]
    if len(held) == 1:
        return redirect(ROLE_HOMES[held[0]])
    return render(request, "accounts/home.html", {"held_roles": held})


@role_required(Role.ADMIN)
def admin_home(request):
    return render(request, "accounts/admin_home.html")


@role_required(Role.ADMIN)
def users_page(request):
    """List accounts; import a CSV and show the one-time set-password links."""
    form, result, status = UsersImportForm(), None, 200
    if request.method == "POST":
        form = UsersImportForm(request.POST, request.FILES)
        if form.is_valid():
            try:
                result = users_import(text=form.cleaned_data["csv"])
            except ServiceError as error:
                form_add_service_errors(form, error)
        status = 400 if form.errors else 200
    links = [
        (row, request.build_absolute_uri(set_password_path(user)))
        for row, user in (result.created if result else [])
    ]
    context = {"form": form, "result": result, "links": links, "users": user_list()}
    template = "accounts/users.html#user-import" if request.htmx else "accounts/users.html"
    return render(request, template, context, status=status)
