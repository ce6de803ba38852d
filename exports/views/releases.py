"""Release pages for admins: list and create, follow a build, download files, compare two."""

from django.contrib import messages
from django.http import Http404, HttpResponseGone
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from core.errors import ServiceError
from core.inputs import parse_id
from core.pagination import page_cursors
from core.permissions import role_required
from core.roles import Role
from core.services.figure_jobs import figure_read
from core.views import job_status_response
from exports.diff import DIFF_FIGURE, diff_params, release_diff_check, release_files_missing
from exports.downloads import release_file_response
from exports.forms.releases import ReleaseForm
from exports.models import Release
from exports.selectors import release_choices, release_list_page
from exports.services.releases import release_can_resume, release_create, release_resume

admin_only = role_required(Role.ADMIN)


@admin_only
@require_http_methods(["GET", "POST"])
def releases_page(request):
    """The releases, a page at a time (newest first; a refused page cursor answers 400 with
    the first page), the form that compares two finished ones, and the form of a new one."""
    form, status = ReleaseForm(), 200
    if request.method == "POST":
        form = ReleaseForm(request.POST)
        if form.is_valid():
            try:
                release = release_create(created_by=request.user, **form.release_arguments())
            except ServiceError as error:
                form.add_service_errors(error)
            else:
                return redirect("exports:release", pk=release.pk)
        status = 400
    page = release_list_page(**page_cursors(request.GET))
    if page.errors:
        status = page.status
    context = {"form": form, "releases": page.rows, "page": page, "finished": release_choices()}
    return render(request, "exports/releases.html", context, status=status)


@admin_only
def release_page(request, pk: int):
    release = get_object_or_404(Release, pk=pk)
    if request.htmx:
        return render(request, "exports/release.html#release-files", {"release": release})
    context = {"release": release, "can_resume": release_can_resume(release)}
    return render(request, "exports/release.html", context)


@admin_only
def release_status(request, pk: int):
    return job_status_response(request, get_object_or_404(Release, pk=pk))


@admin_only
@require_POST
def release_resume_view(request, pk: int):
    release = get_object_or_404(Release, pk=pk)
    try:
        release_resume(release=release)
    except ServiceError as error:
        messages.error(request, error.summary())
    else:
        messages.success(request, _("The release is being built again."))
    return redirect("exports:release", pk=release.pk)


@admin_only
def release_download(request, pk: int, name: str):
    release = get_object_or_404(Release, pk=pk)
    try:
        return release_file_response(release, name)
    except ServiceError as error:
        if error.status == 410:  # removed by the schedule's retention: say so
            return HttpResponseGone(error.summary(), content_type="text/plain; charset=utf-8")
        raise Http404 from None


@admin_only
def release_diff_page(request):
    """The questions added, removed and changed between two finished releases: compared now
    when the releases are small, else the stored comparison (`exports.diff`), "being
    computed" until its job is done. A file missing from the storage is named (409)."""
    try:
        old = get_object_or_404(Release, pk=parse_id(request.GET.get("old", ""), "old"))
        new = get_object_or_404(Release, pk=parse_id(request.GET.get("new", ""), "new"))
    except ServiceError:
        raise Http404 from None
    try:
        release_diff_check(old=old, new=new)
    except ServiceError as error:
        messages.error(request, error.summary())
        return redirect("exports:releases")
    context = {"old": old, "new": new, "diff": None, "reading": None, "refusal": None}
    try:
        reading = figure_read(DIFF_FIGURE, **diff_params(old=old, new=new))
    except ServiceError as error:  # compared now: a file is missing, or there is no HF file
        context["refusal"] = error
        return render(request, "exports/diff.html", context, status=error.status)
    if reading.value is None:  # nothing stored yet: a missing file is said at once
        context["refusal"] = release_files_missing(old=old, new=new)
    context |= {"diff": reading.value, "reading": reading}
    status = context["refusal"].status if context["refusal"] else 200
    return render(request, "exports/diff.html", context, status=status)
