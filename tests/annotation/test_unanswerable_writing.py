"""Writing unanswerable questions (FQuAD 2.0, SQuAD 2.0): campaigns of that kind, mixed
campaigns, the plausible span, and the rules a submission keeps."""

import pytest
from django.utils import translation
from rest_framework.test import APIClient

from annotation.guidelines import default_guidelines
from annotation.models import Answer, Lease, Question, QuestionRevision, WorkItem
from annotation.selectors.questions import dataset_questions
from annotation.services.campaigns import campaign_create, campaign_defaults, campaign_update
from annotation.services.questions import NewAnswer, NewQuestion, questions_store
from annotation.services.reviews import review_claim_next, review_submit
from annotation.services.work import lease_claim_next, questions_submit
from core.errors import ServiceError
from core.roles import Role
from tests.annotation.conftest import good_questions
from tests.factories import UserFactory


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def unanswerable(db):
    return campaign_create(name="Sans réponse", kind="unanswerable", splits=["dev"])


def written(campaign, paragraph, annotator, questions=None):
    """Claim this paragraph in the campaign (the next free one must be it) and send questions."""
    lease = lease_claim_next(campaign=campaign, annotator=annotator).lease
    assert lease.paragraph == paragraph
    return questions_submit(lease=lease, questions=questions or good_questions(paragraph))


def plausible(paragraph, word, text, **extra):
    return {
        "text": text,
        "is_impossible": True,
        "plausible_answer_start": paragraph.text.index(word),
        "plausible_answer_text": word,
        "seconds_spent": 50,
    } | extra


def test_an_unanswerable_campaign_offers_only_paragraphs_that_have_answerable_questions(
    campaign, unanswerable, paragraphs, annotators
):
    assert lease_claim_next(campaign=unanswerable, annotator=annotators[2]) is None
    written(campaign, paragraphs[0], annotators[0])
    # The first paragraph now has questions: it becomes the campaign's item, and only it.
    items = WorkItem.objects.filter(campaign=unanswerable).order_by("paragraph_id")
    assert list(items.values_list("paragraph_id", "places")) == [
        (paragraphs[0].pk, 1),
        (paragraphs[1].pk, 0),
        (paragraphs[2].pk, 0),
    ]
    lease = lease_claim_next(campaign=unanswerable, annotator=annotators[2]).lease
    assert lease.paragraph == paragraphs[0]
    assert lease_claim_next(campaign=unanswerable, annotator=annotators[1]) is None


def test_unanswerable_questions_are_stored_with_their_plausible_span_and_version_1(
    campaign, unanswerable, paragraphs, annotators
):
    written(campaign, paragraphs[0], annotators[0])
    paragraph = paragraphs[0]
    stored = written(
        unanswerable,
        paragraph,
        annotators[1],
        [
            plausible(paragraph, "Saint-Nazaire", "Dans quel port la Seine se jette-t-elle ?"),
            plausible(
                paragraph, "1 006 km", "Quelle est la largeur de la Loire à son embouchure ?"
            ),
        ],
    )
    assert [(q.text, q.is_impossible, q.status, q.position) for q in stored] == [
        ("Dans quel port la Seine se jette-t-elle ?", True, "pending", 0),
        ("Quelle est la largeur de la Loire à son embouchure ?", True, "pending", 1),
    ]
    answers = Answer.objects.filter(question__in=stored).order_by("question_id")
    assert [(a.kind, a.answer_start, a.text, a.author_id) for a in answers] == [
        ("plausible", paragraph.text.index("Saint-Nazaire"), "Saint-Nazaire", annotators[1].pk),
        ("plausible", paragraph.text.index("1 006 km"), "1 006 km", annotators[1].pk),
    ]
    first = QuestionRevision.objects.get(question=stored[0])
    assert (first.number, first.is_impossible, first.answer_text) == (1, True, "Saint-Nazaire")
    # A v1.1 dataset leaves them out; a v2.0 one takes them.
    assert set(dataset_questions(split="dev")) == set(Question.objects.filter(is_impossible=False))
    assert set(dataset_questions(split="dev", unanswerable=True)) == set(Question.objects.all())


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        (
            {"plausible_answer_start": None, "plausible_answer_text": None},
            "questions[0].plausible_answer_start",
            "Select the plausible answer in the paragraph.",
        ),
        (
            {"plausible_answer_start": 10_000},
            "questions[0].plausible_answer_start",
            "Select the plausible answer in the paragraph.",
        ),
        (
            {"plausible_answer_start": 0},
            "questions[0].plausible_answer_text",
            "The answer is not the text at this place of the paragraph.",
        ),
        (
            {"answer_start": 0, "answer_text": "La"},
            "questions[0].answer_text",
            "An unanswerable question has no answer: select its plausible answer instead.",
        ),
        (
            {"is_impossible": False},
            "questions[0].is_impossible",
            "This campaign asks for unanswerable questions only.",
        ),
        ({"is_impossible": "yes"}, "questions[0].is_impossible", "true or false."),
        (
            {"text": "  question 0 sur « loire »  ?"},
            "questions[0].text",
            "This question is already asked on this paragraph.",
        ),
    ],
)
def test_a_bad_unanswerable_question_is_refused_naming_its_field_and_nothing_is_stored(
    campaign, unanswerable, paragraphs, annotators, change, field, message
):
    paragraph = paragraphs[0]
    written(campaign, paragraph, annotators[0])
    assert Question.objects.filter(text="Question 0 sur « Loire » ?").exists()
    lease = lease_claim_next(campaign=unanswerable, annotator=annotators[1]).lease
    item = plausible(paragraph, "Saint-Nazaire", "Où la Seine finit-elle ?") | change
    with pytest.raises(ServiceError) as refused:
        questions_submit(lease=lease, questions=[item])
    assert refused.value.errors == {field: [message]}
    lease.refresh_from_db()
    assert lease.status == Lease.Status.ACTIVE
    assert Question.objects.filter(campaign=unanswerable).count() == 0


