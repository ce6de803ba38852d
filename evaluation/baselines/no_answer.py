"""The no-answer threshold of a SQuAD v2.0 baseline, learnt on dev.

A baseline that can say "no answer" gives each question its best span and a no-answer score
(higher: more likely unanswerable): the null score minus the best span's score for a
transformer, as BERT's SQuAD 2.0 recipe does; for the sliding window, minus the weight of the
question's words in the chosen span's best window. It answers "" where the no-answer score is
above a threshold, the official v2.0 script's rule (`na_prob > na_prob_thresh`), and the
threshold is the one that gives the best F1 on dev, then used as it is on test.

The sweep is exact, not the official script's `find_best_thresh` copied: questions are taken by
no-answer score, lowest first, and a group of questions with equal scores moves as one (the
official loop may stop inside a tie, at a threshold that, once applied, answers the whole tie);
abstaining on every question is a candidate too (threshold None). Between equal F1s, the
higher bar wins, as in the official loop (only a strictly better F1 moves it). Per question,
F1 is the v2.0 one: an empty text against an empty one scores 1, against a non-empty one 0.

Pure: no Django, only the metrics' normalizations.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from itertools import groupby

from evaluation.metrics import Normalization, f1_v2


def best_threshold(
    gold: Mapping[str, Sequence[str]],
    answers: Mapping[str, str],
    no_answer_scores: Mapping[str, float],
    norm: Normalization,
) -> tuple[float | None, float]:
    """Return (threshold, F1 in %) of the bar that maximizes F1 over gold's questions.

    `answers` are the best spans (never thresholded yet), `no_answer_scores` their no-answer
    scores; a question is answered when its score is at most the threshold, else "". None
    means "answer nothing". A question of gold without an answer or a finite score counts
    as abstaining whatever the threshold.
    """
    if not gold:
        raise ValueError("no question to learn a no-answer threshold on")
    total = 0.0
    gains = []
    for qid, truths in gold.items():
        abstain = f1_v2("", truths, norm)
        total += abstain
        score = no_answer_scores.get(qid, math.inf)
        if qid in answers and math.isfinite(score):
            gains.append((score, f1_v2(answers[qid], truths, norm) - abstain))
    gains.sort(key=lambda item: item[0])
    best, threshold = total, None
    for score, group in groupby(gains, key=lambda item: item[0]):
        total += sum(gain for _score, gain in group)
        if total > best + 1e-12:  # strictly better only (a float sum's last bit is no gain)
            best, threshold = total, score
    return threshold, 100.0 * best / len(gold)


def apply_threshold(
    answers: Mapping[str, str], no_answer_scores: Mapping[str, float], threshold: float | None
) -> dict[str, str]:
    """Return {id: answer}, "" where the no-answer score is above the threshold (None: all)."""
    return {
        qid: text
        if threshold is not None and no_answer_scores.get(qid, math.inf) <= threshold
        else ""
        for qid, text in answers.items()
    }
