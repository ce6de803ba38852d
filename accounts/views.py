"""Pages of accounts: sign-in, the role-aware home, the admins' home, the users page.

The annotators' and reviewers' homes show their work: they live in `annotation.views`.
"""

from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.core.cache import cache
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils.translation import gettext as _

from accounts.forms import UsersImportForm
from accounts.selectors import user_list
from accounts.services import set_password_path, users_import
from core.errors import ServiceError
from core.forms import form_add_service_errors
from core.permissions import role_required
from core.roles import ROLE_HOMES, Role

LOGIN_ATTEMPTS = 20  # per client address and minute, as for API tokens


class LoginView(auth_views.LoginView):
    template_name = "accounts/login.html"
    redirect_authenticated_user = True

    def post(self, request, *args, **kwargs):
        """Refuse password guessing: at most LOGIN_ATTEMPTS tries a minute per address."""
        key = f"login-attempts:{request.META.get('REMOTE_ADDR', '')}"
        cache.add(key, 0, timeout=60)
        if cache.incr(key) > LOGIN_ATTEMPTS:
            form = self.get_form()
            form.add_error(None, _("Too many attempts. Wait a minute, then try again."))
            return self.render_to_response(self.get_context_data(form=form), status=429)
        return super().post(request, *args, **kwargs)


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