def test_the_unanswerable_flag_may_be_left_out_in_an_unanswerable_campaign(
    campaign, unanswerable, paragraphs, annotators
):
    written(campaign, paragraphs[0], annotators[0])
    item = plausible(paragraphs[0], "Ardèche", "Dans quel département la Seine naît-elle ?")
    del item["is_impossible"]
    (question,) = written(unanswerable, paragraphs[0], annotators[1], [item])
    assert question.is_impossible is True


def test_a_mixed_campaign_asks_for_its_number_of_unanswerable_questions(paragraphs, annotators):
    mixed = campaign_create(name="Mixte", splits=["dev"], unanswerable_per_paragraph=1)
    paragraph = paragraphs[0]
    lease = lease_claim_next(campaign=mixed, annotator=annotators[0]).lease
    with pytest.raises(ServiceError) as refused:
        questions_submit(lease=lease, questions=good_questions(paragraph))
    assert refused.value.errors == {"questions": ["Write 1 unanswerable question (0 given)."]}
    two = [
        plausible(paragraph, "Ardèche", "Dans quel département la Seine naît-elle ?"),
        plausible(paragraph, "Atlantique", "Dans quel océan le Rhône se jette-t-il ?"),
    ]
    with pytest.raises(ServiceError) as refused:
        questions_submit(lease=lease, questions=good_questions(paragraph) + two)
    assert refused.value.errors == {"questions": ["Write 1 unanswerable question (2 given)."]}
    with pytest.raises(ServiceError) as refused:
        questions_submit(lease=lease, questions=good_questions(paragraph, 2)[:2] + two[:1])
    assert refused.value.errors == {
        "questions": ["Write from 3 to 5 answerable questions (2 given)."]
    }
    stored = questions_submit(lease=lease, questions=[two[0], *good_questions(paragraph)])
    assert [(q.position, q.is_impossible) for q in stored] == [
        (0, True),
        (1, False),
        (2, False),
        (3, False),
    ]
    kinds = [q.answers.get().kind for q in stored]
    assert kinds == ["plausible", "original", "original", "original"]

    # Sent, the page counts and marks them as the live page does (issue 25, left over).
    from django.test import Client

    client = Client()
    client.force_login(annotators[0])
    for language, counter, label in (
        ("en", "3 / 3–5 answerable · 1 / 1 unanswerable", "Plausible answer 1"),
        ("fr", "3 / 3–5 avec réponse · 1 / 1 sans réponse", "Réponse plausible 1"),
    ):
        client.cookies["django_language"] = language
        page = client.get(f"/annotate/leases/{lease.pk}/").content.decode()
        assert f'<span id="question-counter" class="counter-badge">{counter}</span>' in page
        assert (
            f'<mark class="plausible-mark" title="{label}" aria-description="{label}" '
            'data-span-index="0">Ardèche</mark>'
        ) in page
        assert page.count("<mark ") == 4


def test_a_plain_questions_campaign_refuses_unanswerable_questions(
    campaign, paragraphs, annotators
):
    paragraph = paragraphs[0]
    lease = lease_claim_next(campaign=campaign, annotator=annotators[0]).lease
    item = plausible(paragraph, "Ardèche", "Dans quel département la Seine naît-elle ?")
    with pytest.raises(ServiceError) as refused:
        questions_submit(lease=lease, questions=[*good_questions(paragraph), item])
    assert refused.value.errors == {
        "questions[3].is_impossible": ["This campaign asks for answerable questions only."]
    }
    answerable = good_questions(paragraph)
    answerable[0]["plausible_answer_start"] = 0
    answerable[0]["plausible_answer_text"] = "La"
    with pytest.raises(ServiceError) as refused:
        questions_submit(lease=lease, questions=answerable)
    assert refused.value.errors == {
        "questions[0].plausible_answer_text": [
            "Only an unanswerable question has a plausible answer."
        ]
    }


