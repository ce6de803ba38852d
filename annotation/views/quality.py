"""Quality pages: the per-annotator table (reviewers and admins), and pausing (admins)."""

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.db.models import Q
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.services import annotator_pause, annotator_resume
from annotation.models import Campaign
from annotation.selectors.qualification import qualification_people
from annotation.selectors.quality import (
    IDLE_LIMIT,
    annotators_without_questions,
    quality_measures,
    quality_measures_params,
    quality_table_page,
    with_model,
)
from core.errors import ServiceError
from core.inputs import parse_id
from core.pagination import page_cursors
from core.permissions import role_required
from core.roles import Role
from core.services.figure_jobs import figure_read

admin_only = role_required(Role.ADMIN)


@role_required(Role.REVIEWER, Role.ADMIN)
def quality_page(request):
    """The quality table, a page of annotators at a time; only admins get the pause and resume
    controls. A refused page cursor answers 400 with the first page and says why."""
    campaign = None
    if request.GET.get("campaign"):
        try:
            campaign_pk = parse_id(request.GET["campaign"], "campaign")
        except ServiceError:
            raise Http404 from None
        campaign = get_object_or_404(Campaign, pk=campaign_pk)
    model = with_model(campaign)  # the fooling-rate columns (docs/review-model.md)
    measures = quality_measures()  # agreement, signs, history (docs/quality.md)
    reading = None
    if measures is not None:
        reading = figure_read(measures.figure, **quality_measures_params(campaign))
    value = reading.value if reading else None
    cursors = page_cursors(request.GET)
    page = quality_table_page(campaign=campaign, model=model, measures=value, **cursors)
    idle = annotators_without_questions()
    context = {
        "rows": page.rows,
        "page": page,
        "query": urlencode({"campaign": campaign.pk}) if campaign else "",
        "idle": idle[:IDLE_LIMIT],
        "idle_more": len(idle) > IDLE_LIMIT,
        # Writing campaigns, and any campaign with a qualification round (its section below).
        "campaigns": Campaign.objects.filter(
            Q(kind__in=Campaign.WRITING_KINDS) | Q(qualification_questions__gt=0)
        ),
        "campaign": campaign,
        "model": model,
        "can_pause": request.user.has_role(Role.ADMIN),
        "measured": measures is not None,
        "reading": reading,
        "overall": value["overall"] if value else None,
        "rules": value["rules"] if value else None,
        # The campaign's qualification round: who is in it, passed, failed (docs/quality.md).
        "qualification": qualification_people(campaign=campaign) if campaign else [],
    }
    return render(request, "annotation/quality.html", context, status=page.status)


@admin_only
@require_POST
def annotator_pause_view(request, pk: int):
    user = get_object_or_404(get_user_model(), pk=pk)
    try:
        if request.POST.get("action") == "resume":
            annotator_resume(user=user)
            messages.success(request, _("%(name)s can work again.") % {"name": user.username})
        else:
            annotator_pause(user=user, note=request.POST.get("note", ""))
            messages.success(request, _("%(name)s is paused.") % {"name": user.username})
    except ServiceError as error:
        messages.error(request, error.summary())
    return redirect("annotation:quality")
