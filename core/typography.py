"""French typography in one place: the spaces that French puts before « : ; ! ? » and inside
guillemets, as no-break spaces so that a line never starts with a colon or a closing guillemet.

The rule (docs/decisions.md, "French and English text"): a narrow no-break space (U+202F)
before ; ! ? and a number's %, and inside « », a no-break space (U+00A0) before :.
`french_spacing` applies it to a string; it is used
- on the French catalogue (`manage.py typeset_messages` rewrites its msgstrs, and a test
  checks that every one is typeset), so translators type plain spaces and never think of it;
- in templates, through the `typeset` filter, for the rare text put together in the page;
- in CSS for `<q>` (app.css, `:lang(fr) q`), whose guillemets the browser draws itself.
Corpus and user text never goes through it: a paragraph's characters are its offsets.
"""

from __future__ import annotations

import re

NARROW_NBSP = "\u202f"
NBSP = "\u00a0"
_SPACE = "[ \u00a0\u202f\u2009]"
# A mark gets its space inserted only after a word or a closing sign, and only when it ends a
# phrase (space, end, closing quote or bracket, a tag): never in "http://", "12:30",
# "?page=2", "&amp;" or "?!".
_BEFORE = r"(?<=[\w)\]»”’%])"
_AFTER = r"(?=\s|$|[»”\"’)<])"
_ENTITY = re.compile(r"&#?\w+$")


def _spaced(mark: str) -> str:
    return NBSP if mark == ":" else NARROW_NBSP


def french_spacing(text: str) -> str:
    """Return `text` with French no-break spaces before : ; ! ? %, and inside « »."""
    if not text:
        return text
    text = re.sub(rf"{_SPACE}+([:;!?])", lambda m: _spaced(m[1]) + m[1], text)
    text = re.sub(
        rf"{_BEFORE}([:;!?]){_AFTER}",
        lambda m: m[1] if _ENTITY.search(text[: m.start()]) else _spaced(m[1]) + m[1],
        text,
    )
    # "40 %", "%(share)s %%": the sign stays with its number (not a placeholder's %)
    text = re.sub(rf"(\d|%\(\w+\)[.\d]*[sdf]){_SPACE}+(%%|%(?![(\w]))", rf"\1{NARROW_NBSP}\2", text)
    text = re.sub(rf"«{_SPACE}*", "«" + NARROW_NBSP, text)
    return re.sub(rf"{_SPACE}*»", NARROW_NBSP + "»", text)


def typeset(text: str, language: str) -> str:
    """Return `text` as `language` writes its punctuation (only French adds spaces)."""
    return french_spacing(text) if (language or "").split("-")[0] == "fr" else text


_ESCAPES = {'"': '"', "\\": "\\", "n": "\n", "t": "\t"}


def _unquote(chunk: str) -> str:
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m[1], m[0]), chunk)


def _quote(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")


def _split_like(old: list[str], new: str) -> list[str]:
    """Cut `new` where `old`'s lines were cut (typesetting only swaps and adds spaces)."""
    joined, where, j = "".join(old), [], 0
    for char in joined:  # where each character of `joined` went in `new`
        while new[j] != char and not (char.isspace() and new[j].isspace()):
            j += 1  # a space typesetting added
        where.append(j)
        j += 1
    out, start, offset = [], 0, 0
    for chunk in old[:-1]:
        offset += len(chunk)
        end = where[offset] if offset < len(where) else len(new)
        out.append(new[start:end])
        start = end
    out.append(new[start:])
    return out


def po_typeset(path) -> int:
    """Typeset every msgstr of the .po file at `path` in place; return how many changed."""
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    out, changed, i = [], 0, 0
    while i < len(lines):
        line = lines[i]
        match = re.match(r'^(msgstr(?:\[\d+\])? )"(.*)"$', line)
        if not match or (i and lines[i - 1] == 'msgid ""'):  # not a msgstr, or the header
            out.append(line)
            i += 1
            continue
        chunks, i = [match[2]], i + 1
        while i < len(lines) and lines[i].startswith('"'):
            chunks.append(lines[i][1:-1])
            i += 1
        old = [_unquote(chunk) for chunk in chunks]
        new = french_spacing("".join(old))
        if new != "".join(old):
            changed += 1
            old = _split_like(old, new)
        quoted = [_quote(chunk) for chunk in old]
        out.append(f'{match[1]}"{quoted[0]}"')
        out.extend(f'"{chunk}"' for chunk in quoted[1:])
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("\n".join(out))
    return changed
