"""Turn SQuAD-style examples into model windows, and model logits back into answer text.

An example is a dict ``{"id", "question", "context", "answers": {"text": [...],
"answer_start": [...]}}`` (the Hugging Face SQuAD layout), offsets being Python code-point
offsets into the context. A paragraph longer than the model's window is cut into several
overlapping windows ("features"), question first, context second; fast tokenizers report
their offsets in Python string indices too, so answer positions need no conversion.

Pure Python (plus numpy for the n-best search): no torch and no Django, so the platform and
the GPU benchmark can both use it.

The method (overlapping windows with a stride, the classifier token as the label of a window
without the answer, the best start and end logits searched among the n best of each) is the
one of Hugging Face transformers' question-answering example (``run_qa.py`` and
``utils_qa.py`` in ``examples/pytorch/question-answering``); the code is written here.
"""

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from importlib import metadata
from typing import Any

import numpy as np

Features = dict[str, list[Any]]

CONTEXT = 1  # sequence id of the context in a (question, context) pair


def _encode_windows(tokenizer, examples: Sequence[Mapping], max_length: int, stride: int):
    """Tokenize each (question, context) pair into overlapping windows of the context."""
    if not getattr(tokenizer, "is_fast", False):
        raise TypeError("a fast tokenizer is needed: offsets and overflowing windows come from it")
    # Some questions start with spaces; they would only waste window room.
    questions = [example["question"].lstrip() for example in examples]
    contexts = [example["context"] for example in examples]
    encoding = tokenizer(
        questions,
        contexts,
        truncation="only_second",
        max_length=max_length,
        stride=stride,
        return_overflowing_tokens=True,
        return_offsets_mapping=True,
        padding=False,
    )
    check_windows_cover_contexts(tokenizer, examples, encoding)
    return encoding


def _context_ends(tokenizer, contexts: Sequence[str]) -> dict[str, int]:
    """Return where the last token of each context ends, the context tokenized whole."""
    unique = list(dict.fromkeys(contexts))
    # Whole contexts may well be longer than the model takes: no warning about it.
    offsets = tokenizer(
        unique, add_special_tokens=False, return_offsets_mapping=True, verbose=False
    )
    return {
        context: max((end for _, end in spans), default=0)
        for context, spans in zip(unique, offsets["offset_mapping"], strict=True)
    }


def check_windows_cover_contexts(tokenizer, examples: Sequence[Mapping], encoding) -> None:
    """Raise RuntimeError when the windows of an example stop before the end of its context.

    tokenizers 0.23.1 and 0.23.2 stop tokenizing at ``max_length`` when truncating, so the
    overflowing windows miss the end of long contexts (huggingface/tokenizers#2091); answers
    there would silently become unanswerable. Cheap: each distinct context is tokenized once.
    """
    reached = [0] * len(examples)
    for index, sample in enumerate(encoding["overflow_to_sample_mapping"]):
        _, last = _context_span(encoding.sequence_ids(index))
        reached[sample] = max(reached[sample], encoding["offset_mapping"][index][last][1])
    ends = _context_ends(tokenizer, [example["context"] for example in examples])
    short = [
        example["id"]
        for example, end in zip(examples, reached, strict=True)
        if end < ends[example["context"]]
    ]
    if short:
        raise RuntimeError(
            f"the tokenizer's windows stop before the end of the context for {len(short)} "
            f"example(s), first {short[0]!r}: tokenizers {_version('tokenizers')} loses "
            "overflowing tokens (huggingface/tokenizers#2091, releases 0.23.1-0.23.2); "
            "install a tokenizers release without that bug (0.23.3 windows correctly)"
        )


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "(unknown version)"


def _model_inputs(encoding, tokenizer) -> Features:
    """Keep only the inputs the model takes (CamemBERT has no token type ids, BERT has)."""
    return {name: list(encoding[name]) for name in tokenizer.model_input_names if name in encoding}


