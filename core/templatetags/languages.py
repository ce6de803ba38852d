"""The registry of languages in templates: `{% load languages %}`, then
`{{ code|language_name }}`, `{{ code|language_dir }}` ("ltr" or "rtl", for a `dir`
attribute) and `{% unavailable "answer_types" code as line %}` (None when available)."""

from django import template

from core.language_text import language_name as _language_name
from core.language_text import unavailable as _unavailable
from core.languages import find

register = template.Library()


@register.filter
def language_name(code):
    return _language_name(code)


@register.filter
def language_dir(code):
    entry = find(code)
    return entry.direction if entry else "ltr"


@register.filter
def language_lang(code):
    """The value of an HTML `lang` attribute: the code as stored ("fr", "zh")."""
    return (code or "").strip().lower()


@register.simple_tag
def unavailable(piece, code):
    return _unavailable(piece, code)
