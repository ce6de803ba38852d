"""Review sampling of submitted questions: a band per annotator, the warm-up, a change of rate
that keeps the counts, version 1."""

import math
from decimal import Decimal

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from annotation.models import Campaign, Lease, Question, QuestionRevision, ReviewCounter
from annotation.sampling import sample_running, sample_sequence
from annotation.services.audit import review_sample
from annotation.services.campaigns import campaign_create, campaign_update
from annotation.services.work import lease_claim_next, questions_submit
from core.errors import ServiceError
from corpus.readers import SourceArticle
from corpus.services.articles import article_store
from tests.annotation.conftest import good_questions

QUARTER = Decimal("0.25")
# Each paragraph holds five words of more than four letters, so five questions fit on it.
TEXT = (
    "Paragraphe {i} : Marseille accueille Bordeaux, Grenoble puis Toulouse chaque année, "
    "selon les archives."
)


def make_paragraphs(count, *, title="Audit", split="dev"):
    article = article_store(
        language="fr",
        source=SourceArticle(title=title, source_title=title),
        paragraphs=[TEXT.format(i=i) for i in range(count)],
        wave="1.0",
        split=split,
        kind="file",
    )
    return list(article.paragraphs.order_by("position"))


def submit(campaign, annotator, count):
    """Claim the annotator's next paragraph and submit `count` questions on it."""
    lease = lease_claim_next(campaign=campaign, annotator=annotator).lease
    return questions_submit(lease=lease, questions=good_questions(lease.paragraph, count))


def band(n, rate=QUARTER):
    return math.floor(rate * n), math.ceil(rate * n)


def flags(campaign, annotator):
    """The annotator's sampling decisions on the campaign, in the order they were written."""
    return list(
        Question.objects.filter(campaign=campaign, author=annotator)
        .order_by("pk")
        .values_list("sampled_for_review", flat=True)
    )


def sampled_count(campaign, annotator):
    return Question.objects.filter(
        campaign=campaign, author=annotator, sampled_for_review=True
    ).count()


def counter_state(campaign, annotator):
    counter = ReviewCounter.objects.get(campaign=campaign, annotator=annotator)
    return (counter.epoch, counter.rate, counter.seen, counter.sampled)


def test_submissions_keep_the_quarter_band_and_replay_the_pure_sampler(campaign, annotators):
    make_paragraphs(8)
    annotator = annotators[0]
    key = f"user:{annotator.pk}:epoch:0"
    written = 0
    for count in (3, 5, 4, 3, 5, 4, 3, 5):
        stored = submit(campaign, annotator, count)
        assert len(stored) == count
        written += count
        low, high = band(written)
        assert low <= sampled_count(campaign, annotator) <= high, written
        expected = sample_sequence(written, rate=QUARTER, key=key, seed=campaign.review_seed)
        assert flags(campaign, annotator) == expected
        assert counter_state(campaign, annotator) == (0, QUARTER, written, sum(expected))
    assert written == 32
    assert sampled_count(campaign, annotator) == 8  # 0.25 · 32 is whole: exactly 8


def test_the_same_seed_gives_the_same_picks_in_another_campaign(campaign, annotators):
    make_paragraphs(4)
    other = campaign_create(name="Copie", splits=["dev"])
    Campaign.objects.filter(pk=other.pk).update(review_seed=campaign.review_seed)
    other.refresh_from_db()
    annotator = annotators[1]
    for count in (5, 3, 4, 5):
        submit(campaign, annotator, count)
        submit(other, annotator, count)
    assert flags(campaign, annotator) == flags(other, annotator)
    assert flags(campaign, annotator) == sample_sequence(
        17, rate=QUARTER, key=f"user:{annotator.pk}:epoch:0", seed=campaign.review_seed
    )


def test_annotators_are_sampled_on_their_own_counters(campaign, annotators):
    make_paragraphs(6)
    for annotator in annotators[:2] * 3:
        submit(campaign, annotator, 4)
    for annotator in annotators[:2]:
        assert flags(campaign, annotator) == sample_sequence(
            12, rate=QUARTER, key=f"user:{annotator.pk}:epoch:0", seed=campaign.review_seed
        )
        assert sampled_count(campaign, annotator) == 3
        assert counter_state(campaign, annotator) == (0, QUARTER, 12, 3)
    assert not ReviewCounter.objects.filter(annotator=annotators[2]).exists()


