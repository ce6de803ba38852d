"""Choose which of an annotator's questions go to review, at a steady rate per annotator.

FQuAD reviewers audit about a quarter of *each* annotator's questions. This module decides, one
question at a time, whether an annotator's next question is sampled. It is pure (standard
library only, no Django): the decision is a function of the annotator's two counters and the
campaign's settings, so any process can make it, and anyone can recompute it later.

The guarantee
-------------
Let p be the rate as an exact fraction (``as_fraction``: Fractions and Decimals are taken
exactly, a float as the closest fraction with a denominator of at most 1000, so 0.25 is 1/4)
and S(n) the number of the annotator's first n questions that were sampled. Then

    floor(p·n) <= S(n) <= ceil(p·n)    for every n >= 0,                              (I)

so |S(n) − p·n| < 1 after every question, and S(n) = p·n exactly whenever p·n is a whole
number: at 0.25, 8 questions give exactly 2 samples and every block of 4 exactly one.

The scheme: a Markov chain on the counter, with a seeded draw
-------------------------------------------------------------
To decide question n+1 from (n, S(n)), with lo = floor(p·(n+1)) and hi = ceil(p·(n+1)):

* S(n+1) may only be a value of {S(n), S(n)+1} that lies in [lo, hi];
* if only one is, it is taken: the question is forced in, or forced out;
* if both are, the question is picked with the probability q of ``pick_chance``, where
  f = p·n − floor(p·n) is how far p·n is past a whole number:

      q = p / (1 − f)        when S(n) = floor(p·n)       (the counter is not ahead)
      q = (f + p − 1) / f    when S(n) = floor(p·n) + 1   (the counter is one ahead)

  and the draw is ``random.Random(blake2b(f"{seed}:{key}:{n+1}"))``, never the global
  generator: the same (seed, key, position) always draws the same number, and two keys (two
  annotators) or two seeds draw unrelated ones. The draw compares integers (``randrange``
  against q's numerator and denominator), so no float rounding enters.

Why (I) holds. S(0) = 0 satisfies it. Suppose it holds at n. Because 0 <= p <= 1,
lo <= floor(p·n) + 1 <= S(n) + 1 and hi >= ceil(p·n) >= S(n). If S(n) >= lo, S(n) is allowed;
otherwise lo = S(n) + 1 <= hi and S(n) + 1 is. So the allowed set is never empty, and whatever
is chosen from it satisfies (I) at n+1.

Why every question has the same chance, p. Take the draws as independent and uniform (what a
good hash gives for distinct positions, keys and seeds). Write L = floor(p·n), f as above and
L', f' for n+1; we show P(S(n) = L + 1) = f by induction (true at n = 0). As p <= 1, L' is L
or L + 1.

* L' = L, so f' = f + p < 1. From L + 1 the only allowed value is L + 1 (L + 2 > hi); from L
  the counter rises with q = p / (1 − f). So P(S(n+1) = L + 1) = f + (1 − f)·q = f + p = f'.
* L' = L + 1, so f' = f + p − 1 >= 0. From L the counter is forced up to L'; from L + 1 it rises
  with q = f' / f (forced to stay when f' = 0). So P(S(n+1) = L' + 1) = f·f'/f = f'.

Hence E[S(n)] = p·n for every n, and P(question n is sampled) = E[S(n)] − E[S(n−1)] = p for
every position n: no position is favoured (no "always the 4th"), and when p > 0 every position
can be picked. Where both values are allowed, 0 < q < 1, so the draw really decides. At 1/4
this is the same as picking one question uniformly in each block of 4; at 2/5, where the
blocks of a uniform-per-window scheme would overlap, q keeps every position at exactly 2/5.

The warm-up
-----------
With ``warmup = w`` the annotator's first w questions are sampled at ``warmup_rate`` r (default
1: review all of a new annotator's first questions) and the rest at ``rate`` p, the counting
starting again after the warm-up:

    floor(r·n) <= S(n) <= ceil(r·n)                      for n <= w,
    floor(p·m) <= S(w + m) − S(w) <= ceil(p·m)           for m >= 0.

S(w) is recomputed from (key, seed) by replaying the warm-up (``sample_sequence``), so the
decision still depends only on the counters and the settings. The draws keep using the absolute
position n+1, so the warm-up and the rest never share a draw.
"""

