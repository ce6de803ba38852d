"""Baseline runs as jobs: score a model on a release's dev and test splits, beside humans.

Kinds: `lexical` (the sliding-window floor, CPU, queue default), `http` (a model served by the
MRQA predict-server protocol, queue default), `finetune` and `evaluate` (a transformers model,
trained on the release's train split then evaluated, or evaluated as it is; queue gpu, needs
the `gpu` extra). Every kind ends the same way: predictions per split, EM and F1 with the
release's normalization, and the same figures per question type and per answer type.

A SQuAD v2.0 release (`release.squad_version == "2.0"`) holds unanswerable questions (gold
answers `[]`): runs are scored the official v2.0 way (`HasAns_*`, `NoAns_*` beside overall) with
the classification figures of "no answer" (FQuAD 2.0's F1 on telling answerable from
unanswerable). The lexical and transformers baselines give each question a span and a
no-answer score, and answer "" above a threshold learnt on dev (`baselines.no_answer`), used
as it is on test; a model served over HTTP says "no answer" itself with an empty string.
"""

from __future__ import annotations

import gzip
import io
import json
import math
from pathlib import Path
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from core.errors import ServiceError
from core.i18n import Text
from core.inputs import check_text
from core.jobs import job_enqueue, job_run
from evaluation.answer_types import answer_types
from evaluation.baselines.lexical import predict_all, predict_all_scored
from evaluation.baselines.mrqa_client import PredictServerError, predict_over_http
from evaluation.baselines.no_answer import apply_threshold, best_threshold
from evaluation.leaderboard import release_split_normalization
from evaluation.metrics import no_answer_classification, score, score_v2
from evaluation.models import BaselineRun
from evaluation.release_data import question_types, release_examples
from evaluation.scoring import score_by
from exports.formats.mrqa import MrqaWriter
from exports.formats.records import ExportArticle, ExportParagraph, ExportQuestion
from exports.models import Release
from exports.services import release_gold

SCORED_SPLITS = ("dev", "test")
GPU_KINDS = (BaselineRun.Kind.FINETUNE, BaselineRun.Kind.EVALUATE)

# name: (type, lowest, highest) of the hyper-parameters an admin may set; defaults are the
# FQuAD paper's (TrainConfig).
HYPERPARAMETERS = {
    "epochs": (int, 1, 50),
    "learning_rate": (float, 1e-7, 1.0),
    "warmup_ratio": (float, 0.0, 0.99),
    "weight_decay": (float, 0.0, 1.0),
    "batch_size": (int, 1, 1024),
    "eval_batch_size": (int, 1, 4096),
    "max_length": (int, 32, 4096),
    "stride": (int, 0, 2048),
    "max_steps": (int, 1, 10_000_000),
    "seed": (int, 0, 2**31 - 1),
    "max_answer_tokens": (int, 1, 512),
}


def _check_hyperparameters(values) -> dict:
    if not isinstance(values, dict):
        raise ServiceError({"hyperparameters": [_("An object of settings.")]})
    errors, clean = [], {}
    for name, value in values.items():
        if name not in HYPERPARAMETERS:
            errors.append(_("Unknown setting “%(name)s”.") % {"name": name})
            continue
        kind, low, high = HYPERPARAMETERS[name]
        ok = isinstance(value, int | float) and not isinstance(value, bool)
        if kind is int and isinstance(value, float):
            ok = ok and value.is_integer()
        if not ok or not low <= value <= high:  # compared before any conversion: no overflow
            errors.append(
                _("%(name)s: a number from %(low)s to %(high)s.")
                % {"name": name, "low": low, "high": high}
            )
            continue
        clean[name] = kind(value)
    if errors:
        raise ServiceError({"hyperparameters": errors})
    return clean


def _check_model(kind: str, model: str) -> str:
    model = check_text(model if isinstance(model, str) else "", "model").strip()
    if kind == BaselineRun.Kind.LEXICAL:
        return ""
    if not model or len(model) > 500:
        raise ServiceError({"model": [_("Give the model: a local folder, a hub name or a URL.")]})
    if kind == BaselineRun.Kind.HTTP:
        parts = urlsplit(model)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ServiceError({"model": [_("An http:// or https:// address of the server.")]})
        if parts.username or parts.password:  # the address is shown on the leaderboard
            raise ServiceError(
                {"model": [_("No user name or password in the address: it is shown to users.")]}
            )
    return model


