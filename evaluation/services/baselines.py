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

Experiments across datasets (docs/experiments.md): a fine-tuning run may train on SOURCES
other than the release it is scored on, the train splits of finished releases and imported
SQuAD-format files (`TrainingFile`), alone (zero-shot, translate-train) or as a union
(augmented). Without sources, it trains on the release's own train split, as it always did.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import math
import re
import uuid
from pathlib import Path
from urllib.parse import urlsplit

from django.conf import settings
from django.core.files import File
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from core.errors import ServiceError
from core.i18n import Text
from core.inputs import check_text, object_by_id, too_deep_message
from core.outbound import url_problem
from core.services.jobs import job_enqueue, job_run
from evaluation.baselines.mrqa_client import PredictServerError, predict_over_http
from evaluation.baselines.no_answer import apply_threshold, best_threshold
from evaluation.baselines.sliding_window import predict_all, predict_all_scored
from evaluation.gpu_extra import gpu_extra_problem, gpu_extra_require
from evaluation.metrics import FQUAD_FR, SQUAD_EN, no_answer_classification, score, score_v2
from evaluation.model_names import model_location, model_name_problem
from evaluation.models import BaselineRun, TrainingFile
from evaluation.release_data import (
    question_types,
    release_examples,
    squad_problem_skip,
    squad_training_examples,
    training_file_examples,
)
from evaluation.scoring import score_by
from evaluation.services.analysis.answer_types import answer_types
from evaluation.services.leaderboard import release_split_normalization
from exports.formats.mrqa import MrqaWriter
from exports.formats.records import ExportArticle, ExportParagraph, ExportQuestion
from exports.formats.squad import SquadFormatError, SquadTooDeep, read_squad
from exports.models import Release
from exports.services.releases import release_gold, release_storage

SCORED_SPLITS = ("dev", "test")
GPU_KINDS = (BaselineRun.Kind.FINETUNE, BaselineRun.Kind.EVALUATE)
# (evaluation.services.curves.learning_curves)
GPU_QUEUE_KINDS = (*GPU_KINDS, BaselineRun.Kind.LEARNING_CURVE)

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
        raise ServiceError(
            {"model": [_("Give the model: a folder of the models folder, a hub name or a URL.")]}
        )
    if kind == BaselineRun.Kind.HTTP:
        parts = urlsplit(model)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ServiceError({"model": [_("An http:// or https:// address of the server.")]})
        if parts.username or parts.password:  # the address is shown on the leaderboard
            raise ServiceError(
                {"model": [_("No user name or password in the address: it is shown to users.")]}
            )
        if problem := url_problem(model):  # checked again at each request
            raise ServiceError({"model": [problem]})
    elif problem := model_name_problem(model):  # local models: only from MODELS_DIR
        raise ServiceError({"model": [problem]})
    return model


# The same checks for the runs a release asks for once built (evaluation.services.release_scoring).
check_model = _check_model
check_hyperparameters = _check_hyperparameters


def baseline_run_record(
    *,
    release: Release,
    kind: str,
    model: str = "",
    hyperparameters=None,
    created_by=None,
    train_releases=None,
    train_files=None,
    as_user=False,
) -> BaselineRun:
    """Check the settings and record a pending baseline run (not sent to any queue).

    `train_releases` and `train_files` (ids) are a fine-tuning run's training sources; none
    means the release's own train split. Training files are those `created_by` may read
    (`training_files_readable`); `as_user=False` with no user is the command line (all).
    """
    if kind not in BaselineRun.Kind.values:
        raise ServiceError({"kind": [_("Choose lexical, finetune, evaluate or http.")]})
    if kind in GPU_QUEUE_KINDS and (problem := gpu_extra_problem()):
        raise ServiceError({"kind": [problem]})
    if release.status != Release.Status.SUCCEEDED:
        raise ServiceError({"release": [_("The release is not finished.")]}, status=409)
    if not _scored_splits(release):
        raise ServiceError(
            {"release": [_("The release has neither a dev nor a test split to evaluate on.")]}
        )
    model = _check_model(kind, model)
    clean = _check_hyperparameters(hyperparameters or {})
    sources = _check_sources(
        kind=kind,
        release=release,
        train_releases=train_releases,
        train_files=train_files,
        user=created_by,
        as_user=as_user,
    )
    if (
        kind == BaselineRun.Kind.FINETUNE
        and not sources
        and "train" not in release.options.get("splits", [])
    ):
        raise ServiceError({"release": [_("Fine-tuning needs a release with a train split.")]})
    # Without sources, the row is what it always was (train_sources [], mode "").
    extra = {"train_sources": sources, "mode": _mode(release, sources)} if sources else {}
    return BaselineRun.objects.create(
        release=release,
        kind=kind,
        model=model,
        hyperparameters=clean,
        created_by=created_by,
        **extra,
    )


