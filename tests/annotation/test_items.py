"""The work items a campaign offers: made with the campaign and the corpus, places kept true.

The strongest check is the last one: after any sequence of claims, submissions, give-backs,
expiries, revivals and reviews, the places moved one lease at a time equal the places the rule
computes from scratch (`items_sync`), and the frozen migration computes the same.
"""

import importlib
import random
from datetime import timedelta
from decimal import Decimal

import pytest
from django.apps import apps
from django.db import connection
from django.utils import timezone

from annotation.models import Lease, Question, WorkItem
from annotation.services.answers import answer_claim_next, answer_submit
from annotation.services.campaigns import campaign_create, campaign_update
from annotation.services.items import items_sync
from annotation.services.reviews import review_claim_next, review_submit
from annotation.services.work import (
    draft_save,
    lease_claim_next,
    lease_release,
    questions_submit,
)
from core.errors import ServiceError
from core.roles import Role
from corpus.readers import SourceArticle
from corpus.services.articles import ArticleTexts, article_set_split, article_store, corpus_ensure
from tests.annotation.conftest import expire, good_questions
from tests.factories import UserFactory

TEXT = (
    "Le pont du Gard est un aqueduc romain construit au premier siècle pour conduire "
    "l'eau jusqu'à Nîmes ; il enjambe le Gardon sur trois niveaux d'arches."
)


def places(campaign) -> dict:
    """{paragraph id (write) or question id (answer): places} of the campaign's items."""
    rows = WorkItem.objects.filter(campaign=campaign).values_list(
        "kind", "paragraph_id", "question_id", "places"
    )
    return {(p if kind == "write" else q): n for kind, p, q, n in rows}


def store(title, split="dev", texts=(TEXT,)):
    return article_store(
        language="fr",
        source=SourceArticle(title=title, source_title=title),
        paragraphs=list(texts),
        wave="1.0",
        split=split,
        kind="file",
    )


def test_a_campaign_offers_a_write_item_per_paragraph_of_its_splits(campaign, paragraphs):
    train = store("Ailleurs", split="train").paragraphs.get()
    english = article_store(
        language="en",
        source=SourceArticle(title="Elsewhere", source_title="Elsewhere"),
        paragraphs=[TEXT],
        wave="1.0",
        split="dev",
        kind="file",
    )
    assert places(campaign) == {p.pk: 1 for p in paragraphs}
    assert train.pk not in places(campaign)
    assert english.paragraphs.get().pk not in places(campaign)
    campaign_update(campaign=campaign, splits=["train", "dev"])
    assert places(campaign) == {p.pk: 1 for p in paragraphs} | {train.pk: 1}
    campaign_update(campaign=campaign, splits=["train"])
    assert places(campaign) == {p.pk: 0 for p in paragraphs} | {train.pk: 1}


def test_paragraphs_that_come_later_become_items_at_once(campaign, paragraphs, annotators):
    later = store("Plus tard").paragraphs.get()
    assert places(campaign)[later.pk] == 1
    corpus_ensure(
        articles=[ArticleTexts("Plus tard", "Plus tard", [TEXT, TEXT.replace("Gard", "Tarn")])],
        language="fr",
        wave="1.1",
        split=None,
        seed=0,
    )
    grown = later.article.paragraphs.order_by("position").last()
    assert grown.pk != later.pk and places(campaign)[grown.pk] == 1
    held = [lease_claim_next(campaign=campaign, annotator=annotators[0]).lease.paragraph_id]
    assert held == [paragraphs[0].pk]


def test_an_article_moved_out_of_the_splits_is_offered_no_more(campaign, paragraphs, annotators):
    article_set_split(article=paragraphs[0].article, split="train")
    assert places(campaign)[paragraphs[0].pk] == 0
    lease = lease_claim_next(campaign=campaign, annotator=annotators[0]).lease
    assert lease.paragraph_id == paragraphs[1].pk
    article_set_split(article=paragraphs[0].article, split="dev")
    assert places(campaign)[paragraphs[0].pk] == 1
    article_set_split(article=paragraphs[1].article, split="test")
    assert places(campaign)[paragraphs[1].pk] == 0  # held, and out of the splits: no place
    assert Lease.objects.get(pk=lease.pk).status == "active"  # the holder may still send it


def test_a_closed_campaign_gets_its_items_when_opened(paragraphs):
    closed = campaign_create(name="Plus tard", splits=["dev"], active=False)
    assert places(closed) == {}
    campaign_update(campaign=closed, active=True)
    assert places(closed) == {p.pk: 1 for p in paragraphs}


