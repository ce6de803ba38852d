"""Fine-tune a transformers model for extractive QA, predict answers, and save it safely.

The public face of the baselines, gathered from its modules:

- ``features``: windowed preprocessing of SQuAD-style examples and the n-best post-processing;
- ``training``: ``TrainConfig`` (the FQuAD paper's defaults), ``train``, ``predict`` and
  ``predict_with_null`` (SQuAD 2.0: the best span and its no-answer score);
- ``checkpoints``: safetensors-only ``save_checkpoint`` / ``load_checkpoint``;
- ``tiny``: a tiny BERT and a WordPiece tokenizer trained on the spot, for tests.

Needs torch, transformers, tokenizers and safetensors (the project's ``gpu`` extra); no
Django, so it also runs on a bare GPU machine.
"""

from .checkpoints import load_checkpoint, load_pretrained, save_checkpoint
from .features import (
    answer_token_span,
    check_windows_cover_contexts,
    postprocess_predictions,
    postprocess_with_null,
    prepare_eval_features,
    prepare_train_features,
)
from .tiny import tiny_model_and_tokenizer, train_wordpiece_tokenizer
from .training import TrainConfig, TrainProgress, predict, predict_with_null, train

__all__ = [
    "TrainConfig",
    "TrainProgress",
    "answer_token_span",
    "check_windows_cover_contexts",
    "load_checkpoint",
    "load_pretrained",
    "postprocess_predictions",
    "postprocess_with_null",
    "predict",
    "predict_with_null",
    "prepare_eval_features",
    "prepare_train_features",
    "save_checkpoint",
    "tiny_model_and_tokenizer",
    "train",
    "train_wordpiece_tokenizer",
]
