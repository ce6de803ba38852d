"""The results pages for admins (issue 26 item 5): a short overview and one page per part,
under /manage/results/, each with its own view and template, the release chooser and the
pages' sub-navigation kept across them.

This module holds what the pages share (which release, the tabs, the frame) and the overview.
The parts live beside it: `results_tables` (scores beside humans, the SQuAD v2.0 table, the
per-type tables, the learning curves), `results_experiments` (the cross-dataset matrix and its
form), `results_baseline` (the "score a baseline" form), `results_files` (training files) and
`results_rounds` (the model in the loop).

The overview answers the addresses admins bookmarked before the split (docs/decisions.md): a
page cursor (`after`, `before`) goes on to the scores page, a form posted here to its page.
"""

from urllib.parse import urlencode

from django.contrib import messages
from django.http import Http404, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy, pgettext_lazy
from django.views.decorators.http import require_http_methods

from core.errors import ServiceError
from core.inputs import parse_id
from core.permissions import role_required
from core.roles import Role
from core.services.figure_jobs import figure_read
from core.views import job_status_response
from evaluation.models import BaselineRun
from evaluation.selectors.human import HUMAN_FIGURE
from exports.models import Release
from exports.selectors import finished_releases, release_choices

admin_only = role_required(Role.ADMIN)

ANSWER_TYPE_LABELS = {  # the FQuAD paper's answer types
    "date": gettext_lazy("date"),
    "number": gettext_lazy("other number"),
    "person": gettext_lazy("person"),
    "place": gettext_lazy("place"),
    "other_entity": gettext_lazy("other proper noun"),
    "common_noun": gettext_lazy("common noun"),
    "verb": gettext_lazy("verb"),
    "adjective": gettext_lazy("adjective"),
    "other": gettext_lazy("other"),
}

# The pages, in the sub-navigation's order: route name, tab label, what the overview says.
PAGES = (
    ("results", gettext_lazy("Overview"), ""),
    (
        "results-scores",
        gettext_lazy("Scores"),
        gettext_lazy("Every baseline run of the release beside human performance, with charts"),
    ),
    (
        "results-experiments",
        gettext_lazy("Experiments"),
        gettext_lazy("What each model was trained on, scored on this and other datasets"),
    ),
    (
        "results-unanswerable",
        gettext_lazy("Unanswerable (v2.0)"),
        gettext_lazy("Answerable and unanswerable questions, scored the SQuAD v2.0 way"),
    ),
    (
        "results-types",
        gettext_lazy("Per type"),
        gettext_lazy("F1 per question type and per answer type"),
    ),
    (
        "results-curves",
        gettext_lazy("Learning curves"),
        gettext_lazy("F1 against the number of training questions, and what more data would give"),
    ),
    (
        "results-baseline",
        pgettext_lazy("results tab", "Score a baseline"),
        gettext_lazy(
            "Sliding window, fine-tuning, a served model or a learning curve, on this release"
        ),
    ),
    (
        "results-files",
        gettext_lazy("Training files"),
        gettext_lazy("Import a SQuAD-format file to train on; share or delete the imported ones"),
    ),
    (
        "results-rounds",
        gettext_lazy("Model in the loop"),
        gettext_lazy("Each campaign's model rounds: how often each model was fooled"),
    ),
)
OVERVIEW_RUNS = 3  # the newest finished runs the overview shows beside the humans

# A form posted to the overview before the split: the page that now takes it.
POSTED_FORMS = {
    "training-file": "results-files",
    "training-file-delete": "results-files",
    "training-file-unshare": "results-files",
    "cross-evaluation": "results-experiments",
}


def errors_flash(errors: dict) -> SafeString:
    """The refusals of a results form as one flash message: `ServiceError.summary()`, each
    message escaped or as it renders itself on a page (`__html__`: the gpu extra's install
    command as code, `evaluation.gpu_extra.Refusal`). The message storage keeps it safe."""
    parts = (conditional_escape(message) for messages in errors.values() for message in messages)
    return mark_safe(" ".join(parts))  # noqa: S308 (every part is escaped or already HTML)


def results_release(request):
    """Return the release the page shows: `?release=` (a finished one, else 404), or the
    newest finished release, or None when there is none."""
    if not request.GET.get("release"):
        return finished_releases().first()
    try:
        release_id = parse_id(request.GET["release"], "release")
    except ServiceError:
        raise Http404 from None
    return get_object_or_404(Release.objects.filter(status=Release.Status.SUCCEEDED), pk=release_id)


def results_query(release) -> str:
    """The query string that keeps the release across the pages ("" without one)."""
    return urlencode({"release": release.pk}) if release is not None else ""


def results_redirect(request, release, fragment: str = ""):
    """After a form's success: back to the same page, its release kept."""
    return redirect(f"{request.path}?{results_query(release)}{fragment}")


def human_figures() -> tuple:
    """Return the stored human performance reading and its splits' figures."""
    reading = figure_read(HUMAN_FIGURE)
    return reading, (reading.value["splits"] if reading.value else {})


def results_render(request, page: str, release, context: dict, *, status=200, errors=None):
    """Render one results page in the frame they share: the title, the tabs (the current one
    marked) and the release chooser, each link keeping the release. `page` is its URL name,
    and names its template (`results-files`: `evaluation/results_files.html`). A refused form
    comes back with its 4xx `status` and its `errors`, also said at the top of the page."""
    if errors:
        messages.error(request, errors_flash(errors))
    query = results_query(release)
    tabs = [
        {
            "name": name,
            "label": label,
            "url": reverse(f"evaluation:{name}") + (f"?{query}" if query else ""),
            "current": name == page,
        }
        for name, label, _about in PAGES
    ]
    frame = {
        "releases": release_choices(shown=release),
        "release": release,
        "query": query,
        "tabs": tabs,
        "page_title": next(tab["label"] for tab in tabs if tab["current"]),
    }
    template = f"evaluation/{page.replace('-', '_')}.html"
    return render(request, template, {**frame, **context}, status=status)


@admin_only
@require_http_methods(["GET", "POST"])
def results_page(request):
    """The overview: the humans beside the newest finished runs, and a card per page."""
    if request.method == "POST":
        return _forward_post(request)
    if "after" in request.GET or "before" in request.GET:  # a runs page bookmarked before
        return redirect(f"{reverse('evaluation:results-scores')}?{request.GET.urlencode()}")
    release = results_release(request)
    reading, human = human_figures()
    newest = []
    if release is not None:
        newest = list(
            BaselineRun.objects.filter(
                release=release, status=BaselineRun.Status.SUCCEEDED
            ).order_by("-created_at", "-id")[:OVERVIEW_RUNS]
        )
    query = results_query(release)
    cards = [
        {
            "name": name,
            "label": label,
            "about": about,
            "url": reverse(f"evaluation:{name}") + (f"?{query}" if query else ""),
        }
        for name, label, about in PAGES[1:]
    ]
    context = {"human": human, "human_reading": reading, "newest": newest, "cards": cards}
    return results_render(request, "results", release, context)


def _forward_post(request):
    """A form posted to the overview (a tab opened before the split): 307, so that the
    browser posts the same fields to the page that now takes them."""
    page = POSTED_FORMS.get(request.POST.get("form", ""), "results-baseline")
    query = request.META.get("QUERY_STRING", "")
    return HttpResponseRedirect(
        reverse(f"evaluation:{page}") + (f"?{query}" if query else ""), status=307
    )


@admin_only
def baseline_run_status(request, pk: int):
    return job_status_response(request, get_object_or_404(BaselineRun, pk=pk))
