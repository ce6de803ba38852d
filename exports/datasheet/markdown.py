"""The release's datasheet (README.md): what is in it, how it was collected, whose text it is.

The counts follow the tables of the FQuAD paper (articles, paragraphs and questions per split
and wave; in a SQuAD v2.0 release, answerable and unanswerable questions as well, as the FQuAD
2.0 and SQuAD 2.0 papers count them); then question types, answer lengths, the collection
process (with how many unanswerable questions the MRQA files left out); the release's
language and what the platform has and lacks for it (core.languages: a piece it lacks is
said "not available", never filled with French's), the model in the loop
(`model_loop.py`; only in a release with questions written with one: its rounds, and per split
how often it was fooled) and the licence, with the URL and revision of every article whose text
the release contains (CC BY-SA attribution).
"""

from __future__ import annotations

from collections import Counter

from django.conf import settings

from annotation.models import Campaign, QuestionType
from annotation.selectors.differences import difference_table
from core.languages import Language, find, languages
from core.metric_modes import MODES, language_mode
from corpus.models import Article
from exports.dataset import with_ids
from exports.datasheet.figures import (
    SheetFigures,
    answer_type_counts,
    length_figures,
)
from exports.datasheet.model_loop import model_section
from exports.datasheet.process import process_section, unanswerable_release
from exports.datasheet.text import cell, percent, plural, table


def _counts(figures: SheetFigures, options) -> list[list]:
    """Per split and wave: articles, paragraphs, questions (and in a v2.0 release, how many
    of those are answerable and unanswerable)."""
    rows = []
    v2 = unanswerable_release(options)
    for split in options.splits:
        waves = figures.splits[split].waves
        for wave in sorted(waves):
            articles, paragraphs, questions, impossible = waves[wave]
            row = [split, wave, articles, paragraphs, questions]
            rows.append(row + [questions - impossible, impossible] if v2 else row)
    return rows


COUNT_COLUMNS = ["split", "wave", "articles", "paragraphs", "questions"]


QUESTION_TYPES_METHOD = (
    "Each question is typed by its question word, as in the FQuAD paper's table: rules on "
    'the French interrogative words (a word asked in place counts, as in "construit en '
    'quelle année ?"; "combien" makes how_many wherever it stands), the classifier of '
    "the platform's analysis page (`annotation/question_types.py`)."
)


def _types(figures: SheetFigures, options) -> list[list]:
    rows = []
    for split in options.splits:
        counts = figures.splits[split].types
        total = sum(counts.values())
        if total:
            rows.append([split] + [f"{100 * counts[t] / total:.1f}" for t in QuestionType.values])
    return rows


def release_language(options) -> Language | None:
    """The release's language entry (core.languages); None for a code the registry lacks."""
    return find(getattr(options, "language", "") or settings.WIKIPEDIA_LANGUAGE)


def language_section(options) -> list[str]:
    """Name the release's language and what the platform has and lacks for it."""
    entry = release_language(options)
    if entry is None:
        code = getattr(options, "language", "") or settings.WIKIPEDIA_LANGUAGE
        return ["## Language", "", f"`{cell(code)}`: not in the platform's registry.", ""]
    direction = "right to left" if entry.rtl else "left to right"
    rule = entry.paragraphs
    lines = [
        "## Language",
        "",
        f"{entry.name()} (`{entry.code}`, {entry.native_name}), written {direction}. "
        f"Paragraphs of at least {rule.min_chars(settings.CORPUS_MIN_PARAGRAPH_CHARS)} "
        f"characters: FQuAD's {settings.CORPUS_MIN_PARAGRAPH_CHARS} French characters times "
        f"the language's length ratio {rule.ratio:.3f} ({rule.basis}). Exact match and F1 "
        f"compare answers under the `{entry.metric}` normalization.",
        "",
    ]
    lines += [
        f"- Question types: {'FQuAD rules' if entry.question_types else 'not available'}",
        f"- Answer types: {_pipeline(entry.answer_types)}",
        f"- MRQA tokens: {_pipeline(entry.mrqa_tokens)}",
        "",
    ]
    return lines


def _pipeline(pipeline) -> str:
    return f"spaCy `{pipeline.model}`" if pipeline else "not available"


def question_types_section(figures: SheetFigures, options) -> list[str]:
    """The share of each question type per split, or why there is none."""
    entry = release_language(options)
    lines = ["## Question types (% of questions)", ""]
    if entry is not None and entry.question_types is None:
        having = ", ".join(e.name() for e in languages() if e.question_types)
        return lines + [
            f"Question types: not available for {entry.name()} (question-word rules exist "
            f"for {having} only).",
            "",
        ]
    return (
        lines
        + table(["split", *QuestionType.values], _types(figures, options))
        + [QUESTION_TYPES_METHOD, ""]
    )