def test_an_answer_in_one_campaign_is_one_fewer_wanted_in_another(campaign, paragraphs):
    author, first, second, fourth = (
        UserFactory(username=name, roles=[Role.ANNOTATOR]) for name in ("a", "b", "c", "d")
    )
    lease = lease_claim_next(campaign=campaign, annotator=author).lease
    questions_submit(lease=lease, questions=good_questions(paragraphs[0]))
    one = campaign_create(name="Réponses 1", kind="additional_answers", splits=["dev"])
    two = campaign_create(name="Réponses 2", kind="additional_answers", splits=["dev"])
    question = Question.objects.order_by("pk").first()
    taken = answer_claim_next(campaign=one, annotator=first).lease
    assert (places(one)[question.pk], places(two)[question.pk]) == (1, 2)
    answer_submit(lease=taken, data={"no_answer": True})
    assert (places(one)[question.pk], places(two)[question.pk]) == (1, 1)
    again = answer_claim_next(campaign=two, annotator=second).lease
    answer_submit(lease=again, data={"no_answer": True})
    assert (places(one)[question.pk], places(two)[question.pk]) == (0, 0)
    following = Question.objects.order_by("pk")[1]
    assert answer_claim_next(campaign=one, annotator=fourth).lease.question_id == following.pk


def test_deleting_a_person_frees_what_they_held(campaign, paragraphs):
    person = UserFactory(username="parti", roles=[Role.ANNOTATOR])
    lease_claim_next(campaign=campaign, annotator=person)
    assert places(campaign)[paragraphs[0].pk] == 0
    person.delete()
    assert places(campaign)[paragraphs[0].pk] == 1


def _step(rng, world) -> None:
    """One thing a person does, at random; refusals are part of the game."""
    campaign, answers, people, reviewer = world
    person = rng.choice(people)
    action = rng.choice(
        ["write", "write", "skip", "unsuitable", "expire", "draft", "answer", "answer", "review"]
    )
    try:
        if action in ("write", "skip", "unsuitable", "expire", "draft"):
            claim = lease_claim_next(campaign=campaign, annotator=person)
            if claim is None:
                return
            lease = claim.lease
            if action == "write":
                questions_submit(lease=lease, questions=good_questions(lease.paragraph))
            elif action in ("skip", "unsuitable"):
                lease_release(lease=lease, reason=action)
            elif action == "expire":
                expire(lease)
            else:
                draft_save(lease=expire(lease), draft={"questions": ["à moitié"]})
        elif action == "answer":
            claim = answer_claim_next(campaign=answers, annotator=person)
            if claim is not None:
                if rng.random() < 0.3:
                    expire(claim.lease)
                else:
                    answer_submit(lease=claim.lease, data={"no_answer": True})
        else:
            claim = review_claim_next(campaign=campaign, reviewer=reviewer)
            if claim is not None:
                verdict = rng.choice(["approve", "reject"])
                reason = "wrong_answer" if verdict == "reject" else ""
                review_submit(lease=claim.lease, data={"verdict": verdict, "reason": reason})
    except ServiceError:
        pass


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_places_moved_lease_by_lease_equal_the_rule_from_scratch(db, seed):
    for index in range(8):
        store(f"Article {index}", texts=[TEXT.replace("Gard", f"Gard {index}")])
    campaign = campaign_create(name="Questions", splits=["dev"], review_rate=Decimal("0.5"))
    answers = campaign_create(name="Réponses", kind="additional_answers", splits=["dev"])
    people = [UserFactory(username=f"p{i}", roles=[Role.ANNOTATOR]) for i in range(5)]
    reviewer = UserFactory(username="relecteur", roles=[Role.REVIEWER])
    rng = random.Random(seed)  # noqa: S311 (a replayable game, not a secret)
    for _ in range(60):
        _step(rng, (campaign, answers, people, reviewer))
    moved = {c.pk: places(c) for c in (campaign, answers)}
    statuses = set(Question.objects.values_list("status", flat=True))
    assert {"approved", "rejected", "pending"} <= statuses  # the game played every move
    assert sum(moved[answers.pk].values()) < 2 * Question.objects.count()
    for each in (campaign, answers):
        items_sync(campaign=each)
    assert {c.pk: places(c) for c in (campaign, answers)} == moved
    WorkItem.objects.all().delete()
    fill = importlib.import_module("annotation.migrations.0008_work_items_fill").fill
    fill(apps, type("Editor", (), {"connection": connection})())
    assert {c.pk: places(c) for c in (campaign, answers)} == moved


def test_an_expired_write_lease_gives_its_place_back_once(campaign, paragraphs, annotators):
    lease = lease_claim_next(campaign=campaign, annotator=annotators[0]).lease
    Lease.objects.filter(pk=lease.pk).update(expires_at=timezone.now() - timedelta(minutes=1))
    other = lease_claim_next(campaign=campaign, annotator=annotators[1]).lease
    assert other.paragraph_id == paragraphs[0].pk  # the overdue lease ended, its place taken
    lease_claim_next(campaign=campaign, annotator=annotators[2])  # no second give-back
    assert places(campaign) == {paragraphs[0].pk: 0, paragraphs[1].pk: 0, paragraphs[2].pk: 1}
