"""Geometry of the charts the pages draw (no script, no inline style: CSP-safe).

A chart is rows of real text (label and value, which wrap and are never cut) beside an SVG bar
whose length is a percentage of the chart's scale: a fixed `top` (F1 charts: 100, so that two
charts side by side read alike), else the largest value or target. A line chart
is an SVG plot (x–y series, lines and dots) whose page also gives its figures as a table. A
sparkline is a small one without axes, in a table's cell (the quality table's history).
"""

import math


def _percent(value: float, top: float) -> float:
    return round(100 * min(value, top) / top, 1)


def bar_chart(
    title: str,
    items: list[tuple[str, float]],
    targets: list[float | None] | None = None,
    *,
    top: float | None = None,
) -> dict:
    """Return the context of partials/bar_chart.html: each bar (and target tick) in percent of
    `top` (a value above it fills its bar), or of the largest figure when no `top` is given."""
    targets = targets or [None] * len(items)
    if top is None:
        known = [value for _label, value in items] + [t for t in targets if t is not None]
        top = max(known, default=0) or 1
    bars = [
        {
            "label": label,
            "value": value,
            "percent": _percent(value, top),
            "target": target,
            "target_percent": None if target is None else _percent(target, top),
        }
        for (label, value), target in zip(items, targets, strict=True)
    ]
    return {"title": title, "bars": bars}


def _ticks(top: float, count: int = 5) -> list[float]:
    """Return about `count` round ticks (steps of 1, 2 or 5 times a power of 10) from 0 to the
    first one at or above `top`."""
    if top <= 0:
        return [0.0]
    raw = top / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    ticks, value = [], 0.0
    while not ticks or ticks[-1] < top - 1e-9:
        tick = round(value, 6)
        ticks.append(int(tick) if tick == int(tick) else tick)
        value += step
    return ticks


def _x_axis(x_max: float, numbered: bool) -> tuple[list, float, float]:
    """Return the x axis's ticks and its low and high ends: round values from 0, or, when
    `numbered`, whole numbers from 1 (fewer past 12) with half a step of margin each side."""
    if numbered:
        count = max(1, int(x_max))
        step = math.ceil(count / 12)
        return list(range(1, count + 1, step)), 0.5, count + 0.5
    x_ticks = _ticks(x_max)
    return x_ticks, 0, x_ticks[-1] or 1


def _series_drawn(item: dict, sx, sy) -> dict:
    """Return one series as the template draws it: its path and its dots, in viewBox
    coordinates (`sx`, `sy`); points with a missing coordinate are left out."""
    points = [(x, y) for x, y in item["points"] if x is not None and y is not None]
    return {
        "label": item["label"],
        "color": item.get("color", "currentColor"),
        "dash": item.get("dash", ""),
        "path": " ".join(f"{sx(x)},{sy(y)}" for x, y in points) if item.get("line", True) else "",
        "dots": [
            {"cx": sx(x), "cy": sy(y), "x": x, "y": y} for x, y in points if item.get("dots", False)
        ],
    }


def line_chart(
    title: str,
    series: list[dict],
    *,
    x_max: float,
    y_max: float = 100.0,
    width: int = 640,
    height: int = 320,
    numbered: bool = False,
) -> dict:
    """Return the context of partials/line_chart.html: an SVG plot of x–y series.

    Each series is {"label", "points": [(x, y)], "line": bool, "dots": bool, "color",
    "dash"}; a line joins its points in order, dots mark them. Coordinates are the viewBox's
    (y grows downwards); ticks are round values from 0 to the axes' maxima. A `numbered` x
    axis holds items 1 to `x_max` (snapshots, rounds): a tick on each whole number (every
    other one, or fewer, past 12) and half a step of margin on each side, no 0.
    """
    left, right, top, bottom = 48, width - 32, 28, height - 40
    y_ticks = _ticks(y_max)
    y_max = y_ticks[-1] or 1
    x_ticks, x_low, x_high = _x_axis(x_max, numbered)

    def sx(x: float) -> float:
        return round(left + (right - left) * (x - x_low) / (x_high - x_low), 1)

    def sy(y: float) -> float:
        return round(bottom - (bottom - top) * y / y_max, 1)

    drawn = [_series_drawn(item, sx, sy) for item in series]
    return {
        "title": title,
        "width": width,
        "height": height,
        "plot": {"left": left, "right": right, "top": top, "bottom": bottom},
        "series": drawn,
        "x_ticks": [{"at": sx(t), "value": t} for t in x_ticks],
        "y_ticks": [{"at": sy(t), "value": t} for t in y_ticks],
    }


def sparkline(
    series: list[list[float | None]], *, top: float = 100.0, width: int = 120, height: int = 32
) -> dict:
    """Return the context of a small inline chart: each series is values at the same x steps
    (None where a step has none), drawn from 0 (bottom) to `top` (top), in viewBox
    coordinates with 2 units of margin; a series' line joins its known values in order and
    a dot marks each one, so that a lone value still shows."""
    steps = max((len(values) for values in series), default=0)
    margin = 2

    def sx(index: int) -> float:
        if steps <= 1:
            return width / 2
        return round(margin + (width - 2 * margin) * index / (steps - 1), 1)

    def sy(value: float) -> float:
        return round(height - margin - (height - 2 * margin) * min(value, top) / top, 1)

    lines = []
    for values in series:
        points = [(sx(i), sy(v)) for i, v in enumerate(values) if v is not None]
        lines.append(
            {
                "points": " ".join(f"{x},{y}" for x, y in points),
                "dots": [{"cx": x, "cy": y} for x, y in points],
            }
        )
    return {"width": width, "height": height, "steps": steps, "lines": lines}
