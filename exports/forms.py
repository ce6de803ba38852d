from django import forms
from django.utils.translation import gettext_lazy as _

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
    """Parse the release form; the rules live in exports.services."""

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

    def clean_squad_version(self) -> str:
        """Left out (an older form), it is 1.1."""
        return self.cleaned_data["squad_version"] or "1.1"
