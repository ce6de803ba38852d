"""Each annotator's agreement with the others, and signs of careless work, for the quality
table (issue 28, items 3 and 5; the rules are in docs/quality.md).

Agreement. A question counts when it is answerable, not rejected, in dev or test, and has at
least two answers (the author's, in its latest reviewed version, and additional answers; a
misaligned imported answer and an unanswerable question's plausible span never count), none
of them "the paragraph does not answer". Each of its answers in turn is scored against the
others with the language's metric (`evaluation.metrics.language_normalization` of the
article's language, the release's rule): the best F1 over the others, FQuAD's human
performance per answer (`evaluation.metrics.leave_one_out`). An annotator's agreement is the
mean of that best F1 over the answers they gave to such questions, in percent. Beside it the
campaign's figures over the same questions: every scored answer's mean, and FQuAD's human
performance per split (questions with exactly three answers, `human_performance`).

Signs. Over every answer an annotator gave in the scope (any split, any review status: a
rejected question is evidence too; not a "no answer", nor a plausible or misaligned answer):

- short: the answer has at most `SHORT_TOKENS` token once normalized;
- first sentence: the span lies in the paragraph's first sentence and covers at least
  `FIRST_SENTENCE_COVER` of its characters (`first_sentence_end`);
- question words: every token of the answer is a token of the question.

A sign is flagged when the annotator has at least `MIN_ITEMS` answers, and their share is at
least `MARGIN` points above the share among everyone else's answers in the scope, and at
least `RATIO` times it. The evidence: their count and share, the others' share, and up to
`EXAMPLES` of their answers. A flag is only shown: pausing stays an admin's decision.

History: per week (Monday, the site's time zone), the agreement of the answers given that
week, and the share of rejected among the questions written that week that were reviewed;
the last `HISTORY_WEEKS` weeks with any figure.

At scale the report is a stored figure (`core.figures`), computed during the request while
the scope has at most `SMALL_ANSWERS` answers; the quality page reads it through the
`annotation.quality.measures` extension point (`EvaluationConfig.ready`).
"""

from __future__ import annotations

import re
from collections import defaultdict
from datetime import date, timedelta
from itertools import groupby

from django.db.models import Count, Max, Q
from django.db.models.functions import Substr, TruncWeek
from django.utils import timezone

from annotation.models import Answer, Question, Review
from core.figures import Figure, bounded_count
from corpus.models import Split
from corpus.selectors import hand_moved_articles
from evaluation.metrics import HUMAN_ANSWERS, Normalization, language_normalization, leave_one_out

AGREEMENT_SPLITS = (Split.DEV, Split.TEST)
SHORT_TOKENS = 1
FIRST_SENTENCE_CHARS = 400  # the first sentence is looked for in this many characters
FIRST_SENTENCE_COVER = 0.5
MIN_ITEMS = 20
MARGIN = 25.0  # percentage points
RATIO = 2.0
EXAMPLES = 3
HISTORY_WEEKS = 12
SIGNS = ("short", "first_sentence", "question_words")
CHUNK = 5000
# Computed during the request up to this many answers: the pass costs about 60 µs an answer
# on the shared 2-core machine under load (10,000 answers in 0.74 s, Python pass only), so 3,000
# answers stay near 0.2 s; above, the stored figure.
SMALL_ANSWERS = 3_000
FIGURE = "evaluation.annotator_quality"

# A sentence ends at . ! ? or … followed by a space (closing quotes and brackets may sit
# between): "Paris (France) est une ville. Elle…" ends after "ville.".
_SENTENCE_END = re.compile(r"[.!?…][\"'»”’)\]]*(?=\s)")


def first_sentence_end(prefix: str) -> int:
    """Return where the first sentence of a paragraph that starts with `prefix` ends (the
    index after its final mark), or the prefix's length when no sentence ends in it."""
    found = _SENTENCE_END.search(prefix)
    return found.end() if found else len(prefix)


def answer_signs(
    *, text: str, start: int, question: str, prefix: str, norm: Normalization
) -> dict[str, bool]:
    """Return which signs of careless work one answer shows (see the module's rules)."""
    asked = set(norm.tokens(question))
    return _signs(norm.tokens(text), start, start + len(text), asked, first_sentence_end(prefix))