from __future__ import annotations

import hashlib
import math
import random
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from typing import NamedTuple

Rate = Fraction | Decimal | float | int

FLOAT_MAX_DENOMINATOR = 1000


class _Phase(NamedTuple):
    """The rate and the counters that apply to the next question, relative to its phase."""

    rate: Fraction
    seen: int
    sampled: int


# The fractions of the rates seen so far, by (type, value): a submission decides several
# questions at the campaign's one or two rates, and `Fraction(Decimal)` is the slow part.
_EXACT: dict[tuple[type, Rate], Fraction] = {}
_EXACT_MAX = 1024


def as_fraction(rate: Rate, *, name: str = "rate") -> Fraction:
    """Return `rate` as an exact fraction in [0, 1]; a float as the nearest n/d with d <= 1000."""
    try:
        return _EXACT[type(rate), rate]
    except (KeyError, TypeError):  # not seen yet, or not hashable (a signalling NaN)
        pass
    exact = _as_fraction(rate, name=name)
    if len(_EXACT) < _EXACT_MAX:
        _EXACT[type(rate), rate] = exact
    return exact


def _as_fraction(rate: Rate, *, name: str) -> Fraction:
    if isinstance(rate, bool) or not isinstance(rate, Fraction | Decimal | float | int):
        raise TypeError(f"{name} must be a Fraction, Decimal, float or int, not {rate!r}")
    try:
        exact = Fraction(rate)
    except (ValueError, OverflowError):
        raise ValueError(f"{name} must be a finite number between 0 and 1, not {rate!r}") from None
    if isinstance(rate, float):
        exact = exact.limit_denominator(FLOAT_MAX_DENOMINATOR)
    if not 0 <= exact <= 1:
        raise ValueError(f"{name} must be between 0 and 1 (0 % to 100 %), not {rate!r}")
    return exact


def allowed_band(*, count: int, rate: Rate) -> tuple[int, int]:
    """Return the (lowest, highest) number of samples allowed among `count` questions."""
    p = as_fraction(rate)
    if isinstance(count, int):
        return _band(count, p.numerator, p.denominator)
    exact = p * count
    return math.floor(exact), math.ceil(exact)


def _band(count: int, n: int, d: int) -> tuple[int, int]:
    """floor and ceil of n·count/d, in integers (what `allowed_band` computes with Fractions)."""
    scaled = n * count
    return scaled // d, -(-scaled // d)


def pick_chance(*, seen: int, sampled: int, rate: Rate) -> Fraction:
    """Return the probability that question seen+1 is sampled, after `sampled` of `seen`.

    0 or 1 when the invariant forces the answer, strictly between otherwise (module docstring).
    """
    return Fraction(*_chance(seen=seen, sampled=sampled, p=as_fraction(rate)))


def _chance(*, seen: int, sampled: int, p: Fraction) -> tuple[int, int]:
    """`pick_chance` as (numerator, denominator) in lowest terms, computed in integers: with
    p = n/d and r = n·seen − d·floor(p·seen) (so the part past a whole number is r/d), the
    module docstring's q = p / (1 − f) is n / (d − r), and (f + p − 1) / f is (r + n − d) / r."""
    _check_counts(seen=seen, sampled=sampled)
    _check_band(seen=seen, sampled=sampled, rate=p)
    n, d = p.numerator, p.denominator
    next_low, next_high = _band(seen + 1, n, d)
    if sampled + 1 > next_high:
        return 0, 1
    if sampled < next_low:
        return 1, 1
    low, behind = divmod(n * seen, d)
    top, bottom = (n, d - behind) if sampled == low else (behind + n - d, behind)
    common = math.gcd(top, bottom)
    return top // common, bottom // common


