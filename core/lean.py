"""A lean way through DRF for the few endpoints on the annotators' hot path (issue 24).

A claim and a submission are most of what the platform serves; DRF's dispatch (its request
wrapper, content negotiation, the permission and throttle machinery, the response's finishing)
costs about as much as the work itself there. `lean_post` wraps such an endpoint's DRF view:
the common case, a POST authenticated by an API token, asking for JSON (or anything) and
sending JSON, is served by the endpoint's handler called directly, with the same
authenticator, the same permissions, the same parser, the same exception handler and the
same renderer and headers as DRF's way. Anything else (a session and its CSRF check, another
method, another content type or `Accept`, a query string, an unknown or refused token, a
refused permission, a body the parser refuses, a view with throttles) goes DRF's way
unchanged, so every refusal and every other answer is DRF's own.

The wrapper keeps the DRF view's attributes (`cls`, `initkwargs`, `actions`): the URL, its
name and the OpenAPI schema are those of the view.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from functools import wraps
from types import SimpleNamespace

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.utils.cache import patch_vary_headers
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.settings import api_settings

from core.errors import ServiceError

# What DRF's negotiation answers with its first renderer (JSON) whatever the renderers are.
PLAIN_ACCEPT = frozenset(("", "*/*", "application/json"))
HANDLED = (ServiceError, Http404, PermissionDenied, exceptions.APIException)

Handler = Callable[..., Response]


def lean_post(drf_view, handler: Handler, *, body: bool) -> Callable:
    """Wrap a DRF view's POST: `handler(user, data, **kwargs)` answers the common case (module
    docstring); `data` is the parsed JSON body when `body` is true, else None (the body is not
    read, as the DRF view does not read it). The permissions are the view's own for its POST
    action (`get_permissions()`, asked once here), so the two ways cannot drift apart."""
    cls = drf_view.cls
    authenticator = cls.authentication_classes[0]() if cls.authentication_classes else None
    json_parser = next(
        (parser() for parser in cls.parser_classes if parser.media_type == "application/json"),
        None,
    )
    renderer = cls.renderer_classes[0]() if cls.renderer_classes else None
    eligible = (
        isinstance(authenticator, TokenAuthentication)
        and isinstance(renderer, JSONRenderer)
        and not cls.throttle_classes
        and (json_parser is not None or not body)
        and "post" in drf_view.actions
    )
    if not eligible:  # nothing here for the lean way to do exactly as DRF does
        return drf_view
    checks = _action_permissions(drf_view)
    allowed = _allowed_methods(drf_view)
    several_renderers = len(cls.renderer_classes) > 1
    exception_handler = api_settings.EXCEPTION_HANDLER

    @wraps(drf_view)
    def view(request, *args, **kwargs):
        meta = request.META
        if (
            request.method != "POST"
            or meta.get("QUERY_STRING")
            or meta.get("HTTP_ACCEPT", "") not in PLAIN_ACCEPT
            or (body and not _json_body(request))
        ):
            return drf_view(request, *args, **kwargs)
        try:
            found = authenticator.authenticate(request)
        except exceptions.APIException:
            found = None
        if found is None:
            return drf_view(request, *args, **kwargs)
        user = found[0]
        asking = SimpleNamespace(user=user, auth=found[1], method="POST")
        if not all(check.has_permission(asking, None) for check in checks):
            return drf_view(request, *args, **kwargs)
        data = None
        if body:
            try:
                data = json_parser.parse(io.BytesIO(request.body), "application/json", {})
            except exceptions.ParseError:
                return drf_view(request, *args, **kwargs)
        request.user = user  # as DRF sets it on the request it wraps
        try:
            response = handler(user, data, **kwargs)
        except HANDLED as exc:
            response = exception_handler(exc, {"view": None, "args": args, "kwargs": kwargs})
            if response is None:
                raise
            response.exception = True
        response.accepted_renderer = renderer
        response.accepted_media_type = renderer.media_type
        response.renderer_context = {}
        response["Allow"] = allowed
        if several_renderers:
            patch_vary_headers(response, ["Accept"])
        return response

    view.lean = True
    return view


def _action_permissions(drf_view) -> list:
    """The permission instances DRF checks for this view's POST action."""
    probe = drf_view.cls(**drf_view.initkwargs)
    probe.action = drf_view.actions["post"]
    return probe.get_permissions()


def _json_body(request) -> bool:
    """Whether the body is JSON in UTF-8, as DRF's JSON parser reads it without a charset, of
    a length given and within `DATA_UPLOAD_MAX_MEMORY_SIZE`: DRF reads the body as a stream,
    which that limit does not apply to, where `request.body` (read here) would refuse it."""
    if request.content_type != "application/json":
        return False
    length, limit = request.META.get("CONTENT_LENGTH", ""), settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    if not length.isdigit() or (limit is not None and int(length) > limit):
        return False
    charset = request.content_params.get("charset")
    return charset is None or charset.lower() == settings.DEFAULT_CHARSET.lower()


def _allowed_methods(drf_view) -> str:
    """The `Allow` header DRF sends for this view: its actions' methods and OPTIONS."""
    cls, actions = drf_view.cls, drf_view.actions
    return ", ".join(
        method.upper()
        for method in cls.http_method_names
        if method in actions or hasattr(cls, method)
    )
