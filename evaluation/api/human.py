"""The human performance API for admins."""

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from core.errors import ServiceError
from core.languages import codes, is_known
from core.permissions import IsPlatformAdmin
from corpus.models import Split
from evaluation.selectors.human import human_performance_report


class HumanPerformanceView(APIView):
    """Admins: FQuAD's human performance per split and per annotator, beside the paper's."""

    permission_classes = [IsPlatformAdmin]

    @extend_schema(
        parameters=[
            OpenApiParameter("split", OpenApiTypes.STR, enum=Split.values),
            OpenApiParameter(
                "language",
                OpenApiTypes.STR,
                description="A code of the registry (docs/languages.md); left out: the site's.",
            ),
        ],
        responses=OpenApiTypes.OBJECT,
    )
    def get(self, request):
        split = request.query_params.get("split") or None
        if split is not None and split not in Split.values:
            raise ServiceError({"split": [_("Unknown split “%(split)s”.") % {"split": split}]})
        language = request.query_params.get("language") or None
        if language is not None and not is_known(language):
            known = ", ".join(codes())
            message = _("Choose a language of the platform: %(known)s.") % {"known": known}
            raise ServiceError({"language": [message]})
        return Response(human_performance_report(split=split, language=language))
