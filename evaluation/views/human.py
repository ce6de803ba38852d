"""The human performance page for admins: FQuAD's measure per split and per annotator."""

from django.http import Http404
from django.shortcuts import render

from core.permissions import role_required
from core.roles import Role
from corpus.models import Split
from evaluation.human import human_performance_report


@role_required(Role.ADMIN)
def human_performance_page(request):
    split = request.GET.get("split") or None
    if split is not None and split not in Split.values:
        raise Http404
    report = human_performance_report(split=split)
    rows = [
        {"split": name, "paper": report["paper"].get(name), **figures}
        for name, figures in report["splits"].items()
    ]
    context = {"report": report, "rows": rows, "split": split, "splits": Split.choices}
    return render(request, "evaluation/human_performance.html", context)
