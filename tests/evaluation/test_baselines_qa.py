"""Fine-tuning core of the QA baselines (evaluation/baselines): windows, decoding, training, I/O.

Runs only where the ``gpu`` extra (torch, transformers) is installed; on the CPU, with a tiny
BERT and a WordPiece tokenizer trained on the spot, so nothing is downloaded.
"""

import json

import pytest

from tests.needs import PIAF, require_file, require_module

torch = require_module("torch", "the baselines' tests fine-tune a tiny model (dev extra)")
require_module("transformers", "the baselines' tests fine-tune a tiny model (dev extra)")

from evaluation.baselines.qa import (  # noqa: E402  (after the import checks)
    TrainConfig,
    check_windows_cover_contexts,
    load_checkpoint,
    postprocess_predictions,
    postprocess_with_null,
    predict,
    predict_with_null,
    prepare_eval_features,
    prepare_train_features,
    save_checkpoint,
    tiny_model_and_tokenizer,
    train,
)

PIAF_PATH = PIAF

# Every word of this context and question becomes one token (the vocabulary is learnt on them):
# context token k sits at window position 7 + k - (first context token of the window), after
# [CLS], the 5 question tokens and [SEP]. The emoji are one code point each but two UTF-16
# units and four UTF-8 bytes, so a byte or UTF-16 offset would miss the answer.
#   0 le  1 peintre  2 😀  3 émile  4 zola  5 aimait  6 la  7 campagne  8 .  9 il  10 écrivait
#   11 des  12 romans  13 très  14 célèbres  15 .  16 sa  17 maison  18 🏠  19 était  20 à
#   21 médan  22 -  23 sur  24 -  25 seine  26 .
CONTEXT = (
    "Le peintre 😀 Émile Zola aimait la campagne. Il écrivait des romans très célèbres. "
    "Sa maison 🏠 était à Médan-sur-Seine."
)
QUESTION = "Où était sa maison ?"
ANSWER = "Médan-sur-Seine"
EXAMPLE = {
    "id": "zola",
    "question": QUESTION,
    "context": CONTEXT,
    "answers": {"text": [ANSWER], "answer_start": [CONTEXT.index(ANSWER)]},
}
# 24 tokens hold 16 of the context's 27; the second window starts 4 tokens back, at token 12.
WINDOW = {"max_length": 24, "stride": 4}


@pytest.fixture(scope="module")
def tokenizer():
    _, tokenizer = tiny_model_and_tokenizer([CONTEXT, QUESTION], vocab_size=1000)
    return tokenizer


def test_an_answer_in_the_second_window_labels_the_first_with_cls(tokenizer):
    features = prepare_train_features(tokenizer, [EXAMPLE], **WINDOW)

    assert len(features["input_ids"]) == 2
    assert features["input_ids"][0][0] == tokenizer.cls_token_id
    # Window 1 holds context tokens 0-15: the answer (21-25) is not in it.
    assert (features["start_positions"][0], features["end_positions"][0]) == (0, 0)
    # Window 2 holds tokens 12-26: médan is 7 + 21 - 12 = 16, seine 7 + 25 - 12 = 20.
    assert (features["start_positions"][1], features["end_positions"][1]) == (16, 20)
    tokens = tokenizer.convert_ids_to_tokens(features["input_ids"][1][16:21])
    assert tokens == ["médan", "-", "sur", "-", "seine"]


def test_the_labelled_tokens_decode_to_the_exact_answer_through_the_offsets(tokenizer):
    labels = prepare_train_features(tokenizer, [EXAMPLE], **WINDOW)
    features = prepare_eval_features(tokenizer, [EXAMPLE], **WINDOW)
    offsets = features["offset_mapping"][1]

    start, end = labels["start_positions"][1], labels["end_positions"][1]

    assert CONTEXT[offsets[start][0] : offsets[end][1]] == ANSWER


