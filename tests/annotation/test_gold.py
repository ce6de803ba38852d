"""Gold questions (issue 28): marked by admins from train or dev, mixed unannounced into the
stream, scored with the language's metric, kept apart from releases and human performance,
never shown twice to one person."""

import json
import re
from decimal import Decimal

import pytest
from django.db import transaction
from django.test import Client
from django.utils import translation
from rest_framework.test import APIClient

from annotation.locks import lease_lock
from annotation.models import Answer, Campaign, GoldAnswer, GoldQuestion, Lease, Question
from annotation.services.answers import answer_claim_next, answer_submit
from annotation.services.campaigns import campaign_create
from annotation.services.gold import _draw, gold_mark, gold_marked, is_gold_lease
from annotation.services.reviews import review_claim_next, review_submit
from annotation.services.work import lease_claim_next, questions_submit
from core.errors import ServiceError
from core.roles import Role
from corpus.readers import SourceArticle
from corpus.services.articles import article_store
from evaluation.selectors.human import human_performance_report
from exports.build import build_release_files
from exports.options import check_options
from tests.annotation.conftest import good_questions
from tests.factories import UserFactory

pytestmark = pytest.mark.both_backends


@pytest.fixture
def people(db):
    made = {name: UserFactory(username=name, roles=[Role.ANNOTATOR]) for name in "abcdef"}
    made["rev"] = UserFactory(username="rev", roles=[Role.REVIEWER], language="en")
    made["boss"] = UserFactory(username="boss", roles=[Role.ADMIN], language="en")
    return made


@pytest.fixture(autouse=True)
def english():
    """Messages are asserted in English (the services read the active language; the API the
    person's: `language` above)."""
    with translation.override("en"):
        yield


def api_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    client.credentials(HTTP_ACCEPT_LANGUAGE="en")
    return client


def span(question):
    original = question.answers.get(kind=Answer.Kind.ORIGINAL)
    return {"answer_start": original.answer_start, "answer_text": original.text}


def written_and_answered(people, paragraphs):
    """Author `a` writes 3 questions on the first dev paragraph, all reviewed and approved;
    `b` and `c` give each question an additional answer equal to its original one, except
    that `c` answers the third question with another word. Returns the three questions."""
    write = campaign_create(name="Write", splits=["dev"], review_rate=Decimal("1.00"))
    lease = lease_claim_next(campaign=write, annotator=people["a"]).lease
    questions_submit(lease=lease, questions=good_questions(lease.paragraph, 3))
    for _ in range(3):
        review = review_claim_next(campaign=write, reviewer=people["rev"]).lease
        review_submit(lease=review, data={"verdict": "approve"})
    extra = campaign_create(name="Extra", kind="additional_answers", splits=["dev"])
    questions = list(Question.objects.filter(campaign=write).order_by("pk"))
    for name in ("b", "c"):
        for question in questions:
            claimed = answer_claim_next(campaign=extra, annotator=people[name]).lease
            assert claimed.question_id == question.pk
            data = span(question) | {"seconds_spent": 20}
            if name == "c" and question == questions[2]:
                data = {"answer_start": 0, "answer_text": "La", "seconds_spent": 20}
            answer_submit(lease=claimed, data=data)
    return questions


def gold_campaign(name, user, *, kind="additional_answers", position=0, **fields):
    """A campaign with a 50 % gold share whose seed makes `user`'s claim number `position` a
    gold item (and number 1 an ordinary one)."""
    if kind == "additional_answers":
        fields.setdefault("extra_answers", 3)  # the ordinary questions have a place left
    campaign = campaign_create(name=name, kind=kind, splits=["dev"], gold_share="0.50", **fields)
    for seed in range(1000):
        campaign.review_seed = seed
        if _draw(campaign, user.pk, position) and not _draw(campaign, user.pk, position + 1):
            Campaign.objects.filter(pk=campaign.pk).update(review_seed=seed)
            return campaign
    raise AssertionError("no seed found")


def test_an_admin_marks_a_reviewed_question_whose_answers_agree_as_gold(people, paragraphs):
    questions = written_and_answered(people, paragraphs)
    response = api_for(people["boss"]).post(f"/api/v1/questions/{questions[0].uuid}/gold/")
    assert response.status_code == 200, response.content
    assert response.json() == {
        "question": str(questions[0].uuid),
        "answers": ["Loire"],
        "language": "fr",
        "active": True,
    }
    # The third question's additional answers disagree: refused, nothing stored.
    response = api_for(people["boss"]).post(f"/api/v1/questions/{questions[2].uuid}/gold/")
    assert response.status_code == 409
    assert response.json()["errors"]["question"] == [
        "Its additional answers do not all agree with the original one."
    ]
    # Only admins.
    response = api_for(people["rev"]).post(f"/api/v1/questions/{questions[1].uuid}/gold/")
    assert response.status_code == 403
    assert list(GoldQuestion.objects.values_list("question_id", flat=True)) == [questions[0].pk]
    # Taken out of the pool, kept.
    response = api_for(people["boss"]).delete(f"/api/v1/questions/{questions[0].uuid}/gold/")
    assert response.status_code == 204
    assert GoldQuestion.objects.get().active is False


