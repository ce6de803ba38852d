"""The qualification round's pages (issue 28, docs/quality.md): the feedback after each
answer, a person's round (their answers, the guidelines, the second try), and the admins'
reset from the quality page."""

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from annotation.models import Campaign, QualificationItem
from annotation.selectors.campaigns import campaign_for
from annotation.selectors.qualification import qualification_data, qualification_feedback
from annotation.services.qualification import qualification_reset, qualification_retry
from annotation.views.work import annotator_only, next_paragraph
from core.errors import ServiceError
from core.permissions import role_required
from core.roles import Role


@annotator_only
@require_GET
def qualification_item_page(request, pk: int):
    """The feedback on one of the person's answers: the right span in the paragraph, theirs
    beside it, their score, and what comes next."""
    item = (
        QualificationItem.objects.select_related(
            "attempt__campaign", "lease__paragraph__article", "lease__question"
        )
        .filter(pk=pk, attempt__annotator=request.user, answered_at__isnull=False)
        .first()
    )
    if item is None:
        raise Http404
    campaign = item.attempt.campaign
    context = {
        "campaign": campaign,
        "article": item.lease.paragraph.article,
        "feedback": qualification_feedback(item),
        "round": qualification_data(campaign=campaign, user=request.user),
    }
    return render(request, "annotation/qualification_feedback.html", context)


def _campaign(request, campaign_pk: int) -> Campaign:
    campaign = campaign_for(request.user, campaign_pk)
    if campaign is None or not campaign.qualification_questions:
        raise Http404
    return campaign


@annotator_only
@require_GET
def qualification_page(request, campaign_pk: int):
    """The person's round: where they stand, their answers with the right ones, the
    guidelines, and the second try once they failed the first."""
    campaign = _campaign(request, campaign_pk)
    context = {
        "campaign": campaign,
        "round": qualification_data(campaign=campaign, user=request.user),
    }
    return render(request, "annotation/qualification.html", context)


@annotator_only
@require_POST
def qualification_retry_view(request, campaign_pk: int):
    campaign = _campaign(request, campaign_pk)
    try:
        qualification_retry(campaign=campaign, user=request.user)
    except ServiceError as error:
        messages.error(request, error.summary())
        return redirect("annotation:qualification", campaign_pk=campaign.pk)
    return next_paragraph(request, campaign.pk)


@role_required(Role.ADMIN)
@require_POST
def qualification_reset_view(request, campaign_pk: int, user_pk: int):
    campaign = get_object_or_404(Campaign, pk=campaign_pk)
    person = get_object_or_404(get_user_model(), pk=user_pk)
    try:
        qualification_reset(campaign=campaign, annotator=person, admin=request.user)
    except ServiceError as error:
        messages.error(request, error.summary())
    else:
        messages.success(
            request,
            _("%(name)s may take the qualification round again.") % {"name": person.username},
        )
    return redirect(f"{reverse('annotation:quality')}?campaign={campaign.pk}#qualification")
