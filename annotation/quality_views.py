"""Quality pages: the per-annotator table with pause, and a question with its history."""

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.permissions import role_required
from accounts.roles import Role
from accounts.services import annotator_pause, annotator_resume
from annotation.models import Campaign
from annotation.quality import annotators_without_questions, quality_table, question_history
from annotation.selectors import questions_visible_to
from core.errors import ServiceError
from core.inputs import parse_id

admin_only = role_required(Role.ADMIN)


@admin_only
def quality_page(request):
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


def question_page(request, uuid):
    """A question, its answers and its history: for its author, reviewers and admins."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    question = (
        questions_visible_to(request.user)
        .select_related("author", "paragraph__article", "campaign")
        .filter(uuid=uuid)
        .first()
    )
    if question is None:
        if not any(request.user.has_role(r) for r in Role.values):
            raise PermissionDenied
        raise Http404
    context = {
        "question": question,
        "answers": question.answers.select_related("author").order_by("kind", "pk"),
        **question_history(question),
    }
    return render(request, "annotation/question.html", context)