def _context_span(sequence_ids: list[int | None]) -> tuple[int, int]:
    """Return the first and last token indices of the context in one window."""
    first = sequence_ids.index(CONTEXT)
    last = len(sequence_ids) - 1 - sequence_ids[::-1].index(CONTEXT)
    return first, last


def _cls_index(input_ids: list[int], tokenizer) -> int:
    """Return where the classifier token sits: the label of a window without the answer."""
    cls_id = tokenizer.cls_token_id
    return input_ids.index(cls_id) if cls_id in input_ids else 0


def answer_token_span(
    offsets: Sequence[tuple[int, int]],
    sequence_ids: list[int | None],
    start_char: int,
    end_char: int,
) -> tuple[int, int] | None:
    """Return the (start, end) token indices covering ``[start_char, end_char)`` in a window.

    None when the answer is not wholly inside the window's part of the context.
    """
    first, last = _context_span(sequence_ids)
    if offsets[first][0] > start_char or offsets[last][1] < end_char:
        return None
    start = first
    # The start token is the one that contains start_char (an answer may begin mid-token).
    while start <= last and offsets[start][1] <= start_char:
        start += 1
    end = last
    while end >= first and offsets[end][0] >= end_char:
        end -= 1
    return start, end


def _window_labels(encoding, index: int, example: Mapping, cls_index: int) -> tuple[int, int]:
    """Return the start/end labels of one window: the answer's tokens, or CLS twice."""
    answers = example["answers"]
    if not answers["text"]:
        return cls_index, cls_index
    start_char = answers["answer_start"][0]
    end_char = start_char + len(answers["text"][0])
    span = answer_token_span(
        encoding["offset_mapping"][index], encoding.sequence_ids(index), start_char, end_char
    )
    return span if span is not None else (cls_index, cls_index)


def prepare_train_features(
    tokenizer, examples: Sequence[Mapping], max_length: int = 384, stride: int = 128
) -> Features:
    """Return the training windows of ``examples`` with their start/end token labels.

    A window that does not hold the whole first answer is labelled with the CLS token's index
    at both ends, as BERT's SQuAD recipe does; so is every window of an unanswerable question
    (``answers.text`` empty: SQuAD 2.0's null answer).
    """
    encoding = _encode_windows(tokenizer, examples, max_length, stride)
    features = _model_inputs(encoding, tokenizer)
    starts, ends = [], []
    for index, sample in enumerate(encoding["overflow_to_sample_mapping"]):
        cls_index = _cls_index(encoding["input_ids"][index], tokenizer)
        start, end = _window_labels(encoding, index, examples[sample], cls_index)
        starts.append(start)
        ends.append(end)
    features["start_positions"] = starts
    features["end_positions"] = ends
    return features


def prepare_eval_features(
    tokenizer, examples: Sequence[Mapping], max_length: int = 384, stride: int = 128
) -> Features:
    """Return the evaluation windows of ``examples``, each with its example id and offsets.

    Offsets of tokens outside the context (question, special tokens) are None, so that no
    predicted span can start or end there.
    """
    encoding = _encode_windows(tokenizer, examples, max_length, stride)
    features = _model_inputs(encoding, tokenizer)
    example_ids, offset_mapping, cls_indices = [], [], []
    for index, sample in enumerate(encoding["overflow_to_sample_mapping"]):
        example_ids.append(examples[sample]["id"])
        cls_indices.append(_cls_index(encoding["input_ids"][index], tokenizer))
        sequence_ids = encoding.sequence_ids(index)
        offset_mapping.append(
            [
                tuple(offset) if sequence_ids[token] == CONTEXT else None
                for token, offset in enumerate(encoding["offset_mapping"][index])
            ]
        )
    features["example_id"] = example_ids
    features["offset_mapping"] = offset_mapping
    features["cls_index"] = cls_indices
    return features


def _top_indices(logits: np.ndarray, n_best: int) -> np.ndarray:
    """Return the indices of the ``n_best`` largest logits, largest first (ties: lowest index)."""
    return np.argsort(-logits, kind="stable")[:n_best]


