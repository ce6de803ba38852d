"""The training files page: the imported SQuAD-format files one may train on (shared or
one's own), with the import form and the delete and stop-sharing buttons."""

from django.contrib import messages
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from core.errors import ServiceError
from core.i18n import interpolate
from evaluation.services.baselines.sources import (
    training_file_delete,
    training_file_import,
    training_file_unshare,
    training_files_readable,
)
from evaluation.views.results import (
    admin_only,
    results_redirect,
    results_release,
    results_render,
)

IMPORT_FIELDS = ("name", "language", "translated", "shared")


@admin_only
@require_http_methods(["GET", "POST"])
def results_files_page(request):
    """The files; a post imports, deletes or stops sharing one and comes back here (refused:
    a 4xx naming the field, the import form's fields as typed)."""
    release = results_release(request)
    if request.method == "POST":
        if request.POST.get("form") in ("training-file-delete", "training-file-unshare"):
            return _manage_file(request, release)
        return _import_file(request, release)
    return _render(request, release)


def _render(request, release, *, errors=None, posted=None, status=200):
    context = {
        "training_files": list(
            training_files_readable(request.user).select_related("created_by")[:100]
        ),
        "file_errors": errors or {},
        "file_posted": posted or {},
        "no_chooser": True,  # the files are no release's: the tabs keep the release
    }
    return results_render(request, "results-files", release, context, status=status, errors=errors)


def _import_file(request, release):
    upload = request.FILES.get("file")
    try:
        if upload is None:
            raise ServiceError({"file": [_("Choose a SQuAD-format JSON file.")]})
        made = training_file_import(
            file=upload,
            name=request.POST.get("name", ""),
            language=request.POST.get("language", ""),
            translated=request.POST.get("translated") == "on",
            shared=request.POST.get("shared") == "on",
            created_by=request.user,
        )
    except ServiceError as error:
        posted = {name: request.POST.get(name, "") for name in IMPORT_FIELDS}
        return _render(request, release, errors=error.errors, posted=posted, status=error.status)
    message = interpolate(
        ngettext(
            "Training file %(name)s imported: %(n)d question, %(skipped)d skipped.",
            "Training file %(name)s imported: %(n)d questions, %(skipped)d skipped.",
            made.counts["questions"],
        ),
        {"name": made.name, "n": made.counts["questions"], "skipped": made.counts["skipped"]},
    )
    named = [str(skip["id"]) for skip in made.skipped[:5] if skip["id"] is not None]
    if named:
        message += " " + _("Skipped: %(ids)s (the training files table says why).") % {
            "ids": ", ".join(named) + ("…" if made.counts["skipped"] > len(named) else "")
        }
    messages.success(request, message)
    return results_redirect(request, release)


def _manage_file(request, release):
    """Delete a training file, or stop sharing it (the services say who may)."""
    file_id = request.POST.get("file", "")
    try:
        if request.POST["form"] == "training-file-delete":
            found = training_file_delete(file_id=file_id, user=request.user)
            done = _("Training file %(name)s deleted.") % {"name": found.name}
        else:
            found = training_file_unshare(file_id=file_id, user=request.user)
            done = _("Training file %(name)s is no longer shared.") % {"name": found.name}
    except ServiceError as error:
        return _render(request, release, errors=error.errors, status=error.status)
    messages.success(request, done)
    return results_redirect(request, release)