def test_a_refused_submission_leaves_the_counter_alone(campaign, annotators):
    make_paragraphs(2)
    annotator = annotators[0]
    submit(campaign, annotator, 4)
    before = counter_state(campaign, annotator)
    lease = lease_claim_next(campaign=campaign, annotator=annotator).lease
    payload = good_questions(lease.paragraph, 4)
    payload[3]["answer_start"] += 1
    with pytest.raises(ServiceError) as error:
        questions_submit(lease=lease, questions=payload)
    assert (list(error.value.errors), error.value.status) == (["questions[3].answer_text"], 400)
    assert counter_state(campaign, annotator) == before
    assert Question.objects.count() == 4
    assert QuestionRevision.objects.count() == 4
    assert Lease.objects.get(pk=lease.pk).status == "active"


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    turns=st.lists(st.tuples(st.integers(0, 2), st.integers(3, 5)), min_size=1, max_size=10),
    seed=st.integers(0, 2**62 - 1),
)
def test_any_interleaving_of_annotators_keeps_each_band_after_every_submission(
    annotators, turns, seed
):
    with transaction.atomic():
        campaign = campaign_create(name="Entrelacs", splits=["test"])
        Campaign.objects.filter(pk=campaign.pk).update(review_seed=seed)
        campaign.refresh_from_db()
        make_paragraphs(len(turns), title="Entrelacs", split="test")
        written = [0, 0, 0]
        for who, count in turns:
            submit(campaign, annotators[who], count)
            written[who] += count
            for annotator, n in zip(annotators, written, strict=True):
                low, high = band(n)
                assert low <= sampled_count(campaign, annotator) <= high, (annotator, n)
        for annotator, n in zip(annotators, written, strict=True):
            assert flags(campaign, annotator) == sample_sequence(
                n, rate=QUARTER, key=f"user:{annotator.pk}:epoch:0", seed=seed
            )
        transaction.set_rollback(True)


def test_review_sample_alone_keeps_the_band_over_many_small_calls(campaign, annotators):
    annotator = annotators[2]
    decisions = []
    with transaction.atomic():
        for count in [1, 2, 3, 1, 5, 4, 1, 1, 2, 7, 3]:
            drawn = review_sample(campaign=campaign, annotator_id=annotator.pk, count=count)
            decisions += [each.picked for each in drawn]
            low, high = band(len(decisions))
            assert low <= sum(decisions) <= high
    assert decisions == sample_sequence(
        30, rate=QUARTER, key=f"user:{annotator.pk}:epoch:0", seed=campaign.review_seed
    )
    assert counter_state(campaign, annotator) == (0, QUARTER, 30, sum(decisions))


def test_warmup_samples_the_first_questions_then_the_band_counts_from_the_next(
    campaign, annotators
):
    campaign.review_warmup = 4
    campaign.review_warmup_rate = Decimal("1")
    campaign.save()
    make_paragraphs(6)
    annotator = annotators[0]
    written = 0
    for count in (3, 5, 4, 3, 5, 4):
        submit(campaign, annotator, count)
        written += count
        decisions = flags(campaign, annotator)
        assert decisions[:4] == [True] * min(written, 4)
        if written > 4:
            low, high = band(written - 4)
            assert low <= sum(decisions[4:]) <= high, written
        assert decisions == sample_sequence(
            written,
            rate=QUARTER,
            key=f"user:{annotator.pk}:epoch:0",
            seed=campaign.review_seed,
            warmup=4,
            warmup_rate=Decimal("1"),
        )
    assert written == 24
    assert sampled_count(campaign, annotator) == 4 + 5  # 4 warm-up, then 0.25 · 20
    counter = ReviewCounter.objects.get(campaign=campaign, annotator=annotator)
    assert (counter.epoch, counter.warmup, counter.warmup_rate, counter.seen, counter.sampled) == (
        0,
        4,
        Decimal("1.00"),
        24,
        9,
    )


def rates_of(campaign, annotator):
    return list(
        Question.objects.filter(campaign=campaign, author=annotator)
        .order_by("pk")
        .values_list("review_rate", flat=True)
    )


