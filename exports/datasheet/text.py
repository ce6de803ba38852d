"""The datasheet's Markdown pieces: table cells and tables, counted nouns, percentages."""

from __future__ import annotations


def cell(text) -> str:
    """Return text safe inside a Markdown table cell."""
    return str(text).replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def table(header: list[str], rows: list[list]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
    lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]
    return lines + [""]


def plural(count: int, noun: str) -> str:
    """Return "1 question" or "3 questions" (the datasheet is written in English)."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def percent(value: float | None) -> str:
    return "–" if value is None else f"{value:.1f}"
