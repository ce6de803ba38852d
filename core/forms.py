"""Helpers shared by the pages' forms."""

from core.errors import ServiceError


def form_add_service_errors(form, error: ServiceError) -> None:
    """Show a service's refusal on the form: next to its field, or above the form."""
    for field, messages in error.errors.items():
        target = field if field in form.fields else None
        for message in messages:
            form.add_error(target, message)
