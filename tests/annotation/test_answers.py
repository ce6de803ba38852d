"""Additional answers: who gets which question, how many answers it gets, what is stored."""

from datetime import timedelta

import pytest
from django.utils import timezone

from annotation.models import Answer, Lease, Question
from annotation.services.answers import answer_claim_next, answer_submit
from annotation.services.campaigns import campaign_create
from annotation.services.items import items_sync
from annotation.services.work import lease_claim_next, lease_release, questions_submit
from core.errors import ServiceError
from core.roles import Role
from tests.annotation.conftest import expire, good_questions
from tests.factories import UserFactory

pytestmark = pytest.mark.both_backends  # `make test` runs it on SQLite too


@pytest.fixture
def written(campaign, paragraphs, annotators):
    """Six questions by annotators[0] (A): three on paragraphs[0], three on paragraphs[1]."""
    author = annotators[0]
    for paragraph in paragraphs[:2]:
        lease = lease_claim_next(campaign=campaign, annotator=author).lease
        assert lease.paragraph == paragraph
        questions_submit(lease=lease, questions=good_questions(paragraph))
    return list(Question.objects.order_by("pk"))


@pytest.fixture
def answers(db):
    return campaign_create(name="Réponses", kind="additional_answers", splits=["dev"])


@pytest.fixture
def people(annotators):
    """A (the author), then B, C, D, E: annotators who did not write the questions."""
    extra = [UserFactory(username=f"ann{i}", roles=[Role.ANNOTATOR]) for i in (3, 4)]
    return [*annotators, *extra]


def claim(campaign, user):
    return answer_claim_next(campaign=campaign, annotator=user)


def span(question, word=None):
    """A valid answer span in the question's paragraph: `word`, or the original answer."""
    text = question.paragraph.text
    if word is None:
        original = question.answers.get(kind="original")
        return {"answer_start": original.answer_start, "answer_text": original.text}
    return {"answer_start": text.index(word), "answer_text": word}


def additional():
    return list(
        Answer.objects.filter(kind="additional")
        .order_by("pk")
        .values_list("question_id", "author_id", "answer_start", "text", "no_answer")
    )


def live_leases(question):
    return Lease.objects.filter(
        kind="answer", question=question, status__in=["active", "submitted"]
    ).count()


def test_a_claim_gives_the_first_question_with_its_paragraph(answers, written, people):
    b = people[1]
    first = claim(answers, b)
    lease = first.lease
    assert first.created is True
    assert (lease.kind, lease.campaign_id, lease.question_id, lease.paragraph_id) == (
        "answer",
        answers.pk,
        written[0].pk,
        written[0].paragraph_id,
    )
    assert (lease.annotator_id, lease.status) == (b.pk, "active")
    assert lease.expires_at > timezone.now() + timedelta(minutes=29)
    again = claim(answers, b)
    assert (again.created, again.lease.pk) == (False, lease.pk)
    assert Lease.objects.filter(kind="answer").count() == 1


def test_the_author_never_gets_their_own_question(answers, written, people):
    assert claim(answers, people[0]) is None
    assert Lease.objects.filter(kind="answer").count() == 0


def test_two_people_share_a_question_and_the_third_gets_the_next(answers, written, people):
    b, c, d = people[1:4]
    assert claim(answers, b).lease.question_id == written[0].pk
    assert claim(answers, c).lease.question_id == written[0].pk
    assert claim(answers, d).lease.question_id == written[1].pk
    assert live_leases(written[0]) == 2


def test_once_two_answered_nobody_else_gets_the_question(answers, written, people):
    b, c, d, e = people[1:5]
    for user in (b, c):
        lease = claim(answers, user).lease
        assert lease.question_id == written[0].pk
        answer_submit(lease=lease, data=span(written[0]))
    assert claim(answers, d).lease.question_id == written[1].pk
    assert claim(answers, e).lease.question_id == written[1].pk
    assert Answer.objects.filter(question=written[0], kind="additional").count() == 2
    assert live_leases(written[0]) == 2


