"""Reads of campaigns: who may see which, how far one is, its question types and reports."""

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db.models import Count, Exists, Max, OuterRef, Q, QuerySet
from django.utils import timezone

from annotation.models import Campaign, Lease, Question, QuestionType, Review
from core.figures import Figure, FigureReading
from core.pagination import KeysetPage, keyset_page
from core.roles import Role
from corpus.models import Paragraph
from corpus.selectors import corpus_is_small, hand_moved_articles


def campaigns_for(user) -> QuerySet:
    """Return the campaigns a user may see: all for admins, the active ones for workers."""
    if user.has_role(Role.ADMIN):
        return Campaign.objects.all()
    if user.has_role(Role.ANNOTATOR) or user.has_role(Role.REVIEWER):
        return Campaign.objects.filter(active=True)
    return Campaign.objects.none()


# The work loop reads its campaign on every claim and submit: from the cache, forgotten at once
# when a campaign is saved or deleted (`annotation.signals`). A change made without `save()`
# (a queryset `update`) shows within CAMPAIGN_SECONDS.
CAMPAIGN_SECONDS = 60
ANSWERING_KEY = "campaigns:answering"
UNANSWERABLE_KEY = "campaigns:unanswerable"


def _campaign_key(pk: int) -> str:
    return f"campaign:{pk}"


def campaign_cached(pk: int) -> Campaign | None:
    """Return the campaign with this id, from the cache when it is there."""
    campaign = cache.get(_campaign_key(pk))
    if campaign is None:
        campaign = Campaign.objects.filter(pk=pk).first()
        if campaign is not None:
            cache.set(_campaign_key(pk), campaign, CAMPAIGN_SECONDS)
    return campaign


def campaign_for(user, pk: int) -> Campaign | None:
    """Return the campaign if this user may see it (`campaigns_for`'s rule), from the cache."""
    campaign = campaign_cached(pk)
    if campaign is None or user.has_role(Role.ADMIN):
        return campaign
    if campaign.active and (user.has_role(Role.ANNOTATOR) or user.has_role(Role.REVIEWER)):
        return campaign
    return None


def answering_campaigns() -> list[Campaign]:
    """Return the open additional-answers campaigns (new questions become their items)."""
    campaigns = cache.get(ANSWERING_KEY)
    if campaigns is None:
        campaigns = list(
            Campaign.objects.filter(active=True, kind=Campaign.Kind.ADDITIONAL_ANSWERS)
        )
        cache.set(ANSWERING_KEY, campaigns, CAMPAIGN_SECONDS)
    return campaigns


def unanswerable_campaigns() -> list[Campaign]:
    """Return the open unanswerable-questions campaigns (the paragraphs of new answerable
    questions become their items)."""
    campaigns = cache.get(UNANSWERABLE_KEY)
    if campaigns is None:
        campaigns = list(Campaign.objects.filter(active=True, kind=Campaign.Kind.UNANSWERABLE))
        cache.set(UNANSWERABLE_KEY, campaigns, CAMPAIGN_SECONDS)
    return campaigns


def item_campaigns() -> tuple[list[Campaign], list[Campaign]]:
    """Return the open unanswerable-questions and additional-answers campaigns (what
    `unanswerable_campaigns` and `answering_campaigns` return) from one cache read: every
    submission asks for both."""
    found = cache.get_many([UNANSWERABLE_KEY, ANSWERING_KEY])
    unanswerable = found.get(UNANSWERABLE_KEY)
    answering = found.get(ANSWERING_KEY)
    return (
        unanswerable_campaigns() if unanswerable is None else unanswerable,
        answering_campaigns() if answering is None else answering,
    )


def campaign_forget(pk: int) -> None:
    """Drop what the cache holds of a campaign: it was saved or deleted."""
    cache.delete_many([_campaign_key(pk), ANSWERING_KEY, UNANSWERABLE_KEY])


def held_campaigns(*, annotator) -> set[int]:
    """Return the campaigns where this annotator holds an item (a paragraph or a question)."""
    held = Lease.objects.filter(
        annotator=annotator,
        status=Lease.Status.ACTIVE,
        kind__in=[Lease.Kind.WRITE, Lease.Kind.ANSWER],
        expires_at__gte=timezone.now(),
    )
    return set(held.values_list("campaign_id", flat=True))


# How many paragraphs a campaign's splits hold: a count over the corpus (a million paragraphs at
# 10× FQuAD), so a stored figure (`core.figures`): counted during the request while the corpus is
# small, else read from its last computation, computed again by a job when the corpus changed.
PARAGRAPHS_FIGURE = "annotation.campaign_paragraphs"


def _paragraphs(*, language: str, splits: list[str], answered: bool = False) -> int:
    """The paragraphs of the splits; `answered`: only those with an answerable question (what
    a campaign of unanswerable questions offers)."""
    paragraphs = Paragraph.objects.filter(article__language=language, article__split__in=splits)
    if answered:
        asked = Question.objects.filter(paragraph=OuterRef("pk"), is_impossible=False).exclude(
            status=Question.Status.REJECTED
        )
        paragraphs = paragraphs.filter(Exists(asked))
    return paragraphs.count()


