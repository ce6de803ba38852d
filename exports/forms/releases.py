from django import forms
from django.utils.translation import gettext_lazy as _

from annotation.models import Campaign
from core.errors import ServiceError
from core.forms import form_add_service_errors
from corpus.models import Split

FORMAT_CHOICES = [
    ("squad", _("SQuAD JSON")),
    ("hf", _("Hugging Face JSON lines")),
    ("mrqa", _("MRQA (.jsonl.gz, spaCy tokens)")),
]


SQUAD_VERSION_CHOICES = [
    ("1.1", _("1.1: answerable questions only")),
    ("2.0", _("2.0: with the unanswerable questions")),
]


class ReleaseForm(forms.Form):
    """Parse the release form; the rules live in exports.services.releases."""

    name = forms.CharField(label=_("Name"), max_length=100, help_text=_("Like fquad-1.1"))
    version = forms.CharField(label=_("Version"), max_length=32, help_text=_("Like 1.1"))
    description = forms.CharField(
        label=_("Description"), required=False, widget=forms.Textarea(attrs={"rows": 3})
    )
    formats = forms.MultipleChoiceField(
        label=_("Formats"),
        choices=FORMAT_CHOICES,
        widget=forms.CheckboxSelectMultiple,
        initial=["squad", "hf"],
    )
    splits = forms.MultipleChoiceField(
        label=_("Splits"),
        choices=Split.choices,
        widget=forms.CheckboxSelectMultiple,
        initial=list(Split.values),
    )
    # The campaigns whose questions the release takes (`options["campaigns"]`); none: all.
    campaigns = forms.TypedMultipleChoiceField(
        label=_("Campaigns"),
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("None checked: the questions of every campaign."),
    )
    approved_only = forms.BooleanField(
        label_suffix="", label=_("Only questions a reviewer approved or corrected"), required=False
    )
    include_test_answers = forms.BooleanField(
        label_suffix="",
        label=_("Include the test answers"),
        required=False,
        help_text=_("Left out, the test files hold the questions only (for a leaderboard)."),
    )
    include_history = forms.BooleanField(
        label_suffix="", label=_("Include the review history (history.jsonl)"), required=False
    )
    squad_version = forms.ChoiceField(
        label=_("SQuAD version"),
        choices=SQUAD_VERSION_CHOICES,
        widget=forms.RadioSelect,
        initial="1.1",
        required=False,
        help_text=_(
            "v2.0 adds the unanswerable questions (SQuAD 2.0, FQuAD 2.0) to the SQuAD and "
            "Hugging Face files; MRQA leaves them out."
        ),
    )

    # Score with (docs/release-scoring.md): the baselines to run once the release is built.
    score_lexical = forms.BooleanField(
        label_suffix="", label=_("The lexical baseline (sliding window, CPU)"), required=False
    )
    score_finetune_model = forms.CharField(
        label=_("Fine-tune a model"),
        required=False,
        max_length=500,
        help_text=_(
            "A hub name or a local folder, like camembert-base; trained on the train split "
            "(gpu queue)."
        ),
    )
    score_finetune_epochs = forms.IntegerField(label=_("Epochs"), required=False)
    score_finetune_learning_rate = forms.FloatField(label=_("Learning rate"), required=False)
    score_finetune_batch_size = forms.IntegerField(label=_("Batch size"), required=False)
    score_finetune_max_steps = forms.IntegerField(label=_("Maximum steps"), required=False)
    score_http_model = forms.CharField(
        label=_("A predict server (HTTP)"),
        required=False,
        max_length=500,
        help_text=_("The address of a server speaking the MRQA predict protocol."),
    )

    SCORING_FIELDS = (
        "score_lexical",
        "score_finetune_model",
        "score_finetune_epochs",
        "score_finetune_learning_rate",
        "score_finetune_batch_size",
        "score_finetune_max_steps",
        "score_http_model",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["campaigns"].choices = campaign_choices()

    def clean_squad_version(self) -> str:
        """Left out (an older form), it is 1.1."""
        return self.cleaned_data["squad_version"] or "1.1"

    def release_fields(self):
        return [self[name] for name in self.fields if name not in self.SCORING_FIELDS]

    def scoring_fields(self):
        return [self[name] for name in self.SCORING_FIELDS]

    def finetune_settings(self):
        """The fine-tune's settings, shown side by side under its model."""
        names = ("epochs", "learning_rate", "batch_size", "max_steps")
        return [self[f"score_finetune_{name}"] for name in names]

    def release_arguments(self) -> dict:
        """Return `release_create`'s arguments: the options, and the `score_with` list."""
        data = dict(self.cleaned_data)
        scoring = {name: data.pop(name, None) for name in self.SCORING_FIELDS}
        score_with, self.score_with_fields = [], []
        if scoring["score_lexical"]:
            score_with.append({"kind": "lexical"})
            self.score_with_fields.append("score_lexical")
        settings = {
            name: scoring[f"score_finetune_{name}"]
            for name in ("epochs", "learning_rate", "batch_size", "max_steps")
            if scoring[f"score_finetune_{name}"] is not None
        }
        if scoring["score_finetune_model"] or settings:
            entry = {"kind": "finetune", "model": scoring["score_finetune_model"] or ""}
            score_with.append(entry | ({"hyperparameters": settings} if settings else {}))
            self.score_with_fields.append("score_finetune_model")
        if scoring["score_http_model"]:
            score_with.append({"kind": "http", "model": scoring["score_http_model"]})
            self.score_with_fields.append("score_http_model")
        return data | {"score_with": score_with}

    def add_service_errors(self, error: ServiceError) -> None:
        """Show a service's refusal: `score_with[i]…` next to the field of entry i, the rest
        next to its field or above the form."""
        rest = {
            field: messages
            for field, messages in error.errors.items()
            if not self._add_scoring_error(field, messages)
        }
        form_add_service_errors(self, ServiceError(rest, status=error.status))

    def _add_scoring_error(self, field: str, messages) -> bool:
        """Show a refusal of `score_with[i]…` next to the form field of entry i; return
        whether the field was one of those."""
        head, _sep, part = field.partition("].")
        if not head.startswith("score_with["):
            return False
        index = int(head.removeprefix("score_with[").rstrip("]"))
        target = self.score_with_fields[index]
        for message in messages:
            named = f"score_finetune_{message.split(':', 1)[0].strip()}"  # "epochs: …"
            if part == "hyperparameters" and named in self.fields:
                self.add_error(named, message)
            else:
                self.add_error(target, message)
        return True


def campaign_choices() -> list[tuple[int, str]]:
    """The campaigns a release may be limited to, newest first, each named with its kind."""
    kinds = dict(Campaign.Kind.choices)
    rows = Campaign.objects.order_by("-created_at", "-pk").values_list("pk", "name", "kind")
    return [(pk, f"{name} ({kinds.get(kind, kind)})") for pk, name, kind in rows]
