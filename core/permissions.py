"""Role checks for pages and API calls; every door goes through these."""

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from rest_framework.permissions import BasePermission

from core.roles import Role


def role_required(*roles: str):
    """Let a view run only for a signed-in user holding one of the roles (else login or 403)."""

    def decorator(view):
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            if not any(request.user.has_role(role) for role in roles):
                raise PermissionDenied
            return view(request, *args, **kwargs)

        return wrapper

    return decorator


class HasRole(BasePermission):
    """DRF permission: authenticated and holding one of `roles`."""

    roles: tuple[str, ...] = ()

    def has_permission(self, request, view):
        user = request.user
        return bool(user and user.is_authenticated and any(user.has_role(r) for r in self.roles))


class IsAnnotator(HasRole):
    roles = (Role.ANNOTATOR,)


class IsReviewer(HasRole):
    roles = (Role.REVIEWER,)


class IsPlatformAdmin(HasRole):
    roles = (Role.ADMIN,)


class IsAnnotatorOrReviewer(HasRole):
    roles = (Role.ANNOTATOR, Role.REVIEWER)


class HoldsARole(HasRole):
    """Annotators, reviewers and admins: everyone who works on the dataset."""

    roles = tuple(Role.values)