def _answer_lengths(figures: SheetFigures, options) -> list[list]:
    rows = []
    for split in options.splits:
        words = figures.splits[split].answer_words
        if words:
            rows.append([split, *length_figures(words)])
    return rows


# The FQuAD paper's answer types in its order, named as the analysis page names them
# (evaluation.views.results.ANSWER_TYPE_LABELS; exports may not import evaluation).
ANSWER_TYPE_NAMES = {
    "date": "date",
    "number": "other number",
    "person": "person",
    "place": "place",
    "other_entity": "other proper noun",
    "common_noun": "common noun",
    "verb": "verb",
    "adjective": "adjective",
    "other": "other",
}
UNTYPED = ""


def _count_and_share(count: int, total: int) -> str:
    return f"{count} ({100 * count / total:.1f} %)" if total else "0"


def answer_types_section(figures: SheetFigures, options) -> list[str]:
    """The FQuAD paper's answer types of the release's original answers, per split and in
    all, from the types the dataset analysis stored (`Answer.answer_type`), naming the
    pipelines that typed them and how many answers are not typed yet."""
    entry = release_language(options)
    if entry is not None and entry.answer_types is None:
        return ["## Answer types", "", f"Answer types: not available for {entry.name()}.", ""]
    counts = answer_type_counts(figures)
    if not any(counts.values()):
        return []
    splits = [split for split in options.splits if counts.get(split)]
    by_kind, pipelines = _answer_type_tallies(counts, splits)
    untyped = by_kind["all"][UNTYPED]
    rows = _answer_type_rows(by_kind)
    who = _typed_by(pipelines)
    lines = [
        "## Answer types (original answers)",
        "",
        "The FQuAD paper's answer types, with SQuAD's method: each original answer is typed "
        "inside its paragraph (dates and other numbers first, by rules on the answer's text and "
        "tokens; proper nouns by their named-entity label; the rest by the part of speech of "
        "the answer's syntactic head). The types are those the platform's dataset analysis "
        f"stored, typed by {who}; a reviewer's correction of a span clears its type until the "
        "next analysis. Counts, then the share of the split's original answers.",
        "",
    ]
    if untyped:
        lines += [
            f"{plural(untyped, 'answer')} not yet typed: run the dataset analysis before "
            "releasing.",
            "",
        ]
    return lines + table(["answer type", *splits, "all"], rows)


def _answer_type_tallies(counts: dict[str, Counter], splits: list[str]) -> tuple[dict, Counter]:
    """Return the answers per type for each split and in "all", and the answers each
    pipeline typed."""
    by_kind = {split: Counter() for split in [*splits, "all"]}
    pipelines: Counter = Counter()
    for split in splits:
        for (kind, pipeline), number in counts[split].items():
            by_kind[split][kind] += number
            by_kind["all"][kind] += number
            if pipeline:
                pipelines[pipeline] += number
    return by_kind, pipelines


def _answer_type_rows(by_kind: dict[str, Counter]) -> list[list]:
    """One row per answer type (the paper's, then any other stored, then the untyped), each
    cell the count and share of its split's answers."""
    totals = {split: sum(by_kind[split].values()) for split in by_kind}

    def row(name: str, kind: str) -> list:
        return [name, *(_count_and_share(by_kind[s][kind], totals[s]) for s in by_kind)]

    rows = [row(name, kind) for kind, name in ANSWER_TYPE_NAMES.items()]
    others = set(by_kind["all"]) - set(ANSWER_TYPE_NAMES) - {UNTYPED}
    rows += [row(kind, kind) for kind in sorted(others)]  # a type no longer known, as stored
    if by_kind["all"][UNTYPED]:
        rows.append(row("not yet typed", UNTYPED))
    return rows


def _typed_by(pipelines: Counter) -> str:
    """Name the pipelines that typed the answers, the busiest first."""
    named = sorted(pipelines.items(), key=lambda item: (-item[1], item[0]))
    if len(named) == 1:
        return f"spaCy's `{named[0][0]}`"
    if named:
        return "several pipelines: " + ", ".join(
            f"`{pipeline}` ({plural(number, 'answer')})" for pipeline, number in named
        )
    return "no pipeline yet"


def _articles(figures: SheetFigures):
    return with_ids(Article.objects.all(), figures.articles).order_by("title", "pk")


