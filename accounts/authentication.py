"""Token authentication against stored digests, answered from the cache on the hot path.

The keys themselves are never stored. A script calls the API many times a minute with the
same token, so who it is (the user's id, name, roles, whether they are active or paused) is
kept in the cache under the token's digest for PRINCIPAL_SECONDS: an authenticated call costs
one cache read and no SQL. Anything that changes what the cache holds forgets it at once
(`principal_forget`: a role given or taken, a pause, a deactivation, a token deleted); a change
made some other way shows within PRINCIPAL_SECONDS.
"""

from __future__ import annotations

from django.core.cache import cache
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication

from accounts.models import ApiToken, User
from accounts.tokens import key_digest
from core.roles import Role

PRINCIPAL_SECONDS = 300
FIELDS = ("id", "username", "email", "is_active", "is_staff", "paused_at")


def _key(digest: str) -> str:
    return f"principal:{digest}"


def _principal(token: ApiToken) -> dict:
    user = token.user
    roles = sorted(user.groups.filter(name__in=Role.values).values_list("name", flat=True))
    fields = {name: getattr(user, name) for name in FIELDS}
    fields["paused_at"] = user.paused_at.isoformat() if user.paused_at else None
    return fields | {"roles": roles, "token": token.pk}


def _user(principal: dict) -> User:
    """A User built from the cache: enough for role checks and services, never saved."""
    fields = {name: principal[name] for name in FIELDS}
    fields["paused_at"] = parse_datetime(principal["paused_at"]) if principal["paused_at"] else None
    user = User(**fields)
    user._state.adding, user._state.db = False, "default"
    user.__dict__["roles"] = frozenset(principal["roles"]) if user.is_active else frozenset()
    user.from_cache = True
    return user


class HashedTokenAuthentication(TokenAuthentication):
    """`Authorization: Token <key>`, looked up by the key's SHA-256: the cache, else one query."""

    def authenticate_credentials(self, key):
        digest = key_digest(key)
        principal = cache.get(_key(digest))
        if principal is None:
            token = ApiToken.objects.select_related("user").filter(digest=digest).first()
            if token is None:
                raise exceptions.AuthenticationFailed(_("Invalid token."))
            principal = _principal(token)
            cache.set(_key(digest), principal, PRINCIPAL_SECONDS)
        if not principal["is_active"]:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return _user(principal), principal["token"]


def principal_forget(user_id: int) -> None:
    """Forget what the cache holds about the tokens of this user."""
    digests = ApiToken.objects.filter(user_id=user_id).values_list("digest", flat=True)
    cache.delete_many([_key(digest) for digest in digests])


def principal_forget_digest(digest: str) -> None:
    cache.delete(_key(digest))
