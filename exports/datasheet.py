"""The release's datasheet (README.md): what is in it, how it was collected, whose text it is.

The counts follow the tables of the FQuAD paper (articles, paragraphs and questions per split
and wave); then question types, answer lengths, the collection process and the licence, with
the URL and revision of every article whose text the release contains (CC BY-SA attribution).
"""

from __future__ import annotations

import statistics
from collections import Counter

from django.conf import settings
from django.db.models import Count

from annotation.models import Answer, Campaign, Lease, QuestionType, Review
from annotation.selectors.questions import dataset_questions
from corpus.models import Article, Split
from exports.dataset import Selection, selected_questions


def _cell(text) -> str:
    """Return text safe inside a Markdown table cell."""
    return str(text).replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def _table(header: list[str], rows: list[list]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
    lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return lines + [""]


def _counts(options) -> list[list]:
    rows = []
    for split in options.splits:
        questions = selected_questions(Selection(split, options.approved_only)).order_by()
        waves = questions.values("paragraph__article__wave").annotate(
            articles=Count("paragraph__article", distinct=True),
            paragraphs=Count("paragraph", distinct=True),
            questions=Count("pk"),
        )
        for wave in sorted(waves, key=lambda w: w["paragraph__article__wave"]):
            rows.append(
                [
                    split,
                    wave["paragraph__article__wave"],
                    wave["articles"],
                    wave["paragraphs"],
                    wave["questions"],
                ]
            )
    return rows


def _types(options) -> list[list]:
    rows = []
    for split in options.splits:
        questions = selected_questions(Selection(split, options.approved_only)).order_by()
        counts = Counter(dict(questions.values_list("question_type").annotate(n=Count("pk"))))
        total = sum(counts.values())
        if total:
            rows.append([split] + [f"{100 * counts[t] / total:.1f}" for t in QuestionType.values])
    return rows


def _answer_lengths(options) -> list[list]:
    rows = []
    for split in options.splits:
        ids = selected_questions(Selection(split, options.approved_only)).values("pk")
        texts = Answer.objects.filter(
            question__in=ids, kind=Answer.Kind.ORIGINAL, misaligned=False
        ).values_list("text", flat=True)
        words = [len(text.split()) for text in texts.iterator(chunk_size=5000)]
        if words:
            rows.append(
                [
                    split,
                    len(words),
                    f"{statistics.mean(words):.2f}",
                    statistics.median(words),
                    max(words),
                ]
            )
    return rows


def _articles(options):
    ids = set()
    for split in options.splits:
        questions = selected_questions(Selection(split, options.approved_only)).order_by()
        ids.update(questions.values_list("paragraph__article_id", flat=True).distinct())
    return Article.objects.filter(pk__in=ids).order_by("title", "pk")


def _released(options):
    """Return every question in the release, all splits (the release's own rule)."""
    questions = dataset_questions(approved_only=options.approved_only)
    return questions.filter(paragraph__article__split__in=options.splits)


def _n(count: int, noun: str) -> str:
    """Return "1 question" or "3 questions" (the datasheet is written in English)."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _by_split(questions) -> str:
    counts = dict(
        questions.order_by()
        .values_list("paragraph__article__split")
        .annotate(n=Count("pk"))
        .values_list("paragraph__article__split", "n")
    )
    return ", ".join(f"{split} {counts[split]}" for split in Split.values if counts.get(split))


def _reviewed(questions) -> str:
    """Say how many of these questions a reviewer judged, and how."""
    verdicts = dict(
        Review.objects.filter(question__in=questions)
        .values_list("verdict")
        .annotate(n=Count("question", distinct=True))
        .values_list("verdict", "n")
    )
    if not verdicts:
        return "No reviewer judged them."
    done = {"approve": "approved", "correct": "corrected"}
    shown = ", ".join(f"{verdicts[v]} {word}" for v, word in done.items() if verdicts.get(v))
    return (
        f"A reviewer judged {sum(verdicts.values())} of them ({shown}); corrected "
        "questions appear in their corrected version. Rejected questions are not in this "
        "release."
    )


def _answered_again(questions) -> str:
    """Say how many dev and test questions got additional answers on the platform."""
    held = questions.filter(paragraph__article__split__in=[Split.DEV, Split.TEST])
    if not held.exists():
        return ""
    given = Lease.objects.filter(
        kind=Lease.Kind.ANSWER, status=Lease.Status.SUBMITTED, question__in=held
    )
    per_question = Counter(given.values_list("question_id", flat=True))
    twice = sum(1 for n in per_question.values() if n >= 2)
    return (
        f"Of their dev and test questions ({held.count()}), {len(per_question)} got "
        "additional answers on the platform from other annotators, who did not see the "
        f"earlier answers ({twice} from two or more); those answers follow the original one."
    )


def _written_part(questions) -> list[str]:
    lines = [
        "### Written on the platform",
        "",
        f"{_n(questions.count(), 'question')} ({_by_split(questions)}). Paragraphs of at least "
        f"{settings.CORPUS_MIN_PARAGRAPH_CHARS} characters from the articles below were shown "
        "to annotators, one paragraph to one annotator, who wrote questions and selected for "
        "each the smallest span of the paragraph that answers it (offsets are Python code "
        "points).",
    ]
    campaigns = Campaign.objects.filter(questions__in=questions).distinct().order_by("pk")
    for c in campaigns:
        lines.append(
            f"- Campaign {_cell(c.name)}: {c.questions_min} to {c.questions_max} questions per "
            f"paragraph; {float(c.review_rate) * 100:.0f} % of each annotator's questions "
            f"sampled for review; splits {', '.join(c.splits)}."
        )
    lines += ["", _reviewed(questions)]
    again = _answered_again(questions)
    return lines + ([again, ""] if again else [""])


def _imported_part(questions) -> list[str]:
    sources = Campaign.objects.filter(questions__in=questions).distinct().order_by("name")
    lines = [
        "### Imported",
        "",
        f"{_n(questions.count(), 'question')} ({_by_split(questions)}), imported from an "
        f"existing dataset ({', '.join(_cell(c.name) for c in sources)}), with the ids, "
        "questions and answers it gave: questions verbatim; an answer whose offset was wrong "
        "was moved to its text when that occurs once in the paragraph, and otherwise left out. "
        "They were not written on this platform: how they were collected is the source "
        "dataset's own account.",
        "",
        _reviewed(questions),
    ]
    again = _answered_again(questions)
    return lines + ([again, ""] if again else [""])


def _process(options) -> list[str]:
    """Say what really happened to the release's questions, part by part."""
    released = _released(options)
    imported = released.exclude(source_id="")
    written = released.filter(source_id="")
    lines = ["## Collection process", ""]
    if written.exists():
        lines += _written_part(written)
    if imported.exists():
        lines += _imported_part(imported)
    if options.approved_only:
        lines += ["This release holds only questions a reviewer approved or corrected.", ""]
    if Split.TEST in options.splits and not options.include_test_answers:
        lines += [
            "The test answers are held back: the test files hold the questions only, and "
            "the answers stay on the platform to score submissions.",
            "",
        ]
    return lines


def _attribution(article: Article) -> list:
    """Return a licence row: the article, its address, its revision (or why it is unknown)."""
    if article.url and article.revision_id:
        return [article.title, article.url, article.revision_id]
    if article.url:
        return [article.title, article.url, "not recorded"]
    return [
        article.title,
        article.attribution_url,
        "unknown: imported with its title only; the address is made from it",
    ]


def datasheet_markdown(*, name: str, version: str, options, files) -> str:
    """Return the release's README.md."""
    lines = [f"# {_cell(name)} {_cell(version)}", ""]
    lines += ["## Contents", ""]
    lines += _table(["split", "wave", "articles", "paragraphs", "questions"], _counts(options))
    lines += ["## Files", ""]
    lines += _table(["file", "bytes", "sha256"], [[f.name, f.bytes, f.sha256] for f in files])
    lines += ["## Question types (% of questions)", ""]
    lines += _table(["split", *QuestionType.values], _types(options))
    lines += ["## Answer lengths (words, original answers)", ""]
    lines += _table(["split", "answers", "mean", "median", "max"], _answer_lengths(options))
    lines += _process(options)
    lines += [
        "## Licence and attribution",
        "",
        "The paragraphs are text of Wikipedia articles, available under the Creative Commons "
        "Attribution-ShareAlike licence (CC BY-SA 4.0); this release is shared under the same "
        "licence. The text of each article is by its Wikipedia contributors; the history of "
        "each article lists them, at the revision below where the source recorded it.",
        "",
    ]
    lines += _table(["article", "URL", "revision"], [_attribution(a) for a in _articles(options)])
    return "\n".join(lines)
