from django import forms
from django.utils.translation import gettext_lazy as _

from annotation.models import Campaign
from core.errors import ServiceError
from core.forms import form_add_service_errors
from corpus.models import Split
from exports.scoring import release_scoring

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

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["campaigns"].choices = campaign_choices()
        # "Score with" (docs/release-scoring.md): the fieldset of the app that scores
        # releases, when one is registered (`exports.scoring`).
        self.scoring = release_scoring()
        self.scoring_names = ()
        if self.scoring is not None:
            scoring_fields = self.scoring.fields()
            self.fields.update(scoring_fields)
            self.scoring_names = tuple(scoring_fields)

    def clean_squad_version(self) -> str:
        """Left out (an older form), it is 1.1."""
        return self.cleaned_data["squad_version"] or "1.1"

    def release_fields(self):
        return [self[name] for name in self.fields if name not in self.scoring_names]

    def release_arguments(self) -> dict:
        """Return `release_create`'s arguments: the options, and the `score_with` list."""
        data = dict(self.cleaned_data)
        scoring = {name: data.pop(name, None) for name in self.scoring_names}
        score_with, self.score_with_fields = [], []
        if self.scoring is not None:
            score_with, self.score_with_fields = self.scoring.score_with(scoring)
        return data | {"score_with": score_with}

    def add_service_errors(self, error: ServiceError) -> None:
        """Show a service's refusal: `score_with[i]…` next to the field of entry i, the rest
        next to its field or above the form."""
        rest = {
            field: messages
            for field, messages in error.errors.items()
            if not self._add_scoring_error(field, messages)
        }
        if "language" in rest and "language" not in self.fields:
            # The page has no language field: a release takes its campaigns' language, so
            # the way out is to check campaigns of one language (each choice names its own).
            del rest["language"]
            self.add_error("campaigns", self._mixed_languages_error())
        form_add_service_errors(self, ServiceError(rest, status=error.status))

    def _mixed_languages_error(self) -> str:
        chosen = (self.cleaned_data or {}).get("campaigns")
        campaigns = Campaign.objects.filter(pk__in=chosen) if chosen else Campaign.objects.all()
        spoken = sorted(set(campaigns.values_list("language", flat=True)))
        return _(
            "These campaigns are in several languages (%(languages)s) and a release holds one: "
            "check only campaigns in one language."
        ) % {"languages": ", ".join(spoken)}

    def _add_scoring_error(self, field: str, messages) -> bool:
        """Show a refusal of `score_with[i]…` next to the form field of entry i; return
        whether the field was one of those."""
        head, _sep, part = field.partition("].")
        if not head.startswith("score_with[") or self.scoring is None:
            return False
        index = int(head.removeprefix("score_with[").rstrip("]"))
        for message in messages:
            self.scoring.add_error(self, self.score_with_fields[index], part, message)
        return True


def campaign_choices() -> list[tuple[int, str]]:
    """The campaigns a release may be limited to, newest first, each named with its kind and
    language (a release holds one language)."""
    kinds = dict(Campaign.Kind.choices)
    rows = Campaign.objects.order_by("-created_at", "-pk").values_list(
        "pk", "name", "kind", "language"
    )
    return [
        (pk, f"{name} ({kinds.get(kind, kind)} · {language})") for pk, name, kind, language in rows
    ]
