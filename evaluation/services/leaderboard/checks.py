"""The checks of a submission's label, answers, ids and probabilities, each refusal naming
the questions it is about."""

from __future__ import annotations

import math

from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from annotation.selectors.questions import questions_by_export_id
from core.errors import ServiceError
from core.inputs import check_text
from core.roles import Role
from core.text import has_bad_characters
from evaluation.models import Submission
from exports.models import Release

LABEL_MAX = Submission._meta.get_field("label").max_length
NAMED_IDS = 5  # a refusal names at most this many question ids
NAMED_ID_CHARS = 60


def _shown(question_id: str) -> str:
    """Return an id as a message may quote it: short, and printable whatever it holds."""
    if has_bad_characters(question_id):
        question_id = question_id.encode("utf-8", "backslashreplace").decode("utf-8")
    if len(question_id) > NAMED_ID_CHARS:
        question_id = question_id[:NAMED_ID_CHARS] + "…"
    return f"“{question_id}”"


def _named(ids: list[str]) -> str:
    shown = ", ".join(_shown(question_id) for question_id in ids[:NAMED_IDS])
    return shown + (", …" if len(ids) > NAMED_IDS else "")


def _refused(ids: list[str], message: str) -> list[str]:
    """The refusal that names the first `ids` (none when there are none); `message` is the
    ngettext of their count, with `%(count)d` and `%(ids)s`."""
    return [message % {"count": len(ids), "ids": _named(ids)}] if ids else []


def _check_label(label) -> tuple[str | None, list[str]]:
    if not isinstance(label, str) or not label.strip():
        return None, [_("Give a label: the name of the model or team.")]
    label = label.strip()
    if len(label) > LABEL_MAX:
        return None, [_("At most %(n)d characters.") % {"n": LABEL_MAX}]
    check_text(label, "label")
    return label, []


def _check_answers(predictions) -> list[str]:
    if not isinstance(predictions, dict):
        return [_("An object of {question id: answer text}.")]
    not_text = [key for key, value in predictions.items() if not isinstance(value, str)]
    message = ngettext(
        "Every answer is a string; %(count)d is not: %(ids)s.",
        "Every answer is a string; %(count)d are not: %(ids)s.",
        len(not_text),
    )
    return _refused(not_text, message)


def _check_na_probs(na_probs, release: Release) -> list[str]:
    """Check the form of na_probs: absent, or {id: a number in [0, 1]} on a v2.0 release."""
    if na_probs is None:
        return []
    if release.squad_version != "2.0":
        return [
            _(
                "No-answer probabilities score SQuAD v2.0 releases (unanswerable questions); "
                "this release is SQuAD v1.1: leave them out."
            )
        ]
    if not isinstance(na_probs, dict):
        return [_("An object of {question id: probability of no answer, from 0 to 1}.")]
    bad = [
        key
        for key, value in na_probs.items()
        if isinstance(value, bool)
        or not isinstance(value, int | float)
        or not (math.isfinite(value) and 0 <= value <= 1)
    ]
    message = ngettext(
        "Every probability is a number from 0 to 1; %(count)d is not: %(ids)s.",
        "Every probability is a number from 0 to 1; %(count)d are not: %(ids)s.",
        len(bad),
    )
    return _refused(bad, message)


def check_outsider(*, user, split: str, question_ids, unanswerable: bool = False) -> None:
    """Refuse a test submission from someone who could have seen the test answers (403).

    The test split scores models of people who never saw its answers: not admins (they may
    download them; their models are scored as baseline runs), and not anyone who wrote,
    answered or reviewed one of its questions (any lease on it counts: its holder saw it).
    On a SQuAD v2.0 release (`unanswerable`), not reviewers either: they read every question
    with its campaign and its reviews, which tell the unanswerable ones apart.
    """
    if split != "test":
        return
    if user.has_role(Role.ADMIN):
        message = _(
            "Admins can read the test answers: score a model on test with a baseline run "
            "(Results page), or submit on dev."
        )
        raise ServiceError({"split": [message]}, status=403)
    if unanswerable and user.has_role(Role.REVIEWER):
        message = _(
            "Reviewers can tell which test questions are unanswerable (their campaign, their "
            "reviews), so this split cannot score your model fairly: submit on dev."
        )
        raise ServiceError({"split": [message]}, status=403)
    seen = Q(author=user) | Q(item_leases__annotator=user)
    if questions_by_export_id(question_ids).filter(seen).exists():
        message = _(
            "You wrote, answered or reviewed questions of this test split, so it cannot score "
            "your model fairly: submit on dev."
        )
        raise ServiceError({"split": [message]}, status=403)


def _check_ids(given: dict, gold: dict, split: str, missing_message) -> list[str]:
    """Every question of the split is in `given` (predictions, probabilities), and no other
    id; on test a missing id is counted, never named (it would show a hidden question).
    `missing_message(count, named)` is the message template of the missing ones."""
    errors = []
    if unknown := _unknown_ids(given, gold, split):
        errors.append(unknown)
    missing = [key for key in gold if key not in given]
    if missing:
        named = split != "test"
        values = {"count": len(missing), "total": len(gold)}
        if named:
            values["ids"] = _named(missing)
        errors.append(missing_message(len(missing), named) % values)
    return errors


def _missing_predictions(count: int, named: bool) -> str:
    if named:
        return ngettext(
            "A submission answers every question of the split; %(count)d of %(total)d is "
            "missing: %(ids)s.",
            "A submission answers every question of the split; %(count)d of %(total)d are "
            "missing: %(ids)s.",
            count,
        )
    return ngettext(
        "A submission answers every question of the split; %(count)d of %(total)d is missing.",
        "A submission answers every question of the split; %(count)d of %(total)d are missing.",
        count,
    )


def _missing_probabilities(count: int, named: bool) -> str:
    if named:
        return ngettext(
            "Give a probability for every question of the split; %(count)d of %(total)d is "
            "missing: %(ids)s.",
            "Give a probability for every question of the split; %(count)d of %(total)d are "
            "missing: %(ids)s.",
            count,
        )
    return ngettext(
        "Give a probability for every question of the split; %(count)d of %(total)d is missing.",
        "Give a probability for every question of the split; %(count)d of %(total)d are missing.",
        count,
    )


def _unknown_ids(given: dict, gold: dict, split: str) -> str | None:
    unknown = [key for key in given if key not in gold]
    if not unknown:
        return None
    message = ngettext(
        "%(count)d id is not a question of the %(split)s split: %(ids)s.",
        "%(count)d ids are not questions of the %(split)s split: %(ids)s.",
        len(unknown),
    )
    return message % {"count": len(unknown), "split": split, "ids": _named(unknown)}
