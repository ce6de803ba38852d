"""The annotators' pages: their home, claim the next item, the annotation and answer pages,
give an item back.

Saving drafts and submitting go through the JSON API (`/api/v1/leases/…`) from the page's
script, so the page and scripts share one door.
"""

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from annotation.models import Campaign, Lease
from annotation.selectors.campaigns import campaign_for, campaigns_for, held_campaigns
from annotation.selectors.qualification import qualification_item_of, qualification_standing
from annotation.selectors.quality import feedback_for
from annotation.selectors.questions import lease_sent_questions, paragraph_existing_questions
from annotation.selectors.reports import annotator_summary, format_hm
from annotation.selectors.scripts import paragraph_script, words_missing
from annotation.services.answers import answer_claim_next, answer_submit
from annotation.services.work import lease_claim_next, lease_get, lease_release
from annotation.validation import MAX_QUESTION_CHARS
from annotation.views.page_messages import answer_page_messages, lease_page_messages
from core.errors import ServiceError
from core.inputs import form_int
from core.permissions import role_required
from core.roles import Role

annotator_only = role_required(Role.ANNOTATOR)
AHEAD_SECONDS = 120  # how long a page fetched ahead stays usable for "Next paragraph"


@annotator_only
def annotator_home(request):
    """The campaigns to work on, the annotator's own figures and the reviews of their work."""
    summary = annotator_summary(user=request.user)
    summary["time_week"] = format_hm(summary["seconds_week"])
    summary["time_total"] = format_hm(summary["seconds_total"])
    campaigns = list(campaigns_for(request.user))
    for campaign in campaigns:  # where they stand in each round (docs/quality.md)
        standing = qualification_standing(campaign=campaign, user=request.user)
        campaign.qualification_status = standing.status
    return render(
        request,
        "annotation/annotator_home.html",
        {
            "campaigns": campaigns,
            "held": held_campaigns(annotator=request.user),
            "summary": summary,
            "feedback": feedback_for(annotator=request.user),
        },
    )


def own_lease(request, pk: int, kind: str | None = None) -> Lease:
    """Return the user's lease (of this kind, if given); 404 for none, 403 for another's."""
    try:
        lease = lease_get(lease_pk=pk, annotator=request.user)
    except ServiceError as error:
        if error.status == 404:
            raise Http404 from None
        raise PermissionDenied from None
    if kind is not None and lease.kind != kind:
        raise Http404
    return lease


@annotator_only
@require_POST
def next_paragraph(request, campaign_pk: int):
    campaign = campaign_for(request.user, campaign_pk)
    if campaign is None:
        raise Http404
    answering = campaign.kind == Campaign.Kind.ADDITIONAL_ANSWERS
    claim_next = answer_claim_next if answering else lease_claim_next
    try:
        claim = claim_next(campaign=campaign, annotator=request.user)
    except ServiceError as error:
        messages.error(request, error.summary())
        if "qualification" in error.errors:  # failed the round: their answers, the guidelines
            return redirect("annotation:qualification", campaign_pk=campaign.pk)
        return redirect("annotation:annotator-home")
    if claim is None:
        if answering:
            messages.info(request, _("No question of this campaign is waiting for you. Thank you!"))
        else:
            messages.info(request, _("Every paragraph of this campaign is taken. Thank you!"))
        return redirect("annotation:annotator-home")
    return redirect("annotation:lease", pk=claim.lease.pk)


def writing_mode(campaign: Campaign) -> str:
    """What the annotation page asks for: "answerable" questions, "unanswerable" ones, or
    "mixed" (answerable ones and the campaign's number of unanswerable ones)."""
    if campaign.kind == Campaign.Kind.UNANSWERABLE:
        return "unanswerable"
    return "mixed" if campaign.unanswerable_per_paragraph else "answerable"


def _sent_counter(questions: list[dict], campaign: Campaign, mode: str) -> str:
    """The count beside "Your questions" as the live page writes it (annotate.js)."""
    low, high = campaign.questions_min, campaign.questions_max
    if mode != "mixed":
        return f"{len(questions)} / {low}–{high}"
    impossible = sum(1 for question in questions if question["is_impossible"])
    return (
        f"{len(questions) - impossible} / {low}–{high} {_('answerable')} · "
        f"{impossible} / {campaign.unanswerable_per_paragraph} {_('unanswerable')}"
    )


