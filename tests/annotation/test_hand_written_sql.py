"""Every statement written by hand reads and writes what the ORM reads and writes, on
PostgreSQL and on SQLite (`make test` runs this module in both passes).

On SQLite a row read without the ORM's converters holds a naive datetime, an integer for a
boolean, text for JSON; a datetime sent without the ORM's adapter is stored with its offset
("…+00:00") where the ORM stores naive UTC text, and SQLite compares the two as text. Each
test runs one statement (or the service around it) and checks the exact Python values and
types, and that the ORM finds what the statement wrote.
"""

from datetime import UTC, timedelta
from decimal import Decimal
from uuid import UUID
from zoneinfo import ZoneInfo

import pytest
from django.db import transaction
from django.utils import timezone

from annotation.locks import claim, lease_lock, leases_expire
from annotation.models import Answer, Campaign, Lease, Question, ReviewCounter, WorkItem
from annotation.selectors.reports import median_seconds, middle_rows
from annotation.services.audit import review_sample
from annotation.services.campaigns import campaign_create
from annotation.services.items import items_sync
from annotation.services.work import draft_save, lease_claim_next, questions_submit
from corpus.models import Article, Paragraph
from corpus.selectors import waves
from corpus.services.articles import corpus_analyze
from exports.dataset import with_ids
from tests.annotation.conftest import good_questions

pytestmark = pytest.mark.both_backends

PARIS = ZoneInfo("Europe/Paris")


def assert_read_as_the_orm_reads(made) -> None:
    """Each column of `made` has the value and the type the ORM reads from its row, and its
    datetimes are aware, in UTC."""
    model = type(made)
    fresh = model.objects.get(pk=made.pk)
    for field in model._meta.concrete_fields:
        mine, orm = getattr(made, field.attname), getattr(fresh, field.attname)
        # A choice set in Python is its enum member, a str (the ORM reads the plain str).
        kind = str if isinstance(orm, str) and isinstance(mine, str) else type(mine)
        assert (kind, mine) == (type(orm), orm), f"{model.__name__}.{field.name}"
        if field.get_internal_type() == "DateTimeField" and mine is not None:
            assert mine.utcoffset() == timedelta(0), f"{model.__name__}.{field.name}"


def a_claim(campaign, user, *, now=None, kind="write"):
    now = now or timezone.now()
    with transaction.atomic():
        return claim(
            kind,
            campaign=campaign,
            user=user,
            now=now,
            expires=now + timedelta(minutes=30),
            may_take_new=True,
        )


def test_a_claim_writes_and_reads_its_lease_as_the_orm_does(campaign, paragraphs, annotators):
    now = timezone.now()
    lease, created = a_claim(campaign, annotators[0], now=now)

    assert (created, lease.status, lease.draft, lease.draft_saved_at) == (True, "active", {}, None)
    assert (lease.created_at, lease.expires_at) == (now, now + timedelta(minutes=30))
    for made in (lease, lease.paragraph, lease.paragraph.article):
        assert_read_as_the_orm_reads(made)
    # The ORM finds the times the statement wrote (on SQLite: the same text).
    assert Lease.objects.filter(created_at=now, expires_at=now + timedelta(minutes=30)).count() == 1
    assert list(WorkItem.objects.filter(campaign=campaign).values_list("places", flat=True)) == [
        0,
        1,
        1,
    ]
    again, created = a_claim(campaign, annotators[0])
    assert (again.pk, created) == (lease.pk, False)
    assert_read_as_the_orm_reads(again)


def test_a_claim_brings_back_an_expired_lease_with_its_draft_as_the_orm_reads_it(
    campaign, paragraphs, annotators
):
    lease, _created = a_claim(campaign, annotators[0])
    draft_save(lease=lease, draft={"questions": [{"text": "Où ?"}]})
    Lease.objects.filter(pk=lease.pk).update(expires_at=timezone.now() - timedelta(minutes=1))
    leases_expire(campaign=campaign, now=timezone.now())
    later = timezone.now().astimezone(PARIS)  # any time zone: stored in UTC

    back, created = a_claim(campaign, annotators[0], now=later)

    assert (back.pk, created, back.status, back.finished_at) == (lease.pk, False, "active", None)
    assert back.draft == {"questions": [{"text": "Où ?"}]}
    assert back.expires_at == later + timedelta(minutes=30)
    assert_read_as_the_orm_reads(back)
    assert Lease.objects.filter(expires_at=later + timedelta(minutes=30)).get().pk == lease.pk


