"""The qualification round (issue 28 item 4): newcomers answer gold questions with feedback,
pass at the bar, retry once, then wait for an admin; real work is refused until they pass,
whichever door it comes by; nothing of the round enters a release or human performance."""

import json
from decimal import Decimal

import pytest
from django.test import Client
from django.utils import translation
from rest_framework.test import APIClient

from accounts.services import token_issue
from annotation.models import (
    Answer,
    GoldAnswer,
    GoldQuestion,
    Lease,
    QualificationAttempt,
    QualificationItem,
    Question,
)
from annotation.selectors.qualification import qualification_people, qualification_standing
from annotation.services.answers import answer_claim_next, answer_submit
from annotation.services.campaigns import campaign_create, campaign_update
from annotation.services.qualification import qualification_reset, qualification_retry
from annotation.services.work import lease_claim_next, questions_submit
from core.errors import ServiceError
from core.roles import Role
from evaluation.selectors.human import human_performance_report
from exports.build import build_release_files
from exports.options import check_options
from tests.annotation.conftest import good_questions
from tests.factories import UserFactory


@pytest.fixture(autouse=True)
def english():
    """The services' messages read in English here (a request without preference: French)."""
    with translation.override("en"):
        yield


@pytest.fixture
def people(db):
    return {
        "writer": UserFactory(username="writer", roles=[Role.ANNOTATOR]),
        "new": UserFactory(username="new", roles=[Role.ANNOTATOR]),
        "boss": UserFactory(username="boss", roles=[Role.ADMIN]),
    }


@pytest.fixture
def golds(people, paragraphs):
    """Six gold questions, two per dev paragraph, in id order (their answers: one word)."""
    source = campaign_create(name="Source", splits=["dev"], review_rate=Decimal("0.00"))
    for _ in paragraphs:
        lease = lease_claim_next(campaign=source, annotator=people["writer"]).lease
        questions_submit(lease=lease, questions=good_questions(lease.paragraph, 3))
    made = []
    for question in Question.objects.order_by("pk"):
        if question.position == 2:
            continue
        original = question.answers.get()
        made.append(
            GoldQuestion.objects.create(
                question=question,
                answers=[original.text],
                language="fr",
                marked_by=people["boss"],
            )
        )
    return made


def round_campaign(count=2, bar=50, kind="questions"):
    return campaign_create(
        name=f"Round {kind}",
        kind=kind,
        splits=["dev"],
        qualification_questions=count,
        qualification_bar=bar,
    )


def right(lease):
    """The gold question's own answer span: F1 100."""
    original = lease.question.answers.get(kind=Answer.Kind.ORIGINAL)
    return {"answer_start": original.answer_start, "answer_text": original.text}


def wrong(lease):
    """The paragraph's first word, never a gold answer here: F1 0."""
    return {"answer_start": 0, "answer_text": lease.paragraph.text.split()[0]}


@pytest.mark.both_backends
def test_the_round_comes_first_and_passes_at_the_bar(people, golds):
    campaign = round_campaign(count=2, bar=50)
    newcomer = people["new"]
    first = lease_claim_next(campaign=campaign, annotator=newcomer)
    assert (first.created, first.lease.kind, first.lease.question_id) == (
        True,
        Lease.Kind.ANSWER,
        golds[0].question_id,
    )
    again = lease_claim_next(campaign=campaign, annotator=newcomer)
    assert (again.created, again.lease.pk) == (False, first.lease.pk)
    answer = answer_submit(lease=first.lease, data=right(first.lease))
    assert (answer.pk, answer.qualification_item.f1) == (None, 100.0)

    second = lease_claim_next(campaign=campaign, annotator=newcomer).lease
    assert second.question_id == golds[1].question_id
    answer_submit(lease=second, data=wrong(second))
    attempt = QualificationAttempt.objects.get()
    # Mean F1 (100 + 0) / 2 = 50: exactly at the bar passes.
    assert (attempt.number, attempt.status, attempt.score) == (1, "passed", 50.0)
    assert list(QualificationItem.objects.values_list("f1", flat=True)) == [100.0, 0.0]
    real = lease_claim_next(campaign=campaign, annotator=newcomer).lease
    assert (real.kind, real.question_id) == (Lease.Kind.WRITE, None)
    stored = questions_submit(lease=real, questions=good_questions(real.paragraph, 3))
    assert len(stored) == 3
    assert qualification_standing(campaign=campaign, user=newcomer).status == "passed"


