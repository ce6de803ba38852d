"""Check submitted questions against their paragraph. Pure: the callers pass the function
that translates the messages (`_`).

Offsets are Python code points into the paragraph text, as everywhere in the platform.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.text import BAD_CHARACTERS

MAX_QUESTION_CHARS = 1000
MAX_ANSWER_CHARS = 1000
MAX_SECONDS = 24 * 3600


@dataclass(frozen=True)
class CleanQuestion:
    text: str
    answer_start: int
    answer_text: str
    seconds_spent: int


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _question_problems(paragraph: str, item, seen: set[str], _) -> dict[str, str]:
    if not isinstance(item, dict):
        return {"": _("Each question is an object with text, answer_start and answer_text.")}
    text = item.get("text")
    problems = question_text_problems(text, _)
    if not problems and " ".join(text.split()).casefold() in seen:
        problems["text"] = _("The same question is asked twice on this paragraph.")
    problems |= span_problems(paragraph, item.get("answer_start"), item.get("answer_text"), _)
    problems |= seconds_problems(item.get("seconds_spent", 0), _)
    return problems


def question_text_problems(text, _) -> dict[str, str]:
    """Return {"text": message} when a question's text cannot be stored, else {}."""
    if not isinstance(text, str) or not text.strip():
        return {"text": _("Write the question.")}
    if BAD_CHARACTERS.search(text):
        return {
            "text": _("The text holds characters that cannot be stored (NUL or broken Unicode).")
        }
    if len(text.strip()) > MAX_QUESTION_CHARS:
        return {"text": _("A question has at most 1,000 characters.")}
    return {}


def span_problems(paragraph: str, start, answer, _) -> dict[str, str]:
    """Return the problems of an answer span, by field ("answer_start", "answer_text")."""
    if not _is_int(start) or not 0 <= start < len(paragraph):
        return {"answer_start": _("Select the answer in the paragraph.")}
    if not isinstance(answer, str) or not answer.strip():
        return {"answer_text": _("Select the answer in the paragraph.")}
    if len(answer) > MAX_ANSWER_CHARS:
        return {"answer_text": _("An answer has at most 1,000 characters.")}
    if paragraph[start : start + len(answer)] != answer:
        return {"answer_text": _("The answer is not the text at this place of the paragraph.")}
    return {}


def seconds_problems(seconds, _) -> dict[str, str]:
    """Return {"seconds_spent": message} unless it is a whole number of seconds in a day."""
    if not _is_int(seconds) or not 0 <= seconds <= MAX_SECONDS:
        return {"seconds_spent": _("A whole number of seconds from 0 to 86,400.")}
    return {}


def check_questions(paragraph: str, questions, *, low: int, high: int, _):
    """Return (errors, clean questions); errors map "questions[i].field" to messages.

    `_` translates the messages (the caller passes Django's gettext: this module is pure).
    """
    if not isinstance(questions, list) or not low <= len(questions) <= high:
        count = len(questions) if isinstance(questions, list) else 0
        message = _("Write from %(low)d to %(high)d questions (%(count)d given).") % {
            "low": low,
            "high": high,
            "count": count,
        }
        return {"questions": [message]}, []
    errors, clean, seen = {}, [], set()
    for index, item in enumerate(questions):
        for field, message in _question_problems(paragraph, item, seen, _).items():
            errors[f"questions[{index}].{field}".rstrip(".")] = [message]
        if isinstance(item, dict) and isinstance(item.get("text"), str):
            seen.add(" ".join(item["text"].split()).casefold())
    if errors:
        return errors, []
    for item in questions:
        clean.append(
            CleanQuestion(
                text=" ".join(item["text"].split()),
                answer_start=item["answer_start"],
                answer_text=item["answer_text"],
                seconds_spent=item.get("seconds_spent", 0),
            )
        )
    return {}, clean
