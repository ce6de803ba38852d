from celery import current_app
from django.conf import settings
from django.core.cache import caches
from django.db import DatabaseError, connection
from django.http import HttpResponse

from core.cache import cache_health


class ContentSecurityPolicyMiddleware:
    """Send the platform's Content-Security-Policy (no inline script or style) on every response.

    Django 5.2 has no CSP support of its own (it arrives in 6.0); this header is all we need.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", settings.CONTENT_SECURITY_POLICY)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        return response


class HealthCheckMiddleware:
    """Answer /healthz before host checks and HTTPS redirects, for load balancers and compose.

    The first line is `ok`, `degraded` (the cache or the broker is unreachable: pages and
    sign-in work, jobs cannot start) or `down` (no database: 503); then one line each for the
    database, the cache and the broker. Nothing else is disclosed.
    """

    path = "/healthz"

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path != self.path:
            return self.get_response(request)
        checks = {
            "database": _database(),
            "cache": cache_health(caches["default"]),
            "broker": _broker(),
        }
        if not checks["database"][0]:
            state, status = "down", 503
        elif all(ok for ok, _said in checks.values()):
            state, status = "ok", 200
        else:
            state, status = "degraded", 200
        lines = [state] + [f"{name}: {said}" for name, (_ok, said) in checks.items()]
        return HttpResponse("\n".join(lines) + "\n", status=status, content_type="text/plain")


def _database() -> tuple[bool, str]:
    try:
        connection.ensure_connection()
    except DatabaseError:
        return False, "unreachable"
    return True, "ok"


def _broker() -> tuple[bool, str]:
    """Connect to the job broker once, without retrying (Redis, or the embedded folder)."""
    try:
        with current_app.connection_for_write() as broker:
            broker.ensure_connection(max_retries=1, interval_start=0, timeout=2)
    except Exception as error:  # kombu raises the transport's own errors
        return False, f"unreachable ({type(error).__name__}); jobs cannot start"
    return True, "ok"
