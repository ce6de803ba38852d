"""The leaderboard: submissions scored against the dev or hidden test split of a release.

A submission answers every question of the split ({question id: answer text}); it is scored on
the server against the release's internal gold file with the normalization of the release's
language, and only the figures are stored and shown: the answers never leave the server.
The leaderboard of a split lists the best submissions (`evaluation.selectors.runs`: a bounded top,
read from an index) beside the release's newest baseline runs and the human performance
measured on the questions in the database (the stored figure the page read,
`evaluation.selectors.human`).

A SQuAD v2.0 release (`release.squad_version == "2.0"`: gold `[]` for an unanswerable
question) is scored the official v2.0 way (`evaluation.metrics.score_v2`): an answer "" says
"no answer", and a submission may add `na_probs` ({id: probability of no answer, in [0, 1]},
for every question of the split) to get best_exact / best_f1 and their thresholds. EM and F1
(the ranking) are v2.0's overall "exact" and "f1"; HasAns_*, NoAns_*, best_* and the
no-answer classification (FQuAD 2.0's F1 on telling unanswerable questions apart) are stored
in `Submission.metrics` and shown beside them.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

from django.conf import settings
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from annotation.selectors.questions import questions_by_export_id
from core.errors import ServiceError
from core.inputs import check_text, object_by_id, parse_id
from core.roles import Role
from core.text import has_bad_characters
from evaluation.metrics import (
    WORD,
    Normalization,
    language_normalization,
    no_answer_classification,
    score,
    score_v2,
)
from evaluation.models import BaselineRun, Submission
from evaluation.selectors.runs import LEADERBOARD_TOP, best_submissions, leaderboard_runs
from exports.models import Release
from exports.services.releases import release_gold

MB = 1024 * 1024
SPLITS = tuple(Submission.Split.values)
LABEL_MAX = Submission._meta.get_field("label").max_length
NAMED_IDS = 5  # a refusal names at most this many question ids
NAMED_ID_CHARS = 60


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
    if not_text:
        message = ngettext(
            "Every answer is a string; %(count)d is not: %(ids)s.",
            "Every answer is a string; %(count)d are not: %(ids)s.",
            len(not_text),
        )
        return [message % {"count": len(not_text), "ids": _named(not_text)}]
    return []


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
    if bad:
        message = ngettext(
            "Every probability is a number from 0 to 1; %(count)d is not: %(ids)s.",
            "Every probability is a number from 0 to 1; %(count)d are not: %(ids)s.",
            len(bad),
        )
        return [message % {"count": len(bad), "ids": _named(bad)}]
    return []


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


def release_split_normalization(*, question_ids) -> Normalization:
    """Return the normalization of the language of these questions' articles.

    French is FQuAD's, English the official SQuAD script's, anything else `word`; a regional
    code counts as its language (fr-ca is French). A release holds one language in practice;
    should it hold several, the language with the most of these questions decides.
    """
    languages = Counter(
        questions_by_export_id(question_ids).values_list("paragraph__article__language", flat=True)
    )
    if not languages:
        return WORD
    language = max(sorted(languages), key=languages.__getitem__)
    return language_normalization(language)


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
    gold = release_gold(release=release, split=split)
    if not gold:
        raise ServiceError(
            {"split": [_("This split of the release holds no question to score.")]}, status=409
        )
    check_outsider(
        user=user, split=split, question_ids=gold, unanswerable=release.squad_version == "2.0"
    )
    errors = {}
    if id_errors := _check_ids(predictions, gold, split, _missing_predictions):
        errors["predictions"] = id_errors
    if na_probs is not None and (
        na_id_errors := _check_ids(na_probs, gold, split, _missing_probabilities)
    ):
        errors["na_probs"] = na_id_errors
    if errors:
        raise ServiceError(errors)
    norm = release_split_normalization(question_ids=gold)
    if release.squad_version == "2.0":
        exact, f1, total, metrics = _score_v2(gold, predictions, na_probs, norm)
    else:
        figures = score(gold, predictions, norm)
        exact, f1, total, metrics = figures["exact_match"], figures["f1"], figures["total"], {}
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


def v2_figures(metrics: dict | None) -> dict | None:
    """Return a row's SQuAD v2.0 figures (HasAns/NoAns, no-answer F1) from stored metrics,
    a submission's or a baseline run's split; None when they have none (a v1.1 score)."""
    if not metrics or "HasAns_total" not in metrics and "NoAns_total" not in metrics:
        return None
    no_answer = metrics.get("no_answer") or {}
    return {
        "HasAns_exact": metrics.get("HasAns_exact"),
        "HasAns_f1": metrics.get("HasAns_f1"),
        "HasAns_total": metrics.get("HasAns_total", 0),
        "NoAns_exact": metrics.get("NoAns_exact"),
        "NoAns_f1": metrics.get("NoAns_f1"),
        "NoAns_total": metrics.get("NoAns_total", 0),
        "no_answer_f1": no_answer.get("f1"),
        "best_f1": metrics.get("best_f1"),
        "best_f1_thresh": metrics.get("best_f1_thresh"),
    }


def _submission_row(submission: Submission) -> dict:
    return {
        "kind": "submission",
        "id": submission.pk,
        "label": submission.label,
        "submitted_by": submission.submitted_by.username,
        "exact_match": submission.exact_match,
        "f1": submission.f1,
        "total": submission.total,
        "created_at": submission.created_at,
        "normalization": {
            "name": submission.normalization,
            "version": submission.normalization_version,
        },
        "v2": v2_figures(submission.metrics),
        "note": "",
    }


def _baseline_row(run: BaselineRun, split: str) -> dict:
    figures = run.metrics[split]
    return {
        "kind": "baseline",
        "id": run.pk,
        "label": " · ".join(part for part in (run.get_kind_display(), run.model_name) if part),
        "submitted_by": run.created_by.username if run.created_by else None,
        "exact_match": figures.get("exact_match"),
        "f1": figures.get("f1"),
        "total": figures.get("total"),
        "created_at": run.finished_at or run.created_at,
        "normalization": {"name": run.normalization, "version": run.normalization_version},
        "v2": v2_figures(figures),
        "note": "",
    }


def _human_row(report: dict | None, split: str, squad_version: str = "1.1") -> dict | None:
    if report is None:
        return None
    if squad_version == "2.0":
        return _human_row_v2(report, split)
    figures = report["splits"].get(split)
    if figures is None or figures["questions"] == 0:
        return None
    return {
        "kind": "human",
        "id": None,
        "label": _("Human performance"),
        "submitted_by": None,
        "exact_match": figures["exact_match"],
        "f1": figures["f1"],
        "total": figures["questions"],
        "created_at": None,
        "normalization": report["normalization"],
        "v2": None,
        "note": _(
            "Measured on the questions of this split now in the database (three answers each), "
            "not on the release's files."
        ),
    }


def _human_row_v2(report: dict, split: str) -> dict | None:
    """SQuAD 2.0's human performance: answerable and unanswerable questions, three judgments."""
    figures = (report.get("v2") or {}).get(split)
    if figures is None or figures["total"] == 0:
        return None
    return {
        "kind": "human",
        "id": None,
        "label": _("Human performance"),
        "submitted_by": None,
        "exact_match": figures["exact"],
        "f1": figures["f1"],
        "total": figures["total"],
        "created_at": None,
        "normalization": report["normalization"],
        "v2": v2_figures(figures),
        "note": _(
            "Measured on the questions of this split now in the database (three judgments "
            "each, an empty answer for “no answer”), not on the release's files."
        ),
    }


