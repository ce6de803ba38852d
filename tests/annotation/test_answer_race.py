"""Many annotators claim and submit additional answers at once (PostgreSQL, real threads)."""

import threading
from collections import Counter
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.utils import timezone

from accounts.services import user_grant_role
from annotation import locks
from annotation.models import Answer, Lease, Question
from annotation.services.answers import answer_claim_next, answer_submit
from annotation.services.campaigns import campaign_create
from annotation.services.items import items_close_question
from annotation.services.work import lease_claim_next, questions_submit
from corpus.readers import SourceArticle
from corpus.services.articles import article_store
from tests.annotation.conftest import good_questions
from tests.conftest import require_service

QUESTIONS = 10  # two paragraphs of five questions
EXTRA = 2
TEXT = (
    "Paragraphe {i} : Marseille accueille Bordeaux, Grenoble puis Toulouse chaque année, "
    "selon les archives."
)


def prepare(annotators: int):
    """One author writes QUESTIONS questions on dev; return (campaign, author, annotators)."""
    users = get_user_model().objects
    author = users.create(username="auteur")
    user_grant_role(user=author, role="annotator")
    article_store(
        language="fr",
        source=SourceArticle(title="Course", source_title="Course"),
        paragraphs=[TEXT.format(i=i) for i in range(QUESTIONS // 5)],
        wave="1.0",
        split="dev",
        kind="file",
    )
    questions = campaign_create(name="Questions", splits=["dev"])
    for _ in range(QUESTIONS // 5):
        lease = lease_claim_next(campaign=questions, annotator=author).lease
        questions_submit(lease=lease, questions=good_questions(lease.paragraph, 5))
    assert Question.objects.count() == QUESTIONS
    campaign = campaign_create(
        name="Réponses", kind="additional_answers", splits=["dev"], extra_answers=EXTRA
    )
    racers = []
    for i in range(annotators):
        user = users.create(username=f"racer{i}")
        user_grant_role(user=user, role="annotator")
        racers.append(user)
    return campaign, author, racers


def race(campaign, users, *, until_none: bool) -> dict:
    """Start one thread per annotator behind a barrier: claim and submit once, or until None."""
    barrier = threading.Barrier(len(users))
    answered, nothing, errors = Counter(), Counter(), []

    def work(user):
        try:
            barrier.wait()
            while True:
                claim = answer_claim_next(campaign=campaign, annotator=user)
                if claim is None:
                    nothing[user.username] += 1
                    break
                question = claim.lease.question
                original = Answer.objects.get(question=question, kind="original")
                data = {"answer_start": original.answer_start, "answer_text": original.text}
                answer_submit(lease=claim.lease, data=data)
                answered[user.username] += 1
                if not until_none:
                    break
        except Exception as error:  # reported, so the test shows what went wrong
            errors.append(f"{user.username}: {type(error).__name__}: {error}")
        finally:
            connection.close()

    threads = [threading.Thread(target=work, args=(user,)) for user in users]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return {"answered": answered, "nothing": nothing, "errors": errors}


def assert_rules_hold(author):
    extra = Answer.objects.filter(kind="additional")
    per_question = Counter(extra.values_list("question_id", flat=True))
    assert max(per_question.values(), default=0) <= EXTRA, per_question
    assert not extra.filter(author=author).exists()
    pairs = list(extra.values_list("question_id", "author_id"))
    assert len(pairs) == len(set(pairs))
    live = Counter(
        Lease.objects.filter(kind="answer", status__in=["active", "submitted"]).values_list(
            "question_id", flat=True
        )
    )
    assert max(live.values(), default=0) <= EXTRA, live
    assert Lease.objects.filter(kind="answer", status="active").count() == 0
    return per_question


def require_postgresql():
    if connection.vendor != "postgresql":
        require_service("the answer race needs DATABASE_URL to point at PostgreSQL")


@pytest.mark.django_db(transaction=True)
def test_thirty_annotators_answering_at_once_fill_each_question_twice_at_most():
    require_postgresql()
    campaign, author, racers = prepare(30)
    result = race(campaign, racers, until_none=False)
    assert result["errors"] == []
    per_question = assert_rules_hold(author)
    assert sum(per_question.values()) == min(30, QUESTIONS * EXTRA) == 20
    assert sum(result["answered"].values()) == 20
    assert sum(result["nothing"].values()) == 10


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("annotators", [30, 5])
def test_annotators_claiming_until_nothing_is_left_fill_every_question_exactly(annotators):
    require_postgresql()
    campaign, author, racers = prepare(annotators)
    result = race(campaign, racers, until_none=True)
    assert result["errors"] == []
    per_question = assert_rules_hold(author)
    assert per_question == Counter(
        {q: EXTRA for q in Question.objects.values_list("pk", flat=True)}
    )
    assert sum(result["answered"].values()) == QUESTIONS * EXTRA
    assert all(answer_claim_next(campaign=campaign, annotator=u) is None for u in racers)


@pytest.mark.django_db(transaction=True)
def test_a_claim_in_flight_does_not_hide_the_other_place_of_its_question():
    """While one claim holds a question's item, the question's second place is still free.

    The thread stops a real claim between its pick (the item's row locked) and its commit;
    extra_answers is 2, so one place is left for the second annotator, who must not be told
    that nothing is left: their claim waits for the item's lock, then takes the place.
    """
    require_postgresql()
    campaign, _author, (first, second) = prepare(2)
    only = Question.objects.order_by("pk").first()
    for question in Question.objects.exclude(pk=only.pk):  # as a rejecting review does
        Question.objects.filter(pk=question.pk).update(status="rejected")
        items_close_question(question.pk)
    holding, done = threading.Event(), threading.Event()
    picked = []

    def claim_in_flight():
        try:
            with transaction.atomic():  # the first claimant picked the question, not yet stored
                now = timezone.now()
                lease, _created = locks.claim(
                    "answer",
                    campaign=campaign,
                    user=first,
                    now=now,
                    expires=now + timedelta(minutes=30),
                    may_take_new=True,
                )
                picked.append(lease.question)
                holding.set()
                done.wait(10)
        finally:
            holding.set()
            connection.close()

    thread = threading.Thread(target=claim_in_flight)
    thread.start()
    assert holding.wait(10)
    threading.Timer(0.3, done.set).start()  # the first claim commits while the second waits
    try:
        claim = answer_claim_next(campaign=campaign, annotator=second)
    finally:
        done.set()
        thread.join()
    assert [q.pk for q in picked] == [only.pk]
    assert claim is not None, "told nothing is left while the question had 2 free places"
    assert claim.lease.question_id == only.pk