def test_leases_expire_ends_only_the_overdue_leases_whatever_the_time_zone_of_now(
    campaign, paragraphs, annotators
):
    overdue, _created = a_claim(campaign, annotators[0])
    live, _created = a_claim(campaign, annotators[1])
    now = timezone.now()
    Lease.objects.filter(pk=overdue.pk).update(expires_at=now - timedelta(minutes=1))
    Lease.objects.filter(pk=live.pk).update(expires_at=now + timedelta(minutes=30))

    # Paris is ahead of UTC: compared as text with the stored UTC, 30 minutes ahead would
    # look past.
    leases_expire(campaign=campaign, now=now.astimezone(PARIS))

    ended = Lease.objects.get(pk=overdue.pk)
    assert (ended.status, ended.finished_at) == ("expired", now)
    assert Lease.objects.filter(finished_at=now).get().pk == overdue.pk
    assert Lease.objects.get(pk=live.pk).status == "active"
    places = dict(WorkItem.objects.values_list("paragraph_id", "places"))
    assert places == {paragraphs[0].pk: 1, paragraphs[1].pk: 0, paragraphs[2].pk: 1}
    assert {type(n) for n in places.values()} == {int}


def test_lease_lock_reads_the_lease_its_campaign_paragraph_article_and_question_as_the_orm(
    campaign, paragraphs, annotators
):
    written = lease_claim_next(campaign=campaign, annotator=annotators[0]).lease
    question = questions_submit(lease=written, questions=good_questions(paragraphs[0]))[0]
    lease = Lease.objects.create(
        campaign=campaign,
        kind="review",
        paragraph=paragraphs[0],
        question=question,
        annotator=annotators[1],
        expires_at=timezone.now() + timedelta(minutes=30),
    )
    draft_save(lease=lease, draft={"verdict": "approve", "note": "é"})
    draft_save(lease=lease, draft={"verdict": "approve", "note": "ok"})

    with transaction.atomic():
        locked = lease_lock(lease_pk=lease.pk)

    assert locked.draft == {"verdict": "approve", "note": "ok"}
    assert locked.draft_saved_at is not None
    assert isinstance(locked.campaign.review_rate, Decimal)
    assert isinstance(locked.campaign.splits, list) and locked.campaign.active is True
    assert (type(locked.question.uuid), locked.question.uuid) == (UUID, question.uuid)
    assert (locked.question.is_impossible, locked.question.model_fooled) == (False, None)
    for made in (locked, locked.campaign, locked.paragraph, locked.paragraph.article):
        assert_read_as_the_orm_reads(made)
    assert_read_as_the_orm_reads(locked.question)
    with transaction.atomic():
        assert lease_lock(lease_pk=lease.pk + 1000) is None


def test_stored_questions_come_back_with_their_ids_uuids_and_answers(
    campaign, paragraphs, annotators
):
    lease = lease_claim_next(campaign=campaign, annotator=annotators[0]).lease
    stored = questions_submit(lease=lease, questions=good_questions(paragraphs[0]))

    assert [q.position for q in stored] == [0, 1, 2]
    for question in stored:
        assert (type(question.pk), type(question.uuid)) == (int, UUID)
        assert_read_as_the_orm_reads(question)
        (answer,) = question.answers_stored
        assert type(answer.pk) is int
        assert Answer.objects.get(pk=answer.pk).question_id == question.pk
    assert Question.objects.filter(uuid__in=[q.uuid for q in stored]).count() == 3


def test_the_review_counter_is_made_locked_and_written_with_its_decimals(paragraphs, annotators):
    campaign = campaign_create(
        name="Audit", splits=["dev"], review_rate=Decimal("0.25"), review_warmup=2
    )
    with transaction.atomic():
        drawn = review_sample(campaign=campaign, annotator_id=annotators[0].pk, count=3)
        decisions = [each.picked for each in drawn]
        assert decisions[:2] == [True, True]
    counter = ReviewCounter.objects.get(campaign=campaign, annotator=annotators[0])
    assert (counter.rate, counter.warmup, counter.warmup_rate) == (
        Decimal("0.25"),
        2,
        campaign.review_warmup_rate,
    )
    assert (counter.seen, counter.sampled, counter.epoch) == (3, sum(decisions), 0)
    assert ReviewCounter.objects.filter(rate=Decimal("0.25"), seen=3).count() == 1

    campaign.review_rate = Decimal("0.50")
    with transaction.atomic():
        review_sample(campaign=campaign, annotator_id=annotators[0].pk, count=1)
    counter = ReviewCounter.objects.get(pk=counter.pk)
    # A new rate goes on from the counts (issue 28): 1 + 1 + 0.25 + 0.5 expected.
    assert (counter.rate, counter.epoch, counter.seen, counter.decided_before) == (
        Decimal("0.50"),
        0,
        4,
        0,
    )
    assert counter.expected == Decimal("2.75")
    assert type(counter.rate) is Decimal
    assert type(counter.expected) is Decimal


