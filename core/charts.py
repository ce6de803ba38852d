"""Geometry of the SVG charts the pages draw (no script, no inline style: CSP-safe)."""


def bar_chart(title: str, items: list[tuple[str, int]]) -> dict:
    """Return the context of partials/bar_chart.html: bars scaled to 300 units wide."""
    top = max((value for _label, value in items), default=0) or 1
    bars = [
        {
            "label": label,
            "value": value,
            "width": round(300 * value / top),
            "y": 10 + 34 * i,
            "text_y": 28 + 34 * i,
        }
        for i, (label, value) in enumerate(items)
    ]
    return {"title": title, "bars": bars, "height": 20 + 34 * len(bars)}