def baseline_run_start(
    *,
    release: Release,
    kind: str,
    model: str = "",
    hyperparameters=None,
    created_by=None,
    train_releases=None,
    train_files=None,
    as_user=False,
) -> BaselineRun:
    """Record a baseline run and send it to its queue (gpu for transformers, else default)."""
    with transaction.atomic():
        run = baseline_run_record(
            release=release,
            kind=kind,
            model=model,
            hyperparameters=hyperparameters,
            created_by=created_by,
            train_releases=train_releases,
            train_files=train_files,
            as_user=as_user,
        )
        gpu = kind in GPU_QUEUE_KINDS
        job_enqueue(
            job=run,
            task="evaluation.tasks.gpu_baseline_task" if gpu else "evaluation.tasks.baseline_task",
            queue="gpu" if gpu else "default",
        )
    return run


# ---------------------------------------------------------------------------------------------
# Training sources: releases' train splits and imported SQuAD-format files

MAX_TRAINING_FILE_BYTES = 500 * 1024 * 1024  # SQuAD v1.1's train is 30 MB, v2.0's 40 MB
MAX_SKIPPED_NAMED = 1000  # a file's skipped questions named on its row (all are counted)
MAX_SOURCES = 10
LANGUAGE = re.compile(r"[a-z]{2,3}([-_][A-Za-z0-9]{2,8})?")


def training_files_readable(user, *, as_user: bool = True):
    """Return the training files `user` may train on: their own and the shared ones (every
    file for the command line: no user, `as_user=False`)."""
    files = TrainingFile.objects.all()
    if user is None and not as_user:
        return files
    if user is None:
        return files.none()
    return files.filter(Q(created_by=user) | Q(shared=True))


def _id_list(values, field: str) -> list[int]:
    if values is None:
        return []
    if not isinstance(values, list | tuple) or len(values) > MAX_SOURCES:
        raise ServiceError({field: [_("A list of at most %(n)d ids.") % {"n": MAX_SOURCES}]})
    ids = []
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int) or not 0 < value < 2**63:
            raise ServiceError({field: [_("An id is a whole number.")]})
        if value in ids:
            raise ServiceError({field: [_("Source %(id)d is given twice.") % {"id": value}]})
        ids.append(value)
    return ids


def _train_count(release: Release) -> int:
    """Return how many questions the release's train split holds (its file's counts)."""
    for name in ("hf-train.jsonl", "squad-train.json"):
        found = release.files.filter(name=name, internal=False).first()
        if found is not None:
            return int(found.counts.get("questions", 0))
    return 0


