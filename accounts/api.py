"""Accounts API: tokens for scripts, who am I, and the admins' bulk import."""

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from accounts.forms import MAX_CSV_BYTES
from accounts.services import set_password_path, token_issue, users_import
from accounts.signin import account_failed, account_locked, locked_message
from core.errors import ServiceError
from core.permissions import IsPlatformAdmin
from core.schema import error_responses


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField(help_text=_("Shown once: only its digest is stored."))


class TokenView(APIView):
    """Exchange a username and password for a new token for `Authorization: Token …`.

    Each call issues a new token (the server keeps only its SHA-256, so it cannot give an old
    one back); a user keeps their 10 newest tokens. Limits: 20 attempts a minute per address,
    and the account limit of accounts/signin.py (100 failures an hour).
    """

    authentication_classes = []  # the credentials are the body
    permission_classes = [AllowAny]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "auth"

    @extend_schema(
        request=AuthTokenSerializer,
        responses={200: TokenSerializer, **error_responses(429)},  # the `auth` rate
    )
    def post(self, request):
        data = request.data if isinstance(request.data, dict) else {}
        username = data.get("username") if isinstance(data.get("username"), str) else ""
        if username and account_locked(username):
            raise ServiceError({"detail": [locked_message()]}, status=429)
        payload = AuthTokenSerializer(data=request.data, context={"request": request})
        if not payload.is_valid():
            if username and "non_field_errors" in payload.errors:  # a wrong password
                account_failed(username)
            raise ValidationError(payload.errors)
        key = token_issue(user=payload.validated_data["user"])
        return Response(TokenSerializer({"token": key}).data)


class MeSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    email = serializers.EmailField()
    roles = serializers.ListField(child=serializers.CharField())


class MeView(APIView):
    @extend_schema(responses=MeSerializer)
    def get(self, request):
        user = request.user
        data = {
            "id": user.pk,
            "username": user.username,
            "email": user.email,
            "roles": sorted(user.roles),
        }
        return Response(MeSerializer(data).data)


class UsersImportSerializer(serializers.Serializer):
    csv = serializers.CharField(
        trim_whitespace=False,
        max_length=MAX_CSV_BYTES,
        help_text=_("The CSV text: a username,email,role header, then one user per line."),
    )


class ImportedUserSerializer(serializers.Serializer):
    username = serializers.CharField()
    email = serializers.EmailField()
    role = serializers.CharField()
    set_password_url = serializers.URLField()


class SkippedUserSerializer(serializers.Serializer):
    username = serializers.CharField()
    line = serializers.IntegerField()


class UsersImportResultSerializer(serializers.Serializer):
    created = ImportedUserSerializer(many=True)
    skipped = SkippedUserSerializer(many=True)


class UsersImportView(APIView):
    """Create accounts from a CSV; answer each new user's one-time set-password link."""

    permission_classes = [IsPlatformAdmin]

    serializer_class = UsersImportSerializer

    @extend_schema(
        request=UsersImportSerializer,
        responses={201: UsersImportResultSerializer, 200: UsersImportResultSerializer},
    )
    def post(self, request):
        payload = UsersImportSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        result = users_import(text=payload.validated_data["csv"])
        created = [
            {
                "username": user.username,
                "email": user.email,
                "role": row.role,
                "set_password_url": request.build_absolute_uri(set_password_path(user)),
            }
            for row, user in result.created
        ]
        skipped = [{"username": row.username, "line": row.line} for row in result.skipped]
        data = UsersImportResultSerializer({"created": created, "skipped": skipped}).data
        return Response(data, status=201 if created else 200)
