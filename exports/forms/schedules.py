"""The schedule form: a release's options and scoring (the release form's fields), the campaign
group, the slots and the retention. Types only; the rules are `exports.services.schedules`'."""

from django import forms
from django.conf import settings
from django.utils.functional import lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from exports.forms.releases import ReleaseForm
from exports.models import ReleaseSchedule
from exports.scoring import release_scoring

WEEKDAYS = [
    (0, _("Monday")),
    (1, _("Tuesday")),
    (2, _("Wednesday")),
    (3, _("Thursday")),
    (4, _("Friday")),
    (5, _("Saturday")),
    (6, _("Sunday")),
]


def _hour_help() -> str:
    """Name the zone the hour is in: the slots are computed in settings.TIME_ZONE."""
    return gettext("0 to 23, in %(zone)s time.") % {"zone": settings.TIME_ZONE}


class ScheduleForm(ReleaseForm):
    name = forms.CharField(
        label=_("Name"),
        max_length=80,
        help_text=_("Like fquad-nightly; each snapshot is named after it and its time (UTC)."),
    )
    version = forms.CharField(
        label=_("Version"), max_length=16, initial="1.0", help_text=_("Like 1.1")
    )
    description = None
    frequency = forms.ChoiceField(
        label=_("Frequency"), choices=ReleaseSchedule.Frequency.choices, initial="daily"
    )
    hour = forms.IntegerField(label=_("Hour"), initial=2, help_text=lazy(_hour_help, str)())
    weekday = forms.TypedChoiceField(
        label=_("Day (weekly)"),
        choices=WEEKDAYS,
        coerce=int,
        initial=0,
        required=False,
        empty_value=0,
    )
    keep_last = forms.IntegerField(
        label=_("Snapshots that keep their files"),
        initial=5,
        help_text=_("Older snapshots lose their files; their rows, figures and scores stay."),
    )
    enabled = forms.BooleanField(label_suffix="", label=_("Enabled"), required=False, initial=True)

    field_order = ["name", "version", "campaigns", "frequency", "hour", "weekday", "keep_last"]

    def schedule_arguments(self) -> dict:
        """Return `schedule_create`'s (or `schedule_update`'s) values."""
        return self.release_arguments()


def schedule_initial(values: dict) -> dict:
    """Return a form's initial values from a schedule's (`schedules.schedule_values`)."""
    initial = {key: value for key, value in values.items() if key != "score_with"}
    scoring = release_scoring()
    if scoring is not None:
        initial |= scoring.initial(values.get("score_with") or [])
    return initial
