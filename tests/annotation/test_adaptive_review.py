"""The adaptive review rate (issue 28): each annotator's rate moves with their measured error,
the counts go on through every change, and reviewers see why a question was drawn."""

from decimal import Decimal

import pytest
from django.test import Client
from django.utils import translation

from annotation.models import GoldAnswer, GoldQuestion, Question, ReviewCounter
from annotation.review_rate import Why
from annotation.sampling import sample_running
from annotation.selectors.review_rates import annotator_quality_figures, annotator_rate
from annotation.services.campaigns import campaign_create
from annotation.services.reviews import review_claim_next, review_submit
from annotation.services.work import lease_claim_next, questions_submit
from core.roles import Role
from corpus.readers import SourceArticle
from corpus.services.articles import article_store
from tests.annotation.conftest import good_questions
from tests.factories import UserFactory

pytestmark = pytest.mark.both_backends

TEXT = (
    "Paragraphe {i} : Marseille accueille Bordeaux, Grenoble puis Toulouse chaque année, "
    "selon les archives."
)
HALF, CEILING, FLOOR = Decimal("0.50"), Decimal("0.40"), Decimal("0.05")


@pytest.fixture
def setup(db):
    article_store(
        language="fr",
        source=SourceArticle(title="Adapt", source_title="Adapt"),
        paragraphs=[TEXT.format(i=i) for i in range(12)],
        wave="1.0",
        split="dev",
        kind="file",
    )
    campaign = campaign_create(
        name="Adaptive",
        splits=["dev"],
        review_rate=HALF,
        review_adaptive=True,
        review_floor=FLOOR,
        review_ceiling=CEILING,
        review_error_bar=Decimal("0.15"),
    )
    annotator = UserFactory(username="writer", roles=[Role.ANNOTATOR])
    reviewer = UserFactory(username="checker", roles=[Role.REVIEWER])
    return campaign, annotator, reviewer


def write(campaign, annotator, count=5):
    lease = lease_claim_next(campaign=campaign, annotator=annotator).lease
    return questions_submit(lease=lease, questions=good_questions(lease.paragraph, count))


def review_all(campaign, reviewer, verdict):
    done = 0
    while claim := review_claim_next(campaign=campaign, reviewer=reviewer):
        data = {"verdict": verdict}
        if verdict == "reject":
            data["reason"] = "wrong_answer"
        review_submit(lease=claim.lease, data=data)
        done += 1
    return done


def rates(campaign, annotator):
    return list(
        Question.objects.filter(campaign=campaign, author=annotator)
        .order_by("pk")
        .values_list("review_rate", "review_why")
    )


def test_errors_above_the_bar_raise_the_rate_once_twenty_items_say_so(setup):
    campaign, annotator, reviewer = setup
    for _ in range(8):
        write(campaign, annotator)
        # A handful moves nothing: until 20 checked items, the campaign's rate.
        assert rates(campaign, annotator)[-1] == (HALF, Why.START)
        review_all(campaign, reviewer, "reject")
    # 40 questions at 1/2: exactly 20 sampled, all rejected: 20 errors in 20 items.
    assert Question.objects.filter(author=annotator, status="rejected").count() == 20
    with translation.override("en"):
        figures = annotator_rate(campaign, annotator.pk)
    assert (figures.rate, figures.why, figures.items, figures.errors, figures.flagged) == (
        CEILING,
        Why.ABOVE,
        20,
        20,
        True,
    )
    assert (figures.low, figures.high) == (92.4, 100.0)
    assert figures.why_text == (
        "rate 40% because 20 errors in 20 checked items are clearly above the 15% bar"
    )
    write(campaign, annotator)
    assert rates(campaign, annotator)[-5:] == [(CEILING, Why.ABOVE)] * 5
    # The counts went on: 45 questions, their rates adding up to 40 × 1/2 + 5 × 0.4 = 22.
    counter = ReviewCounter.objects.get(campaign=campaign, annotator=annotator)
    assert (counter.epoch, counter.seen, counter.expected, counter.rate, counter.why) == (
        0,
        45,
        Decimal("22.00"),
        CEILING,
        Why.ABOVE,
    )
    assert counter.sampled == 22
    flags = list(
        Question.objects.filter(author=annotator)
        .order_by("pk")
        .values_list("sampled_for_review", flat=True)
    )
    assert flags == sample_running(
        [HALF] * 40 + [CEILING] * 5,
        key=f"user:{annotator.pk}:epoch:0",
        seed=campaign.review_seed,
    )


def test_reliably_good_work_falls_to_the_floor(setup):
    campaign, annotator, reviewer = setup
    for _ in range(7):
        write(campaign, annotator)
        review_all(campaign, reviewer, "approve")
    # 35 questions at 1/2: 17 or 18 approved, fewer than 20 items: nothing moves yet.
    figures = annotator_rate(campaign, annotator.pk)
    assert (figures.rate, figures.why, figures.errors) == (HALF, Why.START, 0)
    write(campaign, annotator)
    review_all(campaign, reviewer, "approve")
    # 40 questions at 1/2: exactly 20 approved. 0 in 20: 264 times likelier from someone at
    # half the bar than at twice it (50 needed): the floor; Wilson's high end 7.6 %.
    figures = annotator_rate(campaign, annotator.pk)
    assert (figures.rate, figures.why, figures.items, figures.high) == (FLOOR, Why.GOOD, 20, 7.6)
    write(campaign, annotator)
    assert rates(campaign, annotator)[-5:] == [(FLOOR, Why.GOOD)] * 5