def test_eval_windows_keep_the_example_id_and_mask_all_but_the_context(tokenizer):
    features = prepare_eval_features(tokenizer, [EXAMPLE], **WINDOW)

    assert features["example_id"] == ["zola", "zola"]
    first = features["offset_mapping"][0]
    assert first[:7] == [None] * 7  # [CLS], the 5 question tokens, [SEP]
    assert first[-1] is None  # the closing [SEP]
    assert first[7:12] == [(0, 2), (3, 10), (11, 12), (13, 18), (19, 23)]  # le … zola
    assert CONTEXT[11:12] == "😀"
    assert "start_positions" not in features


def encode_windows(tokenizer, context: str):
    return tokenizer(
        [QUESTION],
        [context],
        truncation="only_second",
        return_overflowing_tokens=True,
        return_offsets_mapping=True,
        **WINDOW,
    )


def test_windows_that_stop_before_the_end_of_the_context_are_refused(tokenizer):
    # What tokenizers 0.23.1-0.23.2 return for long contexts: windows that end too early.
    # Here they are made by windowing the context cut after "Médan".
    short = encode_windows(tokenizer, CONTEXT[: CONTEXT.index("-sur")])

    with pytest.raises(RuntimeError, match=r"1 example\(s\), first 'zola'.*tokenizers#2091"):
        check_windows_cover_contexts(tokenizer, [EXAMPLE], short)


def test_windows_that_reach_the_end_of_the_context_pass_the_check(tokenizer):
    check_windows_cover_contexts(tokenizer, [EXAMPLE], encode_windows(tokenizer, CONTEXT))


# Hand-made window for the post-processing tests, over this context (character offsets):
#   Z0 o1 l2 a3 _4 😀5 _6 v7 … t12 _13 à14 _15 M16 é17 d18 a19 n20 .21
# tokens: [CLS] question [SEP] zola 😀 vivait à médan . [SEP]
SHORT_CONTEXT = "Zola 😀 vivait à Médan."
SHORT_OFFSETS = [None, None, None, (0, 4), (5, 6), (7, 13), (14, 15), (16, 21), (21, 22), None]


def logits(**scores: float) -> list[float]:
    """Return 10 logits, 0 except at the positions given as ``t<index>=score``."""
    row = [0.0] * len(SHORT_OFFSETS)
    for name, score in scores.items():
        row[int(name[1:])] = score
    return row


def short_example(example_id: str) -> dict:
    return {"id": example_id, "question": "?", "context": SHORT_CONTEXT, "answers": {}}


# Best starts: [CLS] (10, not context), médan (5), zola (4.5); best ends: [SEP] (10, not
# context), vivait (6), médan (5), "." (1). Médan → vivait scores 11 but ends before it starts;
# zola → vivait scores 4.5 + 6 = 10.5 (3 tokens), médan → médan 5 + 5 = 10, zola → médan 9.5.
START = logits(t0=10, t7=5, t3=4.5)
END = logits(t9=10, t5=6, t7=5, t8=1)


def test_postprocess_returns_the_best_valid_span_sliced_in_code_points():
    features = {"example_id": ["a"], "offset_mapping": [SHORT_OFFSETS]}

    predictions = postprocess_predictions([short_example("a")], features, [START], [END])

    assert predictions == {"a": "Zola 😀 vivait"}


def test_postprocess_skips_spans_longer_than_max_answer_tokens():
    features = {"example_id": ["a"], "offset_mapping": [SHORT_OFFSETS]}

    predictions = postprocess_predictions(
        [short_example("a")], features, [START], [END], max_answer_tokens=2
    )

    # Zola → vivait (3 tokens) is out; médan → médan (10) beats médan → "." (6).
    assert predictions == {"a": "Médan"}


def test_postprocess_gives_an_empty_answer_when_the_n_best_hold_no_valid_span():
    features = {"example_id": ["a"], "offset_mapping": [SHORT_OFFSETS]}

    # With n_best=1 the only pair is [CLS] → [SEP], outside the context.
    predictions = postprocess_predictions([short_example("a")], features, [START], [END], n_best=1)

    assert predictions == {"a": ""}


