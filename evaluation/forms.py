"""The "Score with" fieldset of the release and schedule forms (docs/release-scoring.md).

The forms are exports'; the baselines a release may name, their fields and the check of the
list are evaluation's, registered at exports' extension point (`exports.scoring`) by
`EvaluationConfig.ready` (`release_scoring_extension`); the fieldset's HTML is evaluation's
too, in `fragments.html`, rendered at the forms' places (`core.fragments`).
"""

from django import forms
from django.utils.translation import gettext_lazy as _

from evaluation.services.release_scoring import score_with_check
from exports.scoring import ReleaseScoring

FINETUNE_SETTINGS = ("epochs", "learning_rate", "batch_size", "max_steps")


def score_with_fields() -> dict:
    """The fieldset's fields, new ones for each form."""
    return {
        "score_lexical": forms.BooleanField(
            label_suffix="", label=_("The lexical baseline (sliding window, CPU)"), required=False
        ),
        "score_finetune_model": forms.CharField(
            label=_("Fine-tune a model"),
            required=False,
            max_length=500,
            help_text=_(
                "A hub name or a local folder, like camembert-base; trained on the train split "
                "(gpu queue)."
            ),
        ),
        "score_finetune_epochs": forms.IntegerField(label=_("Epochs"), required=False),
        "score_finetune_learning_rate": forms.FloatField(label=_("Learning rate"), required=False),
        "score_finetune_batch_size": forms.IntegerField(label=_("Batch size"), required=False),
        "score_finetune_max_steps": forms.IntegerField(label=_("Maximum steps"), required=False),
        "score_http_model": forms.CharField(
            label=_("A predict server (HTTP)"),
            required=False,
            max_length=500,
            help_text=_("The address of a server speaking the MRQA predict protocol."),
        ),
    }


def score_with_from(scoring: dict) -> tuple[list[dict], list[str]]:
    """Return the `score_with` list the fields' values ask for, and the field of each entry."""
    score_with, fields = [], []
    if scoring["score_lexical"]:
        score_with.append({"kind": "lexical"})
        fields.append("score_lexical")
    settings = {
        name: scoring[f"score_finetune_{name}"]
        for name in FINETUNE_SETTINGS
        if scoring[f"score_finetune_{name}"] is not None
    }
    if scoring["score_finetune_model"] or settings:
        entry = {"kind": "finetune", "model": scoring["score_finetune_model"] or ""}
        score_with.append(entry | ({"hyperparameters": settings} if settings else {}))
        fields.append("score_finetune_model")
    if scoring["score_http_model"]:
        score_with.append({"kind": "http", "model": scoring["score_http_model"]})
        fields.append("score_http_model")
    return score_with, fields


def score_with_initial(score_with: list) -> dict:
    """Return the fields' initial values that show a stored `score_with` list."""
    initial = {}
    for entry in score_with or []:
        if entry.get("kind") == "lexical":
            initial["score_lexical"] = True
        elif entry.get("kind") == "finetune":
            initial["score_finetune_model"] = entry.get("model", "")
            for name, value in (entry.get("hyperparameters") or {}).items():
                initial[f"score_finetune_{name}"] = value
        elif entry.get("kind") == "http":
            initial["score_http_model"] = entry.get("model", "")
    return initial


def score_with_add_error(form, field: str, part: str, message: str) -> None:
    """Show a refusal of an entry's `part` next to its field (a fine-tune's setting next to
    that setting: "epochs: …")."""
    named = f"score_finetune_{message.split(':', 1)[0].strip()}"
    if part == "hyperparameters" and named in form.fields:
        form.add_error(named, message)
    else:
        form.add_error(field, message)


def release_scoring_extension() -> ReleaseScoring:
    return ReleaseScoring(
        check=lambda score_with, *, splits: score_with_check(score_with=score_with, splits=splits),
        fields=score_with_fields,
        score_with=score_with_from,
        initial=score_with_initial,
        add_error=score_with_add_error,
    )
