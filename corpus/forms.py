from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from core.forms import language_choices
from corpus.models import Split


class ScrapeRunForm(forms.Form):
    category = forms.CharField(
        label=_("Category"), max_length=255, initial=lambda: settings.CORPUS_CATEGORY
    )
    sample = forms.IntegerField(
        label=_("Number of articles"),
        min_value=1,
        max_value=5000,
        help_text=_("FQuAD: 145 articles for v1.0, then 181 for v1.1."),
    )
    seed = forms.IntegerField(
        label=_("Seed"), initial=0, help_text=_("The same seed draws the same articles.")
    )
    wave = forms.CharField(label=_("Wave"), max_length=20, help_text=_("For example 1.0 or 1.1."))
    language = forms.ChoiceField(
        label=_("Language"),
        required=False,
        help_text=_(
            "The Wikipedia to read. Its paragraph length rule, end-matter sections and "
            "quality categories are the language's (docs/languages.md)."
        ),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["language"].choices = language_choices()
        self.fields["language"].initial = settings.WIKIPEDIA_LANGUAGE


class ArticleSplitForm(forms.Form):
    split = forms.ChoiceField(label=_("Split"), choices=Split.choices)


class ArticleFilterForm(forms.Form):
    split = forms.ChoiceField(
        label=_("Split"), required=False, choices=[("", _("all"))] + list(Split.choices)
    )
    wave = forms.CharField(label=_("Wave"), required=False, max_length=20)
    q = forms.CharField(label=_("Title contains"), required=False, max_length=100)
