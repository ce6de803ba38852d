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

from annotation.models import Answer, Campaign, QuestionType
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


def _campaigns(options):
    """Return the questions campaigns whose questions are in the release."""
    ids = set()
    for split in options.splits:
        questions = selected_questions(Selection(split, options.approved_only)).order_by()
        ids.update(questions.values_list("campaign_id", flat=True).distinct())
    return Campaign.objects.filter(pk__in=ids).order_by("pk")


def _process(options) -> list[str]:
    lines = ["## Collection process", ""]
    lines.append(
        f"Paragraphs of at least {settings.CORPUS_MIN_PARAGRAPH_CHARS} characters from the "
        "articles below were shown to annotators, one paragraph to one annotator, who wrote "
        "questions and selected for each the smallest span of the paragraph that answers it "
        "(offsets are Python code points). Questions imported from an earlier dataset keep "
        "their ids and answers."
    )
    campaigns = _campaigns(options)
    for c in campaigns:
        lines.append(
            f"- Campaign {_cell(c.name)}: {c.questions_min} to {c.questions_max} questions per "
            f"paragraph; {float(c.review_rate) * 100:.0f} % of each annotator's questions "
            f"sampled for review; splits {', '.join(c.splits)}."
        )
    lines += [
        "",
        "Reviewers approved, rejected or corrected the sampled questions; rejected questions "
        "are not in this release; corrected ones appear in their corrected version. On dev and "
        "test, other annotators answered each question again without seeing earlier answers; "
        "those additional answers follow the original one in each question's answers.",
        "",
    ]
    if options.approved_only:
        lines += ["This release holds only questions a reviewer approved or corrected.", ""]
    if Split.TEST in options.splits and not options.include_test_answers:
        lines += [
            "The test answers are held back: the test files hold the questions only, and "
            "the answers stay on the platform to score submissions.",
            "",
        ]
    return lines


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
        "each article, at the revision below, lists them.",
        "",
    ]
    lines += _table(
        ["article", "URL", "revision"],
        [[a.title, a.url or "—", a.revision_id or "—"] for a in _articles(options)],
    )
    return "\n".join(lines)
