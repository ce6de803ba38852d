"""The page's punctuation and clock, as its language writes them.

`{{ text|typeset }}` gives text put together in a template French no-break spaces
(core/typography.py); translated messages already have them in the catalogue.
`{% time_zone %}` names the zone the page's times are written in (settings.TIME_ZONE), for
labels beside a time that is set or compared ("Hour (0 to 23, Europe/Paris time)").
"""

from django import template
from django.utils import timezone, translation

from core.typography import typeset as typeset_text

register = template.Library()


@register.filter(is_safe=True)  # escaped text stays escaped: only spaces are swapped or added
def typeset(value):
    return typeset_text(str(value), translation.get_language())


@register.simple_tag
def time_zone():
    return timezone.get_current_timezone_name()
