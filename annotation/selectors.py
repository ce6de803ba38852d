import uuid

from django.db.models import Count, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.roles import Role
from annotation.models import Campaign, Lease, Question, QuestionType
from core.errors import ServiceError
from core.inputs import check_text, parse_id
from corpus.models import Paragraph, Split


def campaigns_for(user) -> QuerySet:
    """Return the campaigns a user may see: all for admins, the active ones for workers."""
    if user.has_role(Role.ADMIN):
        return Campaign.objects.all()
    if user.has_role(Role.ANNOTATOR) or user.has_role(Role.REVIEWER):
        return Campaign.objects.filter(active=True)
    return Campaign.objects.none()


def questions_visible_to(user) -> QuerySet:
    """Return the questions a user may read: annotators their own, reviewers and admins all."""
    if user.has_role(Role.ADMIN) or user.has_role(Role.REVIEWER):
        return Question.objects.all()
    if user.has_role(Role.ANNOTATOR):
        return Question.objects.filter(author=user)
    return Question.objects.none()


def questions_filter(
    questions: QuerySet, *, campaign=None, author=None, status=None, split=None
) -> QuerySet:
    """Apply the list filters; a malformed value is refused naming the parameter."""
    if campaign:
        questions = questions.filter(campaign_id=parse_id(campaign, "campaign"))
    if author:
        questions = questions.filter(author__username=check_text(author, "author"))
    if status:
        if status not in Question.Status.values:
            raise ServiceError({"status": [_("Unknown status “%(s)s”.") % {"s": status}]})
        questions = questions.filter(status=status)
    if split:
        if split not in Split.values:
            raise ServiceError({"split": [_("Unknown split “%(split)s”.") % {"split": split}]})
        questions = questions.filter(paragraph__article__split=split)
    return questions.order_by("-created_at", "-pk")


def campaign_progress(campaign: Campaign) -> dict:
    """Return how far a questions campaign is: paragraphs, leases, questions, annotators."""
    paragraphs = Paragraph.objects.filter(
        article__split__in=campaign.splits, article__language=campaign.language
    ).count()
    leases = campaign.leases
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


def questions_by_export_id(ids) -> QuerySet:
    """Return the questions released under these ids: an imported id, or else the uuid."""
    ids = list(ids)
    uuids = []
    for value in ids:
        try:
            uuids.append(uuid.UUID(value))
        except (ValueError, TypeError, AttributeError):
            continue
    return Question.objects.filter(Q(source_id__in=ids) | Q(uuid__in=uuids))