def baseline_run_record(
    *, release: Release, kind: str, model: str = "", hyperparameters=None, created_by=None
) -> BaselineRun:
    """Check the settings and record a pending baseline run (not sent to any queue)."""
    if kind not in BaselineRun.Kind.values:
        raise ServiceError({"kind": [_("Choose lexical, finetune, evaluate or http.")]})
    if release.status != Release.Status.SUCCEEDED:
        raise ServiceError({"release": [_("The release is not finished.")]}, status=409)
    model = _check_model(kind, model)
    clean = _check_hyperparameters(hyperparameters or {})
    if kind == BaselineRun.Kind.FINETUNE and "train" not in release.options.get("splits", []):
        raise ServiceError({"release": [_("Fine-tuning needs a release with a train split.")]})
    return BaselineRun.objects.create(
        release=release, kind=kind, model=model, hyperparameters=clean, created_by=created_by
    )


def baseline_run_start(
    *, release: Release, kind: str, model: str = "", hyperparameters=None, created_by=None
) -> BaselineRun:
    """Record a baseline run and send it to its queue (gpu for transformers, else default)."""
    with transaction.atomic():
        run = baseline_run_record(
            release=release,
            kind=kind,
            model=model,
            hyperparameters=hyperparameters,
            created_by=created_by,
        )
        gpu = kind in GPU_KINDS
        job_enqueue(
            job=run,
            task="evaluation.tasks.gpu_baseline_task" if gpu else "evaluation.tasks.baseline_task",
            queue="gpu" if gpu else "default",
        )
    return run


def _append_log(run: BaselineRun, line: str) -> None:
    run.log = f"{run.log}{line}\n"[-100_000:]
    BaselineRun.objects.filter(pk=run.pk).update(log=run.log)


def _scored_splits(release: Release) -> list[str]:
    return [s for s in SCORED_SPLITS if s in release.options.get("splits", [])]


def _predict_lexical(run, split, examples, report):
    return predict_all(examples)


def _predict_lexical_scored(run, split, examples, report):
    """Return {id: (span, no-answer score)}: the lower the window score, the likelier none."""
    return {qid: (text, -score) for qid, (text, score) in predict_all_scored(examples).items()}


def mrqa_contexts(examples) -> list[dict]:
    """Return the examples as MRQA context records (spaCy tokens), as the protocol sends them."""
    by_context: dict[str, list] = {}
    for example in examples:
        by_context.setdefault(example["context"], []).append(
            ExportQuestion(id=example["id"], question=example["question"])
        )
    articles = [
        ExportArticle(
            title="",
            paragraphs=[ExportParagraph(context=c, questions=q) for c, q in by_context.items()],
        )
    ]
    buffer = io.BytesIO()
    MrqaWriter(dataset="baseline", split="eval", include_answers=False).write(articles, buffer)
    lines = gzip.decompress(buffer.getvalue()).decode().splitlines()
    return [json.loads(line) for line in lines[1:]]


def _predict_http(run, split, examples, report):
    """Ask the server; "" is an answer like any other (no answer, on a v2.0 release)."""
    try:
        return predict_over_http(run.model, mrqa_contexts(examples))
    except PredictServerError as error:
        _append_log(run, f"{split}: {error}")  # the run fails with it too (job_run)
        raise


def _score(run, split, examples, predictions, gold, norm) -> tuple[dict, dict]:
    predicted = {k: v for k, v in predictions.items() if k in gold}
    metrics = score(gold, predicted, norm)
    qtypes = question_types(gold)
    atypes = _answer_type_ids(examples)
    breakdown = {
        "question_type": score_by(gold, predicted, norm, qtypes),
        "answer_type": score_by(gold, predicted, norm, atypes),
    }
    return metrics, breakdown


def _answer_type_ids(examples) -> dict[str, str]:
    firsts = [
        (e["context"], e["answers"]["answer_start"][0], e["answers"]["text"][0])
        for e in examples
        if e["answers"]["text"]
    ]
    ids = [e["id"] for e in examples if e["answers"]["text"]]
    return dict(zip(ids, [str(t.value) for t in answer_types(firsts)], strict=True))


def _v2_in_v1_keys(gold, predicted, norm) -> dict:
    """Score one category the v2.0 way, in the v1.1 breakdown's keys."""
    figures = score_v2(gold, {k: v for k, v in predicted.items() if k in gold}, norm=norm)
    return {"exact_match": figures["exact"], "f1": figures["f1"], "total": figures["total"]}


