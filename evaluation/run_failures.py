"""What a failed baseline run tells the admin: a sentence in their language saying what
failed and what to do, above the error's own text (the library's, in English), which stays
available as the detail.

The stored error is `core.services.jobs.job_run`'s "ExceptionType: message"; the sentence is
picked from its type and a few words of it, and made when the page is shown (in the reader's
language), so runs that failed before have it too.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

# What the run's error says about the cause (matched in lower case): torch's error when the GPU
# is full, and ours when the model named cannot be loaded (`evaluation.model_names`).
MEMORY = ("outofmemoryerror", "out of memory")
UNLOADABLE = ("modelloaderror:", "modelnameerror:")


def _what_failed(kind: str) -> str:
    return {
        "finetune": _("The fine-tuning failed."),
        "learning_curve": _("The learning curve failed."),
        "evaluate": _("The evaluation of the model failed."),
        "http": _("Scoring the model served over HTTP failed."),
        "lexical": _("The lexical baseline failed."),
    }.get(kind, _("The run failed."))


def _what_to_do(kind: str, error: str) -> str:
    lowered = error.lower()
    if any(words in lowered for words in MEMORY):
        return _(
            "The GPU ran out of memory: start a new run with a smaller batch size or maximum "
            "length."
        )
    if kind == "http":
        return _("Check that the server answers at this address, then start a new run.")
    if lowered.startswith(UNLOADABLE):
        return _(
            "The model could not be loaded: check its name (a folder of the models folder, or "
            "a model hub name the workers can download), then start a new run."
        )
    return _(
        "Check the model and the settings, then start a new run; if it fails again, give the "
        "detail below to whoever runs the workers."
    )


def run_failure(kind: str, error: str) -> str:
    """Return what a failed run of this kind tells the admin, or "" when it has no error."""
    if not error:
        return ""
    return f"{_what_failed(kind)} {_what_to_do(kind, error)}"
