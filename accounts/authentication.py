"""Token authentication against stored digests: the keys themselves are never stored."""

from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication

from accounts.models import ApiToken
from accounts.tokens import key_digest


class HashedTokenAuthentication(TokenAuthentication):
    """`Authorization: Token <key>`, looked up by the key's SHA-256 (one indexed query)."""

    def authenticate_credentials(self, key):
        token = ApiToken.objects.select_related("user").filter(digest=key_digest(key)).first()
        if token is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return token.user, token
