"""Baseline runs executed: predictions per split by each kind, scored beside humans."""

from __future__ import annotations

import gzip
import io
import json
import math
from pathlib import Path

from django.conf import settings
from django.utils.translation import gettext_noop

from core.i18n import Text
from core.services.jobs import job_run
from evaluation.baselines.mrqa_client import PredictServerError, predict_over_http
from evaluation.baselines.no_answer import apply_threshold, best_threshold
from evaluation.baselines.sliding_window import predict_all, predict_all_scored
from evaluation.gpu_extra import gpu_extra_require
from evaluation.metrics import FQUAD_FR, SQUAD_EN, no_answer_classification, score, score_v2
from evaluation.model_names import model_loading, model_location
from evaluation.models import BaselineRun, TrainingFile
from evaluation.release_data import (
    question_types,
    release_examples,
    training_file_examples,
)
from evaluation.scoring import score_by
from evaluation.services.analysis.answer_types import answer_types
from evaluation.services.baselines.runs import GPU_KINDS, _scored_splits
from evaluation.services.leaderboard.submissions import release_split_normalization
from exports.formats.mrqa import MrqaWriter
from exports.formats.records import ExportArticle, ExportParagraph, ExportQuestion
from exports.models import Release
from exports.services.releases import release_gold


def _training_examples(run: BaselineRun) -> list[dict]:
    """Return what a fine-tuning run trains on: its sources' union, or the release's train."""
    if not run.train_sources:
        return release_examples(run.release, "train")
    examples = []
    for source in run.train_sources:
        if source["type"] == "release":
            found = Release.objects.filter(pk=source["id"]).first()
            read = (lambda r: release_examples(r, "train")) if found else None
        else:
            found = TrainingFile.objects.filter(pk=source["id"]).first()
            read = training_file_examples if found else None
        if found is None:
            raise RuntimeError(f"the training source {source['label']} no longer exists")
        part = read(found)
        _append_log(run, f"train: {len(part)} questions from {source['label']}")
        examples += part
    if not examples:
        raise RuntimeError("the training set is empty")
    return examples


def _append_log(run: BaselineRun, line: str) -> None:
    run.log = f"{run.log}{line}\n"[-100_000:]
    BaselineRun.objects.filter(pk=run.pk).update(log=run.log)


def _stop_words_language(examples) -> str:
    """Return the sliding window's language: "fr" or "en" as the split's questions' language
    (the language that decides the normalization), "" (no stop words) for any other."""
    norm = release_split_normalization(question_ids=[e["id"] for e in examples])
    return {FQUAD_FR.name: "fr", SQUAD_EN.name: "en"}.get(norm.name, "")  # stop words: fr, en


def _predict_lexical(run, split, examples, report):
    return predict_all(examples, language=_stop_words_language(examples))


def _predict_lexical_scored(run, split, examples, report):
    """Return {id: (span, no-answer score)}: the lower the window score, the likelier none."""
    scored = predict_all_scored(examples, language=_stop_words_language(examples))
    return {qid: (text, -score) for qid, (text, score) in scored.items()}


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
    """Return (EM/F1, the same per question and answer type) of the predictions (v1.1)."""
    predicted = {k: v for k, v in predictions.items() if k in gold}
    metrics = score(gold, predicted, norm)
    qtypes = question_types(gold)
    atypes = _answer_type_ids(examples)
    breakdown = {
        "question_type": score_by(gold, predicted, norm, qtypes),
        "answer_type": score_by(gold, predicted, norm, atypes),
    }
    return metrics, breakdown


score_split = _score  # the same scoring for a run scored on another dataset (cross_evaluation)


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
    return release_gold_examples(run.release, split)


def release_gold_examples(release: Release, split: str) -> list[dict]:
    """Return a release split's examples with the gold answers, held back ones included."""
    examples = release_examples(release, split)
    if any(e["answers"]["text"] for e in examples):
        return examples
    # Held back: the contexts hold the answer texts; answer types need an offset, so find it.
    gold = release_gold(release=release, split=split)
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
    gpu_extra_require()
    import torch

    from evaluation.baselines import qa

    # Compiling fuses BERT's element-wise work: +30 % sequences/s on an H100 (bench/README.md).
    config = qa.TrainConfig(**{"compile": torch.cuda.is_available(), **run.hyperparameters})
    location = model_location(run.model)
    with model_loading(run.model):
        model, tokenizer = qa.load_pretrained(location)
    if run.kind == BaselineRun.Kind.FINETUNE:
        train_examples = _finetune_examples(run)
        # v2.0: an unanswerable question's windows all point at CLS, the null answer.
        progress = _train_progress(run, report)
        summary = qa.train(model, tokenizer, train_examples, config, progress=progress)
        _append_log(run, f"trained: {json.dumps(summary)}")
        folder = Path(settings.VAR_DIR) / "models" / f"baseline-{run.pk}"
        qa.save_checkpoint(model, tokenizer, folder)
        BaselineRun.objects.filter(pk=run.pk).update(checkpoint=str(folder))
    return model, tokenizer, config, qa