def test_the_extra_answers_setting_is_the_number_of_places(written, people):
    three = campaign_create(
        name="Trois", kind="additional_answers", splits=["dev"], extra_answers=3
    )
    got = [claim(three, user).lease.question_id for user in people[1:5]]
    assert got == [written[0].pk, written[0].pk, written[0].pk, written[1].pk]


def test_nobody_gets_a_question_twice_even_after_a_skip(answers, written, people):
    b, c = people[1], people[2]
    lease = claim(answers, b).lease
    assert lease.question_id == written[0].pk
    lease_release(lease=lease, reason="skip")
    second = claim(answers, b).lease
    assert second.question_id == written[1].pk
    assert claim(answers, c).lease.question_id == written[0].pk
    answer_submit(lease=second, data=span(written[1]))
    third = claim(answers, b).lease
    assert third.question_id == written[2].pk
    answer_submit(lease=third, data=span(written[2]))
    seen = [written[0].pk, written[1].pk, written[2].pk]
    for question in written[3:]:
        lease = claim(answers, b).lease
        assert lease.question_id == question.pk
        seen.append(lease.question_id)
        answer_submit(lease=lease, data={"no_answer": True})
    assert claim(answers, b) is None
    assert seen == [q.pk for q in written]
    assert (
        Lease.objects.filter(kind="answer", annotator=b).values("question_id").distinct().count()
        == 6
    )


def test_rejected_questions_are_never_offered(answers, written, people):
    Question.objects.filter(pk=written[0].pk).update(status="rejected")
    assert claim(answers, people[1]).lease.question_id == written[1].pk
    Question.objects.exclude(pk=written[0].pk).update(status="rejected")
    assert claim(answers, people[2]) is None


def test_approved_corrected_and_pending_questions_are_offered(answers, written, people):
    Question.objects.filter(pk=written[0].pk).update(status="approved")
    Question.objects.filter(pk=written[1].pk).update(status="corrected")
    got = [claim(answers, user).lease.question_id for user in people[1:5]]
    assert got == [written[0].pk, written[0].pk, written[1].pk, written[1].pk]


def test_train_questions_are_not_offered(answers, campaign, annotators):
    from corpus.readers import SourceArticle
    from corpus.services.articles import article_store

    article_store(
        language="fr",
        source=SourceArticle(title="Train", source_title="Train"),
        paragraphs=["Le Rhône traverse Genève, Lyonnais, Valence avant Marseille et Arles."],
        wave="1.0",
        split="train",
        kind="file",
    )
    train = campaign_create(name="Train", splits=["train"])
    lease = lease_claim_next(campaign=train, annotator=annotators[0]).lease
    questions_submit(lease=lease, questions=good_questions(lease.paragraph))
    assert claim(answers, annotators[1]) is None


# Submissions


def test_an_answer_span_is_stored_as_an_additional_answer(answers, written, people):
    b = people[1]
    lease = claim(answers, b).lease
    data = span(written[0], "fleuve") | {"seconds_spent": 27}
    answer = answer_submit(lease=lease, data=data)
    stored = Answer.objects.get(kind="additional")
    assert stored.pk == answer.pk
    assert (
        stored.question_id,
        stored.author_id,
        stored.answer_start,
        stored.text,
        stored.no_answer,
        stored.seconds_spent,
    ) == (written[0].pk, b.pk, written[0].paragraph.text.index("fleuve"), "fleuve", False, 27)
    lease.refresh_from_db()
    assert lease.status == "submitted" and lease.finished_at is not None
    assert Answer.objects.filter(question=written[0]).count() == 2  # the original one, and this


def test_no_answer_is_stored_with_an_empty_span(answers, written, people):
    c = people[2]
    lease = claim(answers, c).lease
    answer_submit(lease=lease, data={"no_answer": True, "seconds_spent": 9})
    stored = Answer.objects.get(kind="additional")
    assert (
        stored.question_id,
        stored.author_id,
        stored.answer_start,
        stored.text,
        stored.no_answer,
        stored.seconds_spent,
    ) == (written[0].pk, c.pk, 0, "", True, 9)
    assert Lease.objects.get(pk=lease.pk).status == "submitted"