def _best_span(
    start_logits: np.ndarray,
    end_logits: np.ndarray,
    offsets: Sequence[tuple[int, int] | None],
    n_best: int,
    max_answer_tokens: int,
) -> tuple[float, int, int] | None:
    """Return (score, start char, end char) of the best valid span in one window, or None."""
    best = None
    for start in _top_indices(start_logits, n_best):
        for end in _top_indices(end_logits, n_best):
            if start >= len(offsets) or end >= len(offsets):
                continue  # padding added when the window was batched with longer ones
            if offsets[start] is None or offsets[end] is None:
                continue
            if end < start or end - start + 1 > max_answer_tokens:
                continue
            score = float(start_logits[start] + end_logits[end])
            if best is None or score > best[0]:
                best = (score, offsets[start][0], offsets[end][1])
    return best


def postprocess_predictions(
    examples: Sequence[Mapping],
    features: Features,
    start_logits: Sequence[Sequence[float]],
    end_logits: Sequence[Sequence[float]],
    n_best: int = 20,
    max_answer_tokens: int = 30,
) -> dict[str, str]:
    """Return {example id: predicted answer text}, the best span over all of its windows.

    ``start_logits[i]`` and ``end_logits[i]`` score the tokens of feature ``i``; rows may be
    longer than the feature (padding). An example with no valid span gets "".
    """
    scored = postprocess_with_null(
        examples, features, start_logits, end_logits, n_best, max_answer_tokens
    )
    return {example_id: text for example_id, (text, _diff) in scored.items()}


def postprocess_with_null(
    examples: Sequence[Mapping],
    features: Features,
    start_logits: Sequence[Sequence[float]],
    end_logits: Sequence[Sequence[float]],
    n_best: int = 20,
    max_answer_tokens: int = 30,
) -> dict[str, tuple[str, float]]:
    """Return {example id: (best span's text, null score minus the best span's score)}.

    The SQuAD 2.0 recipes' null answer: a window's null score is its start and end logits at
    the CLS token (``features["cls_index"]``, 0 where absent), and an example's is the lowest
    over its windows (the window most sure that it holds the answer); the best span is the
    best over all windows. The difference is the no-answer score that a threshold tuned on dev
    turns into "" (`evaluation.baselines.no_answer`). An example with no valid span gets ""
    and an infinite difference.
    """
    spans = postprocess_with_spans(
        examples, features, start_logits, end_logits, n_best, max_answer_tokens
    )
    return {example_id: (text, diff) for example_id, (text, _start, diff) in spans.items()}


def postprocess_with_spans(
    examples: Sequence[Mapping],
    features: Features,
    start_logits: Sequence[Sequence[float]],
    end_logits: Sequence[Sequence[float]],
    n_best: int = 20,
    max_answer_tokens: int = 30,
) -> dict[str, tuple[str, int | None, float]]:
    """Return {example id: (best span's text, its start in the context, no-answer score)}.

    As `postprocess_with_null`, with the offset (code points) where the span starts, so that
    a caller can tell which occurrence of a repeated text the model chose; an example with no
    valid span gets ("", None, inf).
    """
    windows = defaultdict(list)
    for index, example_id in enumerate(features["example_id"]):
        windows[example_id].append(index)
    cls_indices = features.get("cls_index") or [0] * len(features["example_id"])
    predictions = {}
    for example in examples:
        best, null = None, math.inf
        for index in windows[example["id"]]:
            starts = np.asarray(start_logits[index], dtype=np.float32)
            ends = np.asarray(end_logits[index], dtype=np.float32)
            cls = cls_indices[index]
            null = min(null, float(starts[cls] + ends[cls]))
            candidate = _best_span(
                starts, ends, features["offset_mapping"][index], n_best, max_answer_tokens
            )
            if candidate is not None and (best is None or candidate[0] > best[0]):
                best = candidate
        if best is None:
            predictions[example["id"]] = ("", None, math.inf)
        else:
            text = example["context"][best[1] : best[2]]
            predictions[example["id"]] = (text, best[1], null - best[0])
    return predictions
