"""Quality pages: the per-annotator table (reviewers and admins), and pausing (admins)."""

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.services import annotator_pause, annotator_resume
from annotation.models import Campaign
from annotation.selectors.quality import annotators_without_questions, quality_table
from core.errors import ServiceError
from core.inputs import parse_id
from core.permissions import role_required
from core.roles import Role

admin_only = role_required(Role.ADMIN)


@role_required(Role.REVIEWER, Role.ADMIN)
def quality_page(request):
    """The quality table; only admins get the pause and resume controls."""
    campaign = None
    if request.GET.get("campaign"):
        try:
            campaign_pk = parse_id(request.GET["campaign"], "campaign")
        except ServiceError:
            raise Http404 from None
        campaign = get_object_or_404(Campaign, pk=campaign_pk)
    context = {
        "rows": quality_table(campaign=campaign),
        "idle": annotators_without_questions(),
        "campaigns": Campaign.objects.filter(kind=Campaign.Kind.QUESTIONS),
        "campaign": campaign,
        "can_pause": request.user.has_role(Role.ADMIN),
    }
    return render(request, "annotation/quality.html", context)


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
