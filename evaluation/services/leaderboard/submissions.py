"""Submissions: their size, their release and split, scored on the server and stored."""

from __future__ import annotations

from collections import Counter

from django.conf import settings
from django.utils.translation import gettext as _

from annotation.selectors.questions import questions_by_export_id
from core.errors import ServiceError
from core.inputs import object_by_id, parse_id
from evaluation.metrics import (
    DEFAULT_NORMALIZATION,
    MissingTokenizer,
    Normalization,
    language_normalization,
    no_answer_classification,
    score,
    score_v2,
)
from evaluation.models import Submission
from evaluation.services.leaderboard.checks import (
    _check_answers,
    _check_ids,
    _check_label,
    _check_na_probs,
    _missing_predictions,
    _missing_probabilities,
    check_outsider,
)
from exports.models import Release
from exports.services.releases import release_gold

MB = 1024 * 1024
SPLITS = tuple(Submission.Split.values)


def submission_max_bytes() -> int:
    """Return the largest request body a submission may have, in bytes."""
    return settings.SUBMISSION_MAX_MB * MB


def submission_too_big() -> ServiceError:
    """Return the refusal of a body over the limit (413, on the predictions field)."""
    message = _("A submission is at most %(mb)d MB; send a smaller predictions file.") % {
        "mb": settings.SUBMISSION_MAX_MB
    }
    return ServiceError({"predictions": [message]}, status=413)


def submission_check_size(*, content_length) -> None:
    """Refuse a request whose declared body is over the limit, before anything reads it."""
    try:
        length = int(content_length or 0)
    except (TypeError, ValueError):
        length = 0  # Django then reads no body at all
    if length > submission_max_bytes():
        raise submission_too_big()


def leaderboard_release(*, release_id) -> Release:
    """Return the finished release a leaderboard or submission names (404 or 409 otherwise)."""
    pk = parse_id(release_id, "release")
    missing = _("There is no release %(pk)d.") % {"pk": pk}
    release = object_by_id(Release.objects, pk, field="release", missing=missing)
    _check_finished(release)
    return release


def _check_finished(release: Release) -> None:
    if release.status != Release.Status.SUCCEEDED:
        message = _("This release is not finished (it is %(status)s); choose a finished one.")
        raise ServiceError(
            {"release": [message % {"status": release.get_status_display()}]}, status=409
        )


def check_split(split) -> str:
    """Return the split when it is one a leaderboard scores (dev or test)."""
    if split not in SPLITS:
        raise ServiceError({"split": [_("Choose the split dev or test.")]})
    return split


def release_split_normalization(*, question_ids, release=None) -> Normalization:
    """Return the normalization of the language of these questions' articles.

    The mode the language's registry entry names (`evaluation.metrics.language_normalization`);
    a regional code counts as its language (fr-ca is French). A release holds one language in
    practice; should it hold several, the language with the most of these questions decides. A
    release built for one language (its `language` option, releases since issue 27) names it:
    the questions' ids cannot, when several languages share them (XQuAD's twelve files).
    """
    language = (release.options or {}).get("language") if release is not None else None
    if language:
        return language_normalization(language)
    languages = Counter(
        questions_by_export_id(question_ids).values_list("paragraph__article__language", flat=True)
    )
    if not languages:
        return DEFAULT_NORMALIZATION
    language = max(sorted(languages), key=languages.__getitem__)
    return language_normalization(language)


def _check_installed(norm: Normalization) -> None:
    """Refuse (503, nothing stored) when the release's mode needs a package missing here."""
    try:
        norm.require()
    except MissingTokenizer:
        message = _(
            "This release is scored with the %(mode)s metric, which needs the package "
            "%(package)s; it is not installed on this server. Ask an administrator."
        ) % {"mode": norm.name, "package": norm.requires}
        raise ServiceError({"predictions": [message]}, status=503) from None


