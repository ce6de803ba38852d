"""The model-in-the-loop page of a campaign, for admins: which model answers its questions
while they are written, how, and the rounds it has had."""

from django import forms
from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from annotation.models import Campaign, ModelKind, ModelMode, ModelRound
from core.errors import ServiceError
from core.forms import form_add_service_errors
from core.i18n import interpolate
from core.permissions import role_required
from core.roles import Role
from evaluation.models import BaselineRun
from evaluation.services.model_loop.campaign_model import campaign_model_set

admin_only = role_required(Role.ADMIN)
RUNS_LISTED = 50


def run_choices() -> list[tuple[str, str]]:
    """The newest finished baseline runs, as the page lists them."""
    runs = (
        BaselineRun.objects.filter(status=BaselineRun.Status.SUCCEEDED)
        .select_related("release")
        .order_by("-finished_at", "-pk")[:RUNS_LISTED]
    )
    choices = [("", "—")]
    for run in runs:
        dev = run.metrics.get("dev", {}).get("f1")
        values = {
            "id": str(run.pk),  # an id, not a count: never grouped
            "model": run.model_name or run.get_kind_display(),
            "release": run.release.name,
            "f1": dev,
        }
        if isinstance(dev, int | float):
            label = _("Baseline run %(id)s · %(model)s · %(release)s · dev F1 %(f1).1f")
        else:
            label = _("Baseline run %(id)s · %(model)s · %(release)s")
        choices.append((str(run.pk), interpolate(label, values)))
    return choices


class CampaignModelForm(forms.Form):
    """The page's fields; `evaluation.services.model_loop.campaign_model.campaign_model_check`
    holds the rules."""

    model_kind = forms.ChoiceField(
        label=gettext_lazy("Model"), choices=ModelKind.choices, widget=forms.RadioSelect
    )
    model_run = forms.ChoiceField(label=gettext_lazy("Baseline run"), required=False)
    model_url = forms.CharField(
        label=gettext_lazy("Predict server address"),
        required=False,
        max_length=500,
        help_text=gettext_lazy("A server speaking the MRQA protocol, e.g. http://10.0.0.5:8888/"),
    )
    model_mode = forms.ChoiceField(
        label=gettext_lazy("Mode"), choices=ModelMode.choices, widget=forms.RadioSelect
    )
    model_f1_threshold = forms.CharField(
        label=gettext_lazy("Fooled below this F1 (%)"),
        help_text=gettext_lazy("Beat the AI (Bartolo et al., 2020) used 40%."),
    )
    model_fooling_target = forms.CharField(
        label=gettext_lazy("Model-fooling questions asked per paragraph"),
        required=False,
        help_text=gettext_lazy(
            "Adversarial mode: at least this many of each paragraph's questions."
        ),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["model_run"].choices = run_choices()

    def settings(self) -> dict:
        data = dict(self.cleaned_data)
        data["model_run"] = data.get("model_run") or None
        data["model_fooling_target"] = data.get("model_fooling_target") or 0
        return data


def _initial(campaign: Campaign) -> dict:
    return {
        "model_kind": campaign.model_kind,
        "model_run": str(campaign.model_run_id or ""),
        "model_url": campaign.model_url,
        "model_mode": campaign.model_mode,
        "model_f1_threshold": f"{campaign.model_f1_threshold.normalize():f}",
        "model_fooling_target": campaign.model_fooling_target or "",
    }


@admin_only
@require_http_methods(["GET", "POST"])
def campaign_model_page(request, pk: int):
    campaign = get_object_or_404(Campaign.objects.select_related("model_run"), pk=pk)
    form, status = CampaignModelForm(initial=_initial(campaign)), 200
    if request.method == "POST":
        form = CampaignModelForm(request.POST)
        if form.is_valid():
            try:
                campaign_model_set(campaign=campaign, data=form.settings(), user=request.user)
            except ServiceError as error:
                form_add_service_errors(form, error)
            else:
                messages.success(request, _("The model settings are saved."))
                return redirect("evaluation:campaign-model", pk=campaign.pk)
        status = 400
    rounds = ModelRound.objects.filter(campaign=campaign).order_by("-number")
    return render(
        request,
        "evaluation/campaign_model.html",
        {
            "campaign": campaign,
            "form": form,
            "rounds": rounds,
            "writes": campaign.kind == Campaign.Kind.QUESTIONS,
        },
        status=status,
    )
