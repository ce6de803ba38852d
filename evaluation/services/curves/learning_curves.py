"""Learning curves (issue 17): a baseline run of kind `learning_curve` fine-tunes the same
model on nested fractions of a release's train questions and scores each on dev.

The run is a `BaselineRun` (queue gpu, like a fine-tuning); its `curve` holds the settings
(`fractions`, `seed`), each finished point as soon as it is scored (`points`: a resumed run
skips them), and once every point is in, the fit, the estimates at 2× and 4× with their
bootstrap interval, the per-type gains and the proposed question-type targets
(`evaluation.services.curves.fit`, pure). docs/learning-curve.md tells the choices.

The campaign dashboard reads the estimate through `campaign_learning_estimate` and accepts
the proposed targets through `campaign_targets_accept` (annotation's campaign service).
"""

from __future__ import annotations

import hashlib
import math
import time

from django.db import transaction
from django.db.models import Count
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from annotation.models import Campaign, Question, QuestionType
from annotation.selectors.questions import questions_by_export_id
from annotation.selectors.reports import counted_leases, seconds_worked
from annotation.services.campaigns import campaign_update
from core.errors import ServiceError
from core.i18n import Text
from core.services.jobs import Superseded, job_enqueue, job_run
from evaluation.gpu_extra import gpu_extra_problem, gpu_extra_require
from evaluation.metrics import best_over, f1
from evaluation.model_names import model_location
from evaluation.models import BaselineRun
from evaluation.release_data import release_examples
from evaluation.services.baselines.execute import _device_name, _gold_examples, _score
from evaluation.services.baselines.runs import _scored_splits, baseline_run_record
from evaluation.services.baselines.sources import _train_count
from evaluation.services.curves.fit import (
    DEFAULT_FRACTIONS,
    MAX_POINTS,
    curve_summary,
    nested_subsets,
)
from evaluation.services.leaderboard import release_split_normalization
from exports.models import Release
from exports.services.releases import release_gold

DEFAULT_SEED = 42  # TrainConfig's: the shuffle and the training share the run's seed
CAMPAIGN_BATCH = 2000  # ids per query when counting the campaigns a release's train holds


def check_fractions(fractions) -> list[int | float]:
    """Return the fractions (percent of the train questions), checked: numbers in (0, 100],
    strictly increasing, at most MAX_POINTS; a string "10,25,50,100" is read as that list;
    None gives the default 10, 25, 50, 100."""
    if fractions is None or fractions == "":
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
        if release.squad_version == "2.0":
            raise ServiceError(
                {"release": [_("Learning curves score SQuAD v1.1 releases for now.")]}
            )
        if "dev" not in _scored_splits(release):
            raise ServiceError({"release": [_("A learning curve is scored on a dev split.")]})
        if "train" not in release.options.get("splits", []) or _train_count(release) == 0:
            raise ServiceError(
                {"release": [_("The release's train split holds no question to learn from.")]}
            )
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


