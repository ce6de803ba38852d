"""Campaign pages for admins."""

from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods

from annotation.forms import CampaignForm
from annotation.models import Campaign
from annotation.selectors.campaigns import (
    PARAGRAPHS_FIGURE,
    campaign_progress,
    paragraphs_params,
    question_type_distribution,
    type_counts,
    unsuitable_reports_page,
)
from annotation.services.campaigns import campaign_create, campaign_defaults, campaign_update
from core.charts import bar_chart
from core.errors import ServiceError
from core.forms import form_add_service_errors
from core.pagination import page_cursors
from core.permissions import role_required
from core.roles import Role
from core.services.figure_jobs import figure_read

admin_only = role_required(Role.ADMIN)


@admin_only
def campaigns_page(request):
    return render(request, "annotation/campaigns.html", {"campaigns": Campaign.objects.all()})


def _save_form(request, form: CampaignForm, campaign: Campaign | None):
    """Validate and save; return the campaign, or None with the errors added to the form."""
    if not form.is_valid():
        return None
    try:
        if campaign is None:
            return campaign_create(created_by=request.user, **form.campaign_data())
        return campaign_update(campaign=campaign, **form.campaign_data())
    except ServiceError as error:
        form_add_service_errors(form, error)
        return None


@admin_only
@require_http_methods(["GET", "POST"])
def campaign_page(request, pk: int | None = None):
    """Create a campaign (no pk; `?kind=` fills in that kind's defaults) or change one."""
    campaign = get_object_or_404(Campaign, pk=pk) if pk else None
    kind = request.GET.get("kind")
    if kind not in Campaign.Kind.values:
        kind = Campaign.Kind.QUESTIONS
    initial = CampaignForm.initial_for(campaign) if campaign else campaign_defaults(kind)
    form, status = CampaignForm(initial=initial), 200
    if request.method == "POST":
        form = CampaignForm(request.POST)
        saved = _save_form(request, form, campaign)
        if saved is not None:
            return redirect("annotation:campaigns")
        status = 400
    return render(
        request,
        "annotation/campaign_form.html",
        {"form": form, "campaign": campaign},
        status=status,
    )


def type_chart(rows: list[dict]) -> dict:
    """Return the question-type chart: each type's share (bar) against its target (tick).

    Its caption is the template's, which translates a "%" sign as gettext expects there.
    """
    return bar_chart(
        "",
        [(row["label"], row["share"]) for row in rows],
        targets=[row["target"] for row in rows],
    )


@admin_only
def campaign_dashboard(request, pk: int):
    """A campaign's progress, its question types against the targets, and the reports (a page
    at a time; a refused page cursor answers 400 with the first page)."""
    campaign = get_object_or_404(Campaign, pk=pk)
    paragraphs = figure_read(PARAGRAPHS_FIGURE, **paragraphs_params(campaign))
    counts = type_counts(campaign)
    rows = question_type_distribution(campaign, counts=counts)
    reports = unsuitable_reports_page(campaign, **page_cursors(request.GET))
    return render(
        request,
        "annotation/campaign_dashboard.html",
        {
            "campaign": campaign,
            "progress": campaign_progress(campaign, paragraphs=paragraphs, types=counts),
            "paragraphs": paragraphs,
            "types": rows,
            "chart": type_chart(rows),
            "reports": reports,
        },
        status=reports.status,
    )
