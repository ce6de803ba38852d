"""SQuAD v1.1's metrics: EM and F1 of one answer, a dataset's scores, human performance."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from evaluation.metrics.normalizations import FQUAD_FR, HUMAN_ANSWERS, SQUAD_EN, Normalization

Metric = Callable[[str, str, Normalization], float]


def exact_match(prediction: str, truth: str, norm: Normalization = SQUAD_EN) -> float:
    """Return 1.0 when both answers normalize to the same text, else 0.0."""
    return float(norm.normalize(prediction) == norm.normalize(truth))


def f1(prediction: str, truth: str, norm: Normalization = SQUAD_EN) -> float:
    """Return the F1 of the token multisets (0.0 when no token is shared, even both empty)."""
    return _tokens_f1(norm.tokens(prediction), norm.tokens(truth))


def best_over(
    metric: Metric, prediction: str, truths: Sequence[str], norm: Normalization = SQUAD_EN
) -> float:
    """Return the metric's best value over the ground truths; ValueError when there are none."""
    if not truths:
        raise ValueError("no ground-truth answer to compare the prediction with")
    return max(metric(prediction, truth, norm) for truth in truths)


def score(
    dataset: Mapping[str, Sequence[str]],
    predictions: Mapping[str, str],
    norm: Normalization = SQUAD_EN,
) -> dict:
    """Score predictions {question id: answer} against dataset {question id: [answers]}.

    Return {"exact_match", "f1"} in percent (100 × the mean over the dataset's questions, as the
    official script prints them), "total" questions and "missing" predictions, which score 0.
    Raise ValueError for an empty dataset or a question without any answer.
    """
    if not dataset:
        raise ValueError("the dataset has no questions to score")
    exact_total = f1_total = 0.0
    missing = 0
    for question_id, truths in dataset.items():
        if not truths:
            raise ValueError(f"question {question_id!r} has no ground-truth answer")
        if question_id not in predictions:
            missing += 1
            continue
        exact, overlap = _best_scores(
            norm.tokens(predictions[question_id]), [norm.tokens(truth) for truth in truths]
        )
        exact_total += exact
        f1_total += overlap
    total = len(dataset)
    return {
        "exact_match": 100.0 * exact_total / total,
        "f1": 100.0 * f1_total / total,
        "total": total,
        "missing": missing,
    }


def human_performance(answer_sets: Sequence[Sequence[str]], norm: Normalization = FQUAD_FR) -> dict:
    """Return FQuAD's human performance over questions with exactly three answers.

    Each answer in turn is the prediction and the two others the ground truth (best over
    them); a question scores the mean of its three runs, the result the mean over questions:
    {"exact_match", "f1"} in percent, "questions" scored, and "skipped", the questions with any
    other number of answers (more than three too: the paper's figure is defined on three).
    With no question to score, exact_match and f1 are None rather than a misleading 0.
    """
    exact_total = f1_total = 0.0
    questions = skipped = 0
    for answers in answer_sets:
        if len(answers) != HUMAN_ANSWERS:
            skipped += 1
            continue
        exact, overlap = _leave_one_out([norm.tokens(answer) for answer in answers])
        exact_total += exact
        f1_total += overlap
        questions += 1
    if questions == 0:
        return {"exact_match": None, "f1": None, "questions": 0, "skipped": skipped}
    return {
        "exact_match": 100.0 * exact_total / questions,
        "f1": 100.0 * f1_total / questions,
        "questions": questions,
        "skipped": skipped,
    }


def leave_one_out(
    answers: Sequence[str], norm: Normalization = FQUAD_FR
) -> list[tuple[float, float]]:
    """Return, for each answer in turn, its (EM, F1) as the prediction against all the others.

    Values are 0 or 1 for EM and in [0, 1] for F1 (not percent): the per-answer figures that
    human performance averages, kept apart so they can be grouped by annotator.
    """
    if len(answers) < 2:
        raise ValueError("leave-one-out needs at least two answers")
    tokens = [norm.tokens(answer) for answer in answers]
    return [
        _best_scores(predicted, [*tokens[:i], *tokens[i + 1 :]])
        for i, predicted in enumerate(tokens)
    ]


def _leave_one_out(answers: Sequence[list[str]]) -> tuple[float, float]:
    """Return the mean best EM and F1 of each tokenized answer against all the others."""
    exact_total = f1_total = 0.0
    for i, predicted in enumerate(answers):
        exact, overlap = _best_scores(predicted, [*answers[:i], *answers[i + 1 :]])
        exact_total += exact
        f1_total += overlap
    return exact_total / len(answers), f1_total / len(answers)


def _best_scores(predicted: list[str], truths: Sequence[list[str]]) -> tuple[float, float]:
    """Return the best exact match and the best F1 of tokenized answers.

    What best_over(exact_match, …) and best_over(f1, …) give, with each answer normalized once
    instead of once per pair and metric: equal token lists are equal normalized texts, since
    the normalized text is the tokens joined by spaces and no token holds a space.
    """
    exact = overlap = 0.0
    for expected in truths:
        if predicted == expected:
            exact = 1.0
        value = _tokens_f1(predicted, expected)
        if value > overlap:
            overlap = value
    return exact, overlap


def _tokens_f1(predicted: list[str], expected: list[str]) -> float:
    """Return the F1 of two token lists, with the official script's arithmetic.

    The shared tokens are counted as the official script's ``Counter(...) & Counter(...)``
    does (the size of the multiset intersection), with a plain dict: building three Counters
    per pair was half the time of ``score``. Equal non-empty lists give exactly 1.0, as the
    formula does (P = R = 1.0, 2·1·1 / 2).
    """
    if not predicted or not expected:
        return 0.0
    if predicted == expected:
        return 1.0
    remaining: dict[str, int] = {}
    for token in predicted:
        remaining[token] = remaining.get(token, 0) + 1
    common = 0
    for token in expected:
        left = remaining.get(token)
        if left:
            remaining[token] = left - 1
            common += 1
    if common == 0:
        return 0.0
    # Kept step by step so results agree with the official script to the last binary digit
    # (2 * common / (len(predicted) + len(expected)) is equal in theory, not always in floats).
    precision = common / len(predicted)
    recall = common / len(expected)
    return (2 * precision * recall) / (precision + recall)
