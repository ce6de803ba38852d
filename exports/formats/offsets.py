"""Answer offsets: whether an answer's `answer_start` points at its text in the context
(counted in Unicode code points), and where the text occurs when it does not. The SQuAD import
repairs an offset found once; the MRQA writer finds every occurrence of an answer's text.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum
from itertools import islice


class Alignment(StrEnum):
    """How an answer's `answer_start` relates to where its text is in the context."""

    ALIGNED = "aligned"
    REPAIRABLE = "repairable"
    MISALIGNED = "misaligned"


@dataclass(frozen=True, slots=True)
class AnswerCheck:
    """The verdict on one answer and the start to use (repaired if repairable, else as given)."""

    alignment: Alignment
    answer_start: int


def check_answer(context: str, text: str, answer_start: int) -> AnswerCheck:
    """Classify an answer span as aligned, repairable (text found exactly once) or misaligned.

    A repairable answer's text is not at `answer_start` but occurs exactly once in `context`:
    the returned start is that occurrence. Otherwise (absent, or ambiguous) it is misaligned
    and the given start is returned unchanged, for a person to decide.
    """
    if text and answer_start >= 0 and context.startswith(text, answer_start):
        return AnswerCheck(Alignment.ALIGNED, answer_start)
    occurrences = list(islice(find_occurrences(context, text), 2))
    if len(occurrences) == 1:
        return AnswerCheck(Alignment.REPAIRABLE, occurrences[0])
    return AnswerCheck(Alignment.MISALIGNED, answer_start)


def find_occurrences(context: str, text: str) -> Iterator[int]:
    """Yield every start of `text` in `context`, overlapping occurrences included."""
    if not text:
        return
    start = context.find(text)
    while start != -1:
        yield start
        start = context.find(text, start + 1)
