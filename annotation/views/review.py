"""The reviewers' pages: their home (the queue), claim the next sampled question, audit it,
skip it.

The verdict form posts here (it works without JavaScript for approve and reject; the span
tool fills the corrected span's fields, and the answer's of an unanswerable question found
answerable). The services are the API's.
"""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from annotation.models import Campaign, Lease, RejectReason, Review
from annotation.selectors.quality import review_model, review_queue, reviews_by
from annotation.selectors.questions import reviewed_answer
from annotation.selectors.review_rates import drawn_text
from annotation.services.reviews import review_claim_next, review_submit
from annotation.services.work import lease_release
from annotation.views.page_messages import span_messages
from annotation.views.work import own_lease, script_context
from core.errors import ServiceError
from core.inputs import form_int
from core.permissions import role_required
from core.roles import Role

reviewer_only = role_required(Role.REVIEWER)


@reviewer_only
def reviewer_home(request):
    """Per questions campaign (answerable or unanswerable questions), how many sampled
    questions wait for this reviewer; below, the reviewer's own latest reviews."""
    context = {
        "queue": review_queue(reviewer=request.user),
        "mine": reviews_by(reviewer=request.user),
    }
    return render(request, "annotation/reviewer_home.html", context)


def _claim_and_go(request, campaign: Campaign):
    try:
        claim = review_claim_next(campaign=campaign, reviewer=request.user)
    except ServiceError as error:
        messages.error(request, error.summary())
        return redirect("annotation:reviewer-home")
    if claim is None:
        messages.info(request, _("No question of this campaign is waiting for review."))
        return redirect("annotation:reviewer-home")
    return redirect("annotation:review", pk=claim.lease.pk)


@reviewer_only
@require_POST
def next_review(request, campaign_pk: int):
    campaign = get_object_or_404(
        Campaign.objects.filter(kind__in=Campaign.WRITING_KINDS), pk=campaign_pk
    )
    return _claim_and_go(request, campaign)


def verdict_data(post) -> dict:
    """Turn the verdict form into the API's body: only the fields the verdict uses."""
    verdict = post.get("verdict", "")
    data = {
        "verdict": verdict,
        "comment": post.get("comment", ""),
        "seconds_spent": form_int(post.get("seconds_spent") or "0"),
    }
    if verdict == Review.Verdict.REJECT:
        data["reason"] = post.get("reason", "")
    if verdict == Review.Verdict.CORRECT:
        data["question_text"] = post.get("question_text", "")
        # Both empty: no span shown (an unanswerable question imported without a plausible
        # answer), so none is corrected.
        if post.get("answer_start", "") != "" or post.get("answer_text", "") != "":
            data |= {
                "answer_start": form_int(post.get("answer_start", "")),
                "answer_text": post.get("answer_text", ""),
            }
    if verdict == Review.Verdict.ANSWERABLE:  # its own fields: the correction's stay apart
        data |= {
            "answer_start": form_int(post.get("answerable_start", "")),
            "answer_text": post.get("answerable_text", ""),
        }
    return data


def _page(request, lease: Lease, errors=None, posted=None, status=200):
    question = lease.question
    answer = reviewed_answer(question)  # an unanswerable question's: its plausible span
    posted = posted or {}
    model = review_model(question, lease.paragraph.text)
    context = {
        "lease": lease,
        "campaign": lease.campaign,
        "question": question,
        "answer": answer,
        "paragraph": lease.paragraph,
        "article": lease.paragraph.article,
        "reasons": _reasons(question),
        **script_context(lease.paragraph),
        "drawn": drawn_text(question, lease.campaign),
        "model": model,
        "model_span": model["span"] if model else None,
        "errors": errors or {},
        "posted": posted,
        "span": {
            "start": answer.answer_start if answer else None,
            "text": answer.text if answer else "",
        },
        "page_messages": {
            "answer": _("Answer"),
            "plausible": _("Plausible answer (not the answer)"),
            "selected": _("Selected answer"),
            "corrected": _("Corrected answer"),
            "correctedPlausible": _("Corrected plausible answer"),
            "model": _("The model's answer"),
            **span_messages(),
        },
    }
    return render(request, "annotation/review.html", context, status=status)


@reviewer_only
@require_http_methods(["GET", "POST"])
def review_page(request, pk: int):
    lease = own_lease(request, pk, Lease.Kind.REVIEW)
    if lease.status in (Lease.Status.SUBMITTED, Lease.Status.RELEASED):
        messages.info(request, _("This review is finished."))
        return redirect("annotation:reviewer-home")
    if request.method == "GET":
        return _page(request, lease)
    try:
        review_submit(lease=lease, data=verdict_data(request.POST))
    except ServiceError as error:
        return _page(request, lease, error.errors, request.POST, status=error.status)
    messages.success(request, _saved_message(request.POST.get("verdict")))
    return _claim_and_go(request, lease.campaign)


def _reasons(question) -> list:
    """The reasons to reject: an unanswerable question is meant not to be answered."""
    if question.is_impossible:
        return [c for c in RejectReason.choices if c[0] != RejectReason.NOT_ANSWERED]
    return RejectReason.choices


def _saved_message(verdict) -> str:
    """What the saved review did, as a sentence ("Review saved: correct." read as an adjective)."""
    return {
        Review.Verdict.APPROVE: _("Review saved: question approved."),
        Review.Verdict.REJECT: _("Review saved: question rejected."),
        Review.Verdict.CORRECT: _("Review saved: question corrected."),
        Review.Verdict.ANSWERABLE: _("Review saved: the question does have an answer."),
    }.get(verdict, _("Review saved."))


@reviewer_only
@require_POST
def review_release(request, pk: int):
    lease = own_lease(request, pk, Lease.Kind.REVIEW)
    try:
        lease_release(lease=lease, reason=Lease.Reason.SKIP, note=request.POST.get("note", ""))
    except ServiceError as error:
        messages.error(request, error.summary())
        return redirect(reverse("annotation:review", args=[lease.pk]))
    messages.info(request, _("Skipped: another reviewer will take this question."))
    return _claim_and_go(request, lease.campaign)
