"""Learning curves (issue 17): a baseline run of kind `learning_curve` fine-tunes the same
model on nested fractions of a release's train questions and scores each on dev.

The run is a `BaselineRun` (queue gpu, like a fine-tuning); its `curve` holds the settings
(`fractions`, `seed`), each finished point as soon as it is scored (`points`: a resumed run
skips them), and once every point is in, the fit, the estimates at 2× and 4× with their
bootstrap interval, the per-type gains and the proposed question-type targets
(`evaluation.services.curves.fit`, pure). docs/learning-curve.md tells the choices.

The campaign dashboard reads the estimate and accepts the proposed targets through
`evaluation.services.curves.campaigns`."""

from __future__ import annotations

import hashlib
import math
import time
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Count
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from annotation.selectors.questions import questions_by_export_id
from core.errors import ServiceError
from core.i18n import Text
from core.services.jobs import Superseded, job_enqueue, job_run
from evaluation.gpu_extra import gpu_extra_problem, gpu_extra_require
from evaluation.metrics import best_over, f1
from evaluation.model_names import model_loading, model_location
from evaluation.models import BaselineRun
from evaluation.release_data import release_examples
from evaluation.services.baselines.execute import _device_name, _gold_examples, _score
from evaluation.services.baselines.runs import _scored_splits, baseline_run_record, left_out
from evaluation.services.baselines.sources import _train_count
from evaluation.services.curves.fit import (
    DEFAULT_FRACTIONS,
    MAX_POINTS,
    curve_summary,
    nested_subsets,
)
from evaluation.services.leaderboard.submissions import release_split_normalization
from exports.models import Release
from exports.services.releases import release_gold

DEFAULT_SEED = 42  # TrainConfig's: the shuffle and the training share the run's seed
CAMPAIGN_BATCH = 2000  # ids per query when counting the campaigns a release's train holds


def check_fractions(fractions) -> list[int | float]:
    """Return the fractions (percent of the train questions), checked: numbers in (0, 100],
    strictly increasing, at most MAX_POINTS; a string "10,25,50,100" is read as that list;
    None (or blank text) gives the default 10, 25, 50, 100."""
    if left_out(fractions):
        return list(DEFAULT_FRACTIONS)
    if isinstance(fractions, str):
        parts = [part.strip() for part in fractions.split(",")]
        try:
            fractions = [float(part) for part in parts]
        except ValueError:
            fractions = None
    shape = _("A list of percentages of the train questions, such as 10, 25, 50, 100.")
    if not isinstance(fractions, list | tuple) or not fractions:
        raise ServiceError({"fractions": [shape]})
    if len(fractions) > MAX_POINTS:
        raise ServiceError({"fractions": [_("At most %(n)d points.") % {"n": MAX_POINTS}]})
    clean = []
    for value in fractions:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ServiceError({"fractions": [shape]})
        if not math.isfinite(value) or not 0 < value <= 100:
            raise ServiceError(
                {"fractions": [_("Each fraction is a percentage above 0 and at most 100.")]}
            )
        clean.append(int(value) if float(value).is_integer() else round(float(value), 4))
    if any(b <= a for a, b in zip(clean, clean[1:], strict=False)):
        raise ServiceError({"fractions": [_("Give the fractions in increasing order, each once.")]})
    return clean


def learning_curve_record(
    *,
    release: Release,
    model: str,
    hyperparameters=None,
    fractions=None,
    created_by=None,
    train_releases=None,
    train_files=None,
) -> BaselineRun:
    """Check the settings and record a pending learning-curve run (sent to no queue).

    A curve trains on the release's own train split: training sources are refused (by
    `baseline_run_record`, naming the field)."""
    if problem := gpu_extra_problem():  # first: under make run, the install is the first fix
        raise ServiceError({"kind": [problem]})
    clean = check_fractions(fractions)
    if release.status == Release.Status.SUCCEEDED:
        _check_curve_release(release)
    with transaction.atomic():
        run = baseline_run_record(
            release=release,
            kind=BaselineRun.Kind.LEARNING_CURVE,
            model=model,
            hyperparameters=hyperparameters,
            created_by=created_by,
            train_releases=train_releases,
            train_files=train_files,
        )
        run.curve = {
            "fractions": clean,
            "seed": run.hyperparameters.get("seed", DEFAULT_SEED),
            "points": [],
        }
        run.save(update_fields=["curve"])
    return run


