"""The release's datasheet (README.md): what is in it, how it was collected, whose text it is.

The counts follow the tables of the FQuAD paper (articles, paragraphs and questions per split
and wave; in a SQuAD v2.0 release, answerable and unanswerable questions as well, as the FQuAD
2.0 and SQuAD 2.0 papers count them); then question types, answer lengths, the collection
process (with how many unanswerable questions the MRQA files left out), the model in the loop
(only in a release with questions written with one: its rounds, and per split how often it was
fooled) and the licence, with the URL and revision of every article whose text the release
contains (CC BY-SA attribution).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from django.conf import settings

from annotation.models import Campaign, Lease, ModelRound, QuestionType, Review
from annotation.selectors.differences import difference_table
from corpus.models import Article, Split
from exports.dataset import QuestionRow, with_ids

HELD = (Split.DEV, Split.TEST)  # the splits whose questions get additional answers


@dataclass
class _Split:
    """What the datasheet says of one split, counted row by row."""

    # wave -> [articles, paragraphs, questions, unanswerable questions]
    waves: dict = field(default_factory=lambda: defaultdict(lambda: [0, 0, 0, 0]))
    types: Counter = field(default_factory=Counter)
    answer_words: Counter = field(default_factory=Counter)  # words of an answer -> answers
    # (answer type, pipeline) stored on an original answer -> answers
    answer_types: Counter = field(default_factory=Counter)


@dataclass
class _Part:
    """What the collection process says of the questions written here, or of the imported."""

    by_split: Counter = field(default_factory=Counter)
    unanswerable: int = 0
    campaigns: set = field(default_factory=set)
    verdicts: Counter = field(default_factory=Counter)  # verdict -> questions given it
    held: int = 0  # dev and test questions
    answered: int = 0  # of those, with an additional answer given on the platform
    twice: int = 0  # with two or more

    @property
    def questions(self) -> int:
        return sum(self.by_split.values())


@dataclass
class _ModelSplit:
    """The model in the loop on one split's questions written with it."""

    questions: int = 0
    answered: int = 0  # the model answered (not unavailable)
    fooled: int = 0
    reviewed: int = 0  # a reviewer judged them
    validated: int = 0  # fooled, and approved (or corrected and still fooled) by a reviewer
    attempts: int = 0

    def as_dict(self) -> dict:
        return {
            "questions": self.questions,
            "answered": self.answered,
            "fooled": self.fooled,
            "fooling_rate": _rate(self.fooled, self.answered),
            "reviewed": self.reviewed,
            "validated_fooled": self.validated,
            "attempts_mean": round(self.attempts / self.questions, 2) if self.questions else None,
        }


def _rate(part: int, whole: int) -> float | None:
    return round(100 * part / whole, 1) if whole else None


# The verdicts that validate a fooled question: approved, or corrected (its figures computed
# again against the corrected answer, so "fooled" is still true after the correction).
VALIDATING = {Review.Verdict.APPROVE, Review.Verdict.CORRECT, Review.Verdict.ANSWERABLE}


