"""The dataset analysis page for admins: start an analysis, follow it, read its figures."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from annotation.models import QuestionType
from core.permissions import role_required
from core.roles import Role
from core.views import job_status_response
from evaluation.models import DatasetAnalysis
from evaluation.services.analysis.dataset_analysis import analysis_start
from evaluation.views.results import ANSWER_TYPE_LABELS

admin_only = role_required(Role.ADMIN)


@admin_only
def analysis_page(request):
    latest = DatasetAnalysis.objects.order_by("-created_at", "-pk").first()
    done = (
        DatasetAnalysis.objects.filter(status=DatasetAnalysis.Status.SUCCEEDED)
        .order_by("-finished_at", "-pk")
        .first()
    )
    splits = done.results.get("splits", {}) if done else {}
    context = {
        "latest": latest,
        "done": done,
        "splits": splits,
        # SQuAD 2.0-style questions: the breakdown shows once the dataset has some.
        "has_unanswerable": any(f.get("unanswerable") for f in splits.values()),
        "question_types": dict(QuestionType.choices),
        "answer_types": ANSWER_TYPE_LABELS,
    }
    return render(request, "evaluation/analysis.html", context)


@admin_only
@require_POST
def analysis_start_view(request):
    analysis_start(created_by=request.user)
    messages.success(request, _("The analysis is queued; this page shows it when it is done."))
    return redirect("evaluation:analysis")


@admin_only
def analysis_status(request, pk: int):
    return job_status_response(request, get_object_or_404(DatasetAnalysis, pk=pk))
