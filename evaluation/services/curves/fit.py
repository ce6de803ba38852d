"""The learning curve's numbers: nested training subsets, the saturating power-law fit, its
bootstrap interval, per-type gains and the question-type targets they suggest.

Pure (numpy only, no Django): the job (`evaluation.services.curves.learning_curves`) feeds it the
points it measured;
docs/learning-curve.md explains each choice.

The fit is F1(n) = a − b·n^(−c) in the number n of training questions, with a ≤ 100, b > 0
and c > 0, by least squares. For a fixed c the model is linear in (a, b), so (a, b) have a
closed form; the sum of squares, profiled over c, is searched on a log grid and refined by a
golden-section search around the best grid cell.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

DEFAULT_FRACTIONS = (10, 25, 50, 100)
MAX_POINTS = 10  # each point is a fine-tuning: ten already cost ten runs
MIN_POINTS = 3  # three parameters: fewer points cannot be fitted
C_LOW, C_HIGH = 1e-3, 5.0  # the exponents searched; beyond 5 the curve is a step
GRID = 400
A_MAX = 100.0  # F1 is a percentage
BOOTSTRAP_RESAMPLES = 200
BOOTSTRAP_SEED = 17
LEVEL = 0.90
GAIN_THRESHOLD = 1.0  # F1 points gained from 1× to 2×: below it, a type does not gain
SHARE_LOW, SHARE_HIGH = 0.5, 2.0  # a proposed share is ½ to 2× today's, after rescaling

OK, TOO_FEW, FLAT = "ok", "too_few_points", "flat"


def subset_size(total: int, fraction: float) -> int:
    """Return how many of `total` questions a `fraction` (percent) trains on: rounded up, at
    least one (so 10 % of 25 questions is 3)."""
    if total <= 0:
        return 0
    return min(total, max(1, math.ceil(total * fraction / 100 - 1e-9)))


def nested_order(ids: Sequence[str], seed: int) -> list[str]:
    """Return the ids in one seeded random order; a fraction trains on a prefix of it, so each
    larger subset holds every smaller one. Sorting first makes the order depend only on the
    set of ids and the seed, not on the order a file listed them in."""
    ordered = sorted(ids)
    permutation = np.random.default_rng(seed).permutation(len(ordered))
    return [ordered[i] for i in permutation]


def nested_subsets(ids: Sequence[str], fractions: Sequence[float], seed: int) -> list[list[str]]:
    """Return the training ids of each fraction (percent), nested."""
    order = nested_order(ids, seed)
    return [order[: subset_size(len(order), fraction)] for fraction in fractions]


@dataclass(frozen=True)
class PowerLawFit:
    """F1(n) = a − b·n^(−c); `status` is "ok", "too_few_points" or "flat" (no gain: the
    prediction is then the mean, a, with b = 0 and no c)."""

    status: str
    a: float | None = None
    b: float | None = None
    c: float | None = None
    rmse: float | None = None
    points: int = 0

    def predict(self, n: float) -> float | None:
        if self.status == OK:
            return self.a - self.b * n ** (-self.c)
        if self.status == FLAT:
            return self.a
        return None

    def slope(self, n: float) -> float | None:
        """Return dF1/dn at n (F1 points per question); 0 for a flat curve."""
        if self.status == OK:
            return self.b * self.c * n ** (-self.c - 1)
        if self.status == FLAT:
            return 0.0
        return None

    def as_dict(self) -> dict:
        return {
            "status": self.status,
            "a": self.a,
            "b": self.b,
            "c": self.c,
            "rmse": self.rmse,
            "points": self.points,
        }


def _ab(ns: np.ndarray, ys: np.ndarray, c: np.ndarray):
    """Return (a, b, sse) for each exponent in `c` (arrays): least squares of y = a − b·x with
    x = n^(−c), a capped at 100 (then b alone) and b ≥ 0 (else the flat mean)."""
    x = ns[None, :] ** (-c[:, None])
    x_mean = x.mean(axis=1, keepdims=True)
    y_mean = ys.mean()
    sxx = ((x - x_mean) ** 2).sum(axis=1)
    sxy = ((x - x_mean) * (ys[None, :] - y_mean)).sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        b = np.where(sxx > 0, -sxy / sxx, 0.0)
    a = y_mean + b * x_mean[:, 0]
    capped = a > A_MAX
    if capped.any():
        gap = A_MAX - ys[None, :]
        b_capped = (gap * x).sum(axis=1) / (x * x).sum(axis=1)
        a = np.where(capped, A_MAX, a)
        b = np.where(capped, b_capped, b)
    negative = b <= 0
    a = np.where(negative, y_mean, a)
    b = np.where(negative, 0.0, b)
    residuals = ys[None, :] - (a[:, None] - b[:, None] * x)
    return a, b, (residuals**2).sum(axis=1)


def fit_power_law(ns: Sequence[float], ys: Sequence[float]) -> PowerLawFit:
    """Fit F1(n) = a − b·n^(−c) to the points (n training questions, F1 in percent)."""
    pairs = sorted({float(n): float(y) for n, y in zip(ns, ys, strict=True) if n > 0}.items())
    if len(pairs) < MIN_POINTS:
        return PowerLawFit(TOO_FEW, points=len(pairs))
    n = np.array([p[0] for p in pairs])
    y = np.array([p[1] for p in pairs])
    spread = float(np.sqrt(((y - y.mean()) ** 2).mean()))
    flat = PowerLawFit(FLAT, a=float(y.mean()), b=0.0, rmse=spread, points=len(pairs))
    if float(y.max() - y.min()) < 1e-9:
        return flat
    grid = np.geomspace(C_LOW, C_HIGH, GRID)
    _a, b, sse = _ab(n, y, grid)
    sse = np.where(b > 0, sse, np.inf)
    if not np.isfinite(sse).any():
        return flat
    best = int(np.argmin(sse))
    low = grid[max(best - 1, 0)]
    high = grid[min(best + 1, GRID - 1)]

    def cost(c: float) -> float:
        _a1, b1, s1 = _ab(n, y, np.array([c]))
        return float(s1[0]) if b1[0] > 0 else math.inf

    c = _golden(cost, float(low), float(high))
    if cost(c) > float(sse[best]):
        c = float(grid[best])
    a1, b1, s1 = _ab(n, y, np.array([c]))
    if b1[0] <= 1e-12:
        return flat
    return PowerLawFit(
        OK,
        a=float(a1[0]),
        b=float(b1[0]),
        c=c,
        rmse=float(math.sqrt(s1[0] / len(pairs))),
        points=len(pairs),
    )


def _golden(cost, low: float, high: float, tolerance: float = 1e-13) -> float:
    """Return the minimum of a unimodal `cost` on [low, high] (golden-section search)."""
    ratio = (math.sqrt(5) - 1) / 2
    x1 = high - ratio * (high - low)
    x2 = low + ratio * (high - low)
    f1, f2 = cost(x1), cost(x2)
    for _ in range(200):
        if high - low <= tolerance * max(1.0, abs(high)):
            break
        if f1 <= f2:
            high, x2, f2 = x2, x1, f1
            x1 = high - ratio * (high - low)
            f1 = cost(x1)
        else:
            low, x1, f1 = x1, x2, f2
            x2 = low + ratio * (high - low)
            f2 = cost(x2)
    return x1 if f1 <= f2 else x2


def bootstrap_estimates(
    ns: Sequence[float],
    per_question: Sequence[Sequence[float]],
    at: Sequence[float],
    *,
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
    level: float = LEVEL,
) -> list[dict]:
    """Return, for each n in `at`, the fitted F1 and its bootstrap interval; past the first, the
    interval of its gain over the first n too (`gain_low`, `gain_high`: each resample's own
    difference, so the noise the two predictions share cancels).

    `per_question[i][j]` is the F1 (0–100) of dev question j after training on ns[i] questions:
    the same dev questions at every point. Each resample draws the dev questions with
    replacement (the same draw for every point: the points are paired), refits, and predicts;
    the interval is the resamples' (1 − level)/2 and (1 + level)/2 quantiles. A resample whose
    curve cannot be fitted is left out (`resamples` says how many counted).
    """
    scores = np.asarray(per_question, dtype=float)
    means = scores.mean(axis=1) if scores.size else np.array([])
    fit = fit_power_law(ns, means)
    found = [{"n": n, "f1": fit.predict(n), "low": None, "high": None, "resamples": 0} for n in at]
    for row in found[1:]:
        row |= {"gain_low": None, "gain_high": None}
    if fit.status == TOO_FEW or scores.shape[1] == 0:
        return found
    draws = _resampled_predictions(ns, scores, at, resamples, seed)
    if draws:
        _add_intervals(found, np.array(draws), level)
    return found


def _resampled_predictions(ns, scores: np.ndarray, at, resamples: int, seed: int) -> list:
    """Return each resample's predictions at `at` (dev questions drawn with replacement, the
    same draw for every point), the resamples whose curve cannot be fitted left out."""
    rng = np.random.default_rng(seed)
    draws = []
    for _ in range(resamples):
        pick = rng.integers(0, scores.shape[1], scores.shape[1])
        again = fit_power_law(ns, scores[:, pick].mean(axis=1))
        if again.status != TOO_FEW:
            draws.append([again.predict(n) for n in at])
    return draws


def _add_intervals(found: list[dict], table: np.ndarray, level: float) -> None:
    """Write into each row the quantiles of its predictions, and past the first those of its
    gain over the first."""
    low_q, high_q = (1 - level) / 2, (1 + level) / 2
    for i, row in enumerate(found):
        row["low"] = float(np.quantile(table[:, i], low_q))
        row["high"] = float(np.quantile(table[:, i], high_q))
        row["resamples"] = len(table)
        if i:
            gains = table[:, i] - table[:, 0]
            row["gain_low"] = float(np.quantile(gains, low_q))
            row["gain_high"] = float(np.quantile(gains, high_q))


def gain_above_noise(estimate: Mapping) -> bool:
    """Whether the gain an estimate states is more than the dev questions' noise: the lower
    end of its bootstrap interval is above zero (more data helps, at the 90 % level)."""
    low = estimate.get("gain_low")
    return low is not None and low > 0


def type_gains(
    ns: Sequence[float],
    by_type: Mapping[str, Sequence[float | None]],
    n_today: float,
    *,
    overall_f1: float | None,
    helps: bool = True,
) -> dict[str, dict]:
    """Return per type: its F1 at today's n (the last point), the gain expected from 1× to 2×
    (from its own fit; the last measured step when it cannot be fitted), the slope per 1,000
    questions and a verdict: "gains" (gain ≥ GAIN_THRESHOLD, while the overall gain is above
    its noise: `helps`), else "below" or "above" the `overall_f1` (today's F1 on all of dev;
    "above" when equal)."""
    found = {}
    for name, values in by_type.items():
        pairs = [(n, v) for n, v in zip(ns, values, strict=True) if v is not None]
        if not pairs:
            continue
        fit = fit_power_law([p[0] for p in pairs], [p[1] for p in pairs])
        last = pairs[-1][1]
        if fit.status != TOO_FEW:
            gain = fit.predict(2 * n_today) - fit.predict(n_today)
            slope = fit.slope(n_today) * 1000
        elif len(pairs) >= 2:
            gain, slope = last - pairs[-2][1], None
        else:
            gain, slope = None, None
        found[name] = {"f1": last, "gain": gain, "slope_per_1000": slope, "fit": fit.as_dict()}
    for row in found.values():
        if helps and row["gain"] is not None and row["gain"] >= GAIN_THRESHOLD:
            row["verdict"] = "gains"
        elif overall_f1 is not None and row["f1"] < overall_f1:
            row["verdict"] = "below"
        else:
            row["verdict"] = "above"
    return found


def propose_targets(types: Mapping[str, Mapping[str, float | None]]) -> dict[str, int]:
    """Return question-type targets (whole percents summing to 100) for the next campaign.

    `types`: per type, its `share` of today's questions (percent), its `f1` and its `gain`.
    Each type's priority is max(gain, 0) × (100 − F1) / 100: it still has room and more data
    helps. Its share (today's shares scaled to 100) is multiplied by its priority over the
    mean priority, bounded to [½, 2]; the products are then scaled to sum to 100 while each
    stays within ½ to 2× its share (`_within_bounds`), and rounded to whole percents by
    largest remainder (ties: by name). With no priority anywhere, today's shares are proposed.
    """
    rows = {k: v for k, v in types.items() if v.get("share")}
    if not rows:
        return {}
    scale = 100 / sum(v["share"] for v in rows.values())
    shares = {k: v["share"] * scale for k, v in rows.items()}
    priority = {
        k: max(v.get("gain") or 0.0, 0.0) * (100 - (v.get("f1") or 0.0)) / 100
        for k, v in rows.items()
    }
    mean = sum(priority.values()) / len(priority)
    weights = {}
    for k in rows:
        factor = 1.0 if mean <= 0 else min(SHARE_HIGH, max(SHARE_LOW, priority[k] / mean))
        weights[k] = shares[k] * factor
    exact = _within_bounds(weights, shares)
    floors = {k: math.floor(v + 1e-9) for k, v in exact.items()}
    left = 100 - sum(floors.values())
    for k in sorted(exact, key=lambda k: (-(exact[k] - floors[k]), k))[:left]:
        floors[k] += 1
    return dict(sorted(floors.items()))


def _within_bounds(weights: Mapping[str, float], shares: Mapping[str, float]) -> dict:
    """Return the weights scaled to sum to 100, each kept within [½, 2] × its share (which sum
    to 100): clamp(μ × weight) for the one μ that makes them sum to 100, found by bisection
    (the sum grows with μ from 50 to 200, so it is reached). Scaling alone would push a small
    type with a large factor past twice its share."""

    def placed(mu: float) -> dict:
        return {
            k: min(SHARE_HIGH * shares[k], max(SHARE_LOW * shares[k], mu * w))
            for k, w in weights.items()
        }

    low, high = 0.0, 1.0
    while sum(placed(high).values()) < 100:
        high *= 2
    for _ in range(100):
        mid = (low + high) / 2
        low, high = (mid, high) if sum(placed(mid).values()) < 100 else (low, mid)
    return placed(high)


def curve_summary(points: Sequence[Mapping], n_today: int) -> dict:
    """Return what the pages show of a finished curve: the F1 fit, the estimates at 2× and 4×
    today's training questions with their 90 % interval, whether the gain at 2× is above its
    noise (`helps`), the per-type gains and the targets (none when it is not).

    A point is {"questions", "f1", "exact_match", "per_question_f1": [...], "question_type":
    {type: {"f1", "share"…}}, "answer_type": {…}}, in increasing order of questions.
    """
    points = sorted(points, key=lambda p: p["questions"])
    ns = [p["questions"] for p in points]
    fit = fit_power_law(ns, [p["f1"] for p in points])
    em_fit = fit_power_law(ns, [p["exact_match"] for p in points])
    estimates = bootstrap_estimates(
        ns, [p.get("per_question_f1", []) for p in points], [n_today, 2 * n_today, 4 * n_today]
    )
    today = estimates[0]
    for row, times in zip(estimates, (1, 2, 4), strict=True):
        row["times"] = times
        row["gain"] = None if row["f1"] is None or today["f1"] is None else row["f1"] - today["f1"]
    helps = fit.status == OK and gain_above_noise(estimates[1])
    overall_f1 = points[-1]["f1"] if points else None
    types = {
        key: _types_gains(points, key, n_today, overall_f1=overall_f1, helps=helps)
        for key in ("question_type", "answer_type")
    }
    # Noise is no reason to move a campaign's types: nothing is proposed then.
    proposal = propose_targets(types.get("question_type", {})) if helps else {}
    return {
        "fit": fit.as_dict(),
        "em_fit": em_fit.as_dict(),
        "n_today": n_today,
        "overall_f1": overall_f1,
        "helps": helps,
        "estimates": estimates,
        "types": types,
        "proposal": proposal,
    }


def _types_gains(points: Sequence[Mapping], key: str, n_today: int, **given) -> dict:
    """Return the gains of each type of the points' `key` breakdown, with its share in the
    last point (`given`: type_gains' overall_f1 and helps)."""
    ns = [p["questions"] for p in points]
    names = sorted({name for p in points for name in p.get(key, {})})
    by_type = {name: [p.get(key, {}).get(name, {}).get("f1") for p in points] for name in names}
    gains = type_gains(ns, by_type, n_today, **given)
    last = points[-1].get(key, {}) if points else {}
    for name, row in gains.items():
        row["share"] = last.get(name, {}).get("share")
    return gains


def predicted(fit: Mapping, n: float) -> float | None:
    """Return the stored fit's F1 at n (a fit as `PowerLawFit.as_dict` wrote it)."""
    return PowerLawFit(
        fit.get("status", TOO_FEW), fit.get("a"), fit.get("b"), fit.get("c")
    ).predict(n)