def _ranked(rows: list[dict]) -> list[dict]:
    """Give each submission its rank (equal figures, equal rank); other rows get none."""
    rank, previous, seen = 0, None, 0
    for row in rows:
        row["rank"] = None
        if row["kind"] != "submission":
            continue
        seen += 1
        figures = (row["f1"], row["exact_match"])
        if figures != previous:
            rank, previous = seen, figures
        row["rank"] = rank
    return rows


@dataclass
class Board:
    """A split's leaderboard: its rows, and whether submissions beyond the top are left out."""

    rows: list[dict]
    more: bool = False
    top: int = LEADERBOARD_TOP


def leaderboard_board(*, release: Release, split: str, human: dict | None) -> Board:
    """Return a split's leaderboard: humans first, then by F1, EM, then age.

    Rows are the best `LEADERBOARD_TOP` submissions (ranked: equal figures, equal rank; the
    ranks are exact, every better submission being among them), the release's newest
    succeeded baseline runs scored on the split, and FQuAD's human performance on the split
    from `human`, the report of every split (None while it is being computed): figures only,
    never an answer.
    """
    check_split(split)
    top = LEADERBOARD_TOP
    submissions = best_submissions(release=release, split=split, top=top)
    more = len(submissions) > top
    scored = [_submission_row(s) for s in submissions[:top]]
    runs = leaderboard_runs(release=release)
    scored += [_baseline_row(run, split) for run in runs if split in run.metrics]
    scored.sort(key=_order)
    row = _human_row(human, split, release.squad_version)
    return Board(rows=_ranked(([row] if row else []) + scored), more=more, top=top)


def leaderboard(*, release: Release, split: str, human: dict | None) -> list[dict]:
    """Return the rows of a split's leaderboard (`leaderboard_board`)."""
    return leaderboard_board(release=release, split=split, human=human).rows


def _order(row: dict):
    figures = (-(row["f1"] or 0.0), -(row["exact_match"] or 0.0))
    return (*figures, row["created_at"], row["kind"], row["id"])
