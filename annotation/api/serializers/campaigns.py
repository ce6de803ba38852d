"""The campaigns API's serializers: a campaign as read, and the fields a write may send."""

from rest_framework import serializers

from annotation.models import Campaign
from annotation.services.campaigns import FIELDS


class CampaignSerializer(serializers.ModelSerializer):
    class Meta:
        model = Campaign
        fields = ["id", *FIELDS, "created_at", "updated_at"]
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
    review_warmup = serializers.IntegerField(required=False)
    review_warmup_rate = serializers.DecimalField(max_digits=3, decimal_places=2, required=False)
    review_adaptive = serializers.BooleanField(required=False)
    review_floor = serializers.DecimalField(max_digits=3, decimal_places=2, required=False)
    review_ceiling = serializers.DecimalField(max_digits=3, decimal_places=2, required=False)
    review_error_bar = serializers.DecimalField(max_digits=3, decimal_places=2, required=False)
    gold_share = serializers.DecimalField(max_digits=3, decimal_places=2, required=False)
    qualification_questions = serializers.IntegerField(required=False)
    qualification_bar = serializers.IntegerField(required=False)
    extra_answers = serializers.IntegerField(required=False)
    unanswerable_per_paragraph = serializers.IntegerField(required=False)
    lease_minutes = serializers.IntegerField(required=False)
    seconds_per_question = serializers.IntegerField(required=False)
    question_type_targets = serializers.DictField(child=serializers.IntegerField(), required=False)
    # Its length is the service's rule too (Campaign.GUIDELINES_MAX_LENGTH), with its message.
    guidelines = serializers.CharField(allow_blank=True, required=False)
    active = serializers.BooleanField(required=False)
