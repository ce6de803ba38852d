"""Reviews: who may claim which sampled question, and what each verdict does (or refuses)."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from annotation.models import Answer, Lease, Question, QuestionRevision, Review
from annotation.services.campaigns import campaign_update
from annotation.services.reviews import review_claim_next, review_submit
from annotation.services.work import lease_claim_next, lease_get, lease_release, questions_submit
from core.errors import ServiceError
from core.roles import Role
from tests.annotation.conftest import good_questions
from tests.factories import UserFactory

pytestmark = pytest.mark.both_backends  # `make test` runs it on SQLite too


@pytest.fixture
def audited(campaign):
    """The questions campaign with every question sampled for review."""
    return campaign_update(campaign=campaign, review_rate=Decimal("1"))


@pytest.fixture
def sampled(audited, paragraphs, annotators):
    """Three sampled, pending questions written by annotators[0] on paragraphs[0]."""
    lease = lease_claim_next(campaign=audited, annotator=annotators[0]).lease
    questions = questions_submit(lease=lease, questions=good_questions(paragraphs[0]))
    assert [q.sampled_for_review for q in questions] == [True, True, True]
    return questions


@pytest.fixture
def reviewer2(db):
    return UserFactory(username="rev2", roles=[Role.REVIEWER])


def claim(campaign, reviewer):
    return review_claim_next(campaign=campaign, reviewer=reviewer)


def snapshot(lease):
    """Everything a refused verdict must leave as it was."""
    question = Question.objects.get(pk=lease.question_id)
    answer = Answer.objects.get(question=question, kind="original")
    return {
        "reviews": list(Review.objects.values_list("pk", flat=True)),
        "revisions": list(
            QuestionRevision.objects.order_by("pk").values_list(
                "question_id",
                "number",
                "origin",
                "editor_id",
                "text",
                "answer_start",
                "answer_text",
            )
        ),
        "question": (question.status, question.text, question.question_type),
        "answer": (answer.answer_start, answer.text, answer.author_id),
        "lease": Lease.objects.filter(pk=lease.pk).values_list("status", "finished_at").get(),
    }


def refused(lease, data):
    with pytest.raises(ServiceError) as error:
        review_submit(lease=lease, data=data)
    return error.value


# Claims


def test_an_annotator_cannot_claim_a_review(audited, sampled, annotators):
    with pytest.raises(ServiceError) as error:
        claim(audited, annotators[1])
    assert (list(error.value.errors), error.value.status) == (["detail"], 403)
    assert Lease.objects.filter(kind="review").count() == 0


def test_a_claim_gives_the_first_sampled_question_and_a_reload_gives_it_again(
    audited, sampled, reviewer
):
    first = claim(audited, reviewer)
    assert first.created is True
    lease = first.lease
    assert (lease.kind, lease.campaign_id, lease.question_id, lease.paragraph_id) == (
        "review",
        audited.pk,
        sampled[0].pk,
        sampled[0].paragraph_id,
    )
    assert (lease.annotator_id, lease.status) == (reviewer.pk, "active")
    again = claim(audited, reviewer)
    assert (again.created, again.lease.pk) == (False, lease.pk)
    assert Lease.objects.filter(kind="review").count() == 1


def test_nobody_is_offered_their_own_question(audited, paragraphs, reviewer):
    both = UserFactory(username="both", roles=[Role.ANNOTATOR, Role.REVIEWER])
    lease = lease_claim_next(campaign=audited, annotator=both).lease
    mine = questions_submit(lease=lease, questions=good_questions(paragraphs[0]))
    Question.objects.filter(pk__in=[mine[1].pk, mine[2].pk]).update(sampled_for_review=False)
    assert claim(audited, both) is None
    assert Lease.objects.filter(kind="review").count() == 0
    assert claim(audited, reviewer).lease.question_id == mine[0].pk


def test_only_sampled_pending_questions_are_offered(audited, sampled, reviewer, reviewer2):
    Question.objects.filter(pk=sampled[0].pk).update(sampled_for_review=False)
    Question.objects.filter(pk=sampled[1].pk).update(status="approved")
    assert claim(audited, reviewer).lease.question_id == sampled[2].pk
    assert claim(audited, reviewer2) is None
    assert Lease.objects.filter(kind="review").count() == 1


def test_two_reviewers_get_two_different_questions(audited, sampled, reviewer, reviewer2):
    first = claim(audited, reviewer).lease
    second = claim(audited, reviewer2).lease
    assert (first.question_id, second.question_id) == (sampled[0].pk, sampled[1].pk)


def test_a_skipped_question_goes_to_others_but_never_back(audited, sampled, reviewer, reviewer2):
    lease = claim(audited, reviewer).lease
    released = lease_release(lease=lease, reason="skip")
    assert (released.status, released.release_reason) == ("released", "skip")
    assert claim(audited, reviewer).lease.question_id == sampled[1].pk
    assert claim(audited, reviewer2).lease.question_id == sampled[0].pk


def test_no_sampled_question_is_none(campaign, paragraphs, annotators, reviewer):
    campaign = campaign_update(campaign=campaign, review_rate=Decimal("0"))
    lease = lease_claim_next(campaign=campaign, annotator=annotators[0]).lease
    questions_submit(lease=lease, questions=good_questions(paragraphs[0]))
    assert claim(campaign, reviewer) is None


def test_a_campaign_of_additional_answers_has_nothing_to_review(reviewer):
    from annotation.services.campaigns import campaign_create

    answers = campaign_create(name="Réponses", kind="additional_answers", splits=["dev"])
    with pytest.raises(ServiceError) as error:
        claim(answers, reviewer)
    assert (list(error.value.errors), error.value.status) == (["campaign"], 409)


# Verdicts


def test_approve(audited, sampled, reviewer):
    lease = claim(audited, reviewer).lease
    before = snapshot(lease)
    review = review_submit(lease=lease, data={"verdict": "approve", "seconds_spent": 31})
    stored = Review.objects.get()
    assert stored.pk == review.pk
    assert (
        stored.question_id,
        stored.reviewer_id,
        stored.lease_id,
        stored.verdict,
        stored.reason,
        stored.comment,
        stored.revision_id,
        stored.seconds_spent,
    ) == (sampled[0].pk, reviewer.pk, lease.pk, "approve", "", "", None, 31)
    question = Question.objects.get(pk=sampled[0].pk)
    assert (question.status, question.text, question.question_type) == (
        "approved",
        sampled[0].text,
        sampled[0].question_type,
    )
    after = snapshot(lease)
    assert after["revisions"] == before["revisions"]
    assert after["answer"] == before["answer"]
    assert after["lease"][0] == "submitted" and after["lease"][1] is not None
    assert Question.objects.filter(status="pending").count() == 2


@pytest.mark.parametrize(
    "data",
    [
        {"verdict": "reject"},
        {"verdict": "reject", "reason": ""},
        {"verdict": "reject", "reason": None, "comment": "Mauvais."},
        {"verdict": "reject", "reason": "boring"},
    ],
)
def test_a_rejection_needs_a_known_reason(audited, sampled, reviewer, data):
    lease = claim(audited, reviewer).lease
    before = snapshot(lease)
    error = refused(lease, data)
    assert (list(error.errors), error.status) == (["reason"], 400)
    assert snapshot(lease) == before
    assert before["reviews"] == [] and before["question"][0] == "pending"
    assert before["lease"] == ("active", None)


def test_an_approval_takes_no_reason(audited, sampled, reviewer):
    lease = claim(audited, reviewer).lease
    before = snapshot(lease)
    error = refused(lease, {"verdict": "approve", "reason": "copied"})
    assert (list(error.errors), error.status) == (["reason"], 400)
    assert snapshot(lease) == before


@pytest.mark.parametrize("verdict", [None, "", "maybe", "APPROVE"])
def test_an_unknown_verdict_is_refused(audited, sampled, reviewer, verdict):
    lease = claim(audited, reviewer).lease
    before = snapshot(lease)
    error = refused(lease, {"verdict": verdict})
    assert (list(error.errors), error.status) == (["verdict"], 400)
    assert snapshot(lease) == before


def test_reject_with_reason_and_comment(audited, sampled, reviewer):
    lease = claim(audited, reviewer).lease
    before = snapshot(lease)
    review_submit(
        lease=lease,
        data={"verdict": "reject", "reason": "copied", "comment": "  Recopie la phrase.  "},
    )
    stored = Review.objects.get()
    assert (
        stored.question_id,
        stored.reviewer_id,
        stored.lease_id,
        stored.verdict,
        stored.reason,
        stored.comment,
        stored.revision_id,
        stored.seconds_spent,
    ) == (sampled[0].pk, reviewer.pk, lease.pk, "reject", "copied", "Recopie la phrase.", None, 0)
    assert Question.objects.get(pk=sampled[0].pk).status == "rejected"
    after = snapshot(lease)
    assert (after["revisions"], after["answer"]) == (before["revisions"], before["answer"])
    assert after["lease"][0] == "submitted"


def test_correct_adds_version_2_and_shows_it(audited, sampled, paragraphs, reviewer):
    lease = claim(audited, reviewer).lease
    question = sampled[0]
    assert question.question_type == "other"
    version_1 = list(
        QuestionRevision.objects.filter(question=question).values_list(
            "pk", "number", "origin", "editor_id", "text", "answer_start", "answer_text"
        )
    )
    text = paragraphs[0].text
    start = text.index("mont Gerbier-de-Jonc")
    review = review_submit(
        lease=lease,
        data={
            "verdict": "correct",
            "question_text": "  Où la Loire   prend-elle sa source ? ",
            "answer_start": start,
            "answer_text": "mont Gerbier-de-Jonc",
            "comment": "Question reformulée.",
            "seconds_spent": 90,
        },
    )
    version_2 = QuestionRevision.objects.get(question=question, number=2)
    assert (
        version_2.origin,
        version_2.editor_id,
        version_2.text,
        version_2.answer_start,
        version_2.answer_text,
    ) == (
        "corrected",
        reviewer.pk,
        "Où la Loire prend-elle sa source ?",
        start,
        "mont Gerbier-de-Jonc",
    )
    assert (
        list(
            QuestionRevision.objects.filter(question=question, number=1).values_list(
                "pk", "number", "origin", "editor_id", "text", "answer_start", "answer_text"
            )
        )
        == version_1
    )
    assert QuestionRevision.objects.filter(question=question).count() == 2
    stored = Review.objects.get()
    assert (
        stored.pk,
        stored.verdict,
        stored.reason,
        stored.comment,
        stored.revision_id,
        stored.seconds_spent,
        stored.reviewer_id,
        stored.lease_id,
    ) == (review.pk, "correct", "", "Question reformulée.", version_2.pk, 90, reviewer.pk, lease.pk)
    fresh = Question.objects.get(pk=question.pk)
    assert (fresh.status, fresh.text, fresh.question_type, fresh.author_id) == (
        "corrected",
        "Où la Loire prend-elle sa source ?",
        "where",
        question.author_id,
    )
    answer = Answer.objects.get(question=question)
    assert (answer.kind, answer.answer_start, answer.text, answer.author_id) == (
        "original",
        start,
        "mont Gerbier-de-Jonc",
        question.author_id,
    )
    assert text[answer.answer_start : answer.answer_start + len(answer.text)] == answer.text
    assert Lease.objects.get(pk=lease.pk).status == "submitted"


def test_correct_only_the_span_keeps_the_text(audited, sampled, paragraphs, reviewer):
    lease = claim(audited, reviewer).lease
    start = paragraphs[0].text.index("Ardèche")
    review_submit(
        lease=lease, data={"verdict": "correct", "answer_start": start, "answer_text": "Ardèche"}
    )
    version_2 = QuestionRevision.objects.get(question=sampled[0], number=2)
    assert (version_2.text, version_2.answer_start, version_2.answer_text) == (
        sampled[0].text,
        start,
        "Ardèche",
    )
    fresh = Question.objects.get(pk=sampled[0].pk)
    assert (fresh.status, fresh.text) == ("corrected", sampled[0].text)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (
            lambda text: {"answer_start": text.index("Loire") + 1, "answer_text": "Loire"},
            "answer_text",
        ),
        (lambda text: {"answer_start": 10_000, "answer_text": "Loire"}, "answer_start"),
        (lambda text: {"answer_start": len(text), "answer_text": "Loire"}, "answer_start"),
        (lambda text: {"answer_start": -1, "answer_text": "Loire"}, "answer_start"),
        (lambda text: {"answer_start": "3", "answer_text": "Loire"}, "answer_start"),
        (lambda text: {"answer_start": 3, "answer_text": ""}, "answer_text"),
        (
            lambda text: {"answer_start": len(text) - 3, "answer_text": text[-3:] + "!"},
            "answer_text",
        ),
        (lambda text: {"question_text": "   "}, "question_text"),
        (lambda text: {"question_text": "x" * 1001}, "question_text"),
    ],
)
def test_a_bad_correction_is_refused_by_field_and_changes_nothing(
    audited, sampled, paragraphs, reviewer, change, field
):
    lease = claim(audited, reviewer).lease
    before = snapshot(lease)
    error = refused(lease, {"verdict": "correct", **change(paragraphs[0].text)})
    assert (list(error.errors), error.status) == ([field], 400)
    assert snapshot(lease) == before
    assert before["question"][0] == "pending" and before["lease"] == ("active", None)


def test_a_correction_that_changes_nothing_is_refused(audited, sampled, reviewer):
    lease = claim(audited, reviewer).lease
    question = sampled[0]
    answer = Answer.objects.get(question=question)
    before = snapshot(lease)
    for data in (
        {"verdict": "correct"},
        {"verdict": "correct", "question_text": f"  {question.text.replace(' ', '   ')} "},
        {
            "verdict": "correct",
            "question_text": question.text,
            "answer_start": answer.answer_start,
            "answer_text": answer.text,
        },
    ):
        error = refused(lease, data)
        assert (list(error.errors), error.status) == (["verdict"], 400)
        assert snapshot(lease) == before


def test_only_a_correction_changes_the_question(audited, sampled, reviewer):
    lease = claim(audited, reviewer).lease
    before = snapshot(lease)
    error = refused(lease, {"verdict": "approve", "question_text": "Qui dirigea les travaux ?"})
    assert (list(error.errors), error.status) == (["verdict"], 400)
    assert snapshot(lease) == before


# Whose lease, whose question, which state


def test_another_reviewers_lease_is_refused(audited, sampled, reviewer, reviewer2):
    lease = claim(audited, reviewer).lease
    before = snapshot(lease)
    with pytest.raises(ServiceError) as error:
        lease_get(lease_pk=lease.pk, annotator=reviewer2)
    assert (list(error.value.errors), error.value.status) == (["lease"], 403)
    assert lease_get(lease_pk=lease.pk, annotator=reviewer).pk == lease.pk
    assert snapshot(lease) == before


def test_nobody_reviews_their_own_question(audited, paragraphs):
    both = UserFactory(username="both", roles=[Role.ANNOTATOR, Role.REVIEWER])
    written = lease_claim_next(campaign=audited, annotator=both).lease
    question = questions_submit(lease=written, questions=good_questions(paragraphs[0]))[0]
    lease = Lease.objects.create(
        campaign=audited,
        kind="review",
        paragraph=question.paragraph,
        question=question,
        annotator=both,
        expires_at=timezone.now() + timedelta(minutes=30),
    )
    before = snapshot(lease)
    error = refused(lease, {"verdict": "approve"})
    assert (list(error.errors), error.status) == (["lease"], 403)
    assert snapshot(lease) == before
    assert before["reviews"] == [] and before["lease"] == ("active", None)
    assert before["question"][0] == "pending"


def test_an_expired_lease_still_counts_when_nobody_took_the_question(audited, sampled, reviewer):
    lease = claim(audited, reviewer).lease
    Lease.objects.filter(pk=lease.pk).update(
        status="expired",
        expires_at=timezone.now() - timedelta(minutes=5),
        finished_at=timezone.now() - timedelta(minutes=5),
    )
    review_submit(lease=Lease.objects.get(pk=lease.pk), data={"verdict": "approve"})
    assert Lease.objects.get(pk=lease.pk).status == "submitted"
    assert Question.objects.get(pk=sampled[0].pk).status == "approved"
    assert Review.objects.get().reviewer_id == reviewer.pk


def test_an_expired_lease_is_refused_when_another_reviewer_took_the_question(
    audited, sampled, reviewer, reviewer2
):
    lease = claim(audited, reviewer).lease
    Lease.objects.filter(pk=lease.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    taken = claim(audited, reviewer2).lease
    assert taken.question_id == sampled[0].pk
    expired = Lease.objects.get(pk=lease.pk)
    assert expired.status == "expired"
    before = snapshot(expired)
    error = refused(expired, {"verdict": "reject", "reason": "ambiguous"})
    assert (list(error.errors), error.status) == (["lease"], 409)
    assert snapshot(expired) == before
    assert Lease.objects.get(pk=taken.pk).status == "active"
    review_submit(lease=taken, data={"verdict": "approve"})
    assert Review.objects.get().reviewer_id == reviewer2.pk


def test_a_submitted_review_lease_is_closed(audited, sampled, reviewer):
    lease = claim(audited, reviewer).lease
    review_submit(lease=lease, data={"verdict": "approve"})
    before = snapshot(lease)
    error = refused(lease, {"verdict": "reject", "reason": "copied"})
    assert error.status == 409
    assert snapshot(lease) == before


def test_questions_cannot_be_submitted_on_a_review_lease(audited, sampled, paragraphs, reviewer):
    lease = claim(audited, reviewer).lease
    before = snapshot(lease)
    with pytest.raises(ServiceError) as error:
        questions_submit(lease=lease, questions=good_questions(paragraphs[0]))
    assert (list(error.value.errors), error.value.status) == (["lease"], 409)
    assert snapshot(lease) == before
    assert Question.objects.count() == 3