def test_postprocess_takes_the_best_span_over_all_windows_of_an_example():
    features = {
        "example_id": ["a", "a", "b"],
        "offset_mapping": [SHORT_OFFSETS, SHORT_OFFSETS, SHORT_OFFSETS],
    }
    padded = logits(t7=8) + [50.0, 50.0]  # batch padding past the window's tokens is ignored
    starts = [START, padded, logits(t0=1)]
    ends = [END, logits(t7=8, t8=3) + [50.0, 50.0], logits(t9=1)]

    predictions = postprocess_predictions(
        [short_example("a"), short_example("b")], features, starts, ends
    )

    # Window 2's médan → médan (16) beats window 1's best (10.5). "b" has no positive logit in
    # its context, so its best is the first pair of zeros found: zola → zola.
    assert predictions == {"a": "Médan", "b": "Zola"}


# SQuAD v2.0: the null answer.


def test_every_window_of_an_unanswerable_question_points_at_cls(tokenizer):
    unanswerable = {**EXAMPLE, "id": "none", "answers": {"text": [], "answer_start": []}}

    features = prepare_train_features(tokenizer, [unanswerable, EXAMPLE], **WINDOW)

    # Two windows each; the unanswerable question's both point at [CLS] (index 0), the
    # answerable one's second window holds the answer, as above.
    assert features["start_positions"] == [0, 0, 0, 16]
    assert features["end_positions"] == [0, 0, 0, 20]


def test_eval_windows_know_where_their_cls_token_is(tokenizer):
    features = prepare_eval_features(tokenizer, [EXAMPLE], **WINDOW)

    assert features["cls_index"] == [0, 0]


def test_the_null_score_is_the_lowest_cls_score_over_the_windows_minus_the_best_span():
    features = {
        "example_id": ["a", "a", "b"],
        "offset_mapping": [SHORT_OFFSETS, SHORT_OFFSETS, SHORT_OFFSETS],
        "cls_index": [0, 0, 0],
    }
    # "a": window 1's null is 10 + 0 = 10 (START has 10 at [CLS]), window 2's is 1 + 2 = 3:
    # the null score is 3; the best span is window 2's médan → médan, 8 + 8 = 16: 3 - 16.
    # "b": null 1 + 1 = 2; best span zola → zola, 0 + 0 (the first pair of zeros): 2 - 0.
    starts = [START, logits(t0=1, t7=8), logits(t0=1)]
    ends = [END, logits(t0=2, t7=8), logits(t0=1)]

    scored = postprocess_with_null([short_example("a"), short_example("b")], features, starts, ends)

    assert scored == {"a": ("Médan", -13.0), "b": ("Zola", 2.0)}


def test_no_valid_span_means_no_answer_whatever_the_threshold():
    features = {"example_id": ["a"], "offset_mapping": [SHORT_OFFSETS], "cls_index": [0]}

    scored = postprocess_with_null([short_example("a")], features, [START], [END], n_best=1)

    assert scored == {"a": ("", float("inf"))}


def test_a_tiny_model_trained_with_unanswerable_questions_gives_each_a_null_score():
    answerable = dict(EXAMPLE)
    unanswerable = {
        "id": "none",
        "question": "Qui était le peintre ?",
        "context": CONTEXT,
        "answers": {"text": [], "answer_start": []},
    }
    model, tokenizer = tiny_model_and_tokenizer([CONTEXT, QUESTION, unanswerable["question"]])
    config = TrainConfig(max_steps=4, batch_size=2, learning_rate=1e-3, device="cpu")

    summary = train(model, tokenizer, [answerable, unanswerable], config)
    scored = predict_with_null(model, tokenizer, [answerable, unanswerable], config)

    assert summary["steps"] == 4
    assert set(scored) == {"zola", "none"}
    for text, difference in scored.values():
        assert text in CONTEXT and text  # a span of the context, never empty here
        assert isinstance(difference, float) and difference == difference  # not NaN
    assert predict(model, tokenizer, [answerable], config) == {"zola": scored["zola"][0]}