def test_a_test_question_is_never_gold(people, db):
    article = article_store(
        language="fr",
        source=SourceArticle(title="T", source_title="T"),
        paragraphs=["Le Rhône traverse Lyon avant de rejoindre la Méditerranée en Camargue."],
        wave="1.0",
        split="test",
        kind="file",
    )
    write = campaign_create(name="Test", splits=["test"], review_rate=Decimal("1.00"))
    lease = lease_claim_next(campaign=write, annotator=people["a"]).lease
    assert lease.paragraph.article_id == article.pk
    questions_submit(lease=lease, questions=good_questions(lease.paragraph, 3))
    question = Question.objects.filter(campaign=write).first()
    Question.objects.filter(pk=question.pk).update(status=Question.Status.APPROVED)
    response = api_for(people["boss"]).post(f"/api/v1/questions/{question.uuid}/gold/")
    assert response.status_code == 409
    assert response.json()["errors"] == {
        "question": ["A test question is never gold: gold comes from train or dev."]
    }
    assert not GoldQuestion.objects.exists()


def test_a_pending_question_is_not_gold(people, paragraphs):
    write = campaign_create(name="Write", splits=["dev"], review_rate=Decimal("0.00"))
    lease = lease_claim_next(campaign=write, annotator=people["a"]).lease
    questions_submit(lease=lease, questions=good_questions(lease.paragraph, 3))
    with pytest.raises(ServiceError) as refused:
        gold_mark(question=Question.objects.first(), admin=people["boss"])
    assert refused.value.status == 409
    assert refused.value.errors == {
        "question": ["Only a question a reviewer approved or corrected can be gold."]
    }


def _anonymous(html: str, *texts: str) -> str:
    """The page without what differs between two items: their texts, ids and times."""
    for text in texts:
        html = html.replace(text, "")
    html = re.sub(r"csrfmiddlewaretoken\" value=\"[^\"]+\"", "", html)
    html = re.sub(r"CSRFToken\": \"[^\"]+\"", "", html)
    html = re.sub(r"[0-9a-f]{8}-[0-9a-f-]{27}", "", html)
    return re.sub(r"\d+", "", html)


def test_gold_comes_unannounced_is_scored_and_never_enters_the_dataset(people, paragraphs):
    questions = written_and_answered(people, paragraphs)
    gold = gold_mark(question=questions[0], admin=people["boss"])
    before = human_performance_report(split="dev")
    newcomer = people["d"]
    mixed = gold_campaign("Mixed", newcomer)
    api = api_for(newcomer)

    claimed = api.post(f"/api/v1/campaigns/{mixed.pk}/leases/")
    assert claimed.status_code == 201
    first = claimed.json()
    assert first["question"] == {"id": str(questions[0].uuid), "text": questions[0].text}
    assert "gold" not in json.dumps(first).lower()
    browser = Client()
    browser.force_login(newcomer)
    gold_page = browser.get(f"/annotate/leases/{first['id']}/").content.decode()
    assert "gold" not in gold_page.lower()

    # "la Loire": the French normalization drops the article, so EM and F1 are 100.
    sent = api.post(
        f"/api/v1/leases/{first['id']}/submit/",
        {"answer_start": 0, "answer_text": "La Loire", "seconds_spent": 12},
        format="json",
    )
    assert sent.status_code == 201
    assert sent.json() == {
        "answer_start": 0,
        "text": "La Loire",
        "kind": "additional",
        "no_answer": False,
        "seconds_spent": 12,
    }
    scored = GoldAnswer.objects.get()
    assert (scored.gold_id, scored.annotator_id, scored.campaign_id) == (
        gold.pk,
        newcomer.pk,
        mixed.pk,
    )
    assert (scored.exact, scored.f1, scored.text, scored.lease_id) == (
        100.0,
        100.0,
        "La Loire",
        first["id"],
    )
    assert scored.created_at is not None

    # The next item is ordinary, shaped and shown the same way.
    claimed = api.post(f"/api/v1/campaigns/{mixed.pk}/leases/")
    second = claimed.json()
    assert claimed.status_code == 201
    assert second["question"]["id"] != first["question"]["id"]
    assert sorted(second) == sorted(first)
    assert sorted(second["question"]) == sorted(first["question"])
    other = Question.objects.get(uuid=second["question"]["id"])
    page = browser.get(f"/annotate/leases/{second['id']}/").content.decode()
    assert _anonymous(page, other.text, other.paragraph.text, other.paragraph.article.title) == (
        _anonymous(
            gold_page,
            questions[0].text,
            questions[0].paragraph.text,
            questions[0].paragraph.article.title,
        )
    )

    # No answer of the dataset: the question keeps its three answers, human performance and
    # the release (whose answers the leaderboard scores against) do not move.
    assert questions[0].answers.count() == 3
    assert not Answer.objects.filter(author=newcomer).exists()
    assert human_performance_report(split="dev") == before