def _finetune_examples(run) -> list[dict]:
    """Return what a fine-tuning run trains on: answered questions only for a v1.1 release."""
    train_examples = _training_examples(run)
    if run.release.squad_version != "2.0":
        train_examples = [e for e in train_examples if e["answers"]["text"]]
    if run.train_sources:  # (a run without sources logs what it always did)
        _append_log(run, f"train: {len(train_examples)} questions in all")
        if not train_examples:
            raise RuntimeError("the training set is empty")
    return train_examples


def _train_progress(run, report):
    """Return the training's progress callback: the job's share and line, and the run's log."""

    def progress(step):
        message = (
            f"step {step.step}/{step.total_steps} · loss {step.loss:.4f} · "
            f"{step.sequences_per_second:.1f} sequences/s"
        )
        shown = Text(
            gettext_noop("step %(step)d of %(total)d · loss %(loss).4f · %(speed).1f sequences/s"),
            {
                "step": step.step,
                "total": step.total_steps,
                "loss": step.loss,
                "speed": step.sequences_per_second,
            },
        )
        report(int(70 * step.step / max(step.total_steps, 1)), shown)
        _append_log(run, message)  # the log is English, like the worker's own

    return progress


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
        norm = release_split_normalization(question_ids=gold, release=run.release)
        predictions = predict_split(run, split, examples, report)
        scored = (examples, predictions, gold, norm)
        if not v2:
            metrics[split], breakdown[split] = _score(run, split, *scored)
            _append_log(
                run,
                f"{split}: EM {metrics[split]['exact_match']:.2f}, F1 {metrics[split]['f1']:.2f}",
            )
            continue
        metrics[split], breakdown[split] = _thresholded_v2(run, split, scored, threshold)
        _append_log(run, _v2_log(split, metrics[split]))
    BaselineRun.objects.filter(pk=run.pk).update(
        metrics=metrics,
        breakdown=breakdown,
        device=device,
        normalization=norm.name if norm else "",
        normalization_version=norm.version if norm else "",
    )
    return _summary(metrics)


def _thresholded_v2(run, split: str, scored: tuple, threshold: _Threshold) -> tuple[dict, dict]:
    """Score a v2.0 split: spans with no-answer scores get dev's threshold (learnt on dev
    itself), a predict server's answers are taken as they are; returns (metrics, breakdown)."""
    examples, predictions, gold, norm = scored
    extra = {}
    if run.kind != BaselineRun.Kind.HTTP:  # {id: (span, no-answer score)}
        if split == "dev":
            threshold.learn(run, gold, predictions, norm)
        elif not threshold.learnt:
            _append_log(run, f"{split}: no dev question to learn a threshold on: spans kept")
        predictions = threshold.apply(predictions)
        extra = threshold.figures()
    metrics, breakdown = _score_v2(run, split, examples, predictions, gold, norm)
    metrics |= extra
    return metrics, breakdown


def _summary(metrics: dict) -> Text:
    """The run's closing line, its figures written in the reader's language when shown."""
    if not metrics:
        return Text(gettext_noop("No question to score in this release's dev and test splits."))
    if not {"dev", "test"} <= set(metrics):
        split, figures = next(iter(metrics.items()))
        return Text(
            gettext_noop("%(split)s: F1 %(f1).1f / EM %(em).1f"),
            {"split": split, "f1": figures["f1"], "em": figures["exact_match"]},
        )
    return Text(
        gettext_noop(
            "dev: F1 %(dev_f1).1f / EM %(dev_em).1f; test: F1 %(test_f1).1f / EM %(test_em).1f"
        ),
        {
            f"{split}_{key}": metrics[split][name]
            for split in ("dev", "test")
            for key, name in (("f1", "f1"), ("em", "exact_match"))
        },
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
