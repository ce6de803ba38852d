"""Each annotator's agreement and the signs of careless work in the quality table (issue 28,
items 3 and 5; docs/quality.md).

Agreement is worked out by hand on the answers of tests/evaluation/test_human.py (its
fixtures); the flag rules on exact counts, at and around each threshold.
"""

import dataclasses
from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from annotation.models import Answer, Question
from annotation.services.campaigns import campaign_create
from annotation.services.work import lease_claim_next, questions_submit
from core import figures
from core.models import StoredFigure
from core.roles import Role
from core.services.figure_jobs import figure_compute
from corpus.readers import SourceArticle
from corpus.services.articles import article_store
from evaluation.metrics import FQUAD_FR, SQUAD_EN
from evaluation.selectors.annotator_quality import (
    FIGURE,
    annotator_quality_report,
    answer_signs,
    first_sentence_end,
    sign_flag,
)
from tests.evaluation.test_human import answered, exactly, people, written  # noqa: F401
from tests.factories import UserFactory

# Agreement on test_human's answers. Each answer's best F1 against the others' (fquad-fr):
#   Q1 (dev): ann0 1, ann1 0.8, ann2 1      Q2 (dev): ann0 1, ann1 1, ann2 0.5
#   Q3 (dev): ann1 said "no answer": left out
#   Q4 (dev): two answers (ann2 gave it back): ann0 « l’Assemblée » → [assemblée], ann1
#             « Assemblée » → [assemblée]: 1 and 1 (human performance skips it, agreement not)
#   Q5 (test): ann0 2/3, ann1 2/3, ann2 0.4
# ann0: (1 + 1 + 1 + 2/3)/4 = 11/12; ann1: (0.8 + 1 + 1 + 2/3)/4 = 13/15;
# ann2: (1 + 0.5 + 0.4)/3 = 19/30; everyone: (11/3 + 52/15 + 1.9)/11 = 135.5/165
# Human performance (three answers): dev (2.8/3 + 2.5/3)/2 = 265/3 %, test 26/45 → 520/9 %.


@pytest.mark.both_backends
def test_agreement_of_each_annotator_beside_human_performance(answered, people):  # noqa: F811
    campaign = answered[0].campaign
    report = annotator_quality_report(campaign=campaign.pk)
    rows = {key: (row["agreement"], row["scored"]) for key, row in report["annotators"].items()}
    assert rows == {
        str(people[0].pk): (exactly(1100 / 12), 4),
        str(people[1].pk): (exactly(1300 / 15), 4),
        str(people[2].pk): (exactly(1900 / 30), 3),
    }
    assert report["overall"] == {
        "agreement": exactly(100 * 135.5 / 165),
        "scored": 11,
        "human": {
            "dev": {"f1": exactly(265 / 3), "questions": 2},
            "test": {"f1": exactly(520 / 9), "questions": 1},
        },
    }
    # Every campaign (no parameter) holds the same questions here.
    assert annotator_quality_report()["overall"] == report["overall"]