def test_gold_answers_count_as_evidence_and_give_a_score_with_its_interval(setup):
    campaign, annotator, reviewer = setup
    write(campaign, annotator)
    question = Question.objects.first()
    gold = GoldQuestion.objects.create(
        question=question, answers=["Marseille"], language="fr", marked_by=reviewer
    )
    # Gold answers of the annotator in this campaign (stored as the gold service does).
    other = UserFactory(username="other", roles=[Role.ANNOTATOR])
    for user, f1 in ((annotator, 100.0), (other, 0.0)):
        GoldAnswer.objects.create(
            gold=gold, annotator=user, campaign=campaign, text="x", exact=f1, f1=f1
        )
    figures = annotator_quality_figures(campaign, [annotator.pk, other.pk])
    assert figures[annotator.pk].gold.answered == 1
    assert (figures[annotator.pk].gold.mean_f1, figures[annotator.pk].gold.right) == (100.0, 100.0)
    # 1 right in 1: Wilson 80 % interval of the share right = [37.8 %, 100 %].
    assert (figures[annotator.pk].gold.low, figures[annotator.pk].gold.high) == (37.8, 100.0)
    assert (figures[other.pk].gold.right, figures[other.pk].items, figures[other.pk].errors) == (
        0.0,
        1,
        1,
    )


def test_the_review_page_says_why_the_question_was_drawn(setup):
    campaign, annotator, reviewer = setup
    for _ in range(8):
        write(campaign, annotator)
        review_all(campaign, reviewer, "reject")
    write(campaign, annotator)
    claim = review_claim_next(campaign=campaign, reviewer=reviewer)
    assert claim.lease.question.review_why == Why.ABOVE
    browser = Client()
    browser.force_login(reviewer)
    for language, expected in (
        ("en", "Drawn: rate 40% because the author’s errors are clearly above the 15% bar"),
        (
            "fr",
            "Tirée : taux de 40 % car les erreurs de l’auteur dépassent nettement le seuil de 15 %",
        ),
    ):
        with translation.override(language):
            page = browser.get(
                f"/review/leases/{claim.lease.pk}/", HTTP_ACCEPT_LANGUAGE=language
            ).content.decode()
        assert expected.replace(" ", "\u00a0").replace("\u00a0", " ") in page.replace(
            "\u00a0", " "
        ).replace("\u202f", " ").replace("&#x27;", "’").replace("'", "’"), language


def test_the_quality_table_shows_each_annotators_rate_why_and_gold_score(setup):
    campaign, annotator, reviewer = setup
    admin = UserFactory(username="boss", roles=[Role.ADMIN])
    for _ in range(8):
        write(campaign, annotator)
        review_all(campaign, reviewer, "reject")
    # Two gold answers: one right (F1 80), one wrong (F1 20, under the 50 of a right answer).
    source = Question.objects.filter(author=annotator).order_by("pk")[:2]
    for question, f1 in zip(source, (80.0, 20.0), strict=True):
        gold = GoldQuestion.objects.create(
            question=question, answers=["Marseille"], language="fr", marked_by=admin
        )
        GoldAnswer.objects.create(
            gold=gold, annotator=annotator, campaign=campaign, text="x", exact=0.0, f1=f1
        )
    client = Client()
    client.force_login(admin)

    page = client.get(f"/manage/quality/?campaign={campaign.pk}", HTTP_ACCEPT_LANGUAGE="en")
    every = client.get("/manage/quality/", HTTP_ACCEPT_LANGUAGE="en")

    html = page.content.decode()
    rate = html.split('data-column="review-rate">', 1)[1].split("</td>", 1)[0]
    gold = html.split('data-column="gold">', 1)[1].split("</td>", 1)[0]
    # 20 rejected of 20 reviewed and 1 wrong gold answer of 2: 21 errors in 22 items.
    assert " ".join(rate.split()) == (
        '40%<br><span class="hint">rate 40% because 21 errors in 22 checked items are '
        "clearly above the 15% bar</span>"
    )
    assert " ".join(gold.split()) == (
        '50.0% <span class="hint">[16.4–83.6]</span><br>'
        '<span class="hint">F1 50.0 over 2 answers</span>'
    )
    # The API gives the same figures.
    api_client = Client()
    api_client.force_login(admin)
    [row] = api_client.get(
        f"/api/v1/quality/?campaign={campaign.pk}", HTTP_ACCEPT_LANGUAGE="en"
    ).json()
    assert (row["review_rate"]["rate"], row["review_rate"]["flagged"]) == (40.0, True)
    assert row["gold"] == {"score": 50.0, "low": 16.4, "high": 83.6, "f1": 50.0, "answers": 2}
    assert client.get("/api/v1/quality/").json()[0]["gold"] is None
    # Wilson 80 % for 1 right of 2: 0.5 ± 1.2816·√(0.125 + 0.1027)/1.8212 = [16.4, 83.6].
    # All campaigns at once: a rate is a campaign's, so the cells say "—".
    every_html = every.content.decode()
    assert every_html.split('data-column="review-rate">', 1)[1].split("</td>", 1)[0].strip() == "—"
    assert every_html.split('data-column="gold">', 1)[1].split("</td>", 1)[0].strip() == "—"
