"""The human performance page for admins: FQuAD's measure per split and per annotator, and
SQuAD 2.0's (unanswerable questions, "" = no answer) overall, answerable and unanswerable."""

from django.conf import settings
from django.http import Http404
from django.shortcuts import render

from core.languages import is_known
from core.permissions import role_required
from core.roles import Role
from core.services.figure_jobs import figure_read
from corpus.models import Split
from evaluation.metrics import language_normalization
from evaluation.selectors.human import HUMAN_FIGURE, human_params


@role_required(Role.ADMIN)
def human_performance_page(request):
    """The report computed now while the answers are few, else the stored one (computed
    again by a job when the answers changed; "being computed" until the first is done)."""
    split = request.GET.get("split") or None
    if split is not None and split not in Split.values:
        raise Http404
    language = request.GET.get("language") or None
    if language is not None and not is_known(language):
        raise Http404
    reading = figure_read(HUMAN_FIGURE, **human_params(split, language))
    report = reading.value
    rows = [
        {"split": name, "paper": report["paper"].get(name), **figures}
        for name, figures in (report["splits"].items() if report else ())
    ]
    rows_v2 = [
        {"split": name, **figures} for name, figures in ((report or {}).get("v2") or {}).items()
    ]
    norm = language_normalization(language or settings.WIKIPEDIA_LANGUAGE)
    context = {
        "report": report,
        "rows_v2": rows_v2,
        "reading": reading,
        "normalization": report["normalization"]
        if report
        else {"name": norm.name, "version": norm.version},
        "rows": rows,
        "split": split,
        "splits": Split.choices,
    }
    return render(request, "evaluation/human_performance.html", context)
