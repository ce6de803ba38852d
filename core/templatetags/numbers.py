"""Counts as people read them: `{{ n|grouped }}` writes an integer with the language's
thousands separator (1 000 000 in French, 1,000,000 in English). Pages at 10× FQuAD show
counts in the millions; ids and values inside attributes never go through it."""

from django import template
from django.utils.formats import number_format

register = template.Library()


@register.filter
def grouped(value):
    if isinstance(value, bool) or not isinstance(value, int):
        return value
    return number_format(value, force_grouping=True)
