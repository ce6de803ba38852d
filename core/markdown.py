"""Render Markdown written by admins (campaign guidelines) safely: raw HTML is escaped."""

from functools import lru_cache

from django.utils.safestring import SafeString, mark_safe
from markdown_it import MarkdownIt


@lru_cache(maxsize=1)
def _renderer() -> MarkdownIt:
    # CommonMark with raw HTML off: tags are shown as text, and markdown-it refuses
    # javascript:, vbscript: and data: links by itself.
    return MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})


def render_markdown(text: str) -> SafeString:
    """Return the HTML of `text`; nothing in it can inject markup or script."""
    return mark_safe(_renderer().render(text or ""))  # noqa: S308  (html=False escapes input)