def _work(run: BaselineRun, report) -> Text:
    gpu_extra_require()
    import torch

    from evaluation.baselines import qa

    release = run.release
    curve = dict(run.curve or {})
    fractions = curve.get("fractions") or list(DEFAULT_FRACTIONS)
    seed = curve.get("seed", run.hyperparameters.get("seed", DEFAULT_SEED))
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
    norm = release_split_normalization(question_ids=gold)
    dev_ids = sorted(gold)
    curve |= {"fractions": fractions, "seed": seed, "train_questions": len(by_id)}
    curve["dev_questions"] = len(dev_ids)
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
    for i, (fraction, ids) in enumerate(zip(fractions, subsets, strict=True)):
        if _key(fraction) in done:
            continue
        band = (int(95 * i / len(fractions)), int(95 * (i + 1) / len(fractions)))
        shown = Text.counted(
            gettext_noop("point %(i)d of %(n)d: %(fraction)s %% (%(questions)d question)"),
            gettext_noop("point %(i)d of %(n)d: %(fraction)s %% (%(questions)d questions)"),
            "questions",
            {"i": i + 1, "n": len(fractions), "fraction": fraction, "questions": len(ids)},
        )
        report(band[0], shown)
        started = time.monotonic()
        model, tokenizer = qa.load_pretrained(model_location(run.model))  # each point afresh

        def progress(step, band=band, shown=shown):
            share = step.step / max(step.total_steps, 1)
            report(band[0] + int((band[1] - band[0]) * 0.8 * share), shown)

        summary = qa.train(model, tokenizer, [by_id[q] for q in ids], config, progress=progress)
        trained = time.monotonic() - started
        predictions = qa.predict(model, tokenizer, examples, config)
        metrics, breakdown = _score(run, "dev", examples, predictions, gold, norm)
        point = {
            "fraction": fraction,
            "questions": len(ids),
            "ids_sha256": _digest(ids),
            "exact_match": metrics["exact_match"],
            "f1": metrics["f1"],
            "question_type": breakdown["question_type"],
            "answer_type": breakdown["answer_type"],
            "per_question_f1": [
                round(100 * best_over(f1, predictions[q], gold[q], norm), 2)
                if q in predictions
                else 0.0
                for q in dev_ids
            ],
            "steps": summary.get("steps"),
            "train_seconds": round(trained, 3),
            "seconds": round(time.monotonic() - started, 3),
        }
        points.append(point)
        curve["points"] = points
        run.log = (
            f"{run.log}point {fraction} %: {len(ids)} questions, dev EM "
            f"{metrics['exact_match']:.2f}, F1 {metrics['f1']:.2f} ({point['seconds']:.1f} s)\n"
        )
        _save(run, curve=curve, log=run.log, device=device)
        del model
    points.sort(key=lambda p: p["questions"])
    curve["points"] = points
    curve |= curve_summary(points, len(by_id))
    curve["campaigns"] = _campaigns(list(by_id))
    last = points[-1]
    keys = ("exact_match", "f1")
    _save(
        run,
        curve=curve,
        device=device,
        metrics={"dev": {k: last[k] for k in keys} | {"total": len(dev_ids), "missing": 0}},
        breakdown={
            "dev": {"question_type": last["question_type"], "answer_type": last["answer_type"]}
        },
        normalization=norm.name,
        normalization_version=norm.version,
    )
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


def campaign_learning_run(campaign: Campaign) -> BaselineRun | None:
    """Return the newest finished learning curve whose release's train split holds questions
    written in this campaign (the run recorded them in `curve["campaigns"]`)."""
    return (
        BaselineRun.objects.filter(
            kind=BaselineRun.Kind.LEARNING_CURVE,
            status=BaselineRun.Status.SUCCEEDED,
            curve__campaigns__has_key=str(campaign.pk),
        )
        .select_related("release")
        .order_by("-finished_at", "-pk")
        .first()
    )


def campaign_seconds_per_question(campaign: Campaign) -> tuple[float, bool]:
    """Return (seconds per question, measured): the campaign's worked time (the hours report's
    definition: counted leases, capped at the lease length) over its questions; the
    guideline pace (`seconds_per_question`) when nothing is measured yet."""
    questions = Question.objects.filter(campaign=campaign).count()
    seconds = seconds_worked(counted_leases().filter(campaign=campaign))
    if questions and seconds:
        return seconds / questions, True
    return float(campaign.seconds_per_question), False


def campaign_learning_estimate(*, campaign: Campaign) -> dict | None:
    """Return the learning-curve estimate beside the campaign's annotation cost, or None when
    no finished curve covers the campaign. Doubling the data is today's train questions
    more; its cost is that many questions at the campaign's measured pace."""
    run = campaign_learning_run(campaign)
    if run is None:
        return None
    curve = run.curve
    n_today = curve.get("n_today") or curve.get("train_questions") or 0
    estimates = {row["times"]: row for row in curve.get("estimates", [])}
    per_question, measured = campaign_seconds_per_question(campaign)
    double = estimates.get(2, {})
    labels = dict(QuestionType.choices)
    types = [
        {"type": name, "label": labels.get(name, name), **row}
        for name, row in curve.get("types", {}).get("question_type", {}).items()
    ]
    return {
        "run": run,
        "fit": curve.get("fit", {}),
        "n_today": n_today,
        "more_questions": n_today,
        "hours": n_today * per_question / 3600,
        "seconds_per_question": per_question,
        "measured": measured,
        "gain": double.get("gain"),
        "gain_low": double.get("gain_low"),
        "gain_high": double.get("gain_high"),
        "helps": bool(curve.get("helps")),
        "overall_f1": curve.get("overall_f1"),
        "estimates": [estimates[k] for k in sorted(estimates) if k > 1],
        "types": types,
        "proposal": curve.get("proposal", {}),
    }


def campaign_targets_accept(*, campaign: Campaign, targets) -> Campaign:
    """Save question-type targets an admin accepted or edited (the campaign's own checks:
    known types, whole percents from 0 to 100, at most 100 in all)."""
    if isinstance(targets, dict):
        targets = {k: v for k, v in targets.items() if v is not None}
    return campaign_update(campaign=campaign, question_type_targets=targets)
