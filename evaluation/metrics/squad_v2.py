"""SQuAD v2.0's metrics: unanswerable questions, best thresholds, the no-answer
classification.

The official rules (`score_v2`): the gold answers are those whose normalized text is not empty,
else [""]; EM is the equality of the normalized texts; F1 is 1 when both sides have no token, 0
when only one has none, else the v1.1 F1; a question whose na_prob is above na_prob_thresh is
taken as answered "" (scores 1 when unanswerable, else 0); best_* sweep the thresholds in the
order of the sorted na_probs (official find_best_thresh). Where we differ, the official script
crashing or miscounting: a missing prediction scores 0 everywhere and counts in every total
(the official drops it from the total, then fails on HasAns/NoAns). Raise ValueError for an
empty dataset, or na_probs without a question that has a prediction.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from evaluation.metrics.normalizations import FQUAD_FR, SQUAD_EN, Normalization
from evaluation.metrics.squad import _tokens_f1


def score_v2(
    dataset: Mapping[str, Sequence[str]],
    predictions: Mapping[str, str],
    na_probs: Mapping[str, float] | None = None,
    norm: Normalization = SQUAD_EN,
    na_prob_thresh: float = 1.0,
) -> dict:
    """Score predictions the SQuAD v2.0 way, as the official ``evaluate-v2.0.py`` computes it.

    dataset: {question id: gold answer texts}; [] (or only answers that normalize to "") is a
    question whose only right answer is "" (no answer). predictions: {id: text}, "" = no answer.
    na_probs: {id: probability that the question has no answer}, optional.

    Returns, in percent, "exact", "f1", "total", then "HasAns_exact", "HasAns_f1",
    "HasAns_total" and "NoAns_exact", "NoAns_f1", "NoAns_total" (each group only when it has
    questions; HasAns = a non-empty gold list, as the official make_qid_to_has_ans), and with
    na_probs "best_exact", "best_exact_thresh", "best_f1", "best_f1_thresh"; plus our
    "missing", the questions without a prediction.
    See the module's docstring for the official rules and where we differ.
    """
    if not dataset:
        raise ValueError("the dataset has no questions to score")
    exact_raw, f1_raw, has_ans = _raw_scores_v2(dataset, predictions, norm)
    _check_na_probs(exact_raw, na_probs)
    exact_final, f1_final = _thresholded(exact_raw, f1_raw, has_ans, na_probs, na_prob_thresh)
    result = _eval_dict(dataset, exact_final, f1_final, "")
    result |= _groups_v2(has_ans, exact_final, f1_final)
    if na_probs is not None:
        total = len(dataset)
        result["best_exact"], result["best_exact_thresh"] = _best_threshold(
            predictions, exact_raw, na_probs, has_ans, total
        )
        result["best_f1"], result["best_f1_thresh"] = _best_threshold(
            predictions, f1_raw, na_probs, has_ans, total
        )
    result["missing"] = len(dataset) - len(exact_raw)
    return result


def _raw_scores_v2(dataset, predictions, norm: Normalization) -> tuple[dict, dict, dict]:
    """Return (EM, F1, has an answer) by question id; EM and F1 only where there is a
    prediction."""
    exact_raw: dict[str, float] = {}
    f1_raw: dict[str, float] = {}
    has_ans: dict[str, bool] = {}
    for question_id, truths in dataset.items():
        has_ans[question_id] = bool(truths)
        prediction = predictions.get(question_id)
        if prediction is None:
            continue
        gold = _gold_tokens_v2(truths, norm)
        exact_raw[question_id], f1_raw[question_id] = _best_scores_v2(norm.tokens(prediction), gold)
    return exact_raw, f1_raw, has_ans


def _check_na_probs(exact_raw: dict, na_probs) -> None:
    """Raise ValueError where na_probs lacks a question that has a prediction."""
    if na_probs is not None:
        absent = [question_id for question_id in exact_raw if question_id not in na_probs]
        if absent:
            raise ValueError(
                f"na_probs has no probability for {len(absent)} question(s) with a "
                f"prediction, e.g. {absent[0]!r}"
            )


def _thresholded(exact_raw, f1_raw, has_ans, na_probs, na_prob_thresh) -> tuple[dict, dict]:
    """Return (EM, F1) once a question whose na_prob is above the threshold is answered ""."""
    if not (na_probs is not None or na_prob_thresh < 0.0):
        return exact_raw, f1_raw
    # The official script gives every question the na_prob 0.0 without an na_prob file
    exact_final, f1_final = {}, {}
    for question_id, exact in exact_raw.items():
        probability = na_probs[question_id] if na_probs is not None else 0.0
        if probability > na_prob_thresh:
            exact_final[question_id] = f1_final[question_id] = float(not has_ans[question_id])
        else:
            exact_final[question_id] = exact
            f1_final[question_id] = f1_raw[question_id]
    return exact_final, f1_final


def _groups_v2(has_ans: dict, exact: dict, overlap: dict) -> dict:
    """Return the HasAns_* and NoAns_* figures, each group only when it has questions."""
    result = {}
    answerable = [question_id for question_id, has in has_ans.items() if has]
    unanswerable = [question_id for question_id, has in has_ans.items() if not has]
    if answerable:
        result |= _eval_dict(answerable, exact, overlap, "HasAns_")
    if unanswerable:
        result |= _eval_dict(unanswerable, exact, overlap, "NoAns_")
    return result


def _eval_dict(question_ids, exact: dict, overlap: dict, prefix: str) -> dict:
    """Return {prefix+exact, prefix+f1, prefix+total}: the official make_eval_dict.

    sum() over the questions in dataset order, as the official script sums, so that the
    figures are the official ones to the last bit; a missing question adds 0.
    """
    total = len(question_ids)
    return {
        f"{prefix}exact": 100.0 * sum(exact.get(key, 0.0) for key in question_ids) / total,
        f"{prefix}f1": 100.0 * sum(overlap.get(key, 0.0) for key in question_ids) / total,
        f"{prefix}total": total,
    }


def _best_threshold(
    predictions: Mapping[str, str],
    scores: Mapping[str, float],
    na_probs: Mapping[str, float],
    has_ans: Mapping[str, bool],
    total: int,
) -> tuple[float, float]:
    """Return the best score over the no-answer thresholds and the threshold giving it.

    The official find_best_thresh: start with every question answered "" (the unanswerable
    ones right), then take the questions by increasing na_prob (ties in na_probs' order, as a
    stable sort leaves them) and answer each: an answerable one gains its score, an
    unanswerable one loses 1 if its prediction is not the empty string (the raw string, as
    the official script tests it). The first strictly best running score wins; 0.0 is the
    threshold when answering nothing is best. Questions without a prediction are not swept
    and score 0 (the official script counts its unanswerable ones right at the start).
    """
    current = sum(1 for key in scores if not has_ans[key])
    best, best_thresh = current, 0.0
    for key in sorted((key for key in na_probs if key in scores), key=na_probs.__getitem__):
        if has_ans[key]:
            current += scores[key]
        elif predictions[key]:
            current += -1
        if current > best:
            best, best_thresh = current, na_probs[key]
    return 100.0 * best / total, best_thresh


def _gold_tokens_v2(truths: Sequence[str], norm: Normalization) -> list[list[str]]:
    """The truths with a token once normalized; none (unanswerable): the empty answer alone."""
    return [tokens for truth in truths if (tokens := norm.tokens(truth))] or [[]]


def f1_v2(prediction: str, truths: Sequence[str], norm: Normalization = SQUAD_EN) -> float:
    """Return the SQuAD v2.0 F1 (0 to 1) of one prediction ("" = no answer) against its truths
    ([] = unanswerable): the best over them, as `score_v2` counts it."""
    return _best_scores_v2(norm.tokens(prediction), _gold_tokens_v2(truths, norm))[1]


def _best_scores_v2(predicted: list[str], truths: Sequence[list[str]]) -> tuple[float, float]:
    """Return the best EM and the best v2.0 F1 of tokenized answers (truths never empty).

    v2.0's F1: when either side has no token, 1.0 if both have none, else 0.0.
    """
    overlap = 0.0
    for expected in truths:
        if predicted == expected:  # EM 1, and F1 1 (both empty, or the same tokens)
            return 1.0, 1.0
        if predicted and expected:
            value = _tokens_f1(predicted, expected)
            if value > overlap:
                overlap = value
    return 0.0, overlap


def leave_one_out_v2(
    answers: Sequence[str], norm: Normalization = FQUAD_FR
) -> list[tuple[float, float]]:
    """Return, for each judgment in turn, its (EM, F1) against the others with v2.0's rules.

    A judgment is an answer text, or "" for "no answer". The others are the gold: those with a
    token once normalized, else [""] (SQuAD 2.0's human performance). Values in [0, 1].
    """
    if len(answers) < 2:
        raise ValueError("leave-one-out needs at least two answers")
    tokens = [norm.tokens(answer) for answer in answers]
    return [
        _best_scores_v2(predicted, [t for t in (*tokens[:i], *tokens[i + 1 :]) if t] or [[]])
        for i, predicted in enumerate(tokens)
    ]


def no_answer_classification(
    dataset: Mapping[str, Sequence[str]],
    predictions: Mapping[str, str],
    norm: Normalization = SQUAD_EN,
) -> dict:
    """Return how well predictions tell answerable from unanswerable questions (FQuAD 2.0).

    The positive class is "unanswerable": a question is unanswerable when none of its gold
    answers has a token once normalized (an empty list included), a prediction says "no
    answer" when it has no token (""), exactly the cases v2.0's EM scores as "no answer".
    Returns "precision", "recall" and "f1" in percent (None where 0/0: no predicted, no gold
    or no positive at all), the four counts, and "missing", the questions without a
    prediction, which are left out of the counts. F1 is 2·TP / (2·TP + FP + FN), equal to
    2PR / (P + R) and 0 (not None) when there are positives but none found.
    """
    counts = _no_answer_counts(dataset, predictions, norm)
    true_positives, false_positives = counts["true_positives"], counts["false_positives"]
    false_negatives = counts["false_negatives"]
    predicted = true_positives + false_positives
    actual = true_positives + false_negatives
    both = 2 * true_positives + false_positives + false_negatives
    return {
        "precision": 100.0 * true_positives / predicted if predicted else None,
        "recall": 100.0 * true_positives / actual if actual else None,
        "f1": 100.0 * 2 * true_positives / both if both else None,
        "true_positives": true_positives,
        "false_positives": false_positives,
        "false_negatives": false_negatives,
        "true_negatives": counts["true_negatives"],
        "missing": counts["missing"],
    }


def _no_answer_counts(dataset, predictions, norm: Normalization) -> Counter:
    """Return the four cells of the table (unanswerable, said "no answer") and "missing"."""
    counts: Counter = Counter()
    for question_id, truths in dataset.items():
        prediction = predictions.get(question_id)
        if prediction is None:
            counts["missing"] += 1
            continue
        unanswerable = not any(norm.tokens(truth) for truth in truths)
        says_no_answer = not norm.tokens(prediction)
        if unanswerable and says_no_answer:
            counts["true_positives"] += 1
        elif says_no_answer:
            counts["false_positives"] += 1
        elif unanswerable:
            counts["false_negatives"] += 1
        else:
            counts["true_negatives"] += 1
    return counts