class SheetFigures:
    """The datasheet's figures, gathered while the release's files are written.

    The build passes each split's question rows through `count` on their way to the writers,
    so the datasheet needs no query of its own over the questions: per chunk of rows, one
    query for their reviews and, on dev and test, one for their additional-answer leases;
    at the end, the campaigns and the articles by id (and the model rounds, if any question
    was written with a model in the loop).
    """

    def __init__(self) -> None:
        self.splits: dict[str, _Split] = {}
        self.parts = {"written": _Part(), "imported": _Part()}
        self.articles: set[int] = set()
        self.model: dict[str, _ModelSplit] = {}  # split -> figures, where any
        self.model_rounds: Counter = Counter()  # ModelRound id -> questions
        self._rounds: list | None = None
        self.dev_questions: list[int] = []  # the differences' sample is drawn from dev

    def count(self, split: str, chunks: Iterable[list[QuestionRow]]) -> Iterator[list[QuestionRow]]:
        """Yield `chunks` unchanged, counting them for the split."""
        figures = self.splits.setdefault(split, _Split())
        parts = {False: self.parts["written"], True: self.parts["imported"]}
        article = paragraph = None
        # Bound once: this loop runs for every question of the release.
        waves, types, words = figures.waves, figures.types, figures.answer_words
        answer_types, articles = figures.answer_types, self.articles
        dev = self.dev_questions if split == Split.DEV else None
        for chunk in chunks:
            part_of = {}
            for row in chunk:
                wave = waves[row.wave]  # [articles, paragraphs, questions, unanswerable]
                if row.article_id != article:  # rows come article by article
                    article = row.article_id
                    wave[0] += 1
                    articles.add(article)
                if row.paragraph_id != paragraph:
                    paragraph = row.paragraph_id
                    wave[1] += 1
                wave[2] += 1
                types[row.question_type] += 1
                if row.originals:
                    for answer in row.answers[: row.originals]:
                        words[len(answer.text.split())] += 1
                    for answer_type in row.original_types:
                        answer_types[answer_type] += 1
                part = part_of[row.pk] = parts[row.imported]
                if row.is_impossible:
                    wave[3] += 1
                    part.unanswerable += 1
                elif dev is not None:
                    dev.append(row.pk)
                part.campaigns.add(row.campaign_id)
            imported = sum(1 for part in part_of.values() if part is parts[True])
            parts[True].by_split[split] += imported
            parts[False].by_split[split] += len(part_of) - imported
            with_model = [row for row in chunk if row.model is not None]
            verdicts = self._reviews(part_of, {row.pk for row in with_model})
            if with_model:
                self._count_model(split, with_model, verdicts)
            if split in HELD:
                self._additional_answers(part_of)
            yield chunk

    @staticmethod
    def _reviews(part_of: dict[int, _Part], keep: set[int]) -> dict[int, set[str]]:
        """Count, per verdict, the questions a reviewer gave it; return the verdicts of the
        questions in `keep` (those written with a model in the loop)."""
        reviews = with_ids(Review.objects.all(), part_of, "question")
        kept = defaultdict(set)
        for question_pk, verdict in reviews.values_list("question_id", "verdict").distinct():
            part_of[question_pk].verdicts[verdict] += 1
            if question_pk in keep:
                kept[question_pk].add(verdict)
        return kept

    def _count_model(self, split: str, rows: list[QuestionRow], verdicts: dict) -> None:
        figures = self.model.setdefault(split, _ModelSplit())
        for row in rows:
            model = row.model
            figures.questions += 1
            figures.answered += model.answered
            figures.fooled += bool(model.fooled)
            figures.attempts += model.attempts
            self.model_rounds[row.model_round_id] += 1
            given = verdicts.get(row.pk)
            if given:
                figures.reviewed += 1
                figures.validated += bool(model.fooled) and bool(given & VALIDATING)

    def rounds(self) -> list[tuple[str, int, str, float, int]]:
        """Return the model rounds of the questions counted: (campaign, round, model label,
        F1 threshold, questions), by campaign name and round (one query, made once)."""
        if self._rounds is None:
            self._rounds = []
            if self.model_rounds:
                rounds = with_ids(ModelRound.objects.all(), self.model_rounds).order_by(
                    "campaign__name", "campaign_id", "number"
                )
                self._rounds = [
                    (campaign, number, label, float(threshold), self.model_rounds[pk])
                    for pk, campaign, number, label, threshold in rounds.values_list(
                        "pk", "campaign__name", "number", "label", "f1_threshold"
                    )
                ]
        return self._rounds

    @staticmethod
    def _additional_answers(part_of: dict[int, _Part]) -> None:
        """Count the questions given additional answers on the platform (submitted leases)."""
        leases = Lease.objects.filter(kind=Lease.Kind.ANSWER, status=Lease.Status.SUBMITTED)
        given = with_ids(leases, part_of, "question").values_list("question_id", flat=True)
        per_question = Counter(given)
        for question_pk, part in part_of.items():
            part.held += 1
            part.answered += per_question[question_pk] >= 1
            part.twice += per_question[question_pk] >= 2