def test_the_store_refuses_an_unanswerable_question_with_an_answer(
    campaign, paragraphs, annotators
):
    def new(is_impossible, kind):
        return NewQuestion(
            paragraph=paragraphs[0],
            author_id=annotators[0].pk,
            position=0,
            text="Où la Seine finit-elle ?",
            is_impossible=is_impossible,
            answers=[NewAnswer(author_id=annotators[0].pk, answer_start=0, text="La", kind=kind)],
        )

    with pytest.raises(ServiceError) as refused:
        questions_store(campaign=campaign, questions=[new(True, Answer.Kind.ORIGINAL)])
    assert refused.value.errors == {
        "questions[0].answers": ["An unanswerable question has no answer, only plausible answers."]
    }
    with pytest.raises(ServiceError) as refused:
        questions_store(campaign=campaign, questions=[new(False, Answer.Kind.PLAUSIBLE)])
    assert refused.value.errors == {
        "questions[0].answers": ["Only an unanswerable question has a plausible answer."]
    }
    assert Question.objects.count() == 0


def test_campaign_settings_for_unanswerable_questions(db):
    defaults = campaign_defaults("unanswerable")
    assert (defaults["questions_min"], defaults["questions_max"]) == (1, 5)
    made = campaign_create(name="U", kind="unanswerable")
    assert "questions sans réponse" in made.guidelines
    assert "**1 à 5 questions**" in made.guidelines
    for kind, count, message in [
        ("additional_answers", 1, "Only a questions campaign asks for unanswerable"),
        ("questions", 6, "Between 0 and 5."),
        ("questions", True, "A whole number from 0 to 5."),
    ]:
        with pytest.raises(ServiceError) as refused:
            campaign_create(name=f"bad {kind} {count}", kind=kind, unanswerable_per_paragraph=count)
        assert refused.value.errors["unanswerable_per_paragraph"][0].startswith(message), (
            refused.value.errors
        )
    mixed = campaign_update(campaign=campaign_create(name="M"), unanswerable_per_paragraph=2)
    assert mixed.unanswerable_per_paragraph == 2
    english = default_guidelines(
        kind="questions", language="en", low=3, high=5, seconds=60, unanswerable=2
    )
    assert "## And 2 unanswerable questions" in english
    assert "**1 question sans réponse**" in default_guidelines(
        kind="questions", language="fr", low=3, high=5, seconds=60, unanswerable=1
    )


def test_the_api_takes_unanswerable_questions_and_names_a_bad_field(
    campaign, unanswerable, paragraphs, annotators
):
    written(campaign, paragraphs[0], annotators[0])
    api = APIClient()
    api.force_authenticate(annotators[1])
    lease = api.post(f"/api/v1/campaigns/{unanswerable.pk}/leases/").json()
    url = f"/api/v1/leases/{lease['id']}/submit/"
    item = plausible(paragraphs[0], "Saint-Nazaire", "Dans quel port la Seine finit-elle ?")
    bad = api.post(url, {"questions": [item | {"plausible_answer_start": -1}]}, format="json")
    assert (bad.status_code, bad.json()) == (
        400,
        {
            "errors": {
                "questions[0].plausible_answer_start": [
                    "Sélectionnez la réponse plausible dans le paragraphe."  # the default language
                ]
            }
        },
    )
    sent = api.post(url, {"questions": [item]}, format="json")
    assert sent.status_code == 201
    (question,) = sent.json()
    assert (question["is_impossible"], question["answers"][0]["kind"]) == (True, "plausible")
    assert question["answers"][0]["text"] == "Saint-Nazaire"


def test_the_page_lists_the_existing_questions_escaped_and_asks_for_unanswerable_ones(
    client, campaign, unanswerable, paragraphs, annotators
):
    questions = good_questions(paragraphs[0])
    questions[1]["text"] = "<b>Qui</b> a écrit ça ?"
    written(campaign, paragraphs[0], annotators[0], questions)
    client.force_login(annotators[1])
    client.cookies["django_language"] = "en"
    lease = lease_claim_next(campaign=unanswerable, annotator=annotators[1]).lease
    page = client.get(f"/annotate/leases/{lease.pk}/").content.decode()
    assert 'data-mode="unanswerable"' in page
    assert "3 questions already asked on this paragraph" in page
    assert '<li lang="fr" dir="ltr">&lt;b&gt;Qui&lt;/b&gt; a écrit ça ?</li>' in page
    assert "1 to 5 unanswerable questions" in page
    assert "Plausible answer (what a hasty reader would give):" in page