def load_piaf_examples(count: int) -> list[dict]:
    """Return the first ``count`` PIAF questions as SQuAD-style examples."""
    require_file(PIAF_PATH)
    examples = []
    for article in json.loads(PIAF_PATH.read_text(encoding="utf-8"))["data"]:
        for paragraph in article["paragraphs"]:
            for qa in paragraph["qas"]:
                answer = qa["answers"][0]
                examples.append(
                    {
                        "id": str(qa["id"]),
                        "question": qa["question"],
                        "context": paragraph["context"],
                        "answers": {
                            "text": [answer["text"]],
                            "answer_start": [answer["answer_start"]],
                        },
                    }
                )
                if len(examples) == count:
                    return examples
    return examples


@pytest.fixture(scope="module")
def piaf_examples():
    return load_piaf_examples(20)


@pytest.fixture(scope="module")
def trained(piaf_examples):
    """Train a tiny model for 20 steps of 4 windows on 20 real PIAF questions, on the CPU."""
    texts = [e["context"] for e in piaf_examples] + [e["question"] for e in piaf_examples]
    model, tokenizer = tiny_model_and_tokenizer(texts, vocab_size=2000)
    # A random model learns nothing in 20 steps at the paper's 3e-5: a larger rate shows the
    # loop really optimises.
    config = TrainConfig(max_steps=20, batch_size=4, learning_rate=1e-3, device="cpu", log_every=5)
    reports = []
    summary = train(model, tokenizer, piaf_examples, config, progress=reports.append)
    return model, tokenizer, config, summary, reports


def test_training_a_tiny_model_on_piaf_lowers_its_loss(trained):
    _, _, _, summary, reports = trained

    assert summary["steps"] == 20
    assert summary["sequences"] == 80
    assert summary["final_loss"] < summary["first_loss"]
    assert [r.step for r in reports] == [5, 10, 15, 20]
    assert all(r.total_steps == 20 and r.sequences_per_second > 0 for r in reports)


def test_predict_answers_every_question_with_a_string(trained, piaf_examples):
    model, tokenizer, config, _, _ = trained

    predictions = predict(model, tokenizer, piaf_examples, config)

    assert set(predictions) == {e["id"] for e in piaf_examples}
    assert all(isinstance(answer, str) for answer in predictions.values())
    contexts = {e["id"]: e["context"] for e in piaf_examples}
    assert all(answer in contexts[i] for i, answer in predictions.items())


def test_a_checkpoint_round_trip_writes_safetensors_only_and_keeps_the_logits(trained, tmp_path):
    model, tokenizer, _, _, _ = trained
    inputs = tokenizer("Où est la maison ?", "La maison est à Médan.", return_tensors="pt")
    model.eval()
    with torch.inference_mode():
        before = model(**inputs)

    save_checkpoint(model, tokenizer, tmp_path / "ckpt")
    loaded, loaded_tokenizer = load_checkpoint(tmp_path / "ckpt")

    files = sorted(p.name for p in (tmp_path / "ckpt").iterdir())
    assert [f for f in files if f.endswith((".safetensors", ".bin", ".pt", ".pth"))] == [
        "model.safetensors"
    ]
    reloaded_inputs = loaded_tokenizer(
        "Où est la maison ?", "La maison est à Médan.", return_tensors="pt"
    )
    assert torch.equal(reloaded_inputs["input_ids"], inputs["input_ids"])
    loaded.eval()
    with torch.inference_mode():
        after = loaded(**reloaded_inputs)
    assert torch.equal(after.start_logits, before.start_logits)
    assert torch.equal(after.end_logits, before.end_logits)


def test_loading_a_missing_checkpoint_fails_without_asking_a_hub(tmp_path):
    with pytest.raises(FileNotFoundError, match="config.json is missing"):
        load_checkpoint(tmp_path / "nothing-here")
