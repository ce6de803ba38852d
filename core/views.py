"""Pages of the core app: the system page (worker checks) and the job status partial."""

from django.conf import settings
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods

from core.errors import ServiceError
from core.models import WorkerCheck
from core.permissions import role_required
from core.roles import Role
from core.services.workers import worker_check_start


def broker_kind() -> str:
    return "redis" if settings.REDIS_URL else "filesystem"


@role_required(Role.ADMIN)
@require_http_methods(["GET", "POST"])
def system_page(request):
    """Show the stack this install runs on and check that workers serve each queue."""
    errors, status = {}, 200
    if request.method == "POST":
        try:
            worker_check_start(queue=request.POST.get("queue", ""), created_by=request.user)
        except ServiceError as error:
            errors, status = error.errors, 400
        else:
            if not request.htmx:
                return redirect("core:system")
    context = {
        "database": settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1],
        "broker": broker_kind(),
        "queues": settings.JOB_QUEUES,
        "checks": WorkerCheck.objects.select_related("created_by")[:20],
        "errors": errors,
    }
    template = "core/system.html#worker-checks" if request.htmx else "core/system.html"
    return render(request, template, context, status=status)


def job_status_response(request, job):
    """Render a job's status partial; it polls this same URL until the job ends."""
    return render(
        request, "core/job_status.html#job-status", {"job": job, "poll_url": request.path}
    )


@role_required(Role.ADMIN)
def worker_check_status(request, pk: int):
    """The status partial of one worker check."""
    return job_status_response(request, get_object_or_404(WorkerCheck, pk=pk))
