"""What makes the authentication cache forget a user: any change to them, their roles or tokens.

Connected in AccountsConfig.ready(): saves and deletions of a user (Django's admin included),
changes to a user's groups, and deleted tokens. The services that update rows in bulk (a pause)
call `principal_forget` themselves.
"""

from django.db.models.signals import m2m_changed, post_delete, post_save

from accounts.authentication import principal_forget, principal_forget_digest
from accounts.models import ApiToken, User


def _user_changed(sender, instance, **kwargs):
    principal_forget(instance.pk)


def _groups_changed(sender, instance, action, reverse, pk_set, **kwargs):
    if not action.startswith("post_"):
        return
    if reverse:  # a group's users changed
        for user_id in pk_set or ():
            principal_forget(user_id)
    else:
        principal_forget(instance.pk)


def _token_deleted(sender, instance, **kwargs):
    principal_forget_digest(instance.digest)


def connect() -> None:
    post_save.connect(_user_changed, sender=User, dispatch_uid="principal-user-saved")
    post_delete.connect(_user_changed, sender=User, dispatch_uid="principal-user-deleted")
    m2m_changed.connect(
        _groups_changed, sender=User.groups.through, dispatch_uid="principal-user-groups"
    )
    post_delete.connect(_token_deleted, sender=ApiToken, dispatch_uid="principal-token-deleted")