def test_gold_answers_stay_out_of_the_release_and_leaderboard_files(people, paragraphs, tmp_path):
    questions = written_and_answered(people, paragraphs)
    gold_mark(question=questions[0], admin=people["boss"])
    newcomer = people["d"]
    mixed = gold_campaign("Mixed", newcomer)
    lease = answer_claim_next(campaign=mixed, annotator=newcomer).lease
    assert lease.question_id == questions[0].pk
    start = lease.paragraph.text.index("long")
    answer_submit(
        lease=lease, data={"answer_start": start, "answer_text": "long", "seconds_spent": 9}
    )
    assert GoldAnswer.objects.get().f1 == 0.0
    options = check_options({"formats": ["squad"], "splits": ["dev"], "approved_only": False})
    build_release_files(options=options, name="r", version="1", directory=tmp_path, with_gold=True)
    texts = []
    for path in sorted(tmp_path.rglob("*.json")):
        data = json.loads(path.read_text())
        for article in data.get("data", []) if isinstance(data, dict) else []:
            for paragraph in article["paragraphs"]:
                for qa in paragraph["qas"]:
                    if qa["id"] == str(questions[0].uuid):
                        texts.append([answer["text"] for answer in qa["answers"]])
    assert texts and all(found == ["Loire", "Loire", "Loire"] for found in texts)
    # The internal gold file the leaderboard and release scoring read: the same three answers.
    scored_against = json.loads((tmp_path / "gold-dev.json").read_text())
    assert scored_against[str(questions[0].uuid)] == ["Loire", "Loire", "Loire"]


def test_a_person_never_gets_the_same_gold_question_twice(people, paragraphs):
    questions = written_and_answered(people, paragraphs)
    gold_mark(question=questions[0], admin=people["boss"])
    newcomer = people["d"]
    mixed = gold_campaign("Mixed", newcomer)
    first = answer_claim_next(campaign=mixed, annotator=newcomer).lease
    answer_submit(lease=first, data=span(questions[0]) | {"seconds_spent": 5})
    # Every later claim (some drawn gold at 50 %) gives ordinary items only: the one gold
    # question of the pool was seen; the author and its answerers never get it either.
    seen = []
    while claim := answer_claim_next(campaign=mixed, annotator=newcomer):
        seen.append(claim.lease.question_id)
        answer_submit(lease=claim.lease, data={"no_answer": True})
    assert questions[0].pk not in seen
    assert GoldAnswer.objects.filter(annotator=newcomer).count() == 1
    for name in ("a", "b", "c"):
        assert not Lease.objects.filter(
            campaign=mixed, annotator=people[name], question=questions[0]
        ).exists()


def test_a_writing_campaign_mixes_gold_into_its_stream(people, paragraphs):
    questions = written_and_answered(people, paragraphs)
    gold_mark(question=questions[0], admin=people["boss"])
    writer = people["e"]
    mixed = gold_campaign("Writing", writer, kind="questions")
    claim = lease_claim_next(campaign=mixed, annotator=writer)
    assert (claim.lease.kind, claim.lease.question_id, claim.created) == (
        Lease.Kind.ANSWER,
        questions[0].pk,
        True,
    )
    # Claimed again before answering: the same item comes back.
    again = lease_claim_next(campaign=mixed, annotator=writer)
    assert (again.lease.pk, again.created) == (claim.lease.pk, False)
    answer_submit(
        lease=claim.lease, data={"answer_start": 3, "answer_text": "Loire est", "seconds_spent": 7}
    )
    scored = GoldAnswer.objects.get()
    # F1 of "loire est" against "loire": precision 1/2, recall 1 → 2/3.
    assert (scored.campaign_id, scored.exact, round(scored.f1, 4)) == (mixed.pk, 0.0, 66.6667)
    nxt = lease_claim_next(campaign=mixed, annotator=writer).lease
    assert (nxt.kind, nxt.question_id) == (Lease.Kind.WRITE, None)


