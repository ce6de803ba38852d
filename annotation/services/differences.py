"""Label a sampled dev question's question–answer differences (docs/differences.md)."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from annotation.models import DifferenceLabel, DifferenceLabelling, Question
from annotation.selectors.differences import difference_sample, labeller_check
from core.errors import ServiceError
from core.inputs import parse_id


def check_labels(labels) -> list[str]:
    """Return the labels as a list of known categories (in their order), or refuse the value
    naming `labels`. An empty list is a labelling: none of the categories applies."""
    if not isinstance(labels, list) or not all(isinstance(v, str) for v in labels):
        raise ServiceError({"labels": [_("Give the labels as a list of categories.")]})
    unknown = [v for v in labels if v not in DifferenceLabel.values]
    if unknown:
        raise ServiceError(
            {
                "labels": [
                    _("Unknown category “%(label)s”; the categories are %(known)s.")
                    % {"label": unknown[0][:50], "known": ", ".join(DifferenceLabel.values)}
                ]
            }
        )
    return [v for v in DifferenceLabel.values if v in labels]


def difference_label(*, question, labeller, labels) -> DifferenceLabelling:
    """Set this person's labels on a sampled question (created, or changed in place).

    Refused, changing nothing: a person who is neither reviewer nor admin (`labeller`, 403),
    an unknown category (`labels`), a question that does not exist (`question`, 404) or is
    not in the sample (`question`, 400).
    """
    labeller_check(labeller)
    chosen = check_labels(labels)
    pk = parse_id(question, "question")
    if pk not in {item.pk for item in difference_sample()}:
        if not Question.objects.filter(pk=pk).exists():
            raise ServiceError({"question": [_("No such question.")]}, status=404)
        raise ServiceError({"question": [_("This question is not in the difference sample.")]})
    flags = {value: value in chosen for value in DifferenceLabel.values}
    with transaction.atomic():
        labelling, _created = DifferenceLabelling.objects.update_or_create(
            question_id=pk, labeller=labeller, defaults=flags
        )
    return labelling
