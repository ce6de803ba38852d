"""Human performance, FQuAD's way, from the answers stored in the database.

For each question with exactly three answers (the author's, now in its latest reviewed
version, and two additional answers), each answer in turn is the prediction and the two others
the ground truth; EM and F1 use the French normalization (`evaluation.metrics.FQUAD_FR`), best
over the ground truths; the three runs are averaged, then the questions. The figures are given
per split and per annotator (an annotator's figure is the mean over the answers they gave).

The questions are those that count in releases (`dataset_questions`: never a rejected one,
nor one without an answer to show). Left out: questions that have no additional answer yet.
Left out and counted: questions where an additional annotator said the paragraph does not answer the
question ("unanswerable"; the paper's method compares three spans), and questions that have
an additional answer but not three answers in all yet ("skipped").
"""

from __future__ import annotations

from collections import defaultdict

from django.db.models import Exists, OuterRef, Prefetch

from annotation.models import Answer
from annotation.selectors.questions import dataset_questions
from evaluation.metrics import FQUAD_FR, HUMAN_ANSWERS, human_performance, leave_one_out

# d'Hoffschmidt et al. 2020, FQuAD (Findings of EMNLP 2020), human performance, FQuAD 1.1.
PAPER = {"dev": {"f1": 92.1, "exact_match": 78.3}, "test": {"f1": 91.2, "exact_match": 75.9}}


def _questions(split: str | None):
    """The questions that count in the dataset and have an additional answer, with their
    answers (a misaligned imported answer is left out)."""
    answers = (
        Answer.objects.filter(misaligned=False).select_related("author").order_by("kind", "pk")
    )
    additional = Answer.objects.filter(question=OuterRef("pk"), kind=Answer.Kind.ADDITIONAL)
    return (
        dataset_questions(split=split)
        .filter(Exists(additional))
        .select_related("paragraph__article")
        .prefetch_related(Prefetch("answers", queryset=answers))
        .order_by("pk")
    )


def human_performance_report(*, split: str | None = None) -> dict:
    """Return {"splits": {split: figures}, "annotators": [...], "paper": PAPER, "norm": …}."""
    per_split: dict[str, list[list[str]]] = defaultdict(list)
    unanswerable: dict[str, int] = defaultdict(int)
    per_user: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for question in _questions(split):
        answers = list(question.answers.all())
        name = question.paragraph.article.split
        if any(answer.no_answer for answer in answers):
            unanswerable[name] += 1
            continue
        per_split[name].append([answer.text for answer in answers])
        if len(answers) == HUMAN_ANSWERS:
            scores = leave_one_out([answer.text for answer in answers], FQUAD_FR)
            for answer, score in zip(answers, scores, strict=True):
                per_user[answer.author.username].append(score)
    splits = {
        name: human_performance(sets, FQUAD_FR) | {"unanswerable": unanswerable[name]}
        for name, sets in sorted(per_split.items())
    }
    for name, count in unanswerable.items():
        splits.setdefault(name, human_performance([], FQUAD_FR) | {"unanswerable": count})
    return {
        "splits": splits,
        "annotators": [
            _annotator_row(username, scores) for username, scores in sorted(per_user.items())
        ],
        "paper": PAPER,
        "normalization": {"name": FQUAD_FR.name, "version": FQUAD_FR.version},
    }


def _annotator_row(username: str, scores: list[tuple[float, float]]) -> dict:
    return {
        "annotator": username,
        "answers": len(scores),
        "exact_match": 100.0 * sum(em for em, _ in scores) / len(scores),
        "f1": 100.0 * sum(f1 for _, f1 in scores) / len(scores),
    }
