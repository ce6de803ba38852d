"""Human performance, FQuAD's way, from the answers stored in the database.

For each question with exactly three answers (the author's, now in its latest reviewed
version, and two additional answers), each answer in turn is the prediction and the two others
the ground truth; EM and F1 use the normalization of the language's metric mode (FQuAD's French
one for French: `evaluation.metrics.language_normalization`, from the registry of
languages), best over the ground truths; the three runs are averaged, then the questions.
The figures are given per split and per annotator (an annotator's figure is the mean over
the answers they gave).

The questions are those that count in releases (`dataset_questions`: never a rejected one,
nor one without an answer to show). Left out: questions that have no additional answer yet.
Left out and counted: questions where an additional annotator said the paragraph does not answer the
question ("unanswerable"; the paper's method compares three spans), and questions that have
an additional answer but not three answers in all yet ("skipped").

Beside it, "v2": human performance the SQuAD 2.0 way, over the questions of a v2.0 dataset
(`dataset_questions(unanswerable=True)`: unanswerable questions too). A question's three
judgments are its author's (the original answer, or "" for an unanswerable question) and the
two additional answers ("" for "no answer"); each in turn is scored against the two others with
v2.0's rules (`evaluation.metrics.leave_one_out_v2`: the others' non-empty answers, else [""]),
the three runs averaged, then the questions: "exact", "f1" and "total" overall, and HasAns_* /
NoAns_* by the question's `is_impossible`, in percent (None without a question), with
"skipped", the questions that do not have three judgments yet. The v1.1 figures above are
unchanged: answerable questions only, and a "no answer" leaves a question out.
"""

from __future__ import annotations

from collections import defaultdict
from itertools import groupby

from django.conf import settings
from django.db.models import Exists, Max, OuterRef

from annotation.models import Answer, Review
from annotation.selectors.questions import dataset_questions
from core.figures import Figure, bounded_count
from core.languages import LANGUAGES, find
from corpus.selectors import hand_moved_articles
from evaluation.metrics import (
    FQUAD_FR,
    HUMAN_ANSWERS,
    human_performance,
    language_normalization,
    leave_one_out,
    leave_one_out_v2,
)

# d'Hoffschmidt et al. 2020, FQuAD (Findings of EMNLP 2020), human performance, FQuAD 1.1.
PAPER = {"dev": {"f1": 92.1, "exact_match": 78.3}, "test": {"f1": 91.2, "exact_match": 75.9}}
CHUNK = 5000  # answers read per round trip


def _answers(split: str | None, language: str | None = None):
    """The answers of the questions that count in a v2.0 dataset (unanswerable ones too) and
    have an additional answer (a misaligned imported answer and the plausible spans of
    unanswerable questions are left out), a question's together, as tuples (question id,
    split, text, no answer, author, unanswerable): one query, read in chunks, so that 800,000
    questions are scored in the memory of their figures only."""
    additional = Answer.objects.filter(question=OuterRef("pk"), kind=Answer.Kind.ADDITIONAL)
    questions = dataset_questions(split=split, unanswerable=True, language=language).filter(
        Exists(additional)
    )
    return (
        Answer.objects.filter(misaligned=False, question__in=questions.values("pk"))
        .exclude(kind=Answer.Kind.PLAUSIBLE)
        .order_by("question_id", "kind", "pk")
        .values_list(
            "question_id",
            "question__paragraph__article__split",
            "text",
            "no_answer",
            "author__username",
            "question__is_impossible",
        )
        .iterator(chunk_size=CHUNK)
    )


class _V2Sums:
    """The running sums of SQuAD 2.0's human performance of one split."""

    def __init__(self, norm=FQUAD_FR):
        self.norm = norm
        self.sums = {group: [0.0, 0.0, 0] for group in ("HasAns", "NoAns")}
        self.skipped = 0

    def add(self, judgments: list[str], impossible: bool) -> None:
        if len(judgments) != HUMAN_ANSWERS:
            self.skipped += 1
            return
        scores = leave_one_out_v2(judgments, self.norm)
        sums = self.sums["NoAns" if impossible else "HasAns"]
        sums[0] += sum(exact for exact, _f1 in scores) / len(scores)
        sums[1] += sum(f1 for _exact, f1 in scores) / len(scores)
        sums[2] += 1

    def figures(self) -> dict:
        (has_exact, has_f1, has), (no_exact, no_f1, no) = self.sums.values()
        total = has + no
        return {
            **_v2_group("", has_exact + no_exact, has_f1 + no_f1, total),
            **_v2_group("HasAns_", has_exact, has_f1, has),
            **_v2_group("NoAns_", no_exact, no_f1, no),
            "skipped": self.skipped,
        }


def _v2_group(prefix: str, exact: float, f1: float, total: int) -> dict:
    return {
        f"{prefix}exact": 100.0 * exact / total if total else None,
        f"{prefix}f1": 100.0 * f1 / total if total else None,
        f"{prefix}total": total,
    }