def _sent_pieces(text: str, questions: list[dict]) -> list[dict]:
    """The paragraph cut into pieces, the sent answers marked as the live page marks them
    (annotate.js `renderHighlights`): where spans overlap, the later question's wins. The
    template escapes every piece."""
    owner = [-1] * len(text)
    for index, question in enumerate(questions):
        if question["start"] is None or not question["answer"]:
            continue
        start = max(question["start"], 0)
        for i in range(start, min(start + len(question["answer"]), len(text))):
            owner[i] = index
    pieces, start = [], 0
    for i in range(1, len(text) + 1):
        if i < len(text) and owner[i] == owner[start]:
            continue
        piece = {"text": text[start:i]}
        if owner[start] >= 0:
            impossible = questions[owner[start]]["is_impossible"]
            piece["class"] = "plausible-mark" if impossible else "answer-mark"
            piece["index"] = owner[start]
            piece["label"] = (
                f"{_('Plausible answer') if impossible else _('Answer')} {owner[start] + 1}"
            )
        pieces.append(piece)
        start = i
    return pieces


@annotator_only
@require_http_methods(["GET"])
def lease_page(request, pk: int):
    lease = own_lease(request, pk)
    # A paragraph already sent (Back after "Send", a reload, a second tab) is shown as sent,
    # with the next one offered: never as an editable page whose sending would be refused.
    sent = lease.status == Lease.Status.SUBMITTED and lease.kind == Lease.Kind.WRITE
    finished = _finished_lease_redirect(request, lease, sent)
    if finished is not None:
        return finished
    if lease.kind == Lease.Kind.ANSWER:
        return _answer_page(request, lease)
    if lease.kind != Lease.Kind.WRITE:
        raise Http404
    response = render(request, "annotation/lease.html", _lease_context(lease, sent))
    if request.GET.get("ahead") and not sent:
        # The page fetched ahead while "Sent" shows (annotate.js, `?ahead=<once>`): the
        # browser keeps it for the click on "Next paragraph", which then costs no request.
        # The address is used once (a fresh value each time), so no later visit reads it.
        response["Cache-Control"] = f"private, max-age={AHEAD_SECONDS}"
    else:
        # Every other visit (Back included) asks the server: a paragraph sent since shows
        # as sent, a draft saved since shows as saved.
        add_never_cache_headers(response)
    return response


def _finished_lease_redirect(request, lease: Lease, sent: bool):
    """Where a finished lease's page sends its holder, other than a sent paragraph (shown
    as sent): a qualification round's answered question to its feedback, any other item
    sent or given back home. None for a lease whose page shows."""
    if lease.status == Lease.Status.SUBMITTED and lease.kind == Lease.Kind.ANSWER:
        item = qualification_item_of(lease)
        if item is not None:  # the round's question answered (Back, a reload): its feedback
            return redirect("annotation:qualification-item", pk=item.pk)
    if lease.status in (Lease.Status.SUBMITTED, Lease.Status.RELEASED) and not sent:
        messages.info(request, _("This item is finished: it was sent or given back."))
        return redirect("annotation:annotator-home")
    return None


def _lease_context(lease: Lease, sent: bool) -> dict:
    """The annotation page's context: the paragraph, the questions already asked on it, what
    was sent (a sent paragraph), the script's language and messages, and its addresses."""
    campaign = lease.campaign
    mode = writing_mode(campaign)
    existing = [] if mode == "answerable" else paragraph_existing_questions(lease.paragraph_id)
    sent_questions = lease_sent_questions(lease) if sent else []
    paragraph = lease.paragraph
    script = paragraph_script(text=paragraph.text, language=paragraph.article.language)
    return {
        "lease": lease,
        "campaign": campaign,
        "sent": sent,
        "sent_questions": sent_questions,
        "sent_counter": _sent_counter(sent_questions, campaign, mode) if sent else "",
        "sent_pieces": _sent_pieces(paragraph.text, sent_questions) if sent else [],
        "max_question_chars": MAX_QUESTION_CHARS,
        "mode": mode,
        "existing_questions": existing,
        "existing_texts": [question.text for question in existing],
        "paragraph": paragraph,
        "article": paragraph.article,
        "page_messages": lease_page_messages(campaign, script),
        "script": script,
        "words_missing": words_missing(script),
        "time_zone": timezone.get_current_timezone_name(),
        "urls": _lease_urls(lease, mode),
    }


