"""A question's page: its answers and its history, for its author, reviewers and admins."""

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import render

from annotation.selectors.questions import (
    answers_held_back,
    question_history,
    questions_visible_to,
)
from core.roles import Role


def question_page(request, uuid):
    """A question, its answers and its history: for its author, reviewers and admins."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
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
    held_back = answers_held_back(request.user, question.paragraph.article.split)
    answers = question.answers.select_related("author").order_by("kind", "pk")
    context = {
        "question": question,
        "answers": [] if held_back else answers,
        "held_back": held_back,
        **question_history(question),
    }
    return render(request, "annotation/question.html", context)