@pytest.mark.parametrize(
    ("data", "field"),
    [
        (
            lambda text: {"answer_start": text.index("fleuve") + 1, "answer_text": "fleuve"},
            "answer_text",
        ),
        (lambda text: {"answer_start": 10_000, "answer_text": "fleuve"}, "answer_start"),
        (lambda text: {"answer_start": len(text), "answer_text": "e"}, "answer_start"),
        (lambda text: {"answer_start": -1, "answer_text": "fleuve"}, "answer_start"),
        (lambda text: {"answer_start": True, "answer_text": "a"}, "answer_start"),
        (lambda text: {"answer_start": 0, "answer_text": ""}, "answer_text"),
        (lambda text: {"answer_start": 0, "answer_text": "   "}, "answer_text"),
        (lambda text: {}, "answer_start"),
        (
            lambda text: {"answer_start": 0, "answer_text": "La", "seconds_spent": -1},
            "seconds_spent",
        ),
        (lambda text: {"no_answer": "yes"}, "no_answer"),
        (lambda text: {"no_answer": False}, "answer_start"),
    ],
)
def test_a_bad_answer_is_refused_by_field_and_nothing_is_stored(
    answers, written, people, data, field
):
    lease = claim(answers, people[1]).lease
    with pytest.raises(ServiceError) as error:
        answer_submit(lease=lease, data=data(written[0].paragraph.text))
    assert (list(error.value.errors), error.value.status) == ([field], 400)
    assert additional() == []
    assert Answer.objects.count() == 6
    assert Lease.objects.filter(pk=lease.pk).values_list("status", "finished_at").get() == (
        "active",
        None,
    )


def test_a_span_and_no_answer_together_are_refused(answers, written, people):
    lease = claim(answers, people[1]).lease
    with pytest.raises(ServiceError) as error:
        answer_submit(lease=lease, data=span(written[0], "fleuve") | {"no_answer": True})
    assert (list(error.value.errors), error.value.status) == (["no_answer"], 400)
    assert additional() == []
    assert Lease.objects.get(pk=lease.pk).status == "active"


def test_a_submitted_answer_lease_is_closed(answers, written, people):
    lease = claim(answers, people[1]).lease
    answer_submit(lease=lease, data={"no_answer": True})
    before = additional()
    with pytest.raises(ServiceError) as error:
        answer_submit(lease=lease, data=span(written[0], "fleuve"))
    assert error.value.status == 409
    assert additional() == before


def test_a_paused_annotator_cannot_claim(answers, written, people):
    b = people[1]
    b.paused_at = timezone.now()
    b.save()
    with pytest.raises(ServiceError) as error:
        claim(answers, b)
    assert (list(error.value.errors), error.value.status) == (["detail"], 403)
    assert Lease.objects.filter(kind="answer").count() == 0


def test_a_reviewer_cannot_claim_answers(answers, written, reviewer):
    with pytest.raises(ServiceError) as error:
        claim(answers, reviewer)
    assert error.value.status == 403
    assert Lease.objects.filter(kind="answer").count() == 0


