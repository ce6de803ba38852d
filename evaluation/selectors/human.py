"""Human performance, FQuAD's way, from the answers stored in the database.

For each question with exactly three answers (the author's, now in its latest reviewed
version, and two additional answers), each answer in turn is the prediction and the two others
the ground truth; EM and F1 use the normalization of the question's language (its article's:
`evaluation.metrics.language_normalization`, French FQuAD's `fquad-fr`), best over the ground
truths; the three runs are averaged, then the questions. The figures are given
per split and per annotator (an annotator's figure is the mean over the answers they gave).

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

"normalization" names the mode of the language with the most scored questions (`fquad-fr`
when there is none); should the instance hold several languages, each question is still scored
with its own language's mode.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from itertools import groupby

from django.db.models import Exists, Max, OuterRef

from annotation.models import Answer, Review
from annotation.selectors.questions import dataset_questions
from core.figures import Figure, bounded_count
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


def _answers(split: str | None):
    """The answers of the questions that count in a v2.0 dataset (unanswerable ones too) and
    have an additional answer (a misaligned imported answer and the plausible spans of
    unanswerable questions are left out), a question's together, as tuples (question id,
    split, text, no answer, author, unanswerable, language): one query, read in chunks, so
    that 800,000 questions are scored in the memory of their figures only."""
    additional = Answer.objects.filter(question=OuterRef("pk"), kind=Answer.Kind.ADDITIONAL)
    questions = dataset_questions(split=split, unanswerable=True).filter(Exists(additional))
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
            "question__paragraph__article__language",
        )
        .iterator(chunk_size=CHUNK)
    )


class _V2Sums:
    """The running sums of SQuAD 2.0's human performance of one split."""

    def __init__(self):
        self.sums = {group: [0.0, 0.0, 0] for group in ("HasAns", "NoAns")}
        self.skipped = 0

    def add(self, judgments: list[str], impossible: bool, norm) -> None:
        if len(judgments) != HUMAN_ANSWERS:
            self.skipped += 1
            return
        scores = leave_one_out_v2(judgments, norm)
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


def human_performance_report(*, split: str | None = None) -> dict:
    """Return {"splits": {split: figures}, "v2": {split: figures}, "annotators": [...],
    "paper": PAPER, "normalization": …}."""
    per_split: dict[str, dict] = defaultdict(lambda: defaultdict(list))  # split → norm → sets
    unanswerable: dict[str, int] = defaultdict(int)
    per_user: dict[str, list[tuple[float, float]]] = defaultdict(list)
    v2: dict[str, _V2Sums] = defaultdict(_V2Sums)
    languages: Counter = Counter()
    for _question, group in groupby(_answers(split), key=lambda row: row[0]):
        answers = list(group)
        name, impossible, language = answers[0][1], answers[0][5], answers[0][6]
        norm = language_normalization(language)
        languages[norm] += 1
        # v2.0: the author's judgment of an unanswerable question is "no answer" (no row)
        judgments = [row[2] for row in answers]
        v2[name].add([""] + judgments if impossible else judgments, impossible, norm)
        if impossible:
            continue  # v1.1: answerable questions only
        if any(row[3] for row in answers):  # an additional annotator said "no answer"
            unanswerable[name] += 1
            continue
        per_split[name][norm].append(judgments)
        if len(answers) == HUMAN_ANSWERS:
            scores = leave_one_out(judgments, norm)
            for row, score in zip(answers, scores, strict=True):
                per_user[row[4]].append(score)
    splits = {
        name: _split_figures(by_norm) | {"unanswerable": unanswerable[name]}
        for name, by_norm in sorted(per_split.items())
    }
    for name, count in unanswerable.items():
        splits.setdefault(name, human_performance([], FQUAD_FR) | {"unanswerable": count})
    main = max(languages, key=languages.__getitem__) if languages else FQUAD_FR
    return {
        "splits": splits,
        "v2": {name: sums.figures() for name, sums in sorted(v2.items())},
        "annotators": [
            _annotator_row(username, scores) for username, scores in sorted(per_user.items())
        ],
        "paper": PAPER,
        "normalization": {"name": main.name, "version": main.version},
    }


def _split_figures(by_norm: dict) -> dict:
    """Human performance of a split whose questions are grouped by their language's mode: the
    one mode's figures, or the questions' mean over the modes (each scored with its own)."""
    if len(by_norm) == 1:
        [(norm, sets)] = by_norm.items()
        return human_performance(sets, norm)
    parts = [human_performance(sets, norm) for norm, sets in by_norm.items()]
    questions = sum(part["questions"] for part in parts)
    figures = {
        key: (
            sum(part[key] * part["questions"] for part in parts if part["questions"]) / questions
            if questions
            else None
        )
        for key in ("exact_match", "f1")
    }
    return figures | {
        "questions": questions,
        "skipped": sum(part["skipped"] for part in parts),
    }


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


def human_params(split: str | None = None) -> dict:
    return {"split": split} if split else {}


def _human_value(*, split: str | None = None) -> dict:
    return human_performance_report(split=split)


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
