"""A question's page: its answers and its history, for its author, reviewers and admins."""

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from annotation.models import GoldQuestion
from annotation.selectors.questions import (
    answers_held_back,
    question_history,
    questions_visible_to,
)
from annotation.services.gold import gold_mark, gold_unmark
from core.errors import ServiceError
from core.permissions import role_required
from core.roles import Role


def question_page(request, uuid):
    """A question, its answers and its history: for its author, reviewers and admins."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    return _page(request, _visible_question(request, uuid))


def _visible_question(request, uuid):
    question = (
        questions_visible_to(request.user)
        .select_related("author", "paragraph__article", "campaign")
        .filter(uuid=uuid)
        .first()
    )
    if question is None:
        if not any(request.user.has_role(r) for r in Role.values):
            raise PermissionDenied
        raise Http404
    return question


def _page(request, question, gold_errors=None, status=200):
    held_back = answers_held_back(request.user, question.paragraph.article.split)
    answers = question.answers.select_related("author").order_by("kind", "pk")
    context = {
        "question": question,
        "answers": [] if held_back else answers,
        "held_back": held_back,
        **question_history(question),
        # Admins only (docs/quality-control.md): whether the question is gold, and the button
        # that marks it or takes it out of the pool. Nobody else learns which questions are.
        "gold": _gold_state(request.user, question),
        "gold_errors": gold_errors or [],
    }
    return render(request, "annotation/question.html", context, status=status)


def _gold_state(user, question) -> dict | None:
    if not user.has_role(Role.ADMIN):
        return None
    gold = GoldQuestion.objects.filter(question=question).first()
    return {"active": bool(gold and gold.active), "answers": gold.answers if gold else []}


@role_required(Role.ADMIN)
@require_POST
def question_gold(request, uuid):
    """Mark the question gold, or take it out of the gold pool (`action=unmark`); a refusal
    is shown on the question's page with its status (409: the rule does not hold)."""
    question = _visible_question(request, uuid)
    try:
        if request.POST.get("action") == "unmark":
            gold_unmark(question=question, admin=request.user)
            messages.success(request, _("The question is out of the gold pool."))
        else:
            gold_mark(question=question, admin=request.user)
            messages.success(request, _("The question is gold."))
    except ServiceError as error:
        problems = [message for found in error.errors.values() for message in found]
        return _page(request, question, gold_errors=problems, status=error.status)
    return redirect("annotation:question", uuid=question.uuid)
