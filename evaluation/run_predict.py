"""Predict with a finished baseline run's model: what a model round (its later questions) and a
cross-dataset evaluation (another dataset's questions) ask of it. One place, so that both
load a run's model the same way: the sliding window, the HTTP server, or the transformers
checkpoint a fine-tuning wrote (the model itself for an evaluate run)."""

from __future__ import annotations

from evaluation.baselines import lexical, sliding_window
from evaluation.baselines.mrqa_client import predict_over_http
from evaluation.gpu_extra import gpu_extra_require
from evaluation.model_names import checkpoint_location, model_location
from evaluation.models import BaselineRun
from evaluation.services.baselines.execute import mrqa_contexts
from evaluation.services.baselines.runs import GPU_KINDS


def _transformers_predict(run: BaselineRun, examples: list[dict]) -> dict[str, str]:
    """Predict with a fine-tuned checkpoint (kind finetune) or the model a run evaluated."""
    gpu_extra_require()
    from evaluation.baselines import qa

    where = run.checkpoint if run.kind == BaselineRun.Kind.FINETUNE else run.model
    if not where:
        raise RuntimeError(f"baseline run {run.pk} has no checkpoint to load")
    if run.kind == BaselineRun.Kind.FINETUNE:
        model, tokenizer = qa.load_checkpoint(checkpoint_location(where))
    else:  # a folder of the models folder or a hub name (safetensors only, as runs do)
        model, tokenizer = qa.load_pretrained(model_location(where))
    config = qa.TrainConfig(**run.hyperparameters)
    return qa.predict(model, tokenizer, examples, config)


def run_predict(
    run: BaselineRun, examples: list[dict], *, in_the_loop: bool = False
) -> dict[str, str]:
    """Return {example id: answer} of the run's model, for all the examples at once.

    A lexical run's model is the SQuAD paper's sliding window (what its own dev and test
    figures measure, so a cross-dataset evaluation uses it too); in a model round
    (`in_the_loop=True`) it is the model its annotators faced, `lexical.py`, as
    `in_the_loop` maps a lexical run (docs/baselines.md)."""
    if run.kind == BaselineRun.Kind.LEXICAL:
        model = lexical if in_the_loop else sliding_window
        return model.predict_all(examples)
    if run.kind == BaselineRun.Kind.HTTP:
        return predict_over_http(run.model, mrqa_contexts(examples))
    if run.kind in GPU_KINDS:
        return _transformers_predict(run, examples)
    raise RuntimeError(f"baseline run {run.pk} ({run.kind}) is not one model to predict with")
