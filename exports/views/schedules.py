"""Release schedule pages for admins: list and create, edit, enable or disable, delete, run
now, each with its snapshots (docs/release-schedules.md)."""

from functools import partial

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from core.errors import ServiceError
from core.permissions import role_required
from core.roles import Role
from exports.forms.schedules import ScheduleForm, schedule_initial
from exports.models import ReleaseSchedule
from exports.services.schedules import (
    schedule_create,
    schedule_delete,
    schedule_run_now,
    schedule_set_enabled,
    schedule_update,
    schedule_values,
)

admin_only = role_required(Role.ADMIN)
SNAPSHOTS_SHOWN = 50


def _saved(request, form: ScheduleForm, save):
    """Save a posted form's schedule through `save` (the create or update use case); return
    the redirect to it, or None when the form or the use case refused it (errors on the form)."""
    if not form.is_valid():
        return None
    try:
        schedule = save(**form.schedule_arguments())
    except ServiceError as error:
        form.add_service_errors(error)
        return None
    messages.success(request, _("The schedule is saved."))
    return redirect("exports:schedule", pk=schedule.pk)


@admin_only
@require_http_methods(["GET", "POST"])
def schedules_page(request):
    """The schedules, and the form of a new one."""
    form, status = ScheduleForm(), 200
    if request.method == "POST":
        form = ScheduleForm(request.POST)
        if saved := _saved(request, form, partial(schedule_create, created_by=request.user)):
            return saved
        status = 400
    schedules = ReleaseSchedule.objects.order_by("name").prefetch_related("campaigns")
    context = {"form": form, "schedules": schedules}
    return render(request, "exports/schedules.html", context, status=status)


@admin_only
@require_http_methods(["GET", "POST"])
def schedule_page(request, pk: int):
    """A schedule: its snapshots (newest first), its form, run now, enable, delete."""
    schedule = get_object_or_404(ReleaseSchedule, pk=pk)
    status = 200
    if request.method == "POST":
        form = ScheduleForm(request.POST)
        if saved := _saved(request, form, partial(schedule_update, schedule=schedule)):
            return saved
        status = 400
    else:
        form = ScheduleForm(initial=schedule_initial(schedule_values(schedule)))
    snapshots = list(schedule.snapshots.order_by("-created_at", "-pk")[:SNAPSHOTS_SHOWN])
    # Whether each snapshot's data differed from the one before it (the oldest: a first one).
    for index, snapshot in enumerate(snapshots):
        older = snapshots[index + 1] if index + 1 < len(snapshots) else None
        snapshot.changed = older is None or older.data_fingerprint != snapshot.data_fingerprint
    context = {
        "schedule": schedule,
        "form": form,
        "snapshots": snapshots,
        "campaigns": schedule.campaigns.order_by("name"),
    }
    return render(request, "exports/schedule.html", context, status=status)


@admin_only
@require_POST
def schedule_run_view(request, pk: int):
    """Run now: a snapshot, or a message that the data has not changed."""
    schedule = get_object_or_404(ReleaseSchedule, pk=pk)
    try:
        outcome = schedule_run_now(schedule=schedule, created_by=request.user)
    except ServiceError as error:
        messages.error(request, error.summary())
    else:
        if outcome.built:
            messages.success(
                request, _("Snapshot %(name)s is being built.") % {"name": outcome.release.name}
            )
        else:
            messages.info(
                request,
                _("The data has not changed since the last snapshot: nothing to build."),
            )
    return redirect("exports:schedule", pk=schedule.pk)


@admin_only
@require_POST
def schedule_enable_view(request, pk: int):
    """Enable (enabled=1) or disable (enabled=0) the schedule."""
    schedule = get_object_or_404(ReleaseSchedule, pk=pk)
    enabled = request.POST.get("enabled") == "1"
    schedule_set_enabled(schedule=schedule, enabled=enabled)
    messages.success(
        request, _("The schedule is enabled.") if enabled else _("The schedule is disabled.")
    )
    return redirect("exports:schedule", pk=schedule.pk)


@admin_only
@require_POST
def schedule_delete_view(request, pk: int):
    """Delete the schedule; its snapshots stay as releases."""
    schedule = get_object_or_404(ReleaseSchedule, pk=pk)
    schedule_delete(schedule=schedule)
    messages.success(request, _("The schedule is deleted; its snapshots stay among the releases."))
    return redirect("exports:schedules")