def test_changing_the_review_rate_keeps_the_counts_and_the_draws(campaign, annotators):
    make_paragraphs(6)
    annotator, late = annotators[0], annotators[1]
    key = f"user:{annotator.pk}:epoch:0"
    submit(campaign, annotator, 3)
    submit(campaign, annotator, 5)
    assert counter_state(campaign, annotator) == (0, QUARTER, 8, 2)

    campaign = campaign_update(campaign=campaign, review_rate=Decimal("0.5"))
    # Nothing moves until the annotator's next submission.
    assert counter_state(campaign, annotator) == (0, QUARTER, 8, 2)
    submit(campaign, annotator, 4)
    half = Decimal("0.50")
    rates = [QUARTER] * 8 + [half] * 4
    assert flags(campaign, annotator) == sample_running(rates, key=key, seed=campaign.review_seed)
    # The counts go on (no new epoch): 8 questions at 1/4 and 4 at 1/2 expect exactly 4.
    assert counter_state(campaign, annotator) == (0, half, 12, 4)
    counter = ReviewCounter.objects.get(campaign=campaign, annotator=annotator)
    assert (counter.expected, counter.decided_before, counter.why) == (Decimal("4.00"), 0, "fixed")
    assert sum(flags(campaign, annotator)[:8]) == 2  # the decided questions keep their flag

    submit(campaign, annotator, 3)
    rates += [half] * 3
    replay = sample_running(rates, key=key, seed=campaign.review_seed)
    assert flags(campaign, annotator) == replay
    assert counter_state(campaign, annotator) == (0, half, 15, sum(replay))
    assert sum(replay) in (5, 6)  # 5.5 expected

    # An annotator whose first question comes after the change starts at the new rate.
    submit(campaign, late, 4)
    assert counter_state(campaign, late) == (0, half, 4, 2)

    campaign = campaign_update(campaign=campaign, review_rate=QUARTER)
    submit(campaign, annotator, 4)
    rates += [QUARTER] * 4
    replay = sample_running(rates, key=key, seed=campaign.review_seed)
    assert flags(campaign, annotator) == replay
    assert counter_state(campaign, annotator) == (0, QUARTER, 19, sum(replay))
    assert sum(replay) in (6, 7)  # 6.5 expected
    # Each question keeps the rate it was decided at.
    assert rates_of(campaign, annotator) == rates


def test_changing_the_warmup_neither_restarts_the_counts_nor_warms_up_again(campaign, annotators):
    make_paragraphs(2)
    annotator = annotators[0]
    submit(campaign, annotator, 4)
    campaign.review_warmup = 3
    campaign.save()
    submit(campaign, annotator, 4)
    counter = ReviewCounter.objects.get(campaign=campaign, annotator=annotator)
    assert (counter.epoch, counter.warmup, counter.seen, counter.decided_before) == (0, 3, 8, 0)
    # The warm-up covers an annotator's first 3 questions of the campaign: these 4 already came.
    assert flags(campaign, annotator) == sample_sequence(
        8, rate=QUARTER, key=f"user:{annotator.pk}:epoch:0", seed=campaign.review_seed
    )


def test_a_longer_warmup_covers_only_the_questions_still_in_it(campaign, annotators):
    make_paragraphs(2)
    annotator = annotators[0]
    submit(campaign, annotator, 4)
    campaign.review_warmup = 6
    campaign.save()
    submit(campaign, annotator, 4)
    # Questions 5 and 6 are in the warm-up (rate 1), questions 7 and 8 at the review rate.
    assert flags(campaign, annotator)[4:6] == [True, True]
    rates = [QUARTER] * 4 + [Decimal(1)] * 2 + [QUARTER] * 2
    assert flags(campaign, annotator) == sample_running(
        rates, key=f"user:{annotator.pk}:epoch:0", seed=campaign.review_seed
    )
    assert rates_of(campaign, annotator) == rates
    assert (
        list(
            Question.objects.filter(author=annotator)
            .order_by("pk")
            .values_list("review_why", flat=True)
        )
        == ["fixed"] * 4 + ["warmup"] * 2 + ["fixed"] * 2
    )


def test_every_submitted_question_starts_with_version_1_by_its_author(campaign, annotators):
    paragraph = make_paragraphs(1)[0]
    annotator = annotators[1]
    lease = lease_claim_next(campaign=campaign, annotator=annotator).lease
    payload = good_questions(paragraph, 4)
    payload[0]["text"] = "  Où   se trouve  Marseille ?  "
    stored = questions_submit(lease=lease, questions=payload)
    assert QuestionRevision.objects.count() == 4
    for question, item in zip(stored, payload, strict=True):
        revision = QuestionRevision.objects.get(question=question)
        assert (
            revision.number,
            revision.origin,
            revision.editor_id,
            revision.text,
            revision.answer_start,
            revision.answer_text,
        ) == (
            1,
            "written",
            annotator.pk,
            " ".join(item["text"].split()),
            item["answer_start"],
            item["answer_text"],
        )
        assert revision.text == Question.objects.get(pk=question.pk).text
    assert QuestionRevision.objects.get(question=stored[0]).text == "Où se trouve Marseille ?"