def test_the_quality_page_shows_agreement_beside_human_performance(
    client,
    answered,  # noqa: F811
    people,  # noqa: F811
):
    admin = UserFactory(username="boss", roles=[Role.ADMIN])
    client.force_login(admin)
    html = client.get("/manage/quality/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    # ann0 wrote the questions: only authors have rows; 11/12 → 91.7 over 4 answers.
    assert '<td class="num" data-column="agreement">91.7 <span class="hint">(4)</span></td>' in html
    assert "Agreement of every annotator on dev and test: <strong>82.1</strong> F1 over 11" in html
    assert "Human performance (dev): 88.3 F1 over 2 questions with three answers." in html
    assert "Human performance (test): 57.8 F1 over 1 question with three answers." in html
    # Helper columns left for the review rate and the gold score: empty for now.
    assert '<td data-column="review-rate">—' in html
    assert '<td class="num" data-column="gold">—' in html


def test_the_api_gives_agreement_and_flags(answered, people):  # noqa: F811
    client = APIClient()
    client.force_authenticate(UserFactory(username="rev", roles=[Role.REVIEWER]))
    (row,) = client.get("/api/v1/quality/").json()
    assert (row["annotator"], round(row["agreement"], 4), row["agreement_answers"]) == (
        "ann0",
        91.6667,
        4,
    )
    assert row["flags"] == []
    today = timezone.localtime().date()
    assert row["history"] == [
        {
            "week": (today - timedelta(days=today.weekday())).isoformat(),
            "agreement": pytest.approx(1100 / 12),
            "scored": 4,
            "reviewed": 0,
            "rejected_pct": None,
        }
    ]
    # ann0 gave 5 answers: too few for any sign to fire, whatever its share.
    assert row["signs"]["short"]["answers"] == 5
    assert row["signs"]["short"]["flagged"] is False


# The signs of one answer


PARAGRAPH = (
    "Victor Hugo naquit à Besançon en 1802. Il écrivit « Les Misérables », roman publié en 1862."
)


def test_first_sentence_ends_at_its_mark_before_a_space():
    assert first_sentence_end(PARAGRAPH) == 38  # after "1802."
    assert first_sentence_end("Le « Roi-Soleil ». Puis") == 18  # the closing » belongs to it
    assert (
        first_sentence_end("M. Dupont") == 2
    )  # an abbreviation ends a sentence: the rule is simple
    assert first_sentence_end("Sans fin") == 8  # no mark: the whole prefix


@pytest.mark.parametrize(
    ("answer", "question", "expected"),
    [
        # 1 token once normalized ("en" stays, "les" goes): short
        ("1802", "Quand naquit-il ?", (True, False, False)),
        ("« Les Misérables", "Quand naquit-il ?", (True, False, False)),
        ("en 1802", "Quand naquit-il ?", (False, False, False)),
        # 37 of the first sentence's 38 characters, inside it
        ("Victor Hugo naquit à Besançon en 1802", "Qui ?", (False, True, False)),
        # 19 characters (half is 19): inside and half of it
        ("Victor Hugo naquit ", "Qui ?", (False, True, False)),
        # 18 characters: under half
        ("Victor Hugo naquit", "Qui ?", (False, False, False)),
        # crosses the sentence's end
        ("1802. Il écrivit", "Quoi ?", (False, False, False)),
        # every token in the question ("les" is an article), two tokens: question words only
        ("écrivit « Les Misérables", "Qui écrivit Les Misérables ?", (False, False, True)),
        ("roman publié", "Qui écrivit Les Misérables ?", (False, False, False)),
    ],
)
def test_answer_signs(answer, question, expected):
    shown = answer_signs(
        text=answer,
        start=PARAGRAPH.index(answer),
        question=question,
        prefix=PARAGRAPH,
        norm=FQUAD_FR,
    )
    assert (shown["short"], shown["first_sentence"], shown["question_words"]) == expected


def test_answer_signs_use_the_languages_normalization():
    # "the Louvre": squad-en drops "the" (1 token); fquad-fr keeps it (2 tokens).
    text = "It is the Louvre. Then more."
    signs = {
        norm.name: answer_signs(
            text="the Louvre", start=6, question="Which?", prefix=text, norm=norm
        )["short"]
        for norm in (SQUAD_EN, FQUAD_FR)
    }
    assert signs == {"squad-en": True, "fquad-fr": False}


# The flag rule: at least 20 answers, share ≥ others' + 25 points and ≥ 2 × others'.


@pytest.mark.parametrize(
    ("counts", "flagged", "share", "baseline"),
    [
        ((5, 20, 0, 100), True, 25.0, 0.0),  # exactly 25 points above nothing
        ((4, 20, 0, 100), False, 20.0, 0.0),  # 20 points: under the margin
        ((19, 19, 0, 100), False, 100.0, 0.0),  # every answer, but 19 answers: too few
        ((9, 20, 20, 100), True, 45.0, 20.0),  # 45 = 20 + 25 and ≥ 2 × 20
        ((57, 100, 30, 100), False, 57.0, 30.0),  # 27 points above but under 2 × 30
        ((60, 100, 30, 100), True, 60.0, 30.0),  # 2 × 30
        ((30, 100, 0, 0), True, 30.0, 0.0),  # nobody else: the others' share is 0
        ((0, 0, 5, 10), False, None, 50.0),  # no answer of theirs
    ],
)
def test_sign_flag(counts, flagged, share, baseline):
    found = sign_flag(*counts)
    assert (found["flagged"], found["share"], found["baseline"]) == (flagged, share, baseline)
    assert (found["count"], found["answers"]) == counts[:2]


# A careless annotator among careful ones, through the services

SENTENCE = "Victor Hugo naquit à Besançon en {year}."
TEXT = SENTENCE + " Il écrivit « Les Misérables », roman publié en 1862 à Paris."


def _questions(text: str, kinds: list[str], offset: int) -> list[dict]:
    first = text[: text.index(".")]
    spans = {
        "first": ("Où et quand naquit Victor Hugo ?", first),
        "short": ("En quelle année naquit-il ?", text.split()[6].rstrip(".")),
        "words": ("Qui écrivit Les Misérables ?", "écrivit « Les Misérables"),
        "fine": ("Que dit-on du livre ?", "roman publié en 1862"),
    }
    made = []
    for i, kind in enumerate(kinds):
        question, answer = spans[kind]
        made.append(
            {
                "text": f"{question[:-2]} ({offset + i}) ?",
                "answer_start": text.index(answer),
                "answer_text": answer,
                "seconds_spent": 30,
            }
        )
    return made


@pytest.fixture
def careless_campaign(db):
    """lazy: 20 answers, 8 first sentences, 8 one-word, 4 question words; careful: 20 fine
    ones; few: 5 question-words answers. In train: no agreement, signs only."""
    for i in range(9):
        article_store(
            language="fr",
            source=SourceArticle(title=f"Hugo {i}", source_title=f"Hugo {i}"),
            paragraphs=[TEXT.format(year=1800 + i)],
            wave="1.0",
            split="train",
            kind="file",
        )
    campaign = campaign_create(
        name="Q", splits=["train"], questions_min=1, questions_max=5, review_rate=Decimal("0")
    )
    writers = {
        name: UserFactory(username=name, roles=[Role.ANNOTATOR])
        for name in ("careful", "few", "lazy")
    }
    plan = {
        "lazy": [["first"] * 2 + ["short"] * 2 + ["words"]] * 4,
        "careful": [["fine"] * 5] * 4,
        "few": [["words"] * 5],
    }
    for name, leases in plan.items():
        for n, kinds in enumerate(leases):
            lease = lease_claim_next(campaign=campaign, annotator=writers[name]).lease
            questions_submit(lease=lease, questions=_questions(lease.paragraph.text, kinds, 10 * n))
    return campaign, writers


@pytest.mark.both_backends
def test_the_careless_annotator_is_flagged_with_the_evidence(careless_campaign):
    campaign, writers = careless_campaign
    report = annotator_quality_report(campaign=campaign.pk)
    signs = {
        name: {
            sign: (
                found["count"],
                found["answers"],
                found["share"],
                found["baseline"],
                found["flagged"],
            )
            for sign, found in report["annotators"][str(person.pk)]["signs"].items()
        }
        for name, person in writers.items()
    }
    # 45 answers: 8 short (lazy), 8 first sentence (lazy), 9 question words (lazy 4, few 5).
    assert signs == {
        "lazy": {
            "short": (8, 20, 40.0, 0.0, True),
            "first_sentence": (8, 20, 40.0, 0.0, True),
            "question_words": (4, 20, 20.0, 20.0, False),  # the others: 5 of 25
        },
        "careful": {
            "short": (0, 20, 0.0, 32.0, False),  # 8 of 25
            "first_sentence": (0, 20, 0.0, 32.0, False),
            "question_words": (0, 20, 0.0, 36.0, False),  # 9 of 25
        },
        "few": {  # every answer, but 5: too few to judge
            "short": (0, 5, 0.0, 8 / 40 * 100, False),
            "first_sentence": (0, 5, 0.0, 20.0, False),
            "question_words": (5, 5, 100.0, 10.0, False),
        },
    }
    lazy = report["annotators"][str(writers["lazy"].pk)]
    assert lazy["flags"] == ["short", "first_sentence"]
    assert lazy["agreement"] is None  # train: no agreement
    assert [example["answer"] for example in lazy["signs"]["short"]["examples"]] == [
        "1800",
        "1800",
        "1801",
    ]


def test_the_quality_page_shows_flags_with_evidence_and_the_pause(client, careless_campaign):
    campaign, writers = careless_campaign
    client.force_login(UserFactory(username="boss", roles=[Role.ADMIN]))
    html = client.get(
        f"/manage/quality/?campaign={campaign.pk}", HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    lazy = html[html.index('<tr data-annotator="lazy">') :]
    lazy = lazy[: lazy.index("</tr>")]
    assert lazy.count('class="quality-flag"') == 2
    assert 'data-flag="short"' in lazy and 'data-flag="first_sentence"' in lazy
    assert "8 of 20 answers (40.0%); the others: 0.0%." in lazy
    assert "<q>1800</q> <span" in lazy
    # The pause stays an admin's action, offered in the same row.
    assert f'action="/manage/annotators/{writers["lazy"].pk}/pause/"' in lazy
    few = html[html.index('<tr data-annotator="few">') :]
    few = few[: few.index("</tr>")]
    assert "5 answers: too few to judge" in few
    assert 'class="quality-flag"' not in few
    # French
    html = client.get(
        f"/manage/quality/?campaign={campaign.pk}", HTTP_ACCEPT_LANGUAGE="fr"
    ).content.decode()
    assert "Réponses les plus courtes" in html


@pytest.mark.both_backends
def test_the_history_per_week(careless_campaign):
    """lazy's questions spread over three weeks, as time would have: three weeks ago 8 (4
    reviewed, 1 rejected), two weeks ago 8 (4 reviewed, 3 rejected), this week 4 (none
    reviewed, no agreement in train): two weeks with a figure. ann0 of test_human is elsewhere."""
    campaign, writers = careless_campaign
    mine = list(Question.objects.filter(author=writers["lazy"]).order_by("pk"))
    now = timezone.now()
    for weeks, chunk, rejected in ((3, mine[:8], 1), (2, mine[8:16], 3), (0, mine[16:], 0)):
        ids = [question.pk for question in chunk]
        Question.objects.filter(pk__in=ids).update(created_at=now - timedelta(weeks=weeks))
        if weeks:
            Question.objects.filter(pk__in=ids[:rejected]).update(status="rejected")
            Question.objects.filter(pk__in=ids[rejected:4]).update(status="approved")
    report = annotator_quality_report(campaign=campaign.pk)
    today = timezone.localtime(now).date()
    monday = today - timedelta(days=today.weekday())
    assert report["annotators"][str(writers["lazy"].pk)]["history"] == [
        {
            "week": (monday - timedelta(weeks=3)).isoformat(),
            "agreement": None,
            "scored": 0,
            "reviewed": 4,
            "rejected_pct": 25.0,
        },
        {
            "week": (monday - timedelta(weeks=2)).isoformat(),
            "agreement": None,
            "scored": 0,
            "reviewed": 4,
            "rejected_pct": 75.0,
        },
    ]
    assert report["annotators"][str(writers["careful"].pk)]["history"] == []


@pytest.mark.both_backends
def test_agreement_weeks(answered, people):  # noqa: F811
    """Agreement per week: ann1's answers moved one week back count in that week."""
    Answer.objects.filter(author=people[1], question__in=answered[:2]).update(
        created_at=timezone.now() - timedelta(weeks=1)
    )
    report = annotator_quality_report(campaign=answered[0].campaign_id)
    history = report["annotators"][str(people[1].pk)]["history"]
    # Q1 0.8 and Q2 1 a week ago; Q4 1 and Q5 2/3 this week
    assert [(week["agreement"], week["scored"], week["reviewed"]) for week in history] == [
        (exactly(90.0), 2, 0),
        (exactly(250 / 3), 2, 0),
    ]


@pytest.fixture
def large(monkeypatch):
    """The measures as if the answers were too many to score during a request."""
    figure = figures.REGISTRY[FIGURE]
    monkeypatch.setitem(
        figures.REGISTRY, FIGURE, dataclasses.replace(figure, small=lambda **params: False)
    )


def test_many_answers_make_a_stored_figure(
    client,
    careless_campaign,
    large,
    sent_tasks,
    django_capture_on_commit_callbacks,
):
    campaign, writers = careless_campaign
    client.force_login(UserFactory(username="boss", roles=[Role.ADMIN]))

    def get():
        with django_capture_on_commit_callbacks(execute=True):
            return client.get(f"/manage/quality/?campaign={campaign.pk}", HTTP_ACCEPT_LANGUAGE="en")

    # Nothing stored yet: the table's own figures, the measures being computed, one job.
    html = get().content.decode()
    assert "Agreement and flags are being computed; reload in a minute." in html
    assert 'class="quality-flag"' not in html
    row = StoredFigure.objects.get(name=FIGURE, key=f'{{"campaign":{campaign.pk}}}')
    assert sent_tasks.calls == [
        ("core.tasks.stored_figure_task", {"kwargs": {"job_pk": row.pk}, "retry": False})
    ]
    get()  # being computed: no second job
    assert len(sent_tasks.calls) == 1
    figure_compute(row=row)
    html = get().content.decode()
    assert html.count('class="quality-flag"') == 2
    assert "Agreement and flags computed on" in html
    assert len(sent_tasks.calls) == 1
