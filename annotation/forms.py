from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from annotation.models import Campaign, QuestionType
from annotation.services.campaigns import FIELDS, campaign_defaults
from core.forms import language_choices
from core.i18n import interpolate
from core.languages import LANGUAGES, languages
from corpus.models import Split


def _share(label, help_text, *, required: bool = False) -> forms.DecimalField:
    """A share from 0 to 1 as a campaign stores it: two decimals (0.25)."""
    return forms.DecimalField(
        label=label, required=required, max_digits=3, decimal_places=2, help_text=help_text
    )


class CampaignForm(forms.Form):
    """Parse the campaign page's fields; the rules live in annotation.services."""

    name = forms.CharField(label=_("Name"), max_length=200)
    kind = forms.ChoiceField(label=_("Kind"), choices=Campaign.Kind.choices)
    language = forms.ChoiceField(
        label=_("Language"),
        required=False,
        choices=[(entry.code, entry.code) for entry in languages()],
        help_text=_("The language of the paragraphs, and of the guidelines a new campaign gets."),
    )
    splits = forms.MultipleChoiceField(
        label=_("Splits"), choices=Split.choices, widget=forms.CheckboxSelectMultiple
    )
    questions_min = forms.IntegerField(label=_("Fewest questions per paragraph"))
    questions_max = forms.IntegerField(label=_("Most questions per paragraph"))
    review_rate = _share(
        _("Review rate"),
        _("Share of each annotator's questions audited (FQuAD: 0.25)."),
        required=True,
    )
    review_warmup = forms.IntegerField(
        label=_("Warm-up questions"),
        min_value=0,
        required=False,
        help_text=_("Each annotator's first questions reviewed at the warm-up rate (0: none)."),
    )
    review_warmup_rate = _share(
        _("Warm-up review rate"), _("Share of the warm-up questions audited (1: all of them).")
    )
    review_adaptive = forms.BooleanField(
        label=_("Adapt each annotator's review rate"),
        required=False,
        label_suffix="",
        help_text=_(
            "Each annotator starts at the review rate; once 10 of their items are checked, it "
            "falls to the lowest rate if their errors are reliably below the bar, and rises to "
            "the highest rate until they are."
        ),
    )
    review_floor = _share(_("Lowest review rate"), _("An adapted rate never goes below it (0.05)."))
    review_ceiling = _share(
        _("Highest review rate"), _("The rate of annotators not (yet) shown below the bar (0.40).")
    )
    review_error_bar = _share(
        _("Acceptable error rate"),
        _("The bar: share of rejected or corrected work the campaign accepts (0.15)."),
    )
    gold_share = _share(
        _("Share of gold questions"),
        _("Share of each annotator's items that are gold questions, unannounced (0.05; 0: none)."),
    )
    qualification_questions = forms.IntegerField(
        label=_("Qualification questions"),
        required=False,
        help_text=_(
            "Gold questions a newcomer answers, with the right answer shown after each, "
            "before their work counts (0: no qualification round)."
        ),
    )
    qualification_bar = forms.IntegerField(
        label=_("Qualification pass bar"),
        required=False,
        help_text=_("The mean F1 (0 to 100) a newcomer needs to pass the round (70)."),
    )
    extra_answers = forms.IntegerField(label=_("Extra answers per dev/test question"))
    unanswerable_per_paragraph = forms.IntegerField(
        label=_("Unanswerable questions per paragraph"),
        required=False,
        help_text=_(
            "Questions campaigns: how many unanswerable questions each paragraph also gets, "
            "beside the answerable ones (FQuAD 2.0; 0: none)."
        ),
    )
    lease_minutes = forms.IntegerField(
        label=_("Lease minutes"), help_text=_("How long an item stays reserved.")
    )
    seconds_per_question = forms.IntegerField(
        label=_("Guideline seconds per question"),
        required=False,
        help_text=_(
            "The pace the annotation page shows (FQuAD: about 60 s a question, 30 s "
            "an additional answer)."
        ),
    )
    guidelines = forms.CharField(
        label=_("Guidelines (Markdown)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 8}),  # no maxlength: it cuts a long paste silently
    )
    active = forms.BooleanField(label=_("Active"), required=False, label_suffix="")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # The service refuses longer guidelines, saying so next to the field.
        self.fields["guidelines"].help_text = interpolate(
            gettext(
                "Left empty, a new campaign starts with FQuAD's guidelines in its language, with "
                "its own number of questions and pace. At most %(max)d characters."
            ),
            {"max": Campaign.GUIDELINES_MAX_LENGTH},
        )
        self.fields["language"].choices = language_choices()
        current = (self.initial or {}).get("language")
        if current and current not in LANGUAGES:  # a regional code, like fr-ca
            self.fields["language"].choices = [(current, current), *self.fields["language"].choices]
        for value, label in QuestionType.choices:
            self.fields[f"target_{value}"] = forms.IntegerField(
                label=label,
                required=False,
                min_value=0,
                max_value=100,
                help_text=_("Target share, in %"),
            )

    def target_fields(self):
        return [self[f"target_{value}"] for value in QuestionType.values]

    def main_fields(self):
        return [self[name] for name in self.fields if not name.startswith("target_")]

    def campaign_data(self) -> dict:
        data = {k: v for k, v in self.cleaned_data.items() if not k.startswith("target_")}
        defaults = campaign_defaults(data.get("kind", Campaign.Kind.QUESTIONS))
        # Each field the form lets one leave blank takes the kind's default when left blank.
        for field in self.main_fields():
            if not field.field.required and data.get(field.name) in (None, ""):
                data[field.name] = defaults[field.name]
        data["question_type_targets"] = {
            value: self.cleaned_data[f"target_{value}"]
            for value in QuestionType.values
            if self.cleaned_data.get(f"target_{value}") is not None
        }
        return data

    @classmethod
    def initial_for(cls, campaign: Campaign) -> dict:
        initial = {
            name: getattr(campaign, name) for name in FIELDS if name != "question_type_targets"
        }
        initial |= {f"target_{k}": v for k, v in campaign.question_type_targets.items()}
        return initial