def _signs(tokens: list[str], start: int, stop: int, asked: set, end: int) -> dict[str, bool]:
    """The signs of an answer's tokens spanning [start, stop), its question's tokens `asked`
    and its paragraph's first sentence ending at `end`: the question's parts are worked out
    once for all its answers."""
    return {
        "short": len(tokens) <= SHORT_TOKENS,
        "first_sentence": stop <= end and stop - start >= FIRST_SENTENCE_COVER * end,
        "question_words": bool(tokens) and all(token in asked for token in tokens),
    }


def sign_flag(count: int, answers: int, others_count: int, others_answers: int) -> dict:
    """Return a sign's evidence for one annotator: their count, answers and share (percent),
    the others' share, and whether it is flagged (module's rule)."""
    share = 100.0 * count / answers if answers else None
    baseline = 100.0 * others_count / others_answers if others_answers else 0.0
    flagged = (
        answers >= MIN_ITEMS
        and share is not None
        and share >= baseline + MARGIN
        and share >= RATIO * baseline
    )
    return {
        "count": count,
        "answers": answers,
        "share": share,
        "baseline": baseline,
        "flagged": flagged,
    }


def _scope(campaign_id: int | None):
    answers = Answer.objects.exclude(kind=Answer.Kind.PLAUSIBLE).filter(misaligned=False)
    if campaign_id is not None:
        answers = answers.filter(question__campaign_id=campaign_id)
    return answers


def _rows(campaign_id: int | None):
    """Every answer of the scope, a question's together: one query, read in chunks."""
    return (
        _scope(campaign_id)
        .annotate(prefix=Substr("question__paragraph__text", 1, FIRST_SENTENCE_CHARS))
        .order_by("question_id", "kind", "pk")
        .values_list(
            "question_id",
            "question__paragraph__article__split",
            "question__paragraph__article__language",
            "question__text",
            "question__status",
            "question__is_impossible",
            "prefix",
            "text",
            "answer_start",
            "no_answer",
            "author_id",
            "created_at",
        )
        .iterator(chunk_size=CHUNK)
    )


def _week(moment, zone) -> str:
    """The Monday of the moment's week in the site's time zone `zone` (what `TruncWeek` gives)."""
    day = moment.astimezone(zone).date() if timezone.is_aware(moment) else moment.date()
    return (day - timedelta(days=day.weekday())).isoformat()


class _Person:
    def __init__(self):
        self.f1 = 0.0
        self.scored = 0
        self.answers = 0
        self.signs = dict.fromkeys(SIGNS, 0)
        self.examples = {sign: [] for sign in SIGNS}
        self.weeks: dict[str, list] = defaultdict(lambda: [0.0, 0])


def _score_question(answers: list, people: dict, totals: dict) -> None:
    """Score one dev or test question's answers against each other, if it counts."""
    _q, split, language, _text, status, impossible = answers[0][:6]
    if split not in AGREEMENT_SPLITS or impossible or status == Question.Status.REJECTED:
        return
    if len(answers) < 2 or any(row[9] for row in answers):
        return
    norm = language_normalization(language)
    scores = leave_one_out([row[7] for row in answers], norm)
    for row, (_exact, f1) in zip(answers, scores, strict=True):
        person = people[row[10]]
        person.f1 += f1
        person.scored += 1
        week = person.weeks[_week(row[11], totals["zone"])]
        week[0] += f1
        week[1] += 1
    totals["f1"] += sum(f1 for _e, f1 in scores)
    totals["scored"] += len(scores)
    if len(answers) == HUMAN_ANSWERS:
        human = totals["human"][split]
        human[0] += sum(f1 for _e, f1 in scores) / len(scores)
        human[1] += 1


def _sign_answers(answers: list, people: dict, totals: dict) -> None:
    _q, _split, language, question, _status, _impossible, prefix = answers[0][:7]
    norm = language_normalization(language)
    asked, end = set(norm.tokens(question)), first_sentence_end(prefix)
    for row in answers:
        if row[9]:  # "the paragraph does not answer": no span to judge
            continue
        person = people[row[10]]
        person.answers += 1
        totals["answers"] += 1
        text, start = row[7], row[8]
        shown = _signs(norm.tokens(text), start, start + len(text), asked, end)
        for sign, found in shown.items():
            if found:
                person.signs[sign] += 1
                totals["signs"][sign] += 1
                if len(person.examples[sign]) < EXAMPLES:
                    person.examples[sign].append({"question": question, "answer": text})