def test_one_point_under_the_bar_fails_and_real_work_waits(people, golds):
    campaign = round_campaign(count=2, bar=51)
    newcomer = people["new"]
    for answer in (right, wrong):
        lease = lease_claim_next(campaign=campaign, annotator=newcomer).lease
        answer_submit(lease=lease, data=answer(lease))
    attempt = QualificationAttempt.objects.get()
    assert (attempt.status, attempt.score) == ("failed", 50.0)
    with pytest.raises(ServiceError) as refused:
        lease_claim_next(campaign=campaign, annotator=newcomer)
    assert refused.value.status == 403
    assert refused.value.errors == {
        "qualification": [
            "You did not pass the qualification round. Read the guidelines, then start "
            "your second try."
        ]
    }
    assert not Lease.objects.filter(annotator=newcomer, kind=Lease.Kind.WRITE).exists()


@pytest.mark.both_backends
def test_a_second_try_on_other_questions_then_an_admin_resets(people, golds):
    campaign = round_campaign(count=2, bar=60)
    newcomer = people["new"]
    asked = []
    for _ in range(2):
        lease = lease_claim_next(campaign=campaign, annotator=newcomer).lease
        asked.append(lease.question_id)
        answer_submit(lease=lease, data=wrong(lease))
    qualification_retry(campaign=campaign, user=newcomer)
    for _ in range(2):
        lease = lease_claim_next(campaign=campaign, annotator=newcomer).lease
        asked.append(lease.question_id)
        answer_submit(lease=lease, data=right(lease) if len(asked) == 3 else wrong(lease))
    # The second try asked two other gold questions; (100 + 0) / 2 = 50 < 60: failed again.
    assert asked == [gold.question_id for gold in golds[:4]]
    tries = QualificationAttempt.objects.order_by("number")
    assert [(t.number, t.status, t.score) for t in tries] == [
        (1, "failed", 0.0),
        (2, "failed", 50.0),
    ]
    with pytest.raises(ServiceError) as refused:
        lease_claim_next(campaign=campaign, annotator=newcomer)
    assert refused.value.status == 403
    assert refused.value.errors["qualification"] == [
        "You did not pass the qualification round twice. An admin will look at your answers "
        "and may let you try again."
    ]
    with pytest.raises(ServiceError) as no_third:
        qualification_retry(campaign=campaign, user=newcomer)
    assert no_third.value.status == 409
    assert qualification_people(campaign=campaign) == [
        {"user": newcomer, "tries": 2, "failures": 2, "status": "waiting", "score": 50.0}
    ]
    # Only admins reset; then a third try starts, on the next unseen gold question.
    with pytest.raises(ServiceError):
        qualification_reset(campaign=campaign, annotator=newcomer, admin=newcomer)
    assert qualification_reset(campaign=campaign, annotator=newcomer, admin=people["boss"]) == 2
    lease = lease_claim_next(campaign=campaign, annotator=newcomer).lease
    assert lease.question_id == golds[4].question_id
    assert QualificationAttempt.objects.get(status="open").number == 3