# The labels as the datasheet writes them (in English, as the whole datasheet).
DIFFERENCE_NAMES = {
    "synonymy": "synonymy",
    "world_knowledge": "world knowledge",
    "syntactic_variation": "syntactic variation",
    "multiple_sentences": "multiple-sentence reasoning",
    "none": "none of them",
}


def _differences_section(figures: SheetFigures) -> list[str]:
    """The FQuAD paper's question–answer differences, labelled by hand on the sample of the
    release's dev questions (`annotation.selectors.differences`)."""
    if not figures.dev_questions:
        return []
    differences = difference_table(question_pks=figures.dev_questions)
    total = differences["total"]
    lines = [
        "## Question–answer differences (dev, labelled by hand)",
        "",
        f"The reasoning a reader needs between a question and the sentence of its answer, as "
        f"in the FQuAD paper: a seeded sample of {differences['sample_per_article']} dev questions "
        "per article, labelled by reviewers and admins on the platform (several labels may "
        "apply; a label counts when at least half of a question's labellers gave it). "
        f"{total['labelled']} of the {total['sampled']} sampled dev questions of this release "
        f"{'is' if total['labelled'] == 1 else 'are'} labelled.",
        "",
    ]
    if not total["labelled"]:
        return lines
    rows = [
        [DIFFERENCE_NAMES[label["label"]], label["count"], percent(label["percent"])]
        for label in total["labels"]
    ]
    return lines + table(["label", "questions", "% of the labelled"], rows)


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


def _empty_splits_line(empty) -> list[str]:
    """Say which splits have no data file: they hold no question."""
    if not empty:
        return []
    one = len(empty) == 1
    names = ", ".join(empty)
    return [
        f"No data file for the split{'' if one else 's'} {names}: "
        f"{'it holds' if one else 'they hold'} no question.",
        "",
    ]


def datasheet_markdown(
    *, name: str, version: str, options, files, figures: SheetFigures, empty=()
) -> str:
    """Return the release's README.md, from the figures the build gathered; `empty`: the
    splits that hold no question, so got no data file."""
    lines = [f"# {cell(name)} {cell(version)}", ""]
    lines += ["## Contents", ""]
    columns = COUNT_COLUMNS + (
        ["answerable", "unanswerable"] if unanswerable_release(options) else []
    )
    lines += table(columns, _counts(figures, options))
    lines += _campaigns_line(options)
    articles = list(_articles(figures))
    lines += metric_section(articles)
    lines += ["## Files", ""]
    lines += table(["file", "bytes", "sha256"], [[f.name, f.bytes, f.sha256] for f in files])
    lines += _empty_splits_line(empty)
    lines += language_section(options)
    lines += question_types_section(figures, options)
    lines += answer_types_section(figures, options)
    unit = "characters" if figures.characters else "words"
    lines += [f"## Answer lengths ({unit}, original answers)", ""]
    lines += table(["split", "answers", "mean", "median", "max"], _answer_lengths(figures, options))
    lines += _differences_section(figures)
    lines += process_section(figures, options, files)
    lines += model_section(figures, options)
    lines += [
        "## Licence and attribution",
        "",
        "The paragraphs are text of Wikipedia articles, available under the Creative Commons "
        "Attribution-ShareAlike licence (CC BY-SA 4.0); this release is shared under the same "
        "licence. The text of each article is by its Wikipedia contributors; the history of "
        "each article lists them, at the revision below where the source recorded it.",
        "",
    ]
    lines += table(["article", "URL", "revision"], [_attribution(a) for a in articles])
    return "\n".join(lines)


def metric_section(articles) -> list[str]:
    """Name the metric the release is scored with: its language's mode (core.metric_modes),
    the language with the most articles deciding, as the leaderboard's does."""
    languages = Counter(article.language for article in articles)
    if not languages:
        return []
    language = max(sorted(languages), key=languages.__getitem__)
    name = language_mode(language)
    version, description = MODES[name]
    return [
        "## Metric",
        "",
        f"Answers are scored with `{name}` (version {version}), the metric of the release's "
        f"language ({cell(language)}): {description}. The platform's `evaluate` command, "
        "leaderboard, human performance and baselines score with it.",
        "",
    ]


def _campaigns_line(options) -> list[str]:
    """A release of some campaigns names them under its counts (release-schedules.md)."""
    chosen = getattr(options, "campaigns", ())
    if not chosen:
        return []
    names = Campaign.objects.filter(pk__in=chosen).order_by("pk").values_list("pk", "name")
    return ["Campaigns: " + ", ".join(f"{cell(name)} (#{pk})" for pk, name in names), ""]
