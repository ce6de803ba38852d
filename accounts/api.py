"""Accounts API: tokens for scripts, who am I, and the admins' bulk import."""

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from accounts.forms import MAX_CSV_BYTES
from accounts.services import set_password_path, users_import
from core.permissions import IsPlatformAdmin


class TokenView(ObtainAuthToken):
    """Exchange a username and password for the token of `Authorization: Token …`."""

    # Slow down password guessing: at most AUTH_TOKEN_RATE attempts per client address.
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "auth"


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