def test_a_second_failure_waits_through_the_api(people, golds):
    campaign = round_campaign(count=1, bar=70, kind="additional_answers")
    newcomer = people["new"]
    api = APIClient()
    api.force_authenticate(newcomer)
    for expected in (201, 201):
        lease = api.post(f"/api/v1/campaigns/{campaign.pk}/leases/")
        assert lease.status_code == 201
        lease = Lease.objects.get(pk=lease.json()["id"])
        sent = api.post(f"/api/v1/leases/{lease.pk}/submit/", wrong(lease), format="json")
        assert sent.status_code == 201
        feedback = sent.json()["qualification"]
        original = right(lease)
        assert {k: feedback[k] for k in ("f1", "right_answer", "right_start", "try_status")} == {
            "f1": 0.0,
            "right_answer": original["answer_text"],
            "right_start": original["answer_start"],
            "try_status": "failed",
        }
        marked = [piece["text"] for piece in feedback["pieces"] if piece["right"]]
        assert marked == [original["answer_text"]]
        retry = api.post(f"/api/v1/campaigns/{campaign.pk}/qualification/retry/")
        assert retry.status_code == (expected if lease.qualification.attempt.number == 1 else 409)
    state = api.get(f"/api/v1/campaigns/{campaign.pk}/qualification/").json()
    assert (state["status"], state["failures"], state["try"], state["score"]) == (
        "waiting",
        2,
        2,
        0.0,
    )
    reset = api.post(
        f"/api/v1/campaigns/{campaign.pk}/qualification/reset/",
        {"annotator": newcomer.pk},
        format="json",
    )
    assert reset.status_code == 403
    boss = APIClient()
    boss.force_authenticate(people["boss"])
    reset = boss.post(
        f"/api/v1/campaigns/{campaign.pk}/qualification/reset/",
        {"annotator": newcomer.pk},
        format="json",
    )
    assert (reset.status_code, reset.json()) == (200, {"reset": 2})
    # An additional-answers campaign with a round is offered on the quality page too.
    admin = Client(HTTP_ACCEPT_LANGUAGE="en")
    admin.force_login(people["boss"])
    quality = admin.get("/manage/quality/").content.decode()
    assert f'<option value="{campaign.pk}">Round additional_answers</option>' in quality
    state = api.get(f"/api/v1/campaigns/{campaign.pk}/qualification/").json()
    assert state["status"] == "new"


@pytest.mark.both_backends
def test_real_work_is_refused_on_the_server_whichever_door(people, golds, paragraphs):
    """A person in the round who holds a real paragraph (claimed before the round began for
    them) cannot send it: through the lean token path, the session API, or the service."""
    campaign = round_campaign(count=2, bar=50)
    newcomer = people["new"]
    first = lease_claim_next(campaign=campaign, annotator=newcomer).lease
    assert first.kind == Lease.Kind.ANSWER
    held = Lease.objects.create(
        campaign=campaign,
        paragraph=paragraphs[2],
        annotator=newcomer,
        expires_at=first.expires_at,
    )
    body = json.dumps({"questions": good_questions(paragraphs[2], 3)})
    token = token_issue(user=newcomer)
    lean = Client().post(
        f"/api/v1/leases/{held.pk}/submit/",
        body,
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Token {token}",
    )
    session = APIClient()
    session.force_authenticate(newcomer)
    drf = session.post(f"/api/v1/leases/{held.pk}/submit/", body, content_type="application/json")
    expected = {
        "lease": [
            "Réussissez d’abord la qualification de la campagne\u00a0: votre travail comptera "
            "ensuite."
        ]
    }
    for response in (lean, drf):
        assert response.status_code == 403
        assert response.json()["errors"] == expected
    # The lean way claims the round's item too, never real work.
    claimed = Client().post(
        f"/api/v1/campaigns/{campaign.pk}/leases/",
        HTTP_AUTHORIZATION=f"Token {token}",
    )
    assert (claimed.status_code, claimed.json()["id"]) == (200, first.pk)
    assert not Question.objects.filter(author=newcomer).exists()
    assert Lease.objects.get(pk=held.pk).status == Lease.Status.ACTIVE


def test_people_who_worked_before_the_round_are_no_newcomers(people, golds):
    campaign = campaign_create(name="Later", splits=["dev"])
    veteran = people["new"]
    lease = lease_claim_next(campaign=campaign, annotator=veteran).lease
    questions_submit(lease=lease, questions=good_questions(lease.paragraph, 3))
    campaign = campaign_update(campaign=campaign, qualification_questions=3)
    assert qualification_standing(campaign=campaign, user=veteran).status == "exempt"
    assert lease_claim_next(campaign=campaign, annotator=veteran).lease.kind == Lease.Kind.WRITE


