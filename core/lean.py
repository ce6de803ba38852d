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
from dataclasses import dataclass
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
    lean = _LeanWay.of(drf_view, handler, body=body)
    if lean is None:  # nothing here for the lean way to do exactly as DRF does
        return drf_view

    @wraps(drf_view)
    def view(request, *args, **kwargs):
        response = lean.serve(request, args, kwargs)
        return drf_view(request, *args, **kwargs) if response is None else response

    view.lean = True
    return view


@dataclass(frozen=True)
class _LeanWay:
    """What the lean way of one view uses, the DRF view's own pieces, found once."""

    handler: Handler
    body: bool
    authenticator: TokenAuthentication
    json_parser: object
    renderer: JSONRenderer
    checks: list
    allowed: str
    several_renderers: bool
    exception_handler: Callable

    @classmethod
    def of(cls, drf_view, handler: Handler, *, body: bool) -> _LeanWay | None:
        """The view's lean way, or None where it cannot do exactly as DRF does."""
        view = drf_view.cls
        authenticator = view.authentication_classes[0]() if view.authentication_classes else None
        json_parser = next(
            (parser() for parser in view.parser_classes if parser.media_type == "application/json"),
            None,
        )
        renderer = view.renderer_classes[0]() if view.renderer_classes else None
        eligible = (
            isinstance(authenticator, TokenAuthentication)
            and isinstance(renderer, JSONRenderer)
            and not view.throttle_classes
            and (json_parser is not None or not body)
            and "post" in drf_view.actions
        )
        if not eligible:
            return None
        return cls(
            handler=handler,
            body=body,
            authenticator=authenticator,
            json_parser=json_parser,
            renderer=renderer,
            checks=_action_permissions(drf_view),
            allowed=_allowed_methods(drf_view),
            several_renderers=len(view.renderer_classes) > 1,
            exception_handler=api_settings.EXCEPTION_HANDLER,
        )

    def serve(self, request, args, kwargs) -> Response | None:
        """Answer the common case as DRF would; None sends the request DRF's way."""
        if not self._is_common(request):
            return None
        user = self._permitted_user(request)
        if user is None:
            return None
        data = None
        if self.body:
            try:
                data = self.json_parser.parse(io.BytesIO(request.body), "application/json", {})
            except exceptions.ParseError:
                return None
        request.user = user  # as DRF sets it on the request it wraps
        return self._finished(self._answer(user, data, args, kwargs))

    def _is_common(self, request) -> bool:
        """A POST with no query string, accepting JSON, and a JSON body where one is read."""
        meta = request.META
        return not (
            request.method != "POST"
            or meta.get("QUERY_STRING")
            or meta.get("HTTP_ACCEPT", "") not in PLAIN_ACCEPT
            or (self.body and not _json_body(request))
        )

    def _permitted_user(self, request):
        """The user of the request's API token, if the view's permissions let them post."""
        try:
            found = self.authenticator.authenticate(request)
        except exceptions.APIException:
            return None
        if found is None:
            return None
        asking = SimpleNamespace(user=found[0], auth=found[1], method="POST")
        if not all(check.has_permission(asking, None) for check in self.checks):
            return None
        return found[0]

    def _answer(self, user, data, args, kwargs) -> Response:
        """The handler's response, or the API's error response to what it raised."""
        try:
            return self.handler(user, data, **kwargs)
        except HANDLED as exc:
            response = self.exception_handler(exc, {"view": None, "args": args, "kwargs": kwargs})
            if response is None:
                raise
            response.exception = True
            return response

    def _finished(self, response: Response) -> Response:
        """The response with the renderer and headers DRF's finishing gives it."""
        response.accepted_renderer = self.renderer
        response.accepted_media_type = self.renderer.media_type
        response.renderer_context = {}
        response["Allow"] = self.allowed
        if self.several_renderers:
            patch_vary_headers(response, ["Accept"])
        return response


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
