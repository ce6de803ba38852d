"""The quality API's serializers: per-annotator rows, pauses and an annotator's state."""

from rest_framework import serializers


class QualityRowSerializer(serializers.Serializer):
    annotator = serializers.CharField(source="user.username")
    annotator_id = serializers.IntegerField(source="user.pk")
    paused = serializers.BooleanField(source="user.paused_at", default=False)
    questions = serializers.IntegerField()
    reviewed = serializers.IntegerField()
    approved_pct = serializers.FloatField(allow_null=True)
    corrected_pct = serializers.FloatField(allow_null=True)
    rejected_pct = serializers.FloatField(allow_null=True)
    median_seconds = serializers.FloatField()
    # Model in the loop (docs/review-model.md): questions with a model verdict, how many fooled
    # it, fooled / with a verdict, and validated (fooled and approved, or corrected and still
    # fooled) / reviewed with a verdict; null where the share has no question to count.
    model_judged = serializers.IntegerField()
    fooled = serializers.IntegerField()
    fooling_pct = serializers.FloatField(allow_null=True)
    validated_fooling_pct = serializers.FloatField(allow_null=True)
    # Agreement and signs of careless work (docs/quality.md): null / empty while not measured
    # (a stored figure being computed). `signs`: {sign: {count, answers, share, baseline,
    # flagged, examples}}; `flags`: the names of the flagged signs; `history`: per week
    # {week, agreement, scored, reviewed, rejected_pct}.
    agreement = serializers.FloatField(allow_null=True)
    agreement_answers = serializers.IntegerField(source="scored")
    signs = serializers.DictField(child=serializers.DictField())
    flags = serializers.SerializerMethodField()
    history = serializers.ListField(child=serializers.DictField())
    # The adaptive review and the gold questions (docs/quality-control.md), a campaign's: null
    # without ?campaign=. `review_rate`: {rate (%), why (words), flagged}; `gold`: {score (% of
    # gold answers right), low, high (its Wilson interval), f1 (mean), answers}, null when none.
    review_rate = serializers.DictField(allow_null=True)
    gold = serializers.DictField(allow_null=True)

    def get_flags(self, row) -> list[str]:
        return [flag["sign"] for flag in row["flags"]]

    def to_representation(self, row):
        data = super().to_representation(row)
        data["paused"] = row["user"].paused_at is not None
        return data


class PauseSerializer(serializers.Serializer):
    note = serializers.CharField(required=False, allow_blank=True, max_length=500)


class AnnotatorStateSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    paused_at = serializers.DateTimeField(allow_null=True)
    pause_note = serializers.CharField()
