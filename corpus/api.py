"""Corpus API for admins: articles and paragraphs (cursor pages, filters), scrape runs."""

from django.db.models import Count
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.pagination import CursorPagination
from rest_framework.response import Response

from core.api import JobSerializer, JobViewSet, job_fields
from core.errors import ServiceError
from core.inputs import check_text, parse_id
from core.pagination import query_page_size, with_minimum
from core.permissions import IsPlatformAdmin
from corpus.models import Article, Paragraph, ScrapeLogEntry, ScrapeRun, Split
from corpus.services.articles import article_set_split
from corpus.services.scraping import scrape_run_resume, scrape_run_start


class ByIdCursor(CursorPagination):
    ordering = "pk"
    page_size = 100
    max_page_size = 1000
    page_size_query_param = "page_size"

    def get_page_size(self, request):
        """`page_size`, at most `max_page_size`; one that is not a whole number is a 400."""
        param = self.page_size_query_param
        return query_page_size(request, param, default=self.page_size, largest=self.max_page_size)

    def get_schema_operation_parameters(self, view):
        return with_minimum(
            super().get_schema_operation_parameters(view), {self.page_size_query_param: 1}
        )


class ArticleSerializer(serializers.ModelSerializer):
    paragraph_count = serializers.IntegerField(read_only=True)
    # "" for an article loaded from a file (the schema said `uri`, which "" is not).
    url = serializers.CharField(read_only=True)

    class Meta:
        model = Article
        fields = [
            "id",
            "language",
            "title",
            "source_title",
            "page_id",
            "revision_id",
            "url",
            "wave",
            "split",
            "split_fixed",
            "source",
            "fetched_at",
            "text_sha256",
            "paragraph_count",
        ]
        read_only_fields = fields


class ParagraphSerializer(serializers.ModelSerializer):
    split = serializers.CharField(source="article.split", read_only=True)
    wave = serializers.CharField(source="article.wave", read_only=True)

    class Meta:
        model = Paragraph
        fields = ["id", "article", "position", "text", "split", "wave"]


def filter_split_wave(queryset, params, prefix=""):
    """Apply ?split= and ?wave= filters; an unknown split is a 400 naming the parameter."""
    split, wave = params.get("split"), params.get("wave")
    if split:
        if split not in Split.values:
            raise ServiceError({"split": [_("Unknown split “%(split)s”.") % {"split": split}]})
        queryset = queryset.filter(**{f"{prefix}split": split})
    if wave:
        queryset = queryset.filter(**{f"{prefix}wave": check_text(wave, "wave")})
    return queryset


SPLIT_WAVE = [
    OpenApiParameter("split", OpenApiTypes.STR, enum=Split.values),
    OpenApiParameter("wave", OpenApiTypes.STR),
]


class ArticleSplitSerializer(serializers.Serializer):
    split = serializers.ChoiceField(choices=Split.choices)


@extend_schema_view(list=extend_schema(parameters=SPLIT_WAVE))
class ArticleViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Articles of the corpus; PATCH {"split": …} moves one by hand (later waves keep it)."""

    permission_classes = [IsPlatformAdmin]
    serializer_class = ArticleSerializer
    pagination_class = ByIdCursor
    http_method_names = ["get", "patch", "head", "options"]

    def get_queryset(self):
        articles = Article.objects.annotate(paragraph_count=Count("paragraphs"))
        return filter_split_wave(articles, self.request.query_params)

    @extend_schema(request=ArticleSplitSerializer, responses=ArticleSerializer)
    def partial_update(self, request, pk=None):
        article = self.get_object()
        payload = ArticleSplitSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        article_set_split(article=article, split=payload.validated_data["split"])
        return Response(ArticleSerializer(self.get_queryset().get(pk=article.pk)).data)


@extend_schema_view(
    list=extend_schema(parameters=[*SPLIT_WAVE, OpenApiParameter("article", OpenApiTypes.INT)])
)
class ParagraphViewSet(viewsets.ReadOnlyModelViewSet):
    permission_classes = [IsPlatformAdmin]
    serializer_class = ParagraphSerializer
    pagination_class = ByIdCursor

    def get_queryset(self):
        paragraphs = Paragraph.objects.select_related("article")
        article = self.request.query_params.get("article")
        if article:
            paragraphs = paragraphs.filter(article_id=parse_id(article, "article"))
        return filter_split_wave(paragraphs, self.request.query_params, prefix="article__")


class ScrapeLogEntrySerializer(serializers.ModelSerializer):
    message = serializers.CharField(source="message_text", read_only=True)

    class Meta:
        model = ScrapeLogEntry
        fields = ["created_at", "level", "title", "message", "dropped"]


class ScrapeRunSerializer(JobSerializer):
    class Meta:
        model = ScrapeRun
        fields = job_fields(
            "category language sample_size seed wave ratios min_chars max_chars",
            results="articles_total articles_done articles_failed paragraphs_kept",
        )
        read_only_fields = fields


class ScrapeRunCreateSerializer(serializers.Serializer):
    category = serializers.CharField(max_length=255)
    sample = serializers.IntegerField()
    seed = serializers.IntegerField()
    wave = serializers.CharField(max_length=20)
    language = serializers.CharField(max_length=12, required=False)


class ScrapeRunViewSet(JobViewSet):
    """Admins start a scrape run (queue `scrape`) and follow it; `log` lists what happened."""

    serializer_class = ScrapeRunSerializer
    create_serializer_class = ScrapeRunCreateSerializer
    queryset = ScrapeRun.objects.all()

    def start(self, data):
        return scrape_run_start(
            category=data["category"],
            sample_size=data["sample"],
            seed=data["seed"],
            wave=data["wave"],
            language=data.get("language"),
            created_by=self.request.user,
        )

    @extend_schema(responses=ScrapeLogEntrySerializer(many=True))
    @action(detail=True, pagination_class=None)  # the whole log, one plain list
    def log(self, request, pk=None):
        run = self.get_object()
        return Response(ScrapeLogEntrySerializer(run.log_entries.all(), many=True).data)

    @extend_schema(request=None, responses=ScrapeRunSerializer)
    @action(detail=True, methods=["post"])
    def resume(self, request, pk=None):
        run = scrape_run_resume(run=self.get_object())
        return Response(ScrapeRunSerializer(run).data)
