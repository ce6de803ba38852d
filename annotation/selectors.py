from django.db.models import QuerySet

from accounts.roles import Role
from annotation.models import Campaign


def campaigns_for(user) -> QuerySet:
    """Return the campaigns a user may see: all for admins, the active ones for workers."""
    if user.has_role(Role.ADMIN):
        return Campaign.objects.all()
    if user.has_role(Role.ANNOTATOR) or user.has_role(Role.REVIEWER):
        return Campaign.objects.filter(active=True)
    return Campaign.objects.none()