def human_performance_report(*, split: str | None = None, language: str | None = None) -> dict:
    """Return {"splits": {split: figures}, "v2": {split: figures}, "annotators": [...],
    "paper": PAPER, "normalization": …, "language": …}: the questions of one language (the
    platform's WIKIPEDIA_LANGUAGE unless given), scored with its normalization."""
    language = language or settings.WIKIPEDIA_LANGUAGE
    norm = language_normalization(language)
    v1 = _V1Tally(norm)
    v2: dict[str, _V2Sums] = defaultdict(lambda: _V2Sums(norm))
    for _question, group in groupby(_answers(split, language), key=lambda row: row[0]):
        answers = list(group)
        name, impossible = answers[0][1], answers[0][5]
        # v2.0: the author's judgment of an unanswerable question is "no answer" (no row)
        judgments = [text for _q, _s, text, _n, _who, _i in answers]
        v2[name].add([""] + judgments if impossible else judgments, impossible)
        if not impossible:  # v1.1: answerable questions only
            v1.add(name, answers)
    return {
        "splits": v1.splits(),
        "v2": {name: sums.figures() for name, sums in sorted(v2.items())},
        "annotators": v1.annotators(),
        # FQuAD's figures compare with French questions only.
        "paper": PAPER if find(language) is LANGUAGES["fr"] else {},
        "normalization": {"name": norm.name, "version": norm.version},
        "language": language,
    }


class _V1Tally:
    """The running tallies of v1.1's human performance: each split's sets of answers, its
    questions left out because an annotator said "no answer", and each annotator's scores."""

    def __init__(self, norm):
        self.norm = norm
        self.per_split: dict[str, list[list[str]]] = defaultdict(list)
        self.unanswerable: dict[str, int] = defaultdict(int)
        self.per_user: dict[str, list[tuple[float, float]]] = defaultdict(list)

    def add(self, name: str, answers: list[tuple]) -> None:
        """Count one answerable question of split `name` (its answer rows)."""
        if any(no_answer for _q, _s, _text, no_answer, _who, _i in answers):
            self.unanswerable[name] += 1
            return
        texts = [text for _q, _s, text, _n, _who, _i in answers]
        self.per_split[name].append(texts)
        if len(answers) == HUMAN_ANSWERS:
            scores = leave_one_out(texts, self.norm)
            for (_q, _s, _text, _n, username, _i), score in zip(answers, scores, strict=True):
                self.per_user[username].append(score)

    def splits(self) -> dict:
        """Each split's figures, with its questions left out as unanswerable."""
        splits = {
            name: human_performance(sets, self.norm) | {"unanswerable": self.unanswerable[name]}
            for name, sets in sorted(self.per_split.items())
        }
        for name, count in self.unanswerable.items():
            splits.setdefault(name, human_performance([], self.norm) | {"unanswerable": count})
        return splits

    def annotators(self) -> list[dict]:
        return [
            _annotator_row(username, scores) for username, scores in sorted(self.per_user.items())
        ]


def _annotator_row(username: str, scores: list[tuple[float, float]]) -> dict:
    return {
        "annotator": username,
        "answers": len(scores),
        "exact_match": 100.0 * sum(em for em, _ in scores) / len(scores),
        "f1": 100.0 * sum(f1 for _, f1 in scores) / len(scores),
    }


# The stored figure (`core.figures`, registered by `EvaluationConfig.ready`): at 10× FQuAD the
# report scores 160,000 questions' answers (seconds), so pages read it stored; it is computed
# during the request while the answers are few (`SMALL_ANSWERS`), exact, as the tests see it.
# Parameters: {} for every split, {"split": name} for one.
HUMAN_FIGURE = "evaluation.human_performance"
SMALL_ANSWERS = 10_000  # scored in about 0.1 s (8.5 µs an answer, and its read)


def human_params(split: str | None = None, language: str | None = None) -> dict:
    """The figure's parameters: none for every split in the platform's language."""
    params = {"split": split} if split else {}
    return params | ({"language": language} if language else {})


def release_human_params(release) -> dict:
    """The human figure's parameters for a release's board: its language's questions (none
    for the platform's own language, the figure every page reads)."""
    language = (release.options or {}).get("language") or settings.WIKIPEDIA_LANGUAGE
    return human_params(None, None if language == settings.WIKIPEDIA_LANGUAGE else language)


def _human_value(*, split: str | None = None, language: str | None = None) -> dict:
    return human_performance_report(split=split, language=language)


def _human_fingerprint(**params) -> str:
    """What changes the report, in three reads through indexes:

    - the newest answer: every answer written, imported or added comes with a new row;
    - the newest review: a rejection (the question leaves the report), a correction (the
      author's answer text changes) and an approval each add a review row, while the answer
      and question rows are changed in place, so their largest ids would miss them;
    - the articles moved to a split by hand (count and sum of ids per split, from the partial
      index `corpus_article_fixed`): their questions change split.

    What none of these catch (a row deleted in the Django admin, a renamed annotator) is
    caught by the figure's `max_age` (an hour).
    """
    answer = Answer.objects.aggregate(newest=Max("pk"))["newest"]
    review = Review.objects.aggregate(newest=Max("pk"))["newest"]
    return f"a{answer}:r{review}:{hand_moved_articles()}"


def _small(**params) -> bool:
    return bounded_count(Answer.objects.all(), SMALL_ANSWERS) <= SMALL_ANSWERS


def human_figure() -> Figure:
    """The figure registered by the app (`EvaluationConfig.ready`)."""
    return Figure(HUMAN_FIGURE, _human_value, _human_fingerprint, _small)