def _cell(text) -> str:
    """Return text safe inside a Markdown table cell."""
    return str(text).replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def _table(header: list[str], rows: list[list]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
    lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return lines + [""]


def _counts(figures: SheetFigures, options) -> list[list]:
    """Per split and wave: articles, paragraphs, questions (and in a v2.0 release, how many
    of those are answerable and unanswerable)."""
    rows = []
    v2 = _unanswerable_release(options)
    for split in options.splits:
        waves = figures.splits[split].waves
        for wave in sorted(waves):
            articles, paragraphs, questions, impossible = waves[wave]
            row = [split, wave, articles, paragraphs, questions]
            rows.append(row + [questions - impossible, impossible] if v2 else row)
    return rows


def _unanswerable_release(options) -> bool:
    return getattr(options, "squad_version", "1.1") == "2.0"


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


def _answer_lengths(figures: SheetFigures, options) -> list[list]:
    rows = []
    for split in options.splits:
        words = figures.splits[split].answer_words
        if words:
            rows.append([split, *length_figures(words)])
    return rows


def length_figures(counts: Counter) -> list:
    """Return [n, mean (2 decimals), median, max] of the values `counts` tallies.

    They read as `statistics` gives them for the list of values: the median is the middle
    value (an int) when n is odd, else the mean of the two middle ones (a float); the mean
    is the correctly rounded quotient of the sum.
    """
    n = sum(counts.values())
    mean = sum(value * count for value, count in counts.items()) / n
    ordered = sorted(counts.items())

    def value_at(index: int) -> int:
        seen = 0
        for value, count in ordered:
            seen += count
            if index < seen:
                return value
        raise IndexError(index)

    middle = value_at(n // 2)
    median = middle if n % 2 else (value_at(n // 2 - 1) + middle) / 2
    return [n, f"{mean:.2f}", median, ordered[-1][0]]


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


def answer_type_counts(figures: SheetFigures) -> dict[str, Counter]:
    """Return, per split, how many of the release's original answers have each (type,
    pipeline) stored, (UNTYPED, UNTYPED) for those not yet typed: counted during the pass
    (the answers' query reads them), no query of its own."""
    return {split: part.answer_types for split, part in figures.splits.items()}


def _count_and_share(count: int, total: int) -> str:
    return f"{count} ({100 * count / total:.1f} %)" if total else "0"


def answer_types_section(figures: SheetFigures, options) -> list[str]:
    """The FQuAD paper's answer types of the release's original answers, per split and in
    all, from the types the dataset analysis stored (`Answer.answer_type`), naming the
    pipelines that typed them and how many answers are not typed yet."""
    counts = answer_type_counts(figures)
    if not any(counts.values()):
        return []
    splits = [split for split in options.splits if counts.get(split)]
    by_kind = {split: Counter() for split in [*splits, "all"]}
    pipelines: Counter = Counter()
    for split in splits:
        for (kind, pipeline), number in counts[split].items():
            by_kind[split][kind] += number
            by_kind["all"][kind] += number
            if pipeline:
                pipelines[pipeline] += number
    totals = {split: sum(by_kind[split].values()) for split in by_kind}
    untyped = by_kind["all"][UNTYPED]
    rows = [
        [name, *(_count_and_share(by_kind[split][kind], totals[split]) for split in by_kind)]
        for kind, name in ANSWER_TYPE_NAMES.items()
    ]
    others = set(by_kind["all"]) - set(ANSWER_TYPE_NAMES) - {UNTYPED}
    for kind in sorted(others):  # a type this platform no longer knows, kept as stored
        rows.append([kind, *(_count_and_share(by_kind[s][kind], totals[s]) for s in by_kind)])
    if untyped:
        rows.append(
            ["not yet typed", *(_count_and_share(by_kind[s][UNTYPED], totals[s]) for s in by_kind)]
        )
    named = sorted(pipelines.items(), key=lambda item: (-item[1], item[0]))
    if len(named) == 1:
        who = f"spaCy's `{named[0][0]}`"
    elif named:
        who = "several pipelines: " + ", ".join(
            f"`{pipeline}` ({_n(number, 'answer')})" for pipeline, number in named
        )
    else:
        who = "no pipeline yet"
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
            f"{_n(untyped, 'answer')} not yet typed: run the dataset analysis before releasing.",
            "",
        ]
    return lines + _table(["answer type", *splits, "all"], rows)


def _articles(figures: SheetFigures):
    return with_ids(Article.objects.all(), figures.articles).order_by("title", "pk")


def _n(count: int, noun: str) -> str:
    """Return "1 question" or "3 questions" (the datasheet is written in English)."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _by_split(part: _Part) -> str:
    counts = part.by_split
    return ", ".join(f"{split} {counts[split]}" for split in Split.values if counts.get(split))


def _reviewed(part: _Part) -> str:
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


def _answered_again(part: _Part) -> str:
    """Say how many dev and test questions got additional answers on the platform."""
    if not part.held:
        return ""
    return (
        f"Of their dev and test questions ({part.held}), {part.answered} got "
        "additional answers on the platform from other annotators, who did not see the "
        f"earlier answers ({part.twice} from two or more); those answers follow the original one."
    )


def _campaigns(part: _Part, order: str):
    return with_ids(Campaign.objects.all(), part.campaigns).order_by(order)


def _unanswerable_said(part: _Part) -> list[str]:
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


def _written_part(part: _Part) -> list[str]:
    lines = [
        "### Written on the platform",
        "",
        f"{_n(part.questions, 'question')} ({_by_split(part)}). Paragraphs of at least "
        f"{settings.CORPUS_MIN_PARAGRAPH_CHARS} characters from the articles below were shown "
        "to annotators, one paragraph to one annotator, who wrote questions and selected for "
        "each the smallest span of the paragraph that answers it (offsets are Python code "
        "points).",
        *_unanswerable_said(part),
    ]
    for c in _campaigns(part, "pk"):
        lines.append(
            f"- Campaign {_cell(c.name)}: {c.questions_min} to {c.questions_max} questions per "
            f"paragraph; {float(c.review_rate) * 100:.0f} % of each annotator's questions "
            f"sampled for review; splits {', '.join(c.splits)}."
        )
    lines += ["", _reviewed(part)]
    again = _answered_again(part)
    return lines + ([again, ""] if again else [""])


def _imported_part(part: _Part) -> list[str]:
    sources = _campaigns(part, "name")
    lines = [
        "### Imported",
        "",
        f"{_n(part.questions, 'question')} ({_by_split(part)}), imported from an "
        f"existing dataset ({', '.join(_cell(c.name) for c in sources)}), with the ids, "
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
    if not _unanswerable_release(options) or "mrqa" not in options.formats:
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


def _process(figures: SheetFigures, options, files=()) -> list[str]:
    """Say what really happened to the release's questions, part by part."""
    lines = ["## Collection process", ""]
    if figures.parts["written"].questions:
        lines += _written_part(figures.parts["written"])
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


def model_in_the_loop_figures(figures: SheetFigures, splits=None) -> dict | None:
    """Return the model-in-the-loop figures of the release (the manifest's
    `model_in_the_loop`), or None when no question was written with a model."""
    if not figures.model:
        return None
    splits = splits or [split for split in Split.values if split in figures.splits]
    return {
        "rounds": [
            {
                "campaign": campaign,
                "round": number,
                "model": label,
                "f1_threshold": threshold,
                "questions": questions,
            }
            for campaign, number, label, threshold, questions in figures.rounds()
        ],
        "splits": {
            split: figures.model.get(split, _ModelSplit()).as_dict()
            for split in splits
            if split in figures.splits and figures.splits[split].waves  # it has questions
        },
    }


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
    table = difference_table(question_pks=figures.dev_questions)
    total = table["total"]
    lines = [
        "## Question–answer differences (dev, labelled by hand)",
        "",
        f"The reasoning a reader needs between a question and the sentence of its answer, as "
        f"in the FQuAD paper: a seeded sample of {table['sample_per_article']} dev questions "
        "per article, labelled by reviewers and admins on the platform (several labels may "
        "apply; a label counts when at least half of a question's labellers gave it). "
        f"{total['labelled']} of the {total['sampled']} sampled dev questions of this release "
        f"{'is' if total['labelled'] == 1 else 'are'} labelled.",
        "",
    ]
    if not total["labelled"]:
        return lines
    rows = [
        [DIFFERENCE_NAMES[label["label"]], label["count"], _percent(label["percent"])]
        for label in total["labels"]
    ]
    return lines + _table(["label", "questions", "% of the labelled"], rows)


def _percent(value: float | None) -> str:
    return "–" if value is None else f"{value:.1f}"


def _model_section(figures: SheetFigures, options) -> list[str]:
    """Say which models were in the loop and how often each split's questions fooled them."""
    summary = model_in_the_loop_figures(figures, options.splits)
    if summary is None:
        return []
    total = sum(split["questions"] for split in summary["splits"].values())
    lines = [
        "## Model in the loop",
        "",
        f"{_n(total, 'question')} of this release {'was' if total == 1 else 'were'} written "
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
    lines += _table(
        ["campaign", "round", "model", "F1 threshold (%)", "questions"],
        [
            [campaign, number, label, f"{threshold:g}", questions]
            for campaign, number, label, threshold, questions in figures.rounds()
        ],
    )
    rows = []
    for split, counts in summary["splits"].items():
        rows.append(
            [
                split,
                counts["questions"],
                counts["answered"],
                counts["fooled"],
                _percent(counts["fooling_rate"]),
                counts["reviewed"],
                counts["validated_fooled"],
                "–" if counts["attempts_mean"] is None else f"{counts['attempts_mean']:.2f}",
            ]
        )
    lines += _table(
        [
            "split",
            "questions with a model",
            "answered by it",
            "fooled",
            "fooling rate (% of answered)",
            "reviewed",
            "validated fooled",
            "attempts per question",
        ],
        rows,
    )
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


def datasheet_markdown(*, name: str, version: str, options, files, figures: SheetFigures) -> str:
    """Return the release's README.md, from the figures the build gathered."""
    lines = [f"# {_cell(name)} {_cell(version)}", ""]
    lines += ["## Contents", ""]
    columns = COUNT_COLUMNS + (
        ["answerable", "unanswerable"] if _unanswerable_release(options) else []
    )
    lines += _table(columns, _counts(figures, options))
    lines += _campaigns_line(options)
    lines += ["## Files", ""]
    lines += _table(["file", "bytes", "sha256"], [[f.name, f.bytes, f.sha256] for f in files])
    lines += ["## Question types (% of questions)", ""]
    lines += _table(["split", *QuestionType.values], _types(figures, options))
    lines += [QUESTION_TYPES_METHOD, ""]
    lines += answer_types_section(figures, options)
    lines += ["## Answer lengths (words, original answers)", ""]
    lines += _table(
        ["split", "answers", "mean", "median", "max"], _answer_lengths(figures, options)
    )
    lines += _differences_section(figures)
    lines += _process(figures, options, files)
    lines += _model_section(figures, options)
    lines += [
        "## Licence and attribution",
        "",
        "The paragraphs are text of Wikipedia articles, available under the Creative Commons "
        "Attribution-ShareAlike licence (CC BY-SA 4.0); this release is shared under the same "
        "licence. The text of each article is by its Wikipedia contributors; the history of "
        "each article lists them, at the revision below where the source recorded it.",
        "",
    ]
    lines += _table(["article", "URL", "revision"], [_attribution(a) for a in _articles(figures)])
    return "\n".join(lines)


def _campaigns_line(options) -> list[str]:
    """A release of some campaigns names them under its counts (release-schedules.md)."""
    chosen = getattr(options, "campaigns", ())
    if not chosen:
        return []
    names = Campaign.objects.filter(pk__in=chosen).order_by("pk").values_list("pk", "name")
    return ["Campaigns: " + ", ".join(f"{_cell(name)} (#{pk})" for pk, name in names), ""]
