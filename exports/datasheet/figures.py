"""The datasheet's figures, gathered while the release's files are written: per split and
wave the counts, question types, answer lengths and answer types; the collection process's
parts (written on the platform, imported); the model in the loop.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from annotation.models import Lease, ModelRound, Review
from corpus.models import Split
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
class Part:
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

    def __init__(self, *, characters: bool = False) -> None:
        # Answer lengths in characters where the language writes no space between words
        # (core.languages: `splitting.words == "tokenizer"`, Chinese and Thai), else in words.
        self.characters = characters
        self.splits: dict[str, _Split] = {}
        self.parts = {"written": Part(), "imported": Part()}
        self.articles: set[int] = set()
        self.model: dict[str, _ModelSplit] = {}  # split -> figures, where any
        self.model_rounds: Counter = Counter()  # ModelRound id -> questions
        self._rounds: list | None = None
        self.dev_questions: list[int] = []  # the differences' sample is drawn from dev

    def count(self, split: str, chunks: Iterable[list[QuestionRow]]) -> Iterator[list[QuestionRow]]:
        """Yield `chunks` unchanged, counting them for the split."""
        figures = self.splits.setdefault(split, _Split())
        parts = {False: self.parts["written"], True: self.parts["imported"]}
        dev = self.dev_questions if split == Split.DEV else None
        last = [None, None]  # the article and paragraph of the row counted last
        for chunk in chunks:
            part_of = self._count_rows(figures, chunk, parts, dev, last)
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

    def _count_rows(self, figures: _Split, chunk, parts: dict, dev, last: list) -> dict:
        """Count one chunk's rows into the split's figures and parts; return each question's
        part. `last` carries the article and paragraph of the row before, chunk to chunk."""
        article, paragraph = last
        # Bound once a chunk: this loop runs for every question of the release.
        waves, types, words = figures.waves, figures.types, figures.answer_words
        answer_types, articles = figures.answer_types, self.articles
        length = len if self.characters else (lambda text: len(text.split()))
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
                    words[length(answer.text)] += 1
                for answer_type in row.original_types:
                    answer_types[answer_type] += 1
            part = part_of[row.pk] = parts[row.imported]
            if row.is_impossible:
                wave[3] += 1
                part.unanswerable += 1
            elif dev is not None:
                dev.append(row.pk)
            part.campaigns.add(row.campaign_id)
        last[:] = article, paragraph
        return part_of

    @staticmethod
    def _reviews(part_of: dict[int, Part], keep: set[int]) -> dict[int, set[str]]:
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
    def _additional_answers(part_of: dict[int, Part]) -> None:
        """Count the questions given additional answers on the platform (submitted leases)."""
        leases = Lease.objects.filter(kind=Lease.Kind.ANSWER, status=Lease.Status.SUBMITTED)
        given = with_ids(leases, part_of, "question").values_list("question_id", flat=True)
        per_question = Counter(given)
        for question_pk, part in part_of.items():
            part.held += 1
            part.answered += per_question[question_pk] >= 1
            part.twice += per_question[question_pk] >= 2


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


def answer_type_counts(figures: SheetFigures) -> dict[str, Counter]:
    """Return, per split, how many of the release's original answers have each (type,
    pipeline) stored, (UNTYPED, UNTYPED) for those not yet typed: counted during the pass
    (the answers' query reads them), no query of its own."""
    return {split: part.answer_types for split, part in figures.splits.items()}


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
