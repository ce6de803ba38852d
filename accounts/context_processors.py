from core.roles import ROLE_HOMES, Role


def roles(request):
    """Expose the user's roles to templates (for navigation only; views check again)."""
    user = getattr(request, "user", None)
    held = user.roles if user is not None and user.is_authenticated else frozenset()
    return {
        "user_roles": held,
        "role_links": [(Role(r).label, ROLE_HOMES[r]) for r in Role.values if r in held],
    }
