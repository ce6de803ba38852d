from django.contrib.auth import get_user_model
from django.db.models import QuerySet


def user_list() -> QuerySet:
    """Return every account with its groups, newest first."""
    return get_user_model().objects.prefetch_related("groups").order_by("-date_joined", "-pk")
