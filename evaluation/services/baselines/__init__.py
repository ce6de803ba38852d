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

The package: `runs` records and starts a run after its checks, `sources` holds the training
sources a fine-tuning run may read, `execute` runs it.
"""