def submission_create(
    *, user, release: Release, split, label, predictions, na_probs=None
) -> Submission:
    """Score predictions against a split of a finished release and record the figures.

    Refuse (nothing stored) an unfinished release (409), a split other than dev or test, an
    empty or long label, predictions that are not {id: text}, or that leave out a question of
    the split or name one it does not have (400, each naming the field); a test submission
    from someone who could have seen the test answers (403, `check_outsider`). A refusal on
    test never names a test question's id. On a SQuAD v2.0 release, predictions "" say "no
    answer" and na_probs (optional) is {id: number in [0, 1]} for every question of the split
    (400 on `na_probs` otherwise, or when given for a v1.1 release).
    """
    _check_finished(release)
    label = _check_fields(release, split, label, predictions, na_probs)
    gold = release_gold(release=release, split=split)
    if not gold:
        raise ServiceError(
            {"split": [_("This split of the release holds no question to score.")]}, status=409
        )
    check_outsider(
        user=user, split=split, question_ids=gold, unanswerable=release.squad_version == "2.0"
    )
    _check_split_ids(gold, split, predictions, na_probs)
    norm = release_split_normalization(question_ids=gold, release=release)
    _check_installed(norm)
    exact, f1, total, metrics = _scored(release, gold, predictions, na_probs, norm)
    return Submission.objects.create(
        release=release,
        split=split,
        submitted_by=user,
        label=label,
        exact_match=exact,
        f1=f1,
        total=total,
        normalization=norm.name,
        normalization_version=norm.version,
        metrics=metrics,
    )


def _scored(release: Release, gold: dict, predictions: dict, na_probs, norm: Normalization):
    """Return (exact, f1, total, metrics): v2.0's figures on a v2.0 release, else v1.1's."""
    if release.squad_version == "2.0":
        return _score_v2(gold, predictions, na_probs, norm)
    figures = score(gold, predictions, norm)
    return figures["exact_match"], figures["f1"], figures["total"], {}


def _check_fields(release: Release, split, label, predictions, na_probs) -> str:
    """Return the clean label; refuse at once every field that is wrong on its own (400)."""
    errors: dict[str, list[str]] = {}
    try:
        check_split(split)
    except ServiceError as error:
        errors |= error.errors
    label, label_errors = _check_label(label)
    if label_errors:
        errors["label"] = label_errors
    if answer_errors := _check_answers(predictions):
        errors["predictions"] = answer_errors
    if na_prob_errors := _check_na_probs(na_probs, release):
        errors["na_probs"] = na_prob_errors
    if errors:
        raise ServiceError(errors)
    return label


def _check_split_ids(gold: dict, split: str, predictions: dict, na_probs) -> None:
    """Refuse predictions (and na_probs) that leave out a question of the split or name one it
    does not have (400)."""
    errors = {}
    if id_errors := _check_ids(predictions, gold, split, _missing_predictions):
        errors["predictions"] = id_errors
    if na_probs is not None and (
        na_id_errors := _check_ids(na_probs, gold, split, _missing_probabilities)
    ):
        errors["na_probs"] = na_id_errors
    if errors:
        raise ServiceError(errors)


V2_KEYS = (
    "HasAns_exact", "HasAns_f1", "HasAns_total", "NoAns_exact", "NoAns_f1", "NoAns_total",
    "best_exact", "best_exact_thresh", "best_f1", "best_f1_thresh",
)  # fmt: skip


def _score_v2(gold: dict, predictions: dict, na_probs: dict | None, norm: Normalization):
    """Return (exact, f1, total, metrics) of a v2.0 submission: the official v2.0 figures."""
    figures = score_v2(gold, predictions, na_probs, norm)
    metrics = {"squad_version": "2.0"}
    metrics |= {key: figures[key] for key in V2_KEYS if key in figures}
    metrics["no_answer"] = no_answer_classification(gold, predictions, norm)
    return figures["exact"], figures["f1"], figures["total"], metrics