def test_the_dashboard_counts_the_paragraphs_offered_and_the_unanswerable_questions(
    client, campaign, unanswerable, paragraphs, annotators
):
    written(campaign, paragraphs[0], annotators[0])
    written(
        unanswerable,
        paragraphs[0],
        annotators[1],
        [plausible(paragraphs[0], "Saint-Nazaire", "Dans quel port la Seine finit-elle ?")],
    )
    client.force_login(UserFactory(username="boss", roles=[Role.ADMIN]))
    client.cookies["django_language"] = "en"
    page = client.get(f"/manage/campaigns/{unanswerable.pk}/dashboard/").content.decode()
    progress = page[page.index('id="campaign-progress"') : page.index("</div>\n  </div>")]
    # One paragraph of the three has answerable questions: it is the campaign's only one.
    assert "<strong>1 / 1</strong>paragraph done" in progress
    assert '<div class="counter" id="unanswerable-count"><strong>1</strong>' in progress
    questions = client.get(f"/manage/campaigns/{campaign.pk}/dashboard/").content.decode()
    assert "<strong>1 / 3</strong>paragraphs done" in questions
    assert 'id="unanswerable-count"' not in questions


def test_a_review_moves_a_paragraph_in_or_out_of_an_unanswerable_campaign(
    campaign, unanswerable, paragraphs, annotators
):
    """Made answerable: its paragraph is offered; its only answerable question rejected: not."""
    reviewer = UserFactory(username="rev", roles=[Role.REVIEWER])
    campaign_update(campaign=campaign, review_rate="1.00")
    campaign.refresh_from_db()
    written(campaign, paragraphs[0], annotators[0])
    (impossible,) = questions_store(
        campaign=campaign,
        questions=[
            NewQuestion(
                paragraph=paragraphs[1],
                author_id=annotators[1].pk,
                position=0,
                text="Qui creusa le canal de Suez ?",
                is_impossible=True,
                sampled_for_review=True,
                answers=[
                    NewAnswer(
                        author_id=annotators[1].pk,
                        answer_start=paragraphs[1].text.index("Pierre-Paul Riquet"),
                        text="Pierre-Paul Riquet",
                        kind=Answer.Kind.PLAUSIBLE,
                    )
                ],
            )
        ],
    )

    def offered():
        items = WorkItem.objects.filter(campaign=unanswerable, places__gt=0)
        return sorted(items.values_list("paragraph_id", flat=True))

    assert offered() == [paragraphs[0].pk]
    verdicts = {
        impossible.pk: {
            "verdict": "answerable",
            "answer_start": paragraphs[1].text.index("Pierre-Paul Riquet"),
            "answer_text": "Pierre-Paul Riquet",
        },
    }
    for _ in range(4):  # the first paragraph's three questions rejected, then the fourth
        lease = review_claim_next(campaign=campaign, reviewer=reviewer).lease
        data = verdicts.get(lease.question_id, {"verdict": "reject", "reason": "wrong_answer"})
        review_submit(lease=lease, data=data)
    assert offered() == [paragraphs[1].pk]


def test_only_the_listed_questions_count_as_repeats(campaign, unanswerable, paragraphs, annotators):
    """The page lists the paragraph's answerable questions: a repeat of one is refused; its
    unanswerable ones are neither listed nor told apart by a refusal."""
    mixed = campaign_create(name="Mixte", splits=["dev"], unanswerable_per_paragraph=1)
    hidden = plausible(paragraphs[0], "Ardèche", "Dans quel département la Seine naît-elle ?")
    written(mixed, paragraphs[0], annotators[0], [*good_questions(paragraphs[0]), hidden])
    lease = lease_claim_next(campaign=unanswerable, annotator=annotators[1]).lease
    (question,) = questions_submit(lease=lease, questions=[hidden])
    assert (question.text, question.is_impossible) == (hidden["text"], True)


def test_the_new_campaign_page_fills_in_the_defaults_of_the_kind_asked(client, db):
    client.force_login(UserFactory(username="boss", roles=[Role.ADMIN]))
    client.cookies["django_language"] = "en"
    listing = client.get("/manage/campaigns/").content.decode()
    assert 'href="/manage/campaigns/new/?kind=unanswerable"' in listing

    def initial(query):
        form = client.get(f"/manage/campaigns/new/{query}").context["form"]
        return {name: form.initial[name] for name in ("kind", "questions_min", "splits")}

    assert initial("?kind=unanswerable") == {
        "kind": "unanswerable",
        "questions_min": 1,
        "splits": ["train", "dev", "test"],
    }
    answering = {"kind": "additional_answers", "questions_min": 3, "splits": ["dev", "test"]}
    assert initial("?kind=additional_answers") == answering
    plain = {"kind": "questions", "questions_min": 3, "splits": ["train", "dev", "test"]}
    assert initial("") == initial("?kind=<script>") == plain
