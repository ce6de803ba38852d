"""The dataset analyses API: admins start an analysis and read its figures."""

from core.api import JobSerializer, JobViewSet, job_fields
from evaluation.models import DatasetAnalysis
from evaluation.services.analysis.dataset_analysis import analysis_start


class DatasetAnalysisSerializer(JobSerializer):
    class Meta:
        model = DatasetAnalysis
        fields = job_fields(results="results")
        read_only_fields = fields


class DatasetAnalysisViewSet(JobViewSet):
    """Admins only: start a dataset analysis (POST, no body) and read its figures."""

    serializer_class = DatasetAnalysisSerializer
    queryset = DatasetAnalysis.objects.all()

    def start(self, data):
        return analysis_start(created_by=self.request.user)