def _score_v2(run, split, examples, predictions, gold, norm) -> tuple[dict, dict]:
    """Score a v2.0 split: the official keys, the v1.1 ones the pages read, no-answer F1."""
    predicted = {k: v for k, v in predictions.items() if k in gold}
    figures = score_v2(gold, predicted, norm=norm)
    metrics = {
        "exact_match": figures["exact"],
        "f1": figures["f1"],
        "total": len(gold),
        "missing": sum(qid not in predicted for qid in gold),
        **figures,
        "no_answer": no_answer_classification(gold, predicted, norm=norm),
    }
    answerable = {qid: answers for qid, answers in gold.items() if answers}
    atypes = _answer_type_ids(examples)
    breakdown = {
        "question_type": score_by(gold, predicted, norm, question_types(gold), _v2_in_v1_keys),
        "answer_type": (
            score_by(answerable, predicted, norm, atypes, _v2_in_v1_keys) if answerable else {}
        ),
    }
    return metrics, breakdown


def _gold_examples(run, split) -> list[dict]:
    """Return the split's examples with the gold answers (test answers may be held back)."""
    examples = release_examples(run.release, split)
    if any(e["answers"]["text"] for e in examples):
        return examples
    # Held back: the contexts hold the answer texts; answer types need an offset, so find it.
    gold = release_gold(release=run.release, split=split)
    for e in examples:
        texts = gold.get(e["id"], [])
        starts = [e["context"].find(t) for t in texts]
        e["answers"] = {
            "text": [t for t, s in zip(texts, starts, strict=True) if s >= 0],
            "answer_start": [s for s in starts if s >= 0],
        }
        if "is_impossible" in e:
            e["is_impossible"] = not texts
    return examples


def _transformers_model(run, report):
    """Return (model, tokenizer, config) for a finetune/evaluate run, trained if asked."""
    try:
        from evaluation.baselines import qa
    except ImportError as error:
        raise RuntimeError(
            "torch and transformers are not installed on this worker: install the project's "
            "`gpu` extra on the machine that consumes the gpu queue"
        ) from error
    import torch
    from transformers import AutoModelForQuestionAnswering, AutoTokenizer

    # Compiling fuses BERT's element-wise work: +30 % sequences/s on an H100 (bench/README.md).
    config = qa.TrainConfig(**{"compile": torch.cuda.is_available(), **run.hyperparameters})
    tokenizer = AutoTokenizer.from_pretrained(run.model)
    # Weights are read from safetensors only: a pickled checkpoint could run code when loaded.
    model = AutoModelForQuestionAnswering.from_pretrained(run.model, use_safetensors=True)
    if run.kind == BaselineRun.Kind.FINETUNE:
        train_examples = release_examples(run.release, "train")
        if run.release.squad_version != "2.0":
            train_examples = [e for e in train_examples if e["answers"]["text"]]
        # v2.0: an unanswerable question's windows all point at CLS, the null answer.

        def progress(step):
            message = (
                f"step {step.step}/{step.total_steps} · loss {step.loss:.4f} · "
                f"{step.sequences_per_second:.1f} sequences/s"
            )
            shown = Text(
                gettext_noop(
                    "step %(step)d of %(total)d · loss %(loss).4f · %(speed).1f sequences/s"
                ),
                {
                    "step": step.step,
                    "total": step.total_steps,
                    "loss": step.loss,
                    "speed": step.sequences_per_second,
                },
            )
            report(int(70 * step.step / max(step.total_steps, 1)), shown)
            _append_log(run, message)  # the log is English, like the worker's own

        summary = qa.train(model, tokenizer, train_examples, config, progress=progress)
        _append_log(run, f"trained: {json.dumps(summary)}")
        folder = Path(settings.VAR_DIR) / "models" / f"baseline-{run.pk}"
        qa.save_checkpoint(model, tokenizer, folder)
        BaselineRun.objects.filter(pk=run.pk).update(checkpoint=str(folder))
    return model, tokenizer, config, qa


def _device_name() -> str:
    try:
        import torch
    except ImportError:
        return "cpu"
    if torch.cuda.is_available():
        return torch.cuda.get_device_name(0)
    return "cpu"