def _rejections(campaign_id: int | None) -> dict:
    """{(author id, week): [reviewed, rejected]} of the questions written in the scope."""
    questions = Question.objects.all()
    if campaign_id is not None:
        questions = questions.filter(campaign_id=campaign_id)
    rows = (
        questions.annotate(week=TruncWeek("created_at"))
        .order_by()
        .values("author_id", "week")
        .annotate(
            reviewed=Count("pk", filter=~Q(status=Question.Status.PENDING)),
            rejected=Count("pk", filter=Q(status=Question.Status.REJECTED)),
        )
    )
    found = {}
    for row in rows:
        week = row["week"]
        day = week.date() if hasattr(week, "date") else week
        if isinstance(day, date) and row["reviewed"]:
            found[(row["author_id"], day.isoformat())] = [row["reviewed"], row["rejected"]]
    return found


def _history(person: _Person, rejections: dict) -> list[dict]:
    weeks = sorted(set(person.weeks) | set(rejections))[-HISTORY_WEEKS:]
    history = []
    for week in weeks:
        f1, scored = person.weeks.get(week, (0.0, 0))
        reviewed, rejected = rejections.get(week, (0, 0))
        history.append(
            {
                "week": week,
                "agreement": 100.0 * f1 / scored if scored else None,
                "scored": scored,
                "reviewed": reviewed,
                "rejected_pct": 100.0 * rejected / reviewed if reviewed else None,
            }
        )
    return history


def annotator_quality_report(*, campaign: int | None = None) -> dict:
    """Return {"annotators": {str(user id): {"agreement", "scored", "answers", "signs",
    "history"}}, "overall": {...}, "rules": {...}} for the campaign (its id), or for all."""
    people: dict[int, _Person] = defaultdict(_Person)
    totals = {
        "f1": 0.0,
        "scored": 0,
        "answers": 0,
        "signs": dict.fromkeys(SIGNS, 0),
        "human": {split: [0.0, 0] for split in AGREEMENT_SPLITS},
        "zone": timezone.get_current_timezone(),
    }
    for _question, group in groupby(_rows(campaign), key=lambda row: row[0]):
        answers = list(group)
        _score_question(answers, people, totals)
        _sign_answers(answers, people, totals)
    rejections: dict[int, dict] = defaultdict(dict)
    for (author, week), counts in _rejections(campaign).items():
        rejections[author][week] = counts
    annotators = {
        str(user_id): _annotator_part(people[user_id], totals, rejections.get(user_id, {}))
        for user_id in sorted(set(people) | set(rejections))
    }
    human = {
        str(split): {"f1": 100.0 * sums[0] / sums[1] if sums[1] else None, "questions": sums[1]}
        for split, sums in totals["human"].items()
    }
    return {
        "annotators": annotators,
        "overall": {
            "agreement": 100.0 * totals["f1"] / totals["scored"] if totals["scored"] else None,
            "scored": totals["scored"],
            "human": human,
        },
        "rules": dict(RULES),
    }


RULES = {
    "min_items": MIN_ITEMS,
    "margin": MARGIN,
    "ratio": RATIO,
    "short_tokens": SHORT_TOKENS,
    "first_sentence_cover": FIRST_SENTENCE_COVER,
}


def _annotator_part(person: _Person, totals: dict, rejections: dict) -> dict:
    """One annotator's agreement, signs with their flags, and history in the report."""
    others = totals["answers"] - person.answers
    signs = {
        sign: sign_flag(
            mine := person.signs[sign], person.answers, totals["signs"][sign] - mine, others
        )
        | {"examples": person.examples[sign]}
        for sign in SIGNS
    }
    return {
        "agreement": 100.0 * person.f1 / person.scored if person.scored else None,
        "scored": person.scored,
        "answers": person.answers,
        "signs": signs,
        "flags": [sign for sign in SIGNS if signs[sign]["flagged"]],
        "history": _history(person, rejections),
    }


def _fingerprint(*, campaign: int | None = None) -> str:
    """The newest answer, the newest review (a verdict changes statuses and corrected answers
    in place) and the articles moved by hand (their questions change split)."""
    answer = Answer.objects.aggregate(newest=Max("pk"))["newest"]
    review = Review.objects.aggregate(newest=Max("pk"))["newest"]
    return f"a{answer}:r{review}:{hand_moved_articles()}"


def _small(*, campaign: int | None = None) -> bool:
    return bounded_count(_scope(campaign), SMALL_ANSWERS) <= SMALL_ANSWERS


def annotator_quality_figure() -> Figure:
    """The figure registered by the app (`EvaluationConfig.ready`)."""
    return Figure(FIGURE, annotator_quality_report, _fingerprint, _small)