def _lease_urls(lease: Lease, mode: str) -> dict:
    """The addresses the annotation page's script sends to."""
    has_model = lease.campaign.has_model and mode != "unanswerable"
    return {
        "draft": reverse("api:lease-draft", args=[lease.pk]),
        "submit": reverse("api:lease-submit", args=[lease.pk]),
        "home": reverse("annotation:annotator-home"),
        # Once a paragraph is sent, the page claims the next one and fetches its page
        # ahead (annotate.js): "Next paragraph" then opens it without a round trip.
        "claim": reverse("api:campaign-leases", args=[lease.campaign_id]),
        "lease": reverse("annotation:lease", args=[0]),
        # Model in the loop: where the page asks the campaign's model (none: no model).
        "attempts": reverse("api:lease-attempts", args=[lease.pk]) if has_model else "",
    }


@annotator_only
@require_POST
def lease_release_view(request, pk: int):
    lease = own_lease(request, pk)
    try:
        lease_release(
            lease=lease, reason=request.POST.get("reason", ""), note=request.POST.get("note", "")
        )
    except ServiceError as error:
        messages.error(request, error.summary())
        return redirect("annotation:lease", pk=lease.pk)
    messages.success(request, _("The paragraph was given back."))
    return redirect("annotation:annotator-home")


def script_context(paragraph) -> dict:
    """The paragraph's language for the pages with the span tool (answer and review pages):
    `script` (#paragraph-language) and the notice of a missing word tokenizer."""
    script = paragraph_script(text=paragraph.text, language=paragraph.article.language)
    return {"script": script, "words_missing": words_missing(script)}


def _answer_page(request, lease: Lease, errors=None, status=200):
    item = qualification_item_of(lease)
    context = {
        "qualification": {
            "position": item.position + 1,
            "count": lease.campaign.qualification_questions,
            "bar": lease.campaign.qualification_bar,
            "try": item.attempt.number,
        }
        if item
        else None,
        "lease": lease,
        "campaign": lease.campaign,
        "question": lease.question,
        "paragraph": lease.paragraph,
        "article": lease.paragraph.article,
        "errors": errors or {},
        "page_messages": answer_page_messages(),
        **script_context(lease.paragraph),
        "time_zone": timezone.get_current_timezone_name(),
        "urls": {"draft": reverse("api:lease-draft", args=[lease.pk])},
    }
    return render(request, "annotation/answer.html", context, status=status)


def _answer_data(post) -> dict:
    if post.get("no_answer"):
        return {"no_answer": True, "seconds_spent": form_int(post.get("seconds_spent") or "0")}
    return {
        "answer_start": form_int(post.get("answer_start", "")),
        "answer_text": post.get("answer_text", ""),
        "seconds_spent": form_int(post.get("seconds_spent") or "0"),
    }


@annotator_only
@require_POST
def answer_submit_view(request, pk: int):
    lease = own_lease(request, pk)
    if lease.kind != Lease.Kind.ANSWER:
        raise Http404
    try:
        answer = answer_submit(lease=lease, data=_answer_data(request.POST))
    except ServiceError as error:
        if lease.status in (Lease.Status.SUBMITTED, Lease.Status.RELEASED):
            messages.error(request, error.summary())
            return redirect("annotation:annotator-home")
        return _answer_page(request, lease, error.errors, status=error.status)
    item = getattr(answer, "qualification_item", None)
    if item is not None:  # the qualification round: the right answer, then what comes next
        return redirect("annotation:qualification-item", pk=item.pk)
    messages.success(request, _("Answer saved. Thank you!"))
    if not lease.campaign.active:  # closed meanwhile: the answer is kept, nothing comes next
        return redirect("annotation:annotator-home")
    return next_paragraph(request, lease.campaign_id)