def test_an_expired_lease_still_answers_while_the_question_has_room(answers, written, people):
    b, c = people[1], people[2]
    lease = claim(answers, b).lease
    Lease.objects.filter(pk=lease.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert claim(answers, c).lease.question_id == written[0].pk  # expires b's lease
    expired = Lease.objects.get(pk=lease.pk)
    assert expired.status == "expired"
    answer_submit(lease=expired, data=span(written[0]))
    assert Lease.objects.get(pk=lease.pk).status == "submitted"
    assert additional() == [
        (written[0].pk, b.pk, *span(written[0]).values(), False),
    ]


def test_an_expired_lease_is_refused_once_others_filled_the_question(answers, written, people):
    b, c, d = people[1], people[2], people[3]
    lease = claim(answers, b).lease
    Lease.objects.filter(pk=lease.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    for user in (c, d):
        taken = claim(answers, user).lease
        assert taken.question_id == written[0].pk
        answer_submit(lease=taken, data={"no_answer": True})
    expired = Lease.objects.get(pk=lease.pk)
    before = additional()
    with pytest.raises(ServiceError) as error:
        answer_submit(lease=expired, data=span(written[0]))
    assert (list(error.value.errors), error.value.status) == (["lease"], 409)
    assert additional() == before
    assert len(before) == 2
    assert Lease.objects.get(pk=lease.pk).status == "expired"
    assert live_leases(written[0]) == 2


def test_an_expired_lease_is_refused_while_two_others_hold_the_question(answers, written, people):
    b, c, d = people[1], people[2], people[3]
    lease = claim(answers, b).lease
    expire(lease, ago=timedelta(seconds=1))
    assert [claim(answers, u).lease.question_id for u in (c, d)] == [written[0].pk] * 2
    with pytest.raises(ServiceError) as error:
        answer_submit(lease=Lease.objects.get(pk=lease.pk), data=span(written[0]))
    assert error.value.status == 409
    assert additional() == []


def test_a_questions_campaign_refuses_answer_claims(campaign, written, people):
    with pytest.raises(ServiceError) as error:
        claim(campaign, people[1])
    assert (list(error.value.errors), error.value.status) == (["campaign"], 409)
    assert Lease.objects.filter(kind="answer").count() == 0


def test_an_answers_campaign_refuses_writing_claims(answers, written, people):
    with pytest.raises(ServiceError) as error:
        lease_claim_next(campaign=answers, annotator=people[1])
    assert (list(error.value.errors), error.value.status) == (["campaign"], 409)


def test_nobody_answers_their_own_question_even_with_a_forged_lease(answers, written, people):
    author = people[0]
    lease = Lease.objects.create(
        campaign=answers,
        kind="answer",
        paragraph=written[0].paragraph,
        question=written[0],
        annotator=author,
        expires_at=timezone.now() + timedelta(minutes=30),
    )
    with pytest.raises(ServiceError) as error:
        answer_submit(lease=lease, data=span(written[0], "fleuve"))
    assert (list(error.value.errors), error.value.status) == (["lease"], 403)
    assert additional() == []
    assert Lease.objects.get(pk=lease.pk).status == "active"


def test_questions_cannot_be_submitted_on_an_answer_lease(answers, written, people, paragraphs):
    lease = claim(answers, people[1]).lease
    with pytest.raises(ServiceError) as error:
        questions_submit(lease=lease, questions=good_questions(paragraphs[0]))
    assert (list(error.value.errors), error.value.status) == (["lease"], 409)
    assert Question.objects.count() == 6
    assert Lease.objects.get(pk=lease.pk).status == "active"


def test_a_paused_annotator_gets_back_what_they_hold_but_nothing_new(answers, written, people):
    b = people[1]
    held = claim(answers, b).lease
    b.paused_at = timezone.now()
    b.save()
    again = claim(answers, b)
    assert (again.lease.pk, again.created) == (held.pk, False)  # their work is not locked away
    answer_submit(lease=again.lease, data=span(written[0]))
    with pytest.raises(ServiceError) as error:
        claim(answers, b)
    assert (list(error.value.errors), error.value.status) == (["detail"], 403)
    assert Lease.objects.filter(kind="answer").count() == 1


def test_answers_stored_without_leases_fill_the_places(answers, written, people):
    # An imported question arrives with its additional answers and no lease.
    first = written[0]
    for person, word in ((people[3], "Loire"), (people[4], "fleuve")):
        place = span(first, word)
        Answer.objects.create(
            question=first,
            author=person,
            kind="additional",
            answer_start=place["answer_start"],
            text=place["answer_text"],
        )
    items_sync(campaign=answers, questions=[first.pk])  # as an import does
    lease = claim(answers, people[1]).lease
    assert lease.question_id == written[1].pk  # the first one already has its two answers
