"""Counts as people read them: `{{ n|grouped }}` writes an integer with the language's
thousands separator (1 000 000 in French, 1,000,000 in English). Pages at 10× FQuAD show
counts in the millions; ids and values inside attributes never go through it.
`{{ share|floatformat:1|percent }}` puts the percent sign as the language writes it."""

from django import template
from django.utils import translation
from django.utils.formats import number_format
from django.utils.html import format_html

register = template.Library()


@register.filter
def grouped(value):
    if isinstance(value, bool) or not isinstance(value, int):
        return value
    return number_format(value, force_grouping=True)


@register.filter
def decimal_plural(value, places=1):
    """The count that makes `{% blocktranslate count %}` pick the plural form a number needs
    when it is shown with `places` decimals (floatformat): gettext's formulas take integers.

    Shown with decimals, English says "1.0 hours" and "0.5 hours" (always its plural form),
    French "1,5 heure" and "0,5 heure" (its singular below 2). 0 gives both (English's
    n != 1, French's n > 1); 2 gives both plurals. With no decimals the rounded integer."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return value
    places = int(places)
    if places <= 0:
        return round(value)
    return 0 if abs(round(value, places)) < 2 else 2


@register.filter
def percent(value):
    """`value` (a number as the page shows it, floatformat'ed) with its percent sign: "25%" in
    English (Chicago, AP and Microsoft style), "25 %" in French, with the narrow no-break
    space of the catalogue's rule (no line breaks before the sign). "—" or nothing (no value)
    stays as it is: no sign after a dash."""
    if value in (None, "", "—"):
        return value
    if (translation.get_language() or "").split("-")[0] == "en":
        return format_html("{}%", value)
    return format_html("{}\u202f%", value)  # value is escaped
