"""Release pages for admins: list and create, follow a build, download files, compare two."""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from core.errors import ServiceError
from core.forms import form_add_service_errors
from core.inputs import parse_id
from core.permissions import role_required
from core.roles import Role
from core.views import job_status_response
from exports.diff import release_diff
from exports.downloads import release_file_response
from exports.forms import ReleaseForm
from exports.models import Release
from exports.services import release_can_resume, release_create, release_resume

admin_only = role_required(Role.ADMIN)


@admin_only
@require_http_methods(["GET", "POST"])
def releases_page(request):
    form, status = ReleaseForm(), 200
    if request.method == "POST":
        form = ReleaseForm(request.POST)
        if form.is_valid():
            try:
                release = release_create(created_by=request.user, **form.cleaned_data)
            except ServiceError as error:
                form_add_service_errors(form, error)
            else:
                return redirect("exports:release", pk=release.pk)
        status = 400
    releases = Release.objects.select_related("created_by")[:100]
    finished = [r for r in releases if r.status == Release.Status.SUCCEEDED]
    context = {"form": form, "releases": releases, "finished": finished}
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
    except ServiceError:
        raise Http404 from None


@admin_only
def release_diff_page(request):
    try:
        old = get_object_or_404(Release, pk=parse_id(request.GET.get("old", ""), "old"))
        new = get_object_or_404(Release, pk=parse_id(request.GET.get("new", ""), "new"))
    except ServiceError:
        raise Http404 from None
    try:
        diff = release_diff(old=old, new=new)
    except ServiceError as error:
        messages.error(request, error.summary())
        return redirect("exports:releases")
    return render(request, "exports/diff.html", {"diff": diff, "old": old, "new": new})