def _paragraphs_fingerprint(*, language: str, splits: list[str], answered: bool = False) -> str:
    """The newest paragraph, and the articles moved to another split by hand (an article is
    otherwise stored in its split once and for all): reads through indexes. With `answered`,
    the newest question and the reviews too (a rejection takes a paragraph out)."""
    newest = Paragraph.objects.aggregate(newest=Max("pk"))["newest"]
    if answered:
        questions = Question.objects.aggregate(newest=Max("pk"))["newest"]
        reviews = Review.objects.aggregate(newest=Max("pk"))["newest"]
        newest = f"{newest}:{questions}:{reviews}"
    return f"{newest}:{hand_moved_articles()}"


def paragraphs_figure() -> Figure:
    """The figure registered by the app (`AnnotationConfig.ready`)."""
    return Figure(PARAGRAPHS_FIGURE, _paragraphs, _paragraphs_fingerprint, corpus_is_small)


def paragraphs_params(campaign: Campaign) -> dict:
    """The parameters of the campaign's paragraphs figure (read by the page with
    `core.services.figure_jobs.figure_read`, which starts the job that counts them when needed)."""
    params = {"language": campaign.language, "splits": campaign.splits}
    if campaign.kind == Campaign.Kind.UNANSWERABLE:
        params["answered"] = True
    return params


def campaign_progress(
    campaign: Campaign,
    *,
    paragraphs: FigureReading,
    types: dict[str, int] | None = None,
) -> dict:
    """Return how far a questions campaign is: paragraphs, leases, questions, annotators.

    Each count goes through an index that holds what it counts (the campaign's writing leases
    by status, the unsuitable reports, the question types, one probe per author). The
    paragraphs are the figure the page read (None while their first count runs); the questions
    are the sum of `type_counts`. Pass what the page read already.
    """
    types = type_counts(campaign) if types is None else types
    leases = campaign.leases.filter(kind=Lease.Kind.WRITE)  # reviews are not paragraphs
    now = timezone.now()
    return {
        "paragraphs": paragraphs.value,
        "submitted": leases.filter(status=Lease.Status.SUBMITTED).count(),
        "in_progress": leases.filter(status=Lease.Status.ACTIVE, expires_at__gte=now).count(),
        "reported": unsuitable_reports(campaign).count(),
        "questions": sum(types.values()),
        "unanswerable": (
            campaign.questions.filter(is_impossible=True).count()
            if campaign.kind == Campaign.Kind.UNANSWERABLE or campaign.unanswerable_per_paragraph
            else None
        ),
        # Model in the loop: its verdicts so far (questions it answered, and fooled).
        "model": (
            campaign.questions.aggregate(
                judged=Count("pk", filter=Q(model_fooled__isnull=False)),
                fooled=Count("pk", filter=Q(model_fooled=True)),
            )
            if campaign.model_round
            else None
        ),
        "annotators": get_user_model()
        .objects.filter(Exists(Question.objects.filter(campaign=campaign, author=OuterRef("pk"))))
        .count(),
    }


def type_counts(campaign: Campaign) -> dict[str, int]:
    """Return the campaign's questions per type (types without questions left out)."""
    rows = campaign.questions.order_by().values_list("question_type").annotate(n=Count("id"))
    return dict(rows)


def question_type_distribution(
    campaign: Campaign, *, counts: dict[str, int] | None = None
) -> list[dict]:
    """Return, per question type, the count, the share (%) and the campaign's target (%)."""
    counts = type_counts(campaign) if counts is None else counts
    total = sum(counts.values())
    targets = campaign.question_type_targets or {}
    return [
        {
            "type": value,
            "label": label,
            "count": counts.get(value, 0),
            "share": round(100 * counts.get(value, 0) / total, 1) if total else 0.0,
            "target": targets.get(value),
        }
        for value, label in QuestionType.choices
    ]


REPORTS_PAGE_SIZE = 25
REPORTS_ORDER = ("-finished_at", "-pk")


def unsuitable_reports(campaign: Campaign) -> QuerySet:
    """Return the paragraphs annotators reported as unsuitable, newest first."""
    return (
        campaign.leases.filter(release_reason=Lease.Reason.UNSUITABLE)
        .select_related("annotator", "paragraph__article")
        .order_by(*REPORTS_ORDER)
    )


def unsuitable_reports_page(campaign: Campaign, *, after: str = "", before: str = "") -> KeysetPage:
    """Return a page of the unsuitable reports, newest first (keyset: the list can grow)."""
    return keyset_page(
        unsuitable_reports(campaign),
        order=REPORTS_ORDER,
        size=REPORTS_PAGE_SIZE,
        after=after,
        before=before,
    )