def test_an_answer_lease_held_when_its_question_becomes_gold_stays_ordinary(people, paragraphs):
    questions = written_and_answered(people, paragraphs)
    extra = campaign_create(
        name="Third", kind="additional_answers", splits=["dev"], extra_answers=3
    )
    held = answer_claim_next(campaign=extra, annotator=people["d"]).lease
    assert held.question_id == questions[0].pk
    gold_mark(question=questions[0], admin=people["boss"])
    answer_submit(lease=held, data=span(questions[0]) | {"seconds_spent": 4})
    assert questions[0].answers.filter(author=people["d"], kind=Answer.Kind.ADDITIONAL).exists()
    assert not GoldAnswer.objects.exists()
    # No more ordinary answers for it: nobody else is offered it.
    nxt = answer_claim_next(campaign=extra, annotator=people["e"]).lease
    assert nxt.question_id != questions[0].pk


def test_an_admin_marks_gold_from_the_questions_page_and_nobody_else_sees_it(people, paragraphs):
    questions = written_and_answered(people, paragraphs)
    admin, reviewer, author = Client(), Client(), Client()
    admin.force_login(people["boss"])
    reviewer.force_login(people["rev"])
    author.force_login(people["a"])
    page = f"/questions/{questions[0].uuid}/"
    gold = f"/questions/{questions[0].uuid}/gold/"

    before = admin.get(page, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'id="gold-state" class="hint">Not gold.' in before
    assert ">Mark as gold</button>" in before
    # Only admins see the section, and only admins may post to it (nothing stored).
    assert 'id="question-gold"' not in reviewer.get(page).content.decode()
    assert 'id="question-gold"' not in author.get(page).content.decode()
    assert reviewer.post(gold).status_code == 403
    assert not GoldQuestion.objects.exists()

    marked = admin.post(gold, HTTP_ACCEPT_LANGUAGE="en")
    assert (marked.status_code, marked["Location"]) == (302, page)
    after = admin.get(page, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "The question is gold." in after
    assert "are scored against: <q>Loire</q>." in after
    assert ">Take it out of the gold pool</button>" in after
    assert list(GoldQuestion.objects.values_list("question_id", "active")) == [
        (questions[0].pk, True)
    ]

    admin.post(gold, {"action": "unmark"})
    assert GoldQuestion.objects.get().active is False

    # A refusal stays on the page with its status and its reason; nothing changes.
    refused = admin.post(f"/questions/{questions[2].uuid}/gold/", HTTP_ACCEPT_LANGUAGE="en")
    assert refused.status_code == 409
    assert (
        '<div class="form-errors" role="alert" id="gold-errors"><p>Its additional answers do '
        "not all agree with the original one.</p></div>"
    ) in refused.content.decode()
    assert GoldQuestion.objects.count() == 1


def ordinary_and_gold_leases(people, paragraphs) -> tuple[Lease, Lease]:
    """An ordinary answer lease, then a gold item claimed after its question became gold."""
    questions = written_and_answered(people, paragraphs)
    extra = campaign_create(
        name="Fourth", kind="additional_answers", splits=["dev"], extra_answers=3
    )
    held = answer_claim_next(campaign=extra, annotator=people["d"]).lease
    gold_mark(question=questions[0], admin=people["boss"])
    writer = people["e"]
    mixed = gold_campaign("Writing", writer, kind="questions")
    return held, lease_claim_next(campaign=mixed, annotator=writer).lease


def test_is_gold_lease_reads_the_annotation_of_the_locking_query_without_a_query(
    people, paragraphs, django_assert_num_queries
):
    held, gold_lease = ordinary_and_gold_leases(people, paragraphs)
    read = {
        lease.pk: lease
        for lease in Lease.objects.filter(pk__in=[held.pk, gold_lease.pk]).annotate(
            is_gold=gold_marked()
        )
    }
    with django_assert_num_queries(0):
        assert (is_gold_lease(read[held.pk]), is_gold_lease(read[gold_lease.pk])) == (False, True)
    # Without the annotation, the same answers from one query each.
    with django_assert_num_queries(2):
        assert (is_gold_lease(held), is_gold_lease(gold_lease)) == (False, True)


def test_the_lease_lock_says_whether_the_lease_is_gold_so_the_check_asks_nothing(
    people, paragraphs, django_assert_num_queries
):
    held, gold_lease = ordinary_and_gold_leases(people, paragraphs)

    with transaction.atomic():
        locked = [lease_lock(lease_pk=lease.pk) for lease in (held, gold_lease)]
        assert [lease.is_gold for lease in locked] == [False, True]
        with django_assert_num_queries(0):
            assert [is_gold_lease(lease) for lease in locked] == [False, True]