def _check_sources(*, kind, release, train_releases, train_files, user, as_user) -> list[dict]:
    """Return the run's training sources, checked, in the order given (releases first)."""
    release_ids = _id_list(train_releases, "train_releases")
    file_ids = _id_list(train_files, "train_files")
    if not release_ids and not file_ids:
        return []
    field = "train_releases" if release_ids else "train_files"
    if kind != BaselineRun.Kind.FINETUNE:
        raise ServiceError(
            {field: [_("Only a fine-tuning run trains: the other kinds take no training source.")]}
        )
    if len(release_ids) + len(file_ids) > MAX_SOURCES:
        raise ServiceError({field: [_("At most %(n)d sources.") % {"n": MAX_SOURCES}]})
    sources = []
    found = {r.pk: r for r in Release.objects.filter(pk__in=release_ids)}
    for pk in release_ids:
        source = found.get(pk)
        if source is None:
            raise ServiceError({"train_releases": [_("No release %(id)d.") % {"id": pk}]})
        name = f"{source.name} {source.version}"
        if source.status != Release.Status.SUCCEEDED:
            raise ServiceError(
                {"train_releases": [_("The release %(name)s is not finished.") % {"name": name}]}
            )
        if "train" not in source.options.get("splits", []) or _train_count(source) == 0:
            raise ServiceError(
                {
                    "train_releases": [
                        _(
                            "The release %(name)s has no question in a train split: nothing to "
                            "train on."
                        )
                        % {"name": name}
                    ]
                }
            )
        sources.append({"type": "release", "id": pk, "label": f"{name} · train"})
    readable = {
        f.pk: f for f in training_files_readable(user, as_user=as_user).filter(pk__in=file_ids)
    }
    for pk in file_ids:
        source = readable.get(pk)
        if source is None:  # unknown, or another admin's private file: the same answer
            raise ServiceError(
                {"train_files": [_("No training file %(id)d that you may read.") % {"id": pk}]}
            )
        usable = source.counts.get("questions", 0)
        if release.squad_version != "2.0":
            usable = source.counts.get("answerable", 0)
        if usable == 0:
            raise ServiceError(
                {
                    "train_files": [
                        _("The file %(name)s has no question this release can train on.")
                        % {"name": source.name}
                    ]
                }
            )
        sources.append(
            {
                "type": "file",
                "id": pk,
                "label": source.name,
                "translated": source.translated,
            }
        )
    return sources


def _mode(release: Release, sources: list[dict]) -> str:
    """Name the experiment: a union of several sources is augmented; one source is this
    release (in-domain), a translated file (translate-train) or anything else (zero-shot)."""
    if len(sources) > 1:
        return BaselineRun.Mode.AUGMENTED
    (source,) = sources
    if source["type"] == "release" and source["id"] == release.pk:
        return BaselineRun.Mode.IN_DOMAIN
    if source["type"] == "file" and source.get("translated"):
        return BaselineRun.Mode.TRANSLATE_TRAIN
    return BaselineRun.Mode.ZERO_SHOT