def _check_curve_release(release: Release) -> None:
    """Refuse a finished release a curve cannot be drawn on: v2.0, no dev split, no train
    question (an unfinished one is refused by `baseline_run_record`)."""
    if release.squad_version == "2.0":
        raise ServiceError({"release": [_("Learning curves score SQuAD v1.1 releases for now.")]})
    if "dev" not in _scored_splits(release):
        raise ServiceError({"release": [_("A learning curve is scored on a dev split.")]})
    if "train" not in release.options.get("splits", []) or _train_count(release) == 0:
        raise ServiceError(
            {"release": [_("The release's train split holds no question to learn from.")]}
        )


def learning_curve_start(**arguments) -> BaselineRun:
    """Record a learning-curve run and send it to the gpu queue."""
    with transaction.atomic():
        run = learning_curve_record(**arguments)
        job_enqueue(job=run, task="evaluation.tasks.gpu_baseline_task", queue="gpu")
    return run


def learning_curve_execute(*, run: BaselineRun) -> None:
    """Run (or resume) the curve as its job: a finished point is never trained again."""
    job_run(run, _work)


def _save(run: BaselineRun, **fields) -> None:
    """Store fields of the run at once, while this attempt owns it."""
    owned = BaselineRun.objects.filter(pk=run.pk).exclude(status__in=BaselineRun.FINISHED)
    if not owned.filter(attempts=run.attempts).update(**fields):
        raise Superseded


def _digest(ids) -> str:
    return hashlib.sha256("\n".join(sorted(ids)).encode()).hexdigest()


def _key(fraction) -> str:
    return str(fraction)


@dataclass
class _CurveData:
    """What every point of a curve reads: the train questions by id, their nested subsets,
    the dev split's gold, examples and normalization."""

    by_id: dict
    subsets: list
    gold: dict
    examples: list
    norm: Any
    dev_ids: list


def _curve_data(run: BaselineRun, fractions, seed) -> _CurveData:
    """Return the release's train questions and dev split for a curve, or raise what is missing."""
    release = run.release
    if "dev" not in _scored_splits(release):
        raise RuntimeError("the release has no dev split to score the curve on")
    train = [e for e in release_examples(release, "train") if e["answers"]["text"]]
    if not train:
        raise RuntimeError("the train split holds no answered question")
    by_id = {e["id"]: e for e in train}
    subsets = nested_subsets(list(by_id), fractions, seed)
    gold = release_gold(release=release, split="dev")
    if not gold:
        raise RuntimeError("the dev split holds no question to score")
    examples = _gold_examples(run, "dev")
    norm = release_split_normalization(question_ids=gold, release=release)
    return _CurveData(by_id, subsets, gold, examples, norm, sorted(gold))


def _work(run: BaselineRun, report) -> Text:
    gpu_extra_require()
    import torch

    from evaluation.baselines import qa

    curve = dict(run.curve or {})
    fractions = curve.get("fractions") or list(DEFAULT_FRACTIONS)
    seed = curve.get("seed", run.hyperparameters.get("seed", DEFAULT_SEED))
    data = _curve_data(run, fractions, seed)
    curve |= {"fractions": fractions, "seed": seed, "train_questions": len(data.by_id)}
    curve["dev_questions"] = len(data.dev_ids)
    points = list(curve.get("points", []))
    done = {_key(p["fraction"]) for p in points}
    if done:
        run.log = f"{run.log}resumed: {len(done)} of {len(fractions)} points already scored\n"
        _save(run, log=run.log)
    # Compiled on a GPU, as a fine-tuning run is (bench/README.md: +30 % sequences/s).
    config = qa.TrainConfig(
        **{"compile": torch.cuda.is_available(), "seed": seed, **run.hyperparameters}
    )
    device = _device_name()
    for i, (fraction, ids) in enumerate(zip(fractions, data.subsets, strict=True)):
        if _key(fraction) in done:
            continue
        point = _point(qa, run, config, data, (i, len(fractions), fraction, ids), report)
        points.append(point)
        curve["points"] = points
        run.log = (
            f"{run.log}point {fraction} %: {len(ids)} questions, dev EM "
            f"{point['exact_match']:.2f}, F1 {point['f1']:.2f} ({point['seconds']:.1f} s)\n"
        )
        _save(run, curve=curve, log=run.log, device=device)
    points.sort(key=lambda p: p["questions"])
    curve["points"] = points
    curve |= curve_summary(points, len(data.by_id))
    curve["campaigns"] = _campaigns(list(data.by_id))
    _save_curve(run, curve, data, device)
    return _curve_said(curve, points)


