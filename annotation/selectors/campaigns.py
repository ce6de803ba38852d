"""Reads of campaigns: who may see which, how far one is, its question types and reports."""

from django.core.cache import cache
from django.db.models import Count, QuerySet
from django.utils import timezone

from annotation.models import Campaign, Lease, QuestionType
from core.roles import Role
from corpus.models import Paragraph


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


def campaign_forget(pk: int) -> None:
    """Drop what the cache holds of a campaign: it was saved or deleted."""
    cache.delete_many([_campaign_key(pk), ANSWERING_KEY])


def held_campaigns(*, annotator) -> set[int]:
    """Return the campaigns where this annotator holds an item (a paragraph or a question)."""
    held = Lease.objects.filter(
        annotator=annotator,
        status=Lease.Status.ACTIVE,
        kind__in=[Lease.Kind.WRITE, Lease.Kind.ANSWER],
        expires_at__gte=timezone.now(),
    )
    return set(held.values_list("campaign_id", flat=True))


def campaign_progress(campaign: Campaign) -> dict:
    """Return how far a questions campaign is: paragraphs, leases, questions, annotators."""
    paragraphs = Paragraph.objects.filter(
        article__split__in=campaign.splits, article__language=campaign.language
    ).count()
    leases = campaign.leases.filter(kind=Lease.Kind.WRITE)  # reviews are not paragraphs
    now = timezone.now()
    return {
        "paragraphs": paragraphs,
        "submitted": leases.filter(status=Lease.Status.SUBMITTED).count(),
        "in_progress": leases.filter(status=Lease.Status.ACTIVE, expires_at__gte=now).count(),
        "reported": leases.filter(release_reason=Lease.Reason.UNSUITABLE).count(),
        "questions": campaign.questions.count(),
        "annotators": campaign.questions.values("author").distinct().count(),
    }


def question_type_distribution(campaign: Campaign) -> list[dict]:
    """Return, per question type, the count, the share (%) and the campaign's target (%)."""
    counts = dict(campaign.questions.values_list("question_type").annotate(n=Count("id")))
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


def unsuitable_reports(campaign: Campaign) -> QuerySet:
    """Return the paragraphs annotators reported as unsuitable, newest first."""
    return (
        campaign.leases.filter(release_reason=Lease.Reason.UNSUITABLE)
        .select_related("annotator", "paragraph__article")
        .order_by("-finished_at", "-pk")
    )
