from django.db.models import QuerySet
from django.utils.translation import gettext as _

from accounts.roles import Role
from annotation.models import Campaign, Question
from core.errors import ServiceError
from corpus.models import Split


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
        if not str(campaign).isdigit():
            raise ServiceError({"campaign": [_("A campaign id is a whole number.")]})
        questions = questions.filter(campaign_id=int(campaign))
    if author:
        questions = questions.filter(author__username=author)
    if status:
        if status not in Question.Status.values:
            raise ServiceError({"status": [_("Unknown status “%(s)s”.") % {"s": status}]})
        questions = questions.filter(status=status)
    if split:
        if split not in Split.values:
            raise ServiceError({"split": [_("Unknown split “%(split)s”.") % {"split": split}]})
        questions = questions.filter(paragraph__article__split=split)
    return questions.order_by("-created_at", "-pk")
