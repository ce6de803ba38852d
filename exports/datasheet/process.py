"""The datasheet's collection process: what really happened to the release's questions,
written on the platform or imported, reviewed, answered again, left out of the MRQA files.
"""

from __future__ import annotations

from django.conf import settings

from annotation.models import Campaign
from core.languages import find
from corpus.models import Split
from exports.dataset import with_ids
from exports.datasheet.figures import Part, SheetFigures
from exports.datasheet.text import cell, plural


def _min_chars(options) -> int:
    """The shortest paragraph of the release's language: the setting's French characters,
    scaled (core.languages); the setting itself for a language the registry lacks."""
    entry = find(getattr(options, "language", "") or settings.WIKIPEDIA_LANGUAGE)
    french = settings.CORPUS_MIN_PARAGRAPH_CHARS
    return entry.paragraphs.min_chars(french) if entry else french


def unanswerable_release(options) -> bool:
    return getattr(options, "squad_version", "1.1") == "2.0"


def _by_split(part: Part) -> str:
    counts = part.by_split
    return ", ".join(f"{split} {counts[split]}" for split in Split.values if counts.get(split))


def _reviewed(part: Part) -> str:
    """Say how many of these questions a reviewer judged, and how."""
    verdicts = part.verdicts
    if not verdicts:
        return "No reviewer judged them."
    done = {
        "approve": "approved",
        "correct": "corrected",
        "answerable": "found answerable though written unanswerable",
    }
    shown = ", ".join(f"{verdicts[v]} {word}" for v, word in done.items() if verdicts.get(v))
    return (
        f"A reviewer judged {sum(verdicts.values())} of them ({shown}); corrected "
        "questions appear in their corrected version. Rejected questions are not in this "
        "release."
    )


def _answered_again(part: Part) -> str:
    """Say how many dev and test questions got additional answers on the platform."""
    if not part.held:
        return ""
    return (
        f"Of their dev and test questions ({part.held}), {part.answered} got "
        "additional answers on the platform from other annotators, who did not see the "
        f"earlier answers ({part.twice} from two or more); those answers follow the original one."
    )


def _campaigns(part: Part, order: str):
    return with_ids(Campaign.objects.all(), part.campaigns).order_by(order)


def _unanswerable_said(part: Part) -> list[str]:
    """Say how many of these questions are unanswerable (only a v2.0 release has any)."""
    count = part.unanswerable
    if not count:
        return []
    one = count == 1
    return [
        "",
        f"Of these, {count} {'is' if one else 'are'} unanswerable: the paragraph does not "
        f"answer {'it' if one else 'them'}, and the files give no answer but a plausible one, "
        "the span a careless reader would give (SQuAD 2.0's `plausible_answers`).",
    ]


def _written_part(part: Part, options) -> list[str]:
    lines = [
        "### Written on the platform",
        "",
        f"{plural(part.questions, 'question')} ({_by_split(part)}). Paragraphs of at least "
        f"{_min_chars(options)} characters from the articles below were shown "
        "to annotators, one paragraph to one annotator, who wrote questions and selected for "
        "each the smallest span of the paragraph that answers it (offsets are Python code "
        "points).",
        *_unanswerable_said(part),
    ]
    for c in _campaigns(part, "pk"):
        lines.append(
            f"- Campaign {cell(c.name)}: {c.questions_min} to {c.questions_max} questions per "
            f"paragraph; {float(c.review_rate) * 100:.0f} % of each annotator's questions "
            f"sampled for review; splits {', '.join(c.splits)}."
        )
    lines += ["", _reviewed(part)]
    again = _answered_again(part)
    return lines + ([again, ""] if again else [""])


def _imported_part(part: Part) -> list[str]:
    sources = _campaigns(part, "name")
    lines = [
        "### Imported",
        "",
        f"{plural(part.questions, 'question')} ({_by_split(part)}), imported from an "
        f"existing dataset ({', '.join(cell(c.name) for c in sources)}), with the ids, "
        "questions and answers it gave: questions verbatim; an answer whose offset was wrong "
        "was moved to its text when that occurs once in the paragraph, and otherwise left out. "
        "They were not written on this platform: how they were collected is the source "
        "dataset's own account.",
        *_unanswerable_said(part),
        "",
        _reviewed(part),
    ]
    again = _answered_again(part)
    return lines + ([again, ""] if again else [""])


def _left_out_of_mrqa(options, files) -> list[str]:
    """Say how many unanswerable questions the MRQA files left out (MRQA has none)."""
    if not unanswerable_release(options) or "mrqa" not in options.formats:
        return []
    left = [
        (f.name, f.counts.get("left_out", 0))
        for f in files
        if f.name.startswith("mrqa-") and f.counts.get("left_out")
    ]
    total = sum(count for _name, count in left)
    detail = ", ".join(f"{count} from {name}" for name, count in left)
    said = f"{total} unanswerable questions ({detail})" if total else "no question"
    return [
        "MRQA has no unanswerable questions: the MRQA files leave them out, and a paragraph "
        f"left with none; they left out {said}. A split whose answers are held back keeps "
        "every question in its MRQA file, without answers, so that nothing tells which ones "
        "are unanswerable.",
        "",
    ]


def process_section(figures: SheetFigures, options, files=()) -> list[str]:
    """Say what really happened to the release's questions, part by part."""
    lines = ["## Collection process", ""]
    if figures.parts["written"].questions:
        lines += _written_part(figures.parts["written"], options)
    if figures.parts["imported"].questions:
        lines += _imported_part(figures.parts["imported"])
    if options.approved_only:
        lines += ["This release holds only questions a reviewer approved or corrected.", ""]
    if Split.TEST in options.splits and not options.include_test_answers:
        lines += [
            "The test answers are held back: the test files hold the questions only, and "
            "the answers stay on the platform to score submissions.",
            "",
        ]
    return lines + _left_out_of_mrqa(options, files)
