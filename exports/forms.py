from django import forms
from django.utils.translation import gettext_lazy as _

from corpus.models import Split

FORMAT_CHOICES = [
    ("squad", _("SQuAD v1.1 JSON")),
    ("hf", _("Hugging Face JSON lines")),
    ("mrqa", _("MRQA (.jsonl.gz, spaCy tokens)")),
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
