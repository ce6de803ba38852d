from django import template

register = template.Library()


@register.filter
def get_item(mapping, key):
    """Return mapping[key], or None (templates cannot index a dict with a variable)."""
    if not isinstance(mapping, dict):
        return None
    return mapping.get(key)
