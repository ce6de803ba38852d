"""Reads of the question–answer difference analysis: the sample, a person's labellings, the
table (docs/differences.md).

The sample follows the FQuAD paper (after SQuAD): 6 dev questions per article, of the
answerable questions that count in releases (`dataset_questions`). Within an article the
questions are ranked by SHA-256 of `SAMPLE_SEED` and the question's uuid, and the first 6 are
taken: the same questions give the same sample on every machine, at every call, so it is
replayable without being stored. A question that stops counting (rejected) leaves the sample and
the next one of its article takes its place; its labels stay, unused.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from annotation.models import DifferenceLabel, DifferenceLabelling, Question
from annotation.selectors.questions import (
    dataset_questions,
    questions_by_export_id,
    shown_answers,
)
from core.errors import ServiceError
from core.roles import Role
from corpus.models import Split

SAMPLE_PER_ARTICLE = 6
SAMPLE_SEED = "fquad-differences-1"
NONE = "none"  # the table's row of the questions labelled with no category


def labeller_check(user) -> None:
    """Refuse anyone but reviewers and admins, naming the field `labeller` (403)."""
    if not (user.has_role(Role.REVIEWER) or user.has_role(Role.ADMIN)):
        raise ServiceError(
            {"labeller": [_("Only reviewers and admins label question–answer differences.")]},
            status=403,
        )


def sample_rank(question_uuid) -> str:
    """A question's place in its article's draw: the seeded hash of its uuid."""
    return hashlib.sha256(f"{SAMPLE_SEED}:{question_uuid}".encode()).hexdigest()


@dataclass(frozen=True)
class SampleItem:
    pk: int
    uuid: str
    article_id: int
    title: str
    wave: str


def difference_sample(*, wave: str | None = None) -> list[SampleItem]:
    """Return the sampled dev questions in labelling order: by wave, article title, rank.

    One query: the dev questions that count, with their article's title and wave.
    """
    questions = dataset_questions(split=Split.DEV)
    if wave:
        questions = questions.filter(paragraph__article__wave=wave)
    rows = questions.order_by().values_list(
        "pk",
        "uuid",
        "paragraph__article_id",
        "paragraph__article__title",
        "paragraph__article__wave",
    )
    by_article: dict[int, list[tuple]] = {}
    for row in rows:
        by_article.setdefault(row[2], []).append(row)
    sample = []
    for article_rows in by_article.values():
        article_rows.sort(key=lambda row: sample_rank(row[1]))
        sample.extend(
            SampleItem(pk=pk, uuid=str(uid), article_id=article, title=title, wave=wave_)
            for pk, uid, article, title, wave_ in article_rows[:SAMPLE_PER_ARTICLE]
        )
    sample.sort(key=lambda item: (item.wave, item.title, item.article_id, sample_rank(item.uuid)))
    return sample


def labels_of(labelling: DifferenceLabelling | None) -> list[str] | None:
    return None if labelling is None else labelling.labels


def labellings_by(user, question_pks) -> dict[int, DifferenceLabelling]:
    """Return this person's labellings of these questions, by question id (one query)."""
    rows = DifferenceLabelling.objects.filter(labeller=user, question_id__in=list(question_pks))
    return {row.question_id: row for row in rows}


def next_unlabelled(user, *, after: int | None = None, wave: str | None = None) -> int | None:
    """Return the next sampled question this person has not labelled: the first after
    `after` in the sample's order, else the first from the start; None when all are."""
    order = [item.pk for item in difference_sample(wave=wave)]
    done = set(
        DifferenceLabelling.objects.filter(labeller=user, question_id__in=order).values_list(
            "question_id", flat=True
        )
    )
    start = order.index(after) + 1 if after in order else 0
    for pk in order[start:] + order[:start]:
        if pk not in done and pk != after:
            return pk
    return None


@dataclass
class LabellingView:
    """What the labelling page shows of one sampled question."""

    question: Question
    answer_text: str
    answer_start: int
    item: SampleItem
    position: int  # 1-based place in the sample
    total: int
    labelled_by_me: int
    labels: list[str] = field(default_factory=list)
    labelled: bool = False


def labelling_view(question_pk: int, user) -> LabellingView:
    """Return a sampled question with its paragraph, answer and this person's labels; a
    question outside the sample is refused naming `question` (404 when it does not exist)."""
    sample = difference_sample()
    order = {item.pk: index for index, item in enumerate(sample)}
    if question_pk not in order:
        if not Question.objects.filter(pk=question_pk).exists():
            raise ServiceError({"question": [_("No such question.")]}, status=404)
        raise ServiceError({"question": [_("This question is not in the difference sample.")]})
    question = Question.objects.select_related("paragraph", "paragraph__article").get(
        pk=question_pk
    )
    answer = shown_answers().filter(question=question).order_by("-kind", "pk").first()
    mine = DifferenceLabelling.objects.filter(question=question, labeller=user).first()
    labelled_by_me = DifferenceLabelling.objects.filter(
        labeller=user, question_id__in=list(order)
    ).count()
    return LabellingView(
        question=question,
        answer_text=answer.text,
        answer_start=answer.answer_start,
        item=sample[order[question_pk]],
        position=order[question_pk] + 1,
        total=len(sample),
        labelled_by_me=labelled_by_me,
        labels=labels_of(mine) or [],
        labelled=mine is not None,
    )


