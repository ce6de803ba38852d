"""The datasheet's section on the model in the loop: in a release with questions written with
one, its rounds and, per split, how often its questions fooled it (Beat the AI's figures)."""

from __future__ import annotations

from corpus.models import Split
from exports.datasheet.figures import SheetFigures, model_in_the_loop_figures
from exports.datasheet.text import percent, plural, table


def model_section(figures: SheetFigures, options) -> list[str]:
    """Say which models were in the loop and how often each split's questions fooled them."""
    summary = model_in_the_loop_figures(figures, options.splits)
    if summary is None:
        return []
    total = sum(split["questions"] for split in summary["splits"].values())
    lines = _model_intro(total)
    lines += table(
        ["campaign", "round", "model", "F1 threshold (%)", "questions"],
        [
            [campaign, number, label, f"{threshold:g}", questions]
            for campaign, number, label, threshold, questions in figures.rounds()
        ],
    )
    lines += table(MODEL_SPLIT_COLUMNS, _model_split_rows(summary))
    lines += [
        "Validated fooled: fooled, and approved by a reviewer, or corrected by one and still "
        "fooled against the corrected answer; out of the reviewed questions. A question the "
        "model could not answer (unavailable) counts in neither answered nor fooled.",
        "",
    ]
    if Split.TEST in options.splits and not options.include_test_answers:
        lines += [
            "In the held-back test files the model's answer, its scores, whether it was "
            'fooled and the attempts are withheld with the answers (`status` "withheld"); '
            "the model and the round are given.",
            "",
        ]
    return lines


def _model_intro(total: int) -> list[str]:
    """Say how the questions were written with a model and where the files give its figures."""
    return [
        "## Model in the loop",
        "",
        f"{plural(total, 'question')} of this release {'was' if total == 1 else 'were'} written "
        "with a model in the loop (as in Beat the AI, Bartolo et al. 2020): after adding a "
        "question, its author saw the model's answer and could rephrase it and ask again. A "
        "question fooled the model when the model's F1 against the question's answer is under "
        "the round's threshold; the figures are against the answer as released (computed again "
        "when a reviewer corrected the span). The HF JSONL files give each question's figures "
        'in `model_in_the_loop` (`status` "none" on a question written without a model), '
        "the SQuAD files in a `model_in_the_loop` key of the questions written with one; the "
        "MRQA files do not carry them. `manifest.json` holds these tables as "
        "`model_in_the_loop`.",
        "",
    ]


MODEL_SPLIT_COLUMNS = [
    "split",
    "questions with a model",
    "answered by it",
    "fooled",
    "fooling rate (% of answered)",
    "reviewed",
    "validated fooled",
    "attempts per question",
]


def _model_split_rows(summary: dict) -> list[list]:
    """One row per split of the model-in-the-loop figures, in MODEL_SPLIT_COLUMNS' order."""
    return [
        [
            split,
            counts["questions"],
            counts["answered"],
            counts["fooled"],
            percent(counts["fooling_rate"]),
            counts["reviewed"],
            counts["validated_fooled"],
            "–" if counts["attempts_mean"] is None else f"{counts['attempts_mean']:.2f}",
        ]
        for split, counts in summary["splits"].items()
    ]