def _point(qa, run: BaselineRun, config, data: _CurveData, at: tuple, report) -> dict:
    """Train a fresh model on one subset (`at`: its place i of n, its fraction and its ids),
    score it on dev and return the curve's point."""
    i, n, fraction, ids = at
    band = (int(95 * i / n), int(95 * (i + 1) / n))
    shown = Text.counted(
        gettext_noop("point %(i)d of %(n)d: %(fraction)s%% (%(questions)d question)"),
        gettext_noop("point %(i)d of %(n)d: %(fraction)s%% (%(questions)d questions)"),
        "questions",
        {"i": i + 1, "n": n, "fraction": fraction, "questions": len(ids)},
    )
    report(band[0], shown)
    started = time.monotonic()
    location = model_location(run.model)
    with model_loading(run.model):
        model, tokenizer = qa.load_pretrained(location)  # each point afresh

    def progress(step, band=band, shown=shown):
        share = step.step / max(step.total_steps, 1)
        report(band[0] + int((band[1] - band[0]) * 0.8 * share), shown)

    summary = qa.train(model, tokenizer, [data.by_id[q] for q in ids], config, progress=progress)
    trained = time.monotonic() - started
    predictions = qa.predict(model, tokenizer, data.examples, config)
    del model
    metrics, breakdown = _score(run, "dev", data.examples, predictions, data.gold, data.norm)
    return {
        "fraction": fraction,
        "questions": len(ids),
        "ids_sha256": _digest(ids),
        "exact_match": metrics["exact_match"],
        "f1": metrics["f1"],
        "question_type": breakdown["question_type"],
        "answer_type": breakdown["answer_type"],
        "per_question_f1": _per_question_f1(predictions, data),
        "steps": summary.get("steps"),
        "train_seconds": round(trained, 3),
        "seconds": round(time.monotonic() - started, 3),
    }


def _per_question_f1(predictions: dict, data: _CurveData) -> list[float]:
    """Return each dev question's F1 in percent, in the order of its id (0 without prediction)."""
    return [
        round(100 * best_over(f1, predictions[q], data.gold[q], data.norm), 2)
        if q in predictions
        else 0.0
        for q in data.dev_ids
    ]


def _save_curve(run: BaselineRun, curve: dict, data: _CurveData, device: str) -> None:
    """Store the finished curve with its largest point's dev figures as the run's own."""
    last = curve["points"][-1]
    keys = ("exact_match", "f1")
    _save(
        run,
        curve=curve,
        device=device,
        metrics={"dev": {k: last[k] for k in keys} | {"total": len(data.dev_ids), "missing": 0}},
        breakdown={
            "dev": {"question_type": last["question_type"], "answer_type": last["answer_type"]}
        },
        normalization=data.norm.name,
        normalization_version=data.norm.version,
    )


def _curve_said(curve: dict, points: list) -> Text:
    """Return the run's closing line: the points and the F1 estimated at twice the questions."""
    estimate = curve["estimates"][1]["f1"]
    if estimate is None:
        return Text.counted(
            gettext_noop("%(n)d point; too few to fit a curve."),
            gettext_noop("%(n)d points; too few to fit a curve."),
            "n",
            {"n": len(points)},
        )
    return Text.counted(
        gettext_noop("%(n)d point; F1 at 2× the train questions ≈ %(f1).1f"),
        gettext_noop("%(n)d points; F1 at 2× the train questions ≈ %(f1).1f"),
        "n",
        {"n": len(points), "f1": estimate},
    )


def _campaigns(ids: list[str]) -> dict[str, int]:
    """Return {campaign id: train questions of the release written in it}."""
    counts: dict[str, int] = {}
    for start in range(0, len(ids), CAMPAIGN_BATCH):
        batch = ids[start : start + CAMPAIGN_BATCH]
        rows = questions_by_export_id(batch).values("campaign_id").annotate(n=Count("pk"))
        for row in rows:
            if row["campaign_id"] is not None:
                key = str(row["campaign_id"])
                counts[key] = counts.get(key, 0) + row["n"]
    return counts
