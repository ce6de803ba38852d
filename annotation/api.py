"""Campaign API: workers list the active campaigns; admins create and change them."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status, viewsets
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from accounts.permissions import IsPlatformAdmin
from annotation.models import Campaign
from annotation.selectors import campaigns_for
from annotation.services import campaign_create, campaign_update


class CampaignSerializer(serializers.ModelSerializer):
    class Meta:
        model = Campaign
        fields = [
            "id",
            "name",
            "kind",
            "language",
            "splits",
            "questions_min",
            "questions_max",
            "review_rate",
            "extra_answers",
            "lease_minutes",
            "question_type_targets",
            "guidelines",
            "active",
            "created_at",
            "updated_at",
        ]
        read_only_fields = ["id", "created_at", "updated_at"]


class CampaignWriteSerializer(serializers.Serializer):
    """Types only; the rules (bounds, splits, targets) are the service's."""

    name = serializers.CharField(max_length=200)
    kind = serializers.CharField(max_length=32, required=False)
    language = serializers.CharField(max_length=12, required=False)
    splits = serializers.ListField(child=serializers.CharField(max_length=8), required=False)
    questions_min = serializers.IntegerField(required=False)
    questions_max = serializers.IntegerField(required=False)
    review_rate = serializers.DecimalField(max_digits=3, decimal_places=2, required=False)
    extra_answers = serializers.IntegerField(required=False)
    lease_minutes = serializers.IntegerField(required=False)
    question_type_targets = serializers.DictField(child=serializers.IntegerField(), required=False)
    guidelines = serializers.CharField(allow_blank=True, required=False, max_length=20_000)
    active = serializers.BooleanField(required=False)


class CampaignViewSet(viewsets.ModelViewSet):
    serializer_class = CampaignSerializer
    http_method_names = ["get", "post", "patch", "head", "options"]

    def get_permissions(self):
        if self.action in ("list", "retrieve"):
            return [IsAuthenticated()]
        return [IsPlatformAdmin()]

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # schema generation, no real user
            return Campaign.objects.none()
        return campaigns_for(self.request.user)

    def _payload(self, partial: bool) -> dict:
        payload = CampaignWriteSerializer(data=self.request.data, partial=partial)
        payload.is_valid(raise_exception=True)
        return dict(payload.validated_data)

    @extend_schema(request=CampaignWriteSerializer, responses={201: CampaignSerializer})
    def create(self, request):
        campaign = campaign_create(created_by=request.user, **self._payload(partial=False))
        return Response(CampaignSerializer(campaign).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=CampaignWriteSerializer, responses=CampaignSerializer)
    def partial_update(self, request, pk=None):
        campaign = campaign_update(campaign=self.get_object(), **self._payload(partial=True))
        return Response(CampaignSerializer(campaign).data)
