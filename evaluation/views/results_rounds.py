"""The model in the loop's page: each campaign's model rounds, how often each model was
fooled, and how the later models do on the earlier rounds' questions. The rounds belong to
campaigns, not to a release: the chooser is not shown, the tabs keep the release."""

from django.views.decorators.http import require_GET

from evaluation.services.model_loop.rounds import model_rounds_report
from evaluation.views.results import admin_only, results_release, results_render


@admin_only
@require_GET
def results_rounds_page(request):
    context = {"model_rounds": model_rounds_report(), "no_chooser": True}
    return results_render(request, "results-rounds", results_release(request), context)
