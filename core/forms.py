"""Helpers shared by the pages' forms."""

from django.utils.translation import get_language

from core.errors import ServiceError
from core.languages import languages


def form_add_service_errors(form, error: ServiceError) -> None:
    """Show a service's refusal on the form: next to its field, or above the form."""
    for field, messages in error.errors.items():
        target = field if field in form.fields else None
        for message in messages:
            form.add_error(target, message)


def language_choices() -> list[tuple[str, str]]:
    """Return the registry's languages as a form's choices, each named in the reader's
    language and in its own: "French (fr) · français"."""
    ui = get_language() or "en"
    return [(e.code, f"{e.name(ui)} ({e.code}) · {e.native_name}") for e in languages()]
