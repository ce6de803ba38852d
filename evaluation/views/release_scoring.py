"""The scoring of a release (docs/release-scoring.md): the runs its `score_with` asked for,
live while they run. The release page (exports) loads this part with htmx; without JavaScript
its link opens it as a page of its own."""

from django.shortcuts import get_object_or_404, render

from core.permissions import role_required
from core.roles import Role
from evaluation.services.release_scoring import release_scoring_runs
from exports.models import Release


@role_required(Role.ADMIN)
def release_scoring_view(request, pk: int):
    release = get_object_or_404(Release, pk=pk)
    runs = list(release_scoring_runs(release))
    waiting = bool(release.score_with) and (
        not release.is_finished or any(not run.is_finished for run in runs)
    )
    context = {"release": release, "runs": runs, "waiting": waiting}
    template = "evaluation/release_scoring.html"
    if request.htmx:
        template += "#release-scoring"
    return render(request, template, context)