def sample_rows(user, *, wave: str | None = None) -> list[dict]:
    """The sample as the API gives it: each question with its answer and this person's labels
    (None: not labelled yet). Three queries whatever the sample's size."""
    sample = difference_sample(wave=wave)
    pks = [item.pk for item in sample]
    texts = dict(Question.objects.filter(pk__in=pks).values_list("pk", "text"))
    answers: dict[int, dict] = {}
    for question_id, text, start in (
        shown_answers()
        .filter(question_id__in=pks)
        .order_by("question_id", "-kind", "pk")  # the original answer first
        .values_list("question_id", "text", "answer_start")
    ):
        answers.setdefault(question_id, {"text": text, "answer_start": start})
    mine = labellings_by(user, pks)
    return [
        {
            "question": item.pk,
            "uuid": item.uuid,
            "article": item.title,
            "wave": item.wave,
            "text": texts[item.pk],
            "answer": answers.get(item.pk),
            "labels": labels_of(mine.get(item.pk)),
        }
        for item in sample
    ]


def _percent(count: int, total: int) -> float | None:
    return round(100 * count / total, 1) if total else None


def _row(wave: str | None, sampled: int, flags: list[dict[str, bool]]) -> dict:
    labelled = len(flags)
    labels = []
    for value, name in [*DifferenceLabel.choices, (NONE, _("none of them"))]:
        if value == NONE:
            count = sum(1 for f in flags if not any(f.values()))
        else:
            count = sum(1 for f in flags if f[value])
        labels.append(
            {
                "label": value,
                "name": str(name),
                "count": count,
                "percent": _percent(count, labelled),
            }
        )
    return {"wave": wave, "sampled": sampled, "labelled": labelled, "labels": labels}


def difference_table(*, question_pks=None, export_ids=None) -> dict:
    """Return the paper's table: per wave and in all, how many sampled questions there are,
    how many are labelled, and each label's count and percentage of the labelled ones.

    A question counts once, whoever labelled it: a label applies when at least half of its
    labellers gave it; "none" when no label applies. `question_pks` keeps the sampled
    questions among them; `export_ids` the same by the ids questions have in releases (a
    release's dev file's ids, given by the layer that reads releases: one more query).
    Two queries whatever the sample's size.
    """
    sample = _sample_kept(question_pks, export_ids)
    wave_of = {item.pk: item.wave for item in sample}
    decided = _labels_decided(list(wave_of))
    waves = sorted(set(wave_of.values()))
    by_wave = [
        _row(
            wave,
            sum(1 for w in wave_of.values() if w == wave),
            [flags for pk, flags in decided.items() if wave_of[pk] == wave],
        )
        for wave in waves
    ]
    return {
        "categories": [{"label": v, "name": str(n)} for v, n in DifferenceLabel.choices],
        "sample_per_article": SAMPLE_PER_ARTICLE,
        "seed": SAMPLE_SEED,
        "waves": by_wave,
        "total": _row(None, len(sample), list(decided.values())),
    }


def _sample_kept(question_pks, export_ids) -> list:
    """Return the difference sample, kept to these question pks and to the questions released
    under these ids (where given)."""
    sample = difference_sample()
    if export_ids is not None:
        released = set(questions_by_export_id(export_ids).values_list("pk", flat=True))
        question_pks = released if question_pks is None else released & set(question_pks)
    if question_pks is not None:
        kept = set(question_pks)
        sample = [item for item in sample if item.pk in kept]
    return sample


def _labels_decided(question_pks: list) -> dict[int, dict[str, bool]]:
    """Return {question pk: {label: applies}} of the labelled ones among these questions: a
    label applies when at least half of the question's labellers gave it (one query)."""
    votes: dict[int, list[dict[str, bool]]] = {}
    fields = DifferenceLabel.values
    rows = DifferenceLabelling.objects.filter(question_id__in=question_pks).values_list(
        "question_id", *fields
    )
    for question_id, *flags in rows:
        votes.setdefault(question_id, []).append(dict(zip(fields, flags, strict=True)))
    return {
        pk: {value: 2 * sum(v[value] for v in given) >= len(given) for value in fields}
        for pk, given in votes.items()
    }