class _Threshold:
    """The no-answer threshold of a v2.0 run: learnt on dev's predictions, used on test."""

    def __init__(self) -> None:
        self.value: float | None = math.inf  # before dev: every span is kept
        self.learnt = False

    def learn(self, run, gold, scored, norm) -> None:
        answers = {qid: text for qid, (text, _na) in scored.items()}
        na_scores = {qid: na for qid, (_text, na) in scored.items()}
        self.value, best = best_threshold(gold, answers, na_scores, norm)
        self.learnt = True
        shown = "none (abstain on every question)" if self.value is None else f"{self.value:.6g}"
        _append_log(run, f"dev: no-answer threshold {shown}, dev F1 {best:.2f} with it")

    def apply(self, scored) -> dict[str, str]:
        answers = {qid: text for qid, (text, _na) in scored.items()}
        na_scores = {qid: na for qid, (_text, na) in scored.items()}
        return apply_threshold(answers, na_scores, self.value)

    def figures(self) -> dict:
        if not self.learnt:
            return {"no_answer_threshold": None, "no_answer_threshold_from": None}
        return {"no_answer_threshold": self.value, "no_answer_threshold_from": "dev"}


def _v2_log(split: str, figures: dict) -> str:
    def shown(value) -> str:
        return "—" if value is None else f"{value:.2f}"

    return (
        f"{split}: EM {figures['exact_match']:.2f}, F1 {figures['f1']:.2f}; "
        f"answerable {figures.get('HasAns_total', 0)}: EM {shown(figures.get('HasAns_exact'))}, "
        f"F1 {shown(figures.get('HasAns_f1'))}; unanswerable {figures.get('NoAns_total', 0)}: "
        f"EM {shown(figures.get('NoAns_exact'))}; "
        f"no-answer F1 {shown(figures['no_answer']['f1'])}"
    )


def _work(run: BaselineRun, report) -> str:
    splits = _scored_splits(run.release)
    if not splits:
        raise RuntimeError("the release has neither a dev nor a test split to score")
    v2 = run.release.squad_version == "2.0"
    predict_split, device = _predictor(run, report, v2=v2)
    threshold = _Threshold()
    metrics, breakdown, norm = {}, {}, None
    for i, split in enumerate(splits):
        report(
            70 + int(30 * i / len(splits)),
            Text(gettext_noop("%(split)s: predicting"), {"split": split}),
        )
        gold = release_gold(release=run.release, split=split)
        if not gold:
            _append_log(run, f"{split}: no question to score")
            continue
        examples = _gold_examples(run, split)
        # The language of the split's questions decides, as for leaderboard submissions.
        norm = release_split_normalization(question_ids=gold)
        predictions = predict_split(run, split, examples, report)
        if not v2:
            metrics[split], breakdown[split] = _score(run, split, examples, predictions, gold, norm)
            _append_log(
                run,
                f"{split}: EM {metrics[split]['exact_match']:.2f}, F1 {metrics[split]['f1']:.2f}",
            )
            continue
        extra = {}
        if run.kind != BaselineRun.Kind.HTTP:  # {id: (span, no-answer score)}
            if split == "dev":
                threshold.learn(run, gold, predictions, norm)
            elif not threshold.learnt:
                _append_log(run, f"{split}: no dev question to learn a threshold on: spans kept")
            predictions = threshold.apply(predictions)
            extra = threshold.figures()
        metrics[split], breakdown[split] = _score_v2(run, split, examples, predictions, gold, norm)
        metrics[split] |= extra
        _append_log(run, _v2_log(split, metrics[split]))
    BaselineRun.objects.filter(pk=run.pk).update(
        metrics=metrics,
        breakdown=breakdown,
        device=device,
        normalization=norm.name if norm else "",
        normalization_version=norm.version if norm else "",
    )
    summary = "; ".join(
        f"{s}: F1 {m['f1']:.1f} / EM {m['exact_match']:.1f}" for s, m in metrics.items()
    )
    return summary or Text(
        gettext_noop("No question to score in this release's dev and test splits.")
    )


def _predictor(run: BaselineRun, report, *, v2: bool = False):
    """Return (predict(run, split, examples, report), device name).

    predict returns {id: answer}; for a v2.0 release, the lexical and transformers kinds
    return {id: (best span, no-answer score)} instead, for the threshold learnt on dev.
    """
    if run.kind in GPU_KINDS:
        model, tokenizer, config, qa = _transformers_model(run, report)

        def transformers_predict(run, split, examples, report):
            if v2:
                return qa.predict_with_null(model, tokenizer, examples, config)
            return qa.predict(model, tokenizer, examples, config)

        return transformers_predict, _device_name()
    if run.kind == BaselineRun.Kind.LEXICAL:
        return (_predict_lexical_scored if v2 else _predict_lexical), "cpu"
    return _predict_http, "remote"


def baseline_run_execute(*, run: BaselineRun) -> None:
    """Run the baseline as its job (a redelivered task for a finished run does nothing)."""
    job_run(run, _work)
