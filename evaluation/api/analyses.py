"""The dataset analyses API: admins start an analysis and read its figures."""

from rest_framework import serializers

from core.api import JobViewSet
from evaluation.models import DatasetAnalysis
from evaluation.services.analysis.dataset_analysis import analysis_start


class DatasetAnalysisSerializer(serializers.ModelSerializer):
    message = serializers.CharField(source="message_text", read_only=True)

    class Meta:
        model = DatasetAnalysis
        fields = [
            "id",
            "status",
            "progress",
            "message",
            "error",
            "results",
            "created_at",
            "started_at",
            "finished_at",
        ]
        read_only_fields = fields


class DatasetAnalysisViewSet(JobViewSet):
    """Admins only: start a dataset analysis (POST, no body) and read its figures."""

    serializer_class = DatasetAnalysisSerializer
    queryset = DatasetAnalysis.objects.all()

    def start(self, data):
        return analysis_start(created_by=self.request.user)
