"""`{{ form|fields_with_errors }}`: the bound fields of a form that have an error, in order,
for the summary at the top of a long form (core/form_error_summary.html)."""

from django import template

register = template.Library()


@register.filter
def fields_with_errors(form):
    return [field for field in form if field.errors]