@pytest.mark.both_backends
def test_nothing_of_the_round_enters_a_release_or_human_performance(people, golds, tmp_path):
    campaign = round_campaign(count=2, bar=50, kind="additional_answers")
    newcomer = people["new"]
    before = human_performance_report(split="dev")
    answers_before = Answer.objects.count()
    for answer in (right, wrong):
        lease = answer_claim_next(campaign=campaign, annotator=newcomer).lease
        answer_submit(lease=lease, data=answer(lease))
    assert QualificationAttempt.objects.get().status == "passed"
    assert Answer.objects.count() == answers_before
    assert not Answer.objects.filter(author=newcomer).exists()
    assert not GoldAnswer.objects.exists()  # nor the adaptive rate's gold evidence
    assert human_performance_report(split="dev") == before
    options = check_options({"formats": ["squad"], "splits": ["dev"], "approved_only": False})
    build_release_files(options=options, name="r", version="1", directory=tmp_path, with_gold=True)
    asked = {str(gold.question.uuid): gold for gold in golds[:2]}
    found = {}
    for path in sorted(tmp_path.rglob("*.json")):
        data = json.loads(path.read_text())
        for article in data.get("data", []) if isinstance(data, dict) else []:
            for paragraph in article["paragraphs"]:
                for qa in paragraph["qas"]:
                    if qa["id"] in asked:
                        found[qa["id"]] = [answer["text"] for answer in qa["answers"]]
    # Each gold question keeps its one original answer: the newcomer's are not there.
    assert found == {key: gold.answers for key, gold in asked.items()}


def test_the_settings_are_checked(db):
    with pytest.raises(ServiceError) as refused:
        campaign_create(
            name="Bad", splits=["dev"], qualification_questions=51, qualification_bar=101
        )
    assert refused.value.errors == {
        "qualification_questions": ["A whole number of gold questions from 0 (no round) to 50."],
        "qualification_bar": ["A whole mean F1 from 0 to 100."],
    }


