"""Check submitted questions against their paragraph. Pure: the callers pass the function
that translates the messages (`_`).

Offsets are Python code points into the paragraph text, as everywhere in the platform.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.languages import find
from core.text import BAD_CHARACTERS

MAX_QUESTION_CHARS = 1000
MAX_ANSWER_CHARS = 1000
MAX_SECONDS = 24 * 3600
MODEL_KEY = re.compile(r"[A-Za-z0-9_-]{1,64}")


@dataclass(frozen=True)
class CleanQuestion:
    text: str
    answer_start: int  # the plausible answer's, for an unanswerable question
    answer_text: str
    seconds_spent: int
    is_impossible: bool = False
    # The page's name for the question while it was written (model in the loop: its attempts).
    model_key: str = ""


@dataclass(frozen=True)
class Asked:
    """What a paragraph's submission must hold: answerable questions from `low` to `high`
    and exactly `unanswerable` unanswerable ones (mixed campaigns), or, in a campaign of
    unanswerable questions (`only_unanswerable`), `low` to `high` unanswerable ones.
    `existing` are the paragraph's questions already asked (normalized by `same_text` with
    `marks`): a new question may not repeat one."""

    low: int
    high: int
    unanswerable: int = 0
    only_unanswerable: bool = False
    existing: frozenset[str] = frozenset()
    # The language's question marks (core.languages): a question of marks alone is refused,
    # and a final mark is written one way when duplicates are found (`same_text`).
    marks: tuple[str, ...] = ()


def same_text(text: str, marks: tuple[str, ...] = ()) -> str:
    """A question's text as duplicates are found: spaces collapsed, case folded, and a final
    question mark of the language (`marks`, core.languages) written as its first one, with no
    space before it: "Où est-il ?" and "Où est-il?" are one question, "北京在哪里？" and
    "北京在哪里?" too."""
    text = " ".join(text.split()).casefold()
    stem = text.rstrip("".join(marks) + " ") if marks else text
    return stem + marks[0] if marks and stem != text and stem else text


def question_marks(language: str | None) -> tuple[str, ...]:
    """The question marks of a language (core.languages; the first is the one hints show):
    none for Thai, and none for a code the registry lacks (no other language's mark)."""
    entry = find(language)
    return entry.question_marks if entry else ()


def only_marks(text: str, marks: tuple[str, ...]) -> bool:
    """Whether a question holds nothing but question marks and spaces ("?", "？ ？")."""
    return bool(marks) and not text.strip("".join(marks) + " \t\n\r\u00a0\u202f\u3000")


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _impossible(item: dict, asked: Asked):
    """Whether the item is an unanswerable question; None when the flag is malformed."""
    flag = item.get("is_impossible", asked.only_unanswerable)
    return flag if isinstance(flag, bool) else None


def _question_problems(paragraph: str, item, seen: set[str], asked: Asked, _) -> dict[str, str]:
    if not isinstance(item, dict):
        return {"": _("Each question is an object with text, answer_start and answer_text.")}
    text = item.get("text")
    problems = question_text_problems(text, _)
    if not problems and only_marks(text, asked.marks):
        problems["text"] = _("Write the question.")
    elif not problems and same_text(text, asked.marks) in seen:
        problems["text"] = _("The same question is asked twice on this paragraph.")
    elif not problems and same_text(text, asked.marks) in asked.existing:
        problems["text"] = _("This question is already asked on this paragraph.")
    problems |= _answer_problems(paragraph, item, _impossible(item, asked), asked, _)
    problems |= seconds_problems(item.get("seconds_spent", 0), _)
    key = item.get("model_key", "")
    if not isinstance(key, str) or (key and not MODEL_KEY.fullmatch(key)):
        problems["model_key"] = _("Up to 64 letters, digits, - or _.")
    return problems


def _answer_problems(paragraph: str, item: dict, impossible, asked: Asked, _) -> dict[str, str]:
    """Return the problems of a question's unanswerable flag and of its answer: a span for an
    answerable question, a plausible span (and no answer) for an unanswerable one."""
    found: dict[str, str] = {}
    if impossible is None:
        found["is_impossible"] = _("true or false.")
    elif asked.only_unanswerable and not impossible:
        found["is_impossible"] = _("This campaign asks for unanswerable questions only.")
    elif impossible and not (asked.only_unanswerable or asked.unanswerable):
        found["is_impossible"] = _("This campaign asks for answerable questions only.")
    elif impossible:
        if item.get("answer_start") is not None or item.get("answer_text") not in (None, ""):
            found["answer_text"] = _(
                "An unanswerable question has no answer: select its plausible answer instead."
            )
        plausible = span_problems(
            paragraph,
            item.get("plausible_answer_start"),
            item.get("plausible_answer_text"),
            _,
            plausible=True,
        )
        found |= {f"plausible_{name}": message for name, message in plausible.items()}
    else:
        if item.get("plausible_answer_start") is not None or item.get(
            "plausible_answer_text"
        ) not in (None, ""):
            found["plausible_answer_text"] = _(
                "Only an unanswerable question has a plausible answer."
            )
        found |= span_problems(paragraph, item.get("answer_start"), item.get("answer_text"), _)
    return found


def question_text_problems(text, _) -> dict[str, str]:
    """Return {"text": message} when a question's text cannot be stored, else {}."""
    if not isinstance(text, str) or not text.strip():
        return {"text": _("Write the question.")}
    if BAD_CHARACTERS.search(text):
        return {
            "text": _("The text holds characters that cannot be stored (NUL or broken Unicode).")
        }
    # Characters are code points (Python's len), as the page's counter shows them: an emoji
    # is one, whatever its UTF-16 length (docs/decisions.md, "A question's length").
    if (count := len(text.strip())) > MAX_QUESTION_CHARS:
        return {
            "text": _("A question has at most 1,000 characters (this one has %(count)d).")
            % {"count": count}
        }
    return {}


def span_problems(paragraph: str, start, answer, _, *, plausible: bool = False) -> dict[str, str]:
    """Return the problems of an answer span, by field ("answer_start", "answer_text").

    A plausible answer (of an unanswerable question) is checked the same way; only the
    message asking for it differs."""
    if plausible:
        select = _("Select the plausible answer in the paragraph.")
    else:
        select = _("Select the answer in the paragraph.")
    if not _is_int(start) or not 0 <= start < len(paragraph):
        return {"answer_start": select}
    if not isinstance(answer, str) or not answer.strip():
        return {"answer_text": select}
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


def _count_problem(questions, asked: Asked, _, ngettext) -> str | None:
    """The message when the submission does not hold the number of questions asked."""
    if not isinstance(questions, list):
        count = 0
        impossible = 0
    else:
        count = len(questions)
        impossible = sum(
            1 for item in questions if isinstance(item, dict) and _impossible(item, asked) is True
        )
    # In a campaign of unanswerable questions, every question counts against low..high.
    answerable = count if asked.only_unanswerable else count - impossible
    if not isinstance(questions, list) or not asked.low <= answerable <= asked.high:
        if asked.only_unanswerable:
            message = ngettext(
                "Write from %(low)d to %(high)d unanswerable question (%(count)d given).",
                "Write from %(low)d to %(high)d unanswerable questions (%(count)d given).",
                asked.high,
            )
        elif asked.unanswerable:
            message = ngettext(
                "Write from %(low)d to %(high)d answerable question (%(count)d given).",
                "Write from %(low)d to %(high)d answerable questions (%(count)d given).",
                asked.high,
            )
        else:
            message = ngettext(
                "Write from %(low)d to %(high)d question (%(count)d given).",
                "Write from %(low)d to %(high)d questions (%(count)d given).",
                asked.high,
            )
        return message % {"low": asked.low, "high": asked.high, "count": answerable}
    if asked.unanswerable and impossible != asked.unanswerable:
        return ngettext(
            "Write %(wanted)d unanswerable question (%(count)d given).",
            "Write %(wanted)d unanswerable questions (%(count)d given).",
            asked.unanswerable,
        ) % {"wanted": asked.unanswerable, "count": impossible}
    return None


def _english_plural(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


def check_questions(paragraph: str, questions, *, asked: Asked, _, ngettext=_english_plural):
    """Return (errors, clean questions); errors map "questions[i].field" to messages.

    `_` translates the messages (the caller passes Django's gettext: this module is pure), and
    `ngettext` those about a count (Django's ngettext).
    An answerable question carries `answer_start` and `answer_text`; an unanswerable one
    (`is_impossible`) carries `plausible_answer_start` and `plausible_answer_text` instead,
    checked against the paragraph like any answer.
    """
    if message := _count_problem(questions, asked, _, ngettext):
        return {"questions": [message]}, []
    errors, clean, seen = {}, [], set()
    for index, item in enumerate(questions):
        for field, message in _question_problems(paragraph, item, seen, asked, _).items():
            errors[f"questions[{index}].{field}".rstrip(".")] = [message]
        if isinstance(item, dict) and isinstance(item.get("text"), str):
            seen.add(same_text(item["text"], asked.marks))
    if errors:
        return errors, []
    for item in questions:
        impossible = _impossible(item, asked)
        prefix = "plausible_" if impossible else ""
        clean.append(
            CleanQuestion(
                text=" ".join(item["text"].split()),
                answer_start=item[f"{prefix}answer_start"],
                answer_text=item[f"{prefix}answer_text"],
                seconds_spent=item.get("seconds_spent", 0),
                is_impossible=impossible,
                model_key=item.get("model_key", ""),
            )
        )
    return {}, clean