def training_file_import(
    *,
    file,
    name: str = "",
    language: str = "",
    translated: bool = False,
    shared: bool = False,
    created_by=None,
) -> TrainingFile:
    """Check a SQuAD-format JSON file (v1.1 or v2.0) and store it to train baselines on.

    The file is read whole once: a document that is not SQuAD, or that holds no question to
    train on, is refused naming `file`; malformed entries and answers that are not the
    context's text at their offset are skipped, counted, and named on the row (`skipped`:
    the first MAX_SKIPPED_NAMED, each {"id", "reason", "detail"}). The bytes are stored as
    given, in the releases storage, under `training-files/`.
    """
    name = check_text(name if isinstance(name, str) else "", "name").strip()
    if not name:
        name = Path(str(getattr(file, "name", "") or "")).name
    if not name or len(name) > 200:
        raise ServiceError({"name": [_("Name the file: at most 200 characters.")]})
    language = language if isinstance(language, str) else None
    if language is None or (language and not LANGUAGE.fullmatch(language)):
        raise ServiceError({"language": [_("A language code such as fr, en or pt-BR.")]})
    for field, value in (("translated", translated), ("shared", shared)):
        if not isinstance(value, bool):
            raise ServiceError({field: [_("True or false.")]})
    size = getattr(file, "size", None)
    if size is not None and size > MAX_TRAINING_FILE_BYTES:
        raise ServiceError(
            {"file": [_("At most %(n)d MB.") % {"n": MAX_TRAINING_FILE_BYTES // 2**20}]}
        )
    data = file.read(MAX_TRAINING_FILE_BYTES + 1)
    if len(data) > MAX_TRAINING_FILE_BYTES:
        raise ServiceError(
            {"file": [_("At most %(n)d MB.") % {"n": MAX_TRAINING_FILE_BYTES // 2**20}]}
        )
    problems = []
    try:
        articles = list(read_squad(io.BytesIO(data), on_problem=problems.append))
    except SquadTooDeep:
        raise ServiceError({"file": [too_deep_message()]}) from None
    except SquadFormatError:
        raise ServiceError(
            {"file": [_("Not a SQuAD-format JSON file (an object with a “data” list).")]}
        ) from None
    examples, misaligned = squad_training_examples(articles)
    skipped = [squad_problem_skip(problem) for problem in problems] + misaligned
    answerable = sum(bool(e["answers"]["text"]) for e in examples)
    counts = {
        "articles": len(articles),
        "paragraphs": sum(len(a.paragraphs) for a in articles),
        "questions": len(examples),
        "answerable": answerable,
        "unanswerable": len(examples) - answerable,
        "skipped": len(skipped),
    }
    if not examples:
        raise ServiceError({"file": [_("The file holds no question to train on.")]})
    digest = hashlib.sha256(data).hexdigest()
    storage = release_storage()
    stored = storage.save(f"training-files/{uuid.uuid4().hex}.json", File(io.BytesIO(data)))
    try:
        with transaction.atomic():
            return TrainingFile.objects.create(
                name=name,
                language=language,
                translated=translated,
                shared=shared,
                storage_name=stored,
                bytes=len(data),
                sha256=digest,
                squad_version="2.0" if counts["unanswerable"] else "1.1",
                counts=counts,
                skipped=skipped[:MAX_SKIPPED_NAMED],
                created_by=created_by,
            )
    except BaseException:
        storage.delete(stored)
        raise


def _training_file_managed(*, file_id, user) -> TrainingFile:
    """Return the training file `user` may unshare or delete, locked: their own, or a shared
    one (a shared file is every admin's: its uploader may have left). Another admin's private
    file answers 404, the same as a file that does not exist, naming `training_file`."""
    return object_by_id(
        training_files_readable(user).select_for_update(),
        file_id,
        field="training_file",
        missing=_("No training file that you may read."),
    )


def training_file_unshare(*, file_id, user) -> TrainingFile:
    """Make a training file private to its uploader again: the other admins can no longer
    see it or start runs on it; runs already recorded keep it as a source."""
    with transaction.atomic():
        found = _training_file_managed(file_id=file_id, user=user)
        TrainingFile.objects.filter(pk=found.pk).update(shared=False)
        found.shared = False
    return found


def training_file_delete(*, file_id, user) -> TrainingFile:
    """Delete a training file and, once the deletion is committed, its stored bytes; return
    the deleted row (its name, for the message).

    Runs that trained on it keep their `train_sources` (its name, as a label); a run that has
    not ended yet and trains on it refuses the deletion (409, naming `training_file`): it
    would fail for want of its source.
    """
    with transaction.atomic():
        found = _training_file_managed(file_id=file_id, user=user)
        waiting = BaselineRun.objects.exclude(status__in=BaselineRun.FINISHED).values_list(
            "pk", "train_sources"
        )
        for run_pk, sources in waiting:
            if any(s.get("type") == "file" and s.get("id") == found.pk for s in sources or []):
                message = _("Run #%(run)d trains on this file and has not ended: delete it after.")
                raise ServiceError({"training_file": [message % {"run": run_pk}]}, status=409)
        stored = found.storage_name
        found.delete()
        if stored:
            transaction.on_commit(lambda: release_storage().delete(stored))
    return found


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


def _scored_splits(release: Release) -> list[str]:
    return [s for s in SCORED_SPLITS if s in release.options.get("splits", [])]


def _stop_words_language(examples) -> str:
    """Return the sliding window's language: "fr" or "en" as the split's questions' language
    (the language that decides the normalization), "" (no stop words) for any other."""
    norm = release_split_normalization(question_ids=[e["id"] for e in examples])
    return {FQUAD_FR.name: "fr", SQUAD_EN.name: "en"}.get(norm.name, "")


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
    model, tokenizer = qa.load_pretrained(model_location(run.model))
    if run.kind == BaselineRun.Kind.FINETUNE:
        train_examples = _training_examples(run)
        if run.release.squad_version != "2.0":
            train_examples = [e for e in train_examples if e["answers"]["text"]]
        if run.train_sources:  # (a run without sources logs what it always did)
            _append_log(run, f"train: {len(train_examples)} questions in all")
            if not train_examples:
                raise RuntimeError("the training set is empty")
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
    return _summary(metrics)


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
