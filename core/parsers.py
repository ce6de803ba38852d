"""The API's JSON parser: DRF's, with a nesting limit (`core.jsondepth`)."""

from __future__ import annotations

import io

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from core.inputs import too_deep_message
from core.jsondepth import json_depth_exceeds


class DepthLimitedJSONParser(JSONParser):
    """Parse a JSON body as DRF does, after refusing one nested deeper than MAX_JSON_DEPTH
    (400) instead of letting the recursive parser fail with a 500."""

    def parse(self, stream, media_type=None, parser_context=None):
        raw = stream.read() if stream is not None else b""
        if json_depth_exceeds(raw):
            raise ParseError(too_deep_message())
        return super().parse(io.BytesIO(raw), media_type, parser_context)