def should_sample(
    *,
    seen: int,
    sampled: int,
    rate: Rate,
    key: str,
    seed: int,
    warmup: int = 0,
    warmup_rate: Rate | None = None,
) -> bool:
    """Return whether the annotator's next question, their (seen+1)-th, goes to review.

    `seen` questions of this annotator were already decided and `sampled` of them chosen; `key`
    is the annotator's stable id (e.g. "user:42") and `seed` the campaign's. Raise ValueError
    when a rate is outside [0, 1] or the counters cannot have come from this sampler.
    """
    _check_identity(key=key, seed=seed)
    phase = _phase(
        seen=seen,
        sampled=sampled,
        rate=rate,
        key=key,
        seed=seed,
        warmup=warmup,
        warmup_rate=warmup_rate,
    )
    top, bottom = _chance(seen=phase.seen, sampled=phase.sampled, p=phase.rate)
    if top in (0, bottom):  # forced: 0 or 1
        return top == bottom
    return _draw_ratio(top, bottom, key=key, seed=seed, position=seen + 1)


def sample_sequence(
    n: int,
    *,
    rate: Rate,
    key: str,
    seed: int,
    warmup: int = 0,
    warmup_rate: Rate | None = None,
) -> list[bool]:
    """Return the decisions for an annotator's first `n` questions, in order."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ValueError(f"n must be a whole number >= 0, not {n!r}")
    decisions: list[bool] = []
    sampled = 0
    settings = dict(rate=rate, key=key, seed=seed, warmup=warmup, warmup_rate=warmup_rate)
    for seen in range(n):
        picked = should_sample(seen=seen, sampled=sampled, **settings)
        decisions.append(picked)
        sampled += picked
    return decisions


def _phase(
    *, seen: int, sampled: int, rate: Rate, key: str, seed: int, warmup: int, warmup_rate
) -> _Phase:
    """Return the rate and counters of the phase (warm-up or not) that question seen+1 is in."""
    p = as_fraction(rate)
    if isinstance(warmup, bool) or not isinstance(warmup, int) or warmup < 0:
        raise ValueError(f"warmup must be a whole number of questions >= 0, not {warmup!r}")
    r = Fraction(1) if warmup_rate is None else as_fraction(warmup_rate, name="warmup_rate")
    _check_counts(seen=seen, sampled=sampled)
    if seen < warmup:
        return _Phase(rate=r, seen=seen, sampled=sampled)
    before = _warmup_total(warmup=warmup, warmup_rate=r, key=key, seed=seed)
    if warmup:
        detail = f"{before} in the {warmup}-question warm-up at rate {r}, then rate {p}"
        _check_band(
            seen=seen - warmup,
            sampled=sampled - before,
            rate=p,
            shift=(warmup, before),
            detail=detail,
        )
    return _Phase(rate=p, seen=seen - warmup, sampled=sampled - before)


@lru_cache(maxsize=4096)
def _warmup_total(*, warmup: int, warmup_rate: Fraction, key: str, seed: int) -> int:
    """Return how many of the warm-up questions were sampled, by replaying them."""
    return sum(sample_sequence(warmup, rate=warmup_rate, key=key, seed=seed))


def _draw(chance: Fraction, *, key: str, seed: int, position: int) -> bool:
    """Return True with probability `chance`, reproducibly for (seed, key, position)."""
    return _draw_ratio(chance.numerator, chance.denominator, key=key, seed=seed, position=position)


def _draw_ratio(numerator: int, denominator: int, *, key: str, seed: int, position: int) -> bool:
    """`_draw` of numerator/denominator in lowest terms (a Fraction's own)."""
    digest = hashlib.blake2b(f"{seed}:{key}:{position}".encode(), digest_size=16).digest()
    # A private generator seeded from the hash: reproducible, and never the global one. Audit
    # sampling needs fairness, not secrecy, so the Mersenne Twister is the right tool.
    rng = random.Random(int.from_bytes(digest, "big"))  # noqa: S311
    return rng.randrange(denominator) < numerator


def _check_counts(*, seen: int, sampled: int) -> None:
    """Raise ValueError unless 0 <= sampled <= seen, both whole numbers."""
    for name, value in (("seen", seen), ("sampled", sampled)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"{name} must be a whole number, not {value!r}")
        if value < 0:
            raise ValueError(f"{name} must be >= 0, not {value}")
    if sampled > seen:
        raise ValueError(f"sampled ({sampled}) cannot exceed seen ({seen})")


def _check_band(*, seen: int, sampled: int, rate: Fraction, shift=(0, 0), detail: str = "") -> None:
    """Raise ValueError unless `sampled` of `seen` keeps the invariant (I) at `rate`.

    `shift` is the (questions, samples) of the warm-up, added back so the message shows the
    counters the caller passed.
    """
    low, high = _band(seen, rate.numerator, rate.denominator)
    if low <= sampled <= high:
        return
    questions, samples = shift
    raise ValueError(
        f"sampled={sampled + samples} is outside the allowed band [{low + samples}, "
        f"{high + samples}] after {seen + questions} questions "
        f"({detail or f'rate {rate}'}): these counters were not produced by this sampler with "
        "these settings (did the rate or the warm-up change?); recount with sample_sequence"
    )


def _check_identity(*, key: str, seed: int) -> None:
    """Raise ValueError unless `key` is a non-empty string and `seed` a whole number."""
    if not isinstance(key, str) or not key:
        raise ValueError(f"key must be the annotator's non-empty stable id, not {key!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be a whole number, not {seed!r}")


# The running target: a rate that may change from one question to the next
# --------------------------------------------------------------------------
# The chain above only needs, at each step, the fractional part f of the target p·n and the
# step's rate p. With a rate p_i per question, the target becomes T(n) = p_1 + … + p_n (the
# counter's `expected`), and the same step keeps
#
#     floor(T(n)) <= S(n) <= ceil(T(n))    for every n,                                  (I')
#
# with the same proof (each step only uses f = T(n) − floor(T(n)) and p_{n+1} <= 1), and
# P(question n is sampled) = p_n for every n. With a constant rate T(n) = p·n and the
# decisions are exactly `should_sample`'s; a change of rate neither restarts the counts nor
# the draws.


def should_sample_running(
    *, seen: int, sampled: int, expected: Rate, rate: Rate, key: str, seed: int
) -> bool:
    """Return whether question seen+1 is sampled at `rate`, after `sampled` of `seen` with
    the rates of those `seen` questions adding up to `expected` (module section above).

    Raise ValueError when a rate is outside [0, 1] or `sampled` is outside the band of
    `expected` (the counters were not produced by this sampler).
    """
    _check_identity(key=key, seed=seed)
    _check_counts(seen=seen, sampled=sampled)
    p = as_fraction(rate)
    target = Fraction(expected)
    if target < 0 or not math.floor(target) <= sampled <= math.ceil(target):
        raise ValueError(
            f"sampled={sampled} is outside the allowed band [{math.floor(target)}, "
            f"{math.ceil(target)}] of expected={expected}: these counters were not produced "
            "by this sampler"
        )
    after = target + p
    if sampled + 1 > math.ceil(after):
        return False
    if sampled < math.floor(after):
        return True
    low = math.floor(target)
    behind = target - low
    chance = p / (1 - behind) if sampled == low else (behind + p - 1) / behind
    if chance in (0, 1):
        return chance == 1
    return _draw(chance, key=key, seed=seed, position=seen + 1)


def sample_running(rates, *, key: str, seed: int) -> list[bool]:
    """Return the decisions for an annotator's questions decided at these rates, in order."""
    decisions: list[bool] = []
    sampled, expected = 0, Fraction(0)
    for seen, rate in enumerate(rates):
        picked = should_sample_running(
            seen=seen, sampled=sampled, expected=expected, rate=rate, key=key, seed=seed
        )
        decisions.append(picked)
        sampled += picked
        expected += as_fraction(rate)
    return decisions
