from django.conf import settings
from django.db import DatabaseError, connection
from django.http import HttpResponse


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

    It reports whether this process can reach the database; nothing else is disclosed.
    """

    path = "/healthz"

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path != self.path:
            return self.get_response(request)
        try:
            connection.ensure_connection()
        except DatabaseError:
            return HttpResponse("database unreachable\n", status=503, content_type="text/plain")
        return HttpResponse("ok\n", content_type="text/plain")
