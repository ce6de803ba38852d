"""The leaderboard page: a split's rows, and the form that submits predictions to it."""

from urllib.parse import urlencode

from django import forms
from django.contrib import messages
from django.core.exceptions import RequestDataTooBig
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_http_methods

from core.errors import ServiceError
from core.forms import form_add_service_errors
from core.i18n import interpolate
from core.inputs import too_deep_message
from core.jsondepth import JSONTooDeep
from core.jsondepth import loads as json_loads
from core.permissions import role_required
from core.roles import Role
from core.services.figure_jobs import figure_read
from corpus.models import Split
from evaluation.selectors.human import HUMAN_FIGURE, release_human_params
from evaluation.services.leaderboard.board import leaderboard_board
from evaluation.services.leaderboard.submissions import (
    SPLITS,
    leaderboard_release,
    submission_check_size,
    submission_create,
    submission_too_big,
)
from evaluation.throttles import SubmissionsThrottle
from exports.models import Release
from exports.selectors import finished_releases, release_choices


class SubmissionForm(forms.Form):
    """Parse the submission form (a label and a JSON file); the rules live in the service."""

    label = forms.CharField(
        label=gettext_lazy("Model or team"),
        required=False,
        widget=forms.TextInput(attrs={"maxlength": 200}),
    )
    predictions = forms.FileField(
        label=gettext_lazy("Predictions (JSON file)"),
        required=False,
        help_text=gettext_lazy(
            'An object {"question id": "answer text", …} answering every question of the split.'
        ),
    )

    na_probs = forms.FileField(
        label=gettext_lazy("No-answer probabilities (JSON file, optional)"),
        required=False,
        help_text=gettext_lazy(
            'SQuAD v2.0 releases: {"question id": probability of no answer from 0 to 1, …} '
            "for every question; adds the best thresholds."
        ),
    )

    def clean_predictions(self):
        upload = self.cleaned_data.get("predictions")
        if upload is None:
            raise forms.ValidationError(_("Choose the JSON file of your predictions."))
        return _json_file(upload)

    def clean_na_probs(self):
        upload = self.cleaned_data.get("na_probs")
        return None if upload is None else _json_file(upload)


def _json_file(upload):
    try:
        return json_loads(upload.read())
    except JSONTooDeep:
        raise forms.ValidationError(too_deep_message()) from None
    except ValueError:  # not UTF-8, or not JSON
        raise forms.ValidationError(_("The file is not JSON text (UTF-8).")) from None


def _chosen(query) -> tuple[Release | None, str]:
    """Return the release and split the query names (the newest release and dev by default)."""
    split = query.get("split") or Split.DEV
    if split not in SPLITS:
        raise Http404
    if not query.get("release"):
        return finished_releases().first(), split
    try:
        return leaderboard_release(release_id=query["release"]), split
    except ServiceError:
        raise Http404 from None


def _render(request, form, status=200):
    """The page: the chosen split's best submissions beside the release's baseline runs and
    the human performance (the stored figure: computed by a job at scale, and left out of
    the table, with a note, until it is)."""
    release, split = _chosen(request.GET)
    board, human = None, None
    if release is not None:
        human = figure_read(HUMAN_FIGURE, **release_human_params(release))
        board = leaderboard_board(release=release, split=split, human=human.value)
    context = {
        "releases": release_choices(shown=release),
        "release": release,
        "split": split,
        "splits": SPLITS,
        "rows": board.rows if board else [],
        "board": board,
        "human": human,
        "form": form,
    }
    return render(request, "evaluation/leaderboard.html", context, status=status)


def _unread_form() -> SubmissionForm:
    """Return an empty form that can take errors: for a body refused before it was read."""
    form = SubmissionForm()
    form.full_clean()  # unbound: no error of its own
    form.cleaned_data = {}  # what add_error() needs
    return form


def _refused(request, error: ServiceError, form=None):
    """Render the page again with the refusal beside its field (the label is kept)."""
    form = form if form is not None else _unread_form()
    form_add_service_errors(form, error)
    return _render(request, form, status=error.status)


@csrf_protect
def _submit(request):
    """Check, score and record the submission of the page's form: the release and split are
    the ones the page shows (its query string), the label and file come from the form."""
    form = SubmissionForm(request.POST, request.FILES)
    if not SubmissionsThrottle().allow_request(request, None):
        message = _("Too many submissions for now; try again within the hour.")
        return _refused(request, ServiceError({"detail": [message]}, status=429), form)
    if not form.is_valid():
        return _refused(request, ServiceError({}), form)
    try:
        release = leaderboard_release(release_id=request.GET.get("release"))
        submission = submission_create(
            user=request.user,
            release=release,
            split=request.GET.get("split"),
            label=form.cleaned_data["label"],
            predictions=form.cleaned_data["predictions"],
            na_probs=form.cleaned_data.get("na_probs"),
        )
    except ServiceError as error:
        return _refused(request, error, form)
    messages.success(request, _scored_message(submission))
    query = urlencode({"release": release.pk, "split": submission.split})
    return redirect(f"{reverse('evaluation:leaderboard')}?{query}")


def _scored_message(submission) -> str:
    """Return the line that tells the submitter the figures (v2.0: both kinds of question)."""
    figures = {
        "label": submission.label,
        "em": submission.exact_match,
        "f1": submission.f1,
        "total": submission.total,
    }
    message = ngettext(
        "“%(label)s” scored EM %(em).2f and F1 %(f1).2f on %(total)d question.",
        "“%(label)s” scored EM %(em).2f and F1 %(f1).2f on %(total)d questions.",
        submission.total,
    )
    metrics = submission.metrics
    if "HasAns_f1" in metrics and "NoAns_f1" in metrics:  # v2.0, both kinds of question
        figures |= {"has": metrics["HasAns_f1"], "no": metrics["NoAns_f1"]}
        message = ngettext(
            "“%(label)s” scored EM %(em).2f and F1 %(f1).2f on %(total)d question "
            "(F1 %(has).2f on the answerable ones, %(no).2f on the unanswerable ones).",
            "“%(label)s” scored EM %(em).2f and F1 %(f1).2f on %(total)d questions "
            "(F1 %(has).2f on the answerable ones, %(no).2f on the unanswerable ones).",
            submission.total,
        )
    return interpolate(message, figures)


# Exempt from the CSRF middleware, which would read the whole body (to find the token) before
# its size is checked; _submit checks CSRF itself once the size is known to be acceptable.
@csrf_exempt
@role_required(Role.ANNOTATOR, Role.REVIEWER, Role.ADMIN)
@require_http_methods(["GET", "POST"])
def leaderboard_page(request):
    """Every role: a split's leaderboard, and a form to submit predictions to it."""
    if request.method == "GET":
        return _render(request, SubmissionForm())
    try:
        submission_check_size(content_length=request.META.get("CONTENT_LENGTH"))
        return _submit(request)
    except ServiceError as error:  # over the limit: refused unread
        return _refused(request, error)
    except RequestDataTooBig:  # Django refused the body: the same answer
        return _refused(request, submission_too_big())
