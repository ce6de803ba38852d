"""JSON from outside, read with a nesting limit.

Python's `json` parses arrays and objects recursively: a body of a few thousand `[` makes it
raise `RecursionError` (a 500), and a document just under the interpreter's limit would make
every later recursive walk of it (our checks, the database's JSON parser) fail instead. So
every JSON document that comes from a request (API bodies, uploaded files) has its depth
measured first, by a scan of its brackets outside strings that does not recurse, and is
refused past `MAX_JSON_DEPTH` before `json` sees it. No honest document of this platform
nests deeper than about 10 levels (a SQuAD file: 7).
"""

from __future__ import annotations

import json
import re

MAX_JSON_DEPTH = 64

# A JSON string, or what is left of one that is never closed (to the end of the text): each
# match ends where the next search starts, so the scan is linear whatever the input.
_STRING = re.compile(rb'"(?:[^"\\]++|\\.)*+(?:"|\Z)', re.DOTALL)
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_OPENING = frozenset(b"[{")


class JSONTooDeep(ValueError):
    """The document nests arrays and objects deeper than the limit."""

    def __init__(self, limit: int):
        self.limit = limit
        super().__init__(f"JSON nested deeper than {limit} levels")


def json_depth_exceeds(raw: bytes | str, limit: int = MAX_JSON_DEPTH) -> bool:
    """Tell whether the brackets of a JSON text (outside its strings) nest deeper than `limit`.

    Malformed text is measured as well as it can be; the parser refuses it afterwards.
    """
    if isinstance(raw, str):
        raw = raw.encode("utf-8", "surrogatepass")
    if raw.count(b"[") + raw.count(b"{") <= limit:
        return False  # too few brackets to nest that deep (most bodies stop here)
    brackets = _STRING.sub(b"", raw).translate(None, _NOT_BRACKETS)
    depth = 0
    for byte in brackets:
        if byte in _OPENING:
            depth += 1
            if depth > limit:
                return True
        elif depth:
            depth -= 1
    return False


def check_json_depth(raw: bytes | str, limit: int = MAX_JSON_DEPTH) -> None:
    """Raise `JSONTooDeep` when the text nests deeper than `limit`."""
    if json_depth_exceeds(raw, limit):
        raise JSONTooDeep(limit)


def loads(raw: bytes | str, limit: int = MAX_JSON_DEPTH, **options):
    """Return `json.loads(raw)`, refusing a document nested deeper than `limit` first
    (`JSONTooDeep`, a `ValueError` like the parser's own errors)."""
    check_json_depth(raw, limit)
    return json.loads(raw, **options)
