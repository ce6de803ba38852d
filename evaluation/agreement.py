"""Agreement between two labellings of the same items: raw share and Cohen's κ.

Used to compare the answer types of `evaluation.services.analysis.answer_types` with hand labels
(tests/evaluation/test_answer_type_agreement.py, docs/answer-types.md). Pure: stdlib only.

Cohen's κ (Cohen, "A Coefficient of Agreement for Nominal Scales", Educational and
Psychological Measurement, 1960) corrects the observed agreement p_o for the agreement p_e
that two labellers would reach by chance with the same label frequencies:
κ = (p_o − p_e) / (1 − p_e), with p_e = Σ_k (a_k / n)(b_k / n), a_k and b_k the number of
items each labelling puts in category k. It is computed here from integer counts,
κ = (n·agreeing − Σ_k a_k b_k) / (n² − Σ_k a_k b_k), so that a table with a round κ gives
that float exactly.
"""

from collections import Counter
from collections.abc import Hashable, Sequence


def cohen_kappa(first: Sequence[Hashable], second: Sequence[Hashable]) -> float:
    """Return Cohen's κ between two labellings of the same items, in the same order.

    1.0 is perfect agreement, 0.0 agreement no better than chance, below 0 worse. Raise
    ValueError when the labellings differ in length or are empty, and when κ is undefined:
    both put every item in one and the same category (chance then explains everything).
    """
    if len(first) != len(second):
        raise ValueError(f"labellings of {len(first)} and {len(second)} items: give the same items")
    n = len(first)
    if n == 0:
        raise ValueError("no items: κ needs at least one labelled item")
    agreeing = sum(a == b for a, b in zip(first, second, strict=True))
    counts_first, counts_second = Counter(first), Counter(second)
    chance = sum(counts_first[kind] * counts_second[kind] for kind in counts_first)
    if chance == n * n:
        raise ValueError("κ is undefined: both labellings put every item in one category")
    return (n * agreeing - chance) / (n * n - chance)