def test_the_pages_announce_the_round_show_the_right_span_and_the_outcome(people, golds):
    campaign = round_campaign(count=2, bar=60)
    newcomer = people["new"]
    browser = Client(HTTP_ACCEPT_LANGUAGE="en")
    browser.force_login(newcomer)
    home = browser.get("/annotate/").content.decode()
    assert (
        '<p class="hint" data-qualification="new">Qualification round first: 2 questions, '
        "with the right answer shown after each; to pass, a mean F1 of at least 60.</p>"
    ) in home
    assert ">Start the qualification round</button>" in home
    claimed = browser.post(f"/annotate/campaigns/{campaign.pk}/next/")
    lease = Lease.objects.get(annotator=newcomer)
    assert claimed.url == f"/annotate/leases/{lease.pk}/"
    page = browser.get(claimed.url).content.decode()
    assert "Qualification round: question 1 of 2" in page
    assert "your mean F1 must reach 60" in page
    assert "Give the question back" not in page  # a round's item is not skipped
    original = right(lease)
    sent = browser.post(f"/annotate/leases/{lease.pk}/answer/", wrong(lease) | {"seconds_spent": 5})
    item = QualificationItem.objects.get(lease=lease)
    assert sent.url == f"/annotate/qualification/{item.pk}/"
    # Back to the answered question (the browser's Back, a reload): its feedback again.
    assert browser.get(f"/annotate/leases/{lease.pk}/").url == sent.url
    page = browser.get(sent.url).content.decode()
    assert f'<mark class="qual-right">{original["answer_text"]}</mark>' in page
    first_word = lease.paragraph.text.split()[0]
    assert page.count(f'<span class="qual-yours">{first_word}</span>') == 1
    assert '<span id="feedback-score">0</span>' in page
    assert 'id="qualification-next"' in page
    # Someone else's feedback is not theirs to read.
    other = Client()
    other.force_login(people["writer"])
    assert other.get(sent.url).status_code == 404

    lease = Lease.objects.get(
        pk=browser.post(f"/annotate/campaigns/{campaign.pk}/next/").url.split("/")[-2]
    )
    sent = browser.post(f"/annotate/leases/{lease.pk}/answer/", right(lease))
    page = browser.get(sent.url).content.decode()
    # (0 + 100) / 2 = 50 < 60: failed, told so, sent to the guidelines and a second try.
    assert "You did not pass the qualification round." in page
    assert "Your mean F1: 50; the bar is 60." in page
    home = browser.get("/annotate/").content.decode()
    assert '<p data-qualification="failed"><a href="/annotate/campaigns/' in home
    refused = browser.post(f"/annotate/campaigns/{campaign.pk}/next/")
    assert refused.url == f"/annotate/campaigns/{campaign.pk}/qualification/"
    page = browser.get(refused.url).content.decode()
    assert 'id="qualification-retry"' in page
    retried = browser.post(f"/annotate/campaigns/{campaign.pk}/qualification/retry/")
    third = Lease.objects.filter(annotator=newcomer).order_by("pk").last()
    assert (retried.url, third.question_id) == (
        f"/annotate/leases/{third.pk}/",
        golds[2].question_id,
    )

    # Admins see who is where on the quality page, and reset from there.
    admin = Client(HTTP_ACCEPT_LANGUAGE="en")
    admin.force_login(people["boss"])
    quality = admin.get(f"/manage/quality/?campaign={campaign.pk}").content.decode()
    assert '<span data-column="qualification-status">in qualification</span>' in quality
    in_french = Client()
    in_french.force_login(people["boss"])
    quality = in_french.get(f"/manage/quality/?campaign={campaign.pk}").content.decode()
    assert '<span data-column="qualification-status">en qualification</span>' in quality


def test_a_try_runs_short_of_gold_questions_or_the_round_shrinks(people, golds):
    """Decided on the answers it has: when no unseen gold question is left, or when an admin
    lowers the number of questions while the try is under way; none at all: 409."""
    campaign = round_campaign(count=3, bar=50)
    newcomer = people["new"]
    GoldQuestion.objects.exclude(pk=golds[0].pk).update(active=False)
    lease = lease_claim_next(campaign=campaign, annotator=newcomer).lease
    answer_submit(lease=lease, data=right(lease))
    # One gold question in the pool, answered: the next claim decides on it (100 ≥ 50).
    real = lease_claim_next(campaign=campaign, annotator=newcomer).lease
    assert real.kind == Lease.Kind.WRITE
    assert list(QualificationAttempt.objects.values_list("status", "score")) == [("passed", 100.0)]

    other = UserFactory(username="other", roles=[Role.ANNOTATOR])
    GoldQuestion.objects.update(active=True)
    for answer in (wrong, right):
        lease = lease_claim_next(campaign=campaign, annotator=other).lease
        answer_submit(lease=lease, data=answer(lease))
    campaign = campaign_update(campaign=campaign, qualification_questions=2)
    with pytest.raises(ServiceError) as refused:  # (0 + 100) / 2 = 50… with the bar at 51
        campaign = campaign_update(campaign=campaign, qualification_bar=51)
        lease_claim_next(campaign=campaign, annotator=other)
    assert refused.value.status == 403
    tried = QualificationAttempt.objects.get(annotator=other)
    assert (tried.status, tried.score) == ("failed", 50.0)

    GoldQuestion.objects.update(active=False)
    third = UserFactory(username="third", roles=[Role.ANNOTATOR])
    with pytest.raises(ServiceError) as empty:
        lease_claim_next(campaign=campaign, annotator=third)
    assert (empty.value.status, empty.value.errors) == (
        409,
        {
            "qualification": [
                "The qualification round has no gold question for you yet; ask an admin."
            ]
        },
    )
