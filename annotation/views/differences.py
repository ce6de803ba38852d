"""The question–answer difference pages (reviewers and admins): the table per wave, and the
keyboard-first labelling page of one sampled question (docs/differences.md).

The labelling form posts here and works without JavaScript (checkboxes and a button); the
script adds the keys 1–4 and Enter. The service is the API's.
"""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from annotation.models import DifferenceLabel
from annotation.selectors.differences import (
    difference_table,
    labelling_view,
    next_unlabelled,
)
from annotation.services.differences import difference_label
from core.errors import ServiceError
from core.permissions import role_required
from core.roles import Role

labellers_only = role_required(Role.REVIEWER, Role.ADMIN)


@labellers_only
def differences_page(request):
    """The table, per wave and in all, and the way in to labelling."""
    return render(
        request,
        "annotation/differences.html",
        {"table": difference_table(), "next_pk": next_unlabelled(request.user)},
    )


@labellers_only
def difference_next(request):
    """Go to the next sampled question this person has not labelled (or back to the table)."""
    pk = next_unlabelled(request.user)
    if pk is None:
        messages.info(request, _("You have labelled every sampled question."))
        return redirect("annotation:differences")
    return redirect("annotation:difference-label", pk=pk)


@labellers_only
@require_http_methods(["GET", "POST"])
def difference_label_page(request, pk: int):
    """One sampled question: its answer in the paragraph, the four labels; saving goes on to
    the next question this person has not labelled."""
    errors, posted = {}, None
    if request.method == "POST":
        posted = request.POST.getlist("labels")
        try:
            difference_label(question=pk, labeller=request.user, labels=posted)
        except ServiceError as error:
            errors = error.errors
        else:
            following = next_unlabelled(request.user, after=pk)
            if following is None:
                messages.success(request, _("Saved. You have labelled every sampled question."))
                return redirect("annotation:differences")
            return redirect("annotation:difference-label", pk=following)
    try:
        view = labelling_view(pk, request.user)
    except ServiceError as error:
        messages.error(request, error.summary())
        return redirect("annotation:differences")
    chosen = posted if posted is not None else view.labels
    return render(
        request,
        "annotation/differences_label.html",
        {
            "view": view,
            "question": view.question,
            "paragraph": view.question.paragraph,
            "article": view.question.paragraph.article,
            "span": {"start": view.answer_start, "text": view.answer_text},
            "page_messages": {"answer": _("the answer")},
            "choices": [
                {"value": value, "name": name, "key": index, "checked": value in chosen}
                for index, (value, name) in enumerate(DifferenceLabel.choices, start=1)
            ],
            "errors": errors,
        },
        status=400 if errors else 200,
    )