def test_items_are_made_with_whole_places_for_each_kind_of_campaign(
    campaign, paragraphs, annotators
):
    lease = lease_claim_next(campaign=campaign, annotator=annotators[0]).lease
    questions_submit(lease=lease, questions=good_questions(paragraphs[0]))
    answers = campaign_create(
        name="Réponses", kind=Campaign.Kind.ADDITIONAL_ANSWERS, splits=["dev"], extra_answers=2
    )
    items_sync(campaign=answers)
    items_sync(campaign=campaign)

    rows = list(
        WorkItem.objects.order_by("campaign_id", "rank").values_list(
            "campaign_id", "kind", "rank", "places"
        )
    )
    asked = sorted(Question.objects.values_list("pk", flat=True))
    assert rows == [
        (campaign.pk, "write", paragraphs[0].pk, 0),
        (campaign.pk, "write", paragraphs[1].pk, 1),
        (campaign.pk, "write", paragraphs[2].pk, 1),
        *[(answers.pk, "answer", pk, 2) for pk in asked],
    ]
    assert len(asked) == 3
    assert {type(row[3]) for row in rows} == {int}


def test_the_median_statement_gives_whole_numbers_on_both_databases(
    campaign, paragraphs, annotators
):
    for annotator, paragraph, seconds in [
        (annotators[0], paragraphs[0], [40, 41, 50]),
        (annotators[1], paragraphs[1], [30, 31, 33]),
    ]:
        lease = lease_claim_next(campaign=campaign, annotator=annotator).lease
        sent = good_questions(paragraph, count=3)
        for question, spent in zip(sent, seconds, strict=True):
            question["seconds_spent"] = spent
        questions_submit(lease=lease, questions=sent)
    Question.objects.filter(author=annotators[1], seconds_spent=33).delete()

    rows = sorted(middle_rows(Question.objects.all(), "author_id"))

    assert rows == [
        (annotators[0].pk, 41, 1, 1),
        (annotators[1].pk, 30, 1, 0),
        (annotators[1].pk, 31, 0, 1),
    ]
    assert {type(value) for row in rows for value in row} == {int}
    medians = median_seconds(Question.objects.all())
    assert medians == {annotators[0].pk: 41, annotators[1].pk: 30.5}
    assert [type(medians[a.pk]) for a in annotators[:2]] == [int, float]


def test_the_waves_are_read_as_text_in_order(paragraphs):
    Article.objects.filter(pk=paragraphs[2].article_id).update(wave="1.1")
    Article.objects.filter(pk=paragraphs[1].article_id).update(wave="0.9")

    assert waves() == ["0.9", "1.0", "1.1"]
    assert corpus_analyze() is None  # PostgreSQL's ANALYZE; nothing to do on SQLite


def test_rows_picked_by_id_read_as_the_orm_reads_them(paragraphs):
    picked = with_ids(Paragraph.objects.order_by("pk"), [paragraphs[2].pk, paragraphs[0].pk])

    assert list(picked) == [paragraphs[0], paragraphs[2]]
    for made in picked:
        assert_read_as_the_orm_reads(made)


def test_a_utc_time_is_what_the_orm_wrote_and_reads(campaign, paragraphs, annotators):
    """The statements' times and the ORM's are one spelling: a claim at a Paris time and a
    draft saved by the ORM are ordered as times, not as text."""
    now = timezone.now().replace(microsecond=0)
    lease, _created = a_claim(campaign, annotators[0], now=now.astimezone(PARIS))
    Lease.objects.filter(pk=lease.pk).update(draft_saved_at=now + timedelta(seconds=1))

    assert Lease.objects.filter(created_at__lt=now + timedelta(seconds=1)).count() == 1
    assert Lease.objects.filter(created_at__gt=now - timedelta(seconds=1)).count() == 1
    assert Lease.objects.get(pk=lease.pk).created_at == now.astimezone(UTC)
