"""Geometry of the bar charts the pages draw (no script, no inline style: CSP-safe).

A chart is rows of real text (label and value, which wrap and are never cut) beside an SVG bar
whose length is a percentage of the chart's scale: the largest value or target.
"""


def _percent(value: float, top: float) -> float:
    return round(100 * value / top, 1)


def bar_chart(
    title: str, items: list[tuple[str, float]], targets: list[float | None] | None = None
) -> dict:
    """Return the context of partials/bar_chart.html: each bar (and target tick) in percent."""
    targets = targets or [None] * len(items)
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
