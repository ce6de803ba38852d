"""Model rounds (issue 15, item 5): each round's job scores its model on the questions of the
earlier rounds; the rounds table and matrix; the results page and the API.

The lexical model's answers below were read off `evaluation.baselines.lexical.predict` once
and are written out, with their F1 (French normalization: "la", "du"… dropped) by hand:

round 1 (lexical, fooled under 40), paragraph GUTENBERG:
  q1 "Qui mit au point la presse ?"            answer Gutenberg      model Gutenberg           F1 100
  q2 "Combien de Bibles furent imprimées ?"    answer 180            model Gutenberg           F1 0
  q3 "Vers quelle année … mise au point ?"     answer 1450 (corrected from "vers 1450")
                                               model "Mayence, vers 1450": 1 of 3 tokens, F1 50
  q4 "Quel livre la presse permit-elle …"      answer la Bible       model mobiles   F1 0, rejected
round 2 (lexical, fooled under 60), paragraph RIQUET:
  q5 "Que relie le canal ?"                    answer Toulouse à la mer Méditerranée
                                               model Toulouse: 1 of 4 tokens, F1 40
  q6 "Qui dirigea les travaux du canal ?"      answer Riquet         model Riquet              F1 100
  q7 "À partir de quand … les travaux ?"       answer 1666           model canal               F1 0
  q8 "Le canal relie Toulouse à quelle mer ?"  answer la mer Méditerranée, model unavailable
                                               (the later lexical model answers 1666: F1 0)
round 3: a baseline run of kind lexical, fooled under 40; no question written in it.
"""

from __future__ import annotations

import threading
from decimal import Decimal
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.utils import translation
from rest_framework.test import APIClient

from annotation.models import Answer, ModelAttempt, ModelKind, ModelRound, Question
from annotation.services.campaigns import campaign_create
from annotation.services.work import lease_claim_next, questions_submit
from core.roles import Role
from core.services.jobs import job_enqueue
from corpus.readers import SourceArticle
from corpus.services.articles import article_store
from evaluation.models import BaselineRun
from evaluation.services.model_loop.attempts import answer_scores, is_fooled
from evaluation.services.model_loop.rounds import (
    campaign_model_rounds,
    model_round_execute,
    model_round_run,
)
from exports.models import Release
from tests.factories import UserFactory
from tests.needs import require_module
from tests.pages import queries_before_and_after

pytestmark = pytest.mark.usefixtures("loopback_allowed")

GUTENBERG = (
    "Gutenberg mit au point à Mayence, vers 1450, une presse à caractères mobiles qui permit "
    "d'imprimer la Bible à environ 180 exemplaires."
)
RIQUET = (
    "Riquet dirigea les travaux du canal du Midi à partir de 1666 ; le canal relie Toulouse à "
    "la mer Méditerranée et fut inauguré en 1681."
)
# (question, written answer, [(attempt text, model answer or None when unavailable)…])
ROUND_1 = [
    ("Qui mit au point la presse ?", "Gutenberg", [("Qui mit au point la presse ?", "Gutenberg")]),
    (
        "Combien de Bibles furent imprimées ?",
        "180",
        [
            ("Combien d'exemplaires de la Bible ?", "180"),
            ("Combien de Bibles furent imprimées ?", "Gutenberg"),
        ],
    ),
    (
        "Vers quelle année la presse fut-elle mise au point ?",
        "vers 1450",
        [("Vers quelle année la presse fut-elle mise au point ?", "Mayence, vers 1450")],
    ),
    (
        "Quel livre la presse permit-elle d'imprimer ?",
        "la Bible",
        [("Quel livre la presse permit-elle d'imprimer ?", "mobiles")],
    ),
]
ROUND_2 = [
    (
        "Que relie le canal ?",
        "Toulouse à la mer Méditerranée",
        [("Que relie le canal ?", "Toulouse")],
    ),
    (
        "Qui dirigea les travaux du canal ?",
        "Riquet",
        [("Qui dirigea les travaux du canal ?", "Riquet")],
    ),
    (
        "À partir de quand Riquet dirigea-t-il les travaux ?",
        "1666",
        [
            ("Quand Riquet dirigea-t-il les travaux ?", "1666"),
            ("Depuis quand Riquet dirigea-t-il les travaux ?", "1666"),
            ("À partir de quand Riquet dirigea-t-il les travaux ?", "canal"),
        ],
    ),
    (
        "Le canal relie Toulouse à quelle mer ?",
        "la mer Méditerranée",
        [("Le canal relie Toulouse à quelle mer ?", None)],
    ),
]


def _store_paragraphs():
    for title, text in (("Gutenberg", GUTENBERG), ("Riquet", RIQUET)):
        article_store(
            language="fr",
            source=SourceArticle(title=title, source_title=title),
            paragraphs=[text],
            wave="1.0",
            split="dev",
            kind="file",
        )


def _write(campaign, writer, questions) -> list[Question]:
    lease = lease_claim_next(campaign=campaign, annotator=writer).lease
    text = lease.paragraph.text
    return questions_submit(
        lease=lease,
        questions=[
            {"text": q, "answer_start": text.index(a), "answer_text": a, "seconds_spent": 30}
            for q, a, _attempts in questions
        ],
    )


def _round(campaign, number, threshold, *, kind=ModelKind.LEXICAL, run=None, label="lexical"):
    return ModelRound.objects.create(
        campaign=campaign,
        number=number,
        model_kind=kind,
        model_run=run,
        label=label,
        f1_threshold=Decimal(threshold),
    )


def _attempts(question, model_round, attempts) -> None:
    """What the page and the submission record: every attempt, the last one counting."""
    written = question.answers.get(kind=Answer.Kind.ORIGINAL).text
    last = None
    for number, (text, model_answer) in enumerate(attempts, start=1):
        scored = {"status": ModelAttempt.Status.UNAVAILABLE}
        if model_answer is not None:
            em, f1 = answer_scores(model_answer, written, "fr")
            scored = {
                "status": ModelAttempt.Status.ANSWERED,
                "model_answer": model_answer,
                "exact_match": em,
                "f1": f1,
                "fooled": is_fooled(f1, model_round.f1_threshold),
            }
        last = ModelAttempt.objects.create(
            campaign=question.campaign,
            lease=question.lease,
            question=question,
            round=model_round,
            key=f"q{question.position}",
            number=number,
            text=text,
            answer_start=0,
            answer_text=written,
            **scored,
        )
    Question.objects.filter(pk=question.pk).update(
        model_attempt=last,
        model_attempts=len(attempts),
        model_exact=last.exact_match,
        model_f1=last.f1,
        model_fooled=last.fooled,
    )


def _correct_span(question, answer: str) -> None:
    """A reviewer's correction of the span: the answer changes, "fooled" is computed again."""
    paragraph = question.paragraph.text
    question.answers.filter(kind=Answer.Kind.ORIGINAL).update(
        text=answer, answer_start=paragraph.index(answer)
    )
    question.refresh_from_db()
    attempt = question.model_attempt
    em, f1 = answer_scores(attempt.model_answer, answer, "fr")
    Question.objects.filter(pk=question.pk).update(
        status=Question.Status.CORRECTED,
        model_exact=em,
        model_f1=f1,
        model_fooled=is_fooled(f1, attempt.round.f1_threshold),
    )


def _lexical_run(boss) -> BaselineRun:
    release = Release.objects.create(
        name="r1", version="1", status=Release.Status.SUCCEEDED, created_by=boss
    )
    return BaselineRun.objects.create(
        release=release, kind=BaselineRun.Kind.LEXICAL, status=BaselineRun.Status.SUCCEEDED
    )


@pytest.fixture
def loop(db):
    """A campaign that had three models: lexical, lexical again, a lexical baseline run."""
    _store_paragraphs()
    writer = UserFactory(username="writer", roles=[Role.ANNOTATOR])
    boss = UserFactory(username="boss", roles=[Role.ADMIN])
    campaign = campaign_create(
        name="Beat the <b>lexical</b>",
        splits=["dev"],
        review_rate="0",
        questions_min=1,
        questions_max=5,
    )
    first = _round(campaign, 1, 40)
    second = _round(campaign, 2, 60)
    run = _lexical_run(boss)
    third = _round(campaign, 3, 40, kind=ModelKind.RUN, run=run, label=f"baseline run {run.pk}")
    campaign.model_round = 3
    campaign.save(update_fields=["model_round"])
    q1, q2, q3, q4 = _write(campaign, writer, ROUND_1)
    q5, q6, q7, q8 = _write(campaign, writer, ROUND_2)
    for question, (*_rest, attempts) in zip((q1, q2, q3, q4), ROUND_1, strict=True):
        _attempts(question, first, attempts)
    for question, (*_rest, attempts) in zip((q5, q6, q7, q8), ROUND_2, strict=True):
        _attempts(question, second, attempts)
    Question.objects.filter(pk__in=[q1.pk, q2.pk, q6.pk]).update(status=Question.Status.APPROVED)
    Question.objects.filter(pk=q4.pk).update(status=Question.Status.REJECTED)
    _correct_span(q3, "1450")  # the model's "Mayence, vers 1450": F1 80 before, 50 now
    _correct_span(q7, "1666")  # same span: still fooled, so a validated one
    return {
        "campaign": campaign,
        "rounds": (first, second, third),
        "questions": (q1, q2, q3, q4, q5, q6, q7, q8),
        "boss": boss,
        "writer": writer,
        "run": run,
    }


def _run(model_round) -> ModelRound:
    model_round_execute(round=model_round)
    model_round.refresh_from_db()
    return model_round


def test_the_attempts_of_the_fixture_are_what_the_docstring_says(loop):
    """The hand-written figures below rest on these stored model figures."""
    figures = [
        (q.model_attempts, q.model_f1, q.model_fooled)
        for q in Question.objects.filter(campaign=loop["campaign"]).order_by(
            "paragraph_id", "position"
        )
    ]
    assert figures == [
        (1, 100.0, False),
        (2, 0.0, True),
        (1, 50.0, False),
        (1, 0.0, True),
        (1, 40.0, True),
        (1, 100.0, False),
        (3, 0.0, True),
        (1, None, None),
    ]


def test_round_one_has_no_earlier_round_and_succeeds_with_empty_results(loop):
    first = _run(loop["rounds"][0])
    assert first.status == ModelRound.Status.SUCCEEDED, first.error
    assert first.results == {"rounds": {}, "model": "lexical"}
    assert first.message == "%(n)d question of the earlier rounds scored"
    assert first.message_params == {
        "n": 0,
        "_plural": "%(n)d questions of the earlier rounds scored",
        "_count": "n",
    }
    assert first.message_text == "0 question des manches précédentes notée"  # French: 0 is one


def test_the_second_round_scores_its_model_on_the_first_rounds_questions(loop):
    second = _run(loop["rounds"][1])
    assert second.status == ModelRound.Status.SUCCEEDED, second.error
    # q1 100, q2 0, q3 50 against the corrected "1450" (80 against "vers 1450"); q4 rejected.
    # Under 60: q2 and q3 fooled.
    assert second.results == {
        "rounds": {
            "1": {
                "questions": 3,
                "exact_match": 33.33,
                "f1": 50.0,
                "fooled": 2,
                "fooled_rate": 66.67,
            }
        },
        "model": "lexical",
    }
    assert (second.progress, second.message_params["n"]) == (100, 3)


def test_a_baseline_run_of_kind_lexical_scores_every_earlier_round_with_its_threshold(loop):
    third = _run(loop["rounds"][2])
    assert third.status == ModelRound.Status.SUCCEEDED, third.error
    assert third.results == {
        "rounds": {
            # Under 40: q2 only (q3's 50 is not).
            "1": {
                "questions": 3,
                "exact_match": 33.33,
                "f1": 50.0,
                "fooled": 1,
                "fooled_rate": 33.33,
            },
            # q5 40 (not under 40), q6 100, q7 0, q8 0 ("1666" for "la mer Méditerranée").
            "2": {
                "questions": 4,
                "exact_match": 25.0,
                "f1": 35.0,
                "fooled": 2,
                "fooled_rate": 50.0,
            },
        },
        "model": f"baseline run {loop['run'].pk}",
    }


def test_a_redelivered_task_for_a_finished_round_does_nothing(loop):
    second = _run(loop["rounds"][1])
    finished = (second.finished_at, second.attempts, second.results)
    Question.objects.filter(pk=loop["questions"][0].pk).update(status=Question.Status.REJECTED)
    model_round_run(job_pk=second.pk)  # what both tasks call
    model_round_execute(round=second)
    second.refresh_from_db()
    assert (second.finished_at, second.attempts, second.results) == finished
    assert second.attempts == 1
    model_round_run(job_pk=10**9)  # a round deleted since: nothing either


class Garbage(BaseHTTPRequestHandler):
    """A predict server that answers outside the protocol."""

    def do_POST(self):  # noqa: N802 (http.server's name)
        self.rfile.read(int(self.headers["Content-Length"]))
        self.send_response(200)
        self.send_header("Content-Length", "7")
        self.end_headers()
        self.wfile.write(b"garbage")

    def log_message(self, *args):
        pass


@pytest.fixture
def garbage_server():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Garbage)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()


def test_a_model_that_fails_fails_the_job_with_its_reason(loop, garbage_server):
    broken = ModelRound.objects.create(
        campaign=loop["campaign"],
        number=4,
        model_kind=ModelKind.SERVER,
        model_url=garbage_server,
        label="garbage",
        f1_threshold=Decimal(40),
    )
    broken = _run(broken)
    assert broken.status == ModelRound.Status.FAILED
    assert broken.error.startswith(f"PredictServerError: predict server {garbage_server}: ")
    assert broken.results == {}


def test_the_tasks_are_sent_by_name_to_their_queues(
    loop, django_capture_on_commit_callbacks, sent_tasks
):
    with django_capture_on_commit_callbacks(execute=True):
        job_enqueue(job=loop["rounds"][1], task="evaluation.tasks.model_round_task")
    assert [name for name, _kw in sent_tasks.calls] == ["evaluation.tasks.model_round_task"]
    from evaluation import tasks  # noqa: PLC0415 (only Celery loads tasks; the test checks them)

    tasks.model_round_task(job_pk=loop["rounds"][1].pk)
    tasks.gpu_model_round_task(job_pk=loop["rounds"][2].pk)
    statuses = ModelRound.objects.order_by("number").values_list("status", flat=True)
    assert list(statuses) == ["pending", "succeeded", "succeeded"]


def test_the_selector_gives_the_rounds_table_and_the_matrix(loop):
    _run(loop["rounds"][1])
    report = campaign_model_rounds(loop["campaign"])
    rows = [{k: v for k, v in row.items() if k != "round"} for row in report["rounds"]]
    run = loop["run"]
    assert rows == [
        {
            "number": 1,
            "label": "lexical",
            "model_kind": "lexical",
            "model_run": None,
            "f1_threshold": 40.0,
            "questions": 4,
            "answered": 4,
            "fooled": 2,  # q2, q4
            "fooled_rate": 50.0,
            "validated": 1,  # q2 approved; q4 rejected
            "validated_rate": 25.0,
            "attempts_per_question": 1.25,  # 1 + 2 + 1 + 1
        },
        {
            "number": 2,
            "label": "lexical",
            "model_kind": "lexical",
            "model_run": None,
            "f1_threshold": 60.0,
            "questions": 4,
            "answered": 3,  # q8: the model was unavailable
            "fooled": 2,  # q5 (40 < 60), q7
            "fooled_rate": 66.67,
            "validated": 1,  # q7 corrected and still fooled; q5 pending
            "validated_rate": 33.33,
            "attempts_per_question": 1.5,  # 1 + 1 + 3 + 1
        },
        {
            "number": 3,
            "label": f"baseline run {run.pk}",
            "model_kind": "run",
            "model_run": run.pk,
            "f1_threshold": 40.0,
            "questions": 0,
            "answered": 0,
            "fooled": 0,
            "fooled_rate": None,
            "validated": 0,
            "validated_rate": None,
            "attempts_per_question": None,
        },
    ]

    def plain(cell):
        return cell and {k: v for k, v in cell.items() if k != "job"}

    matrix = [[plain(cell) for cell in line["cells"]] for line in report["matrix"]]
    figures = ("questions", "exact_match", "f1", "fooled", "fooled_rate")
    own_1 = dict(zip(figures, (3, 33.33, 50.0, 1, 33.33), strict=True))
    own_2 = dict(zip(figures, (3, 33.33, 46.67, 2, 66.67), strict=True))  # q5, q6, q7
    own_3 = dict(zip(figures, (0, None, None, 0, None), strict=True))
    later_2_on_1 = dict(zip(figures, (3, 33.33, 50.0, 2, 66.67), strict=True))
    assert matrix == [
        [
            {"model_round": 1, "own": True, "status": "succeeded", **own_1},
            {"model_round": 2, "own": False, "status": "succeeded", **later_2_on_1},
            {"model_round": 3, "own": False, "status": "pending"},
        ],
        [
            None,
            {"model_round": 2, "own": True, "status": "succeeded", **own_2},
            {"model_round": 3, "own": False, "status": "pending"},
        ],
        [None, None, {"model_round": 3, "own": True, "status": "succeeded", **own_3}],
    ]
    assert [line["round"] for line in report["matrix"]] == [1, 2, 3]


def test_the_results_page_shows_each_campaigns_rounds_escaped(loop, client):
    _run(loop["rounds"][1])
    _run(loop["rounds"][2])
    client.cookies["django_language"] = "en"
    client.force_login(loop["boss"])
    html = client.get("/manage/results/model-rounds/").content.decode()
    assert 'id="model-rounds"' in html
    assert "Beat the &lt;b&gt;lexical&lt;/b&gt;" in html and "<b>lexical</b>" not in html
    table = html[
        html.index('class="table model-rounds-table"') : html.index(
            "</table>", html.index("model-rounds-table")
        )
    ]
    rows = table.split('<tr data-round="')[1:]
    assert len(rows) == 3
    assert '<td class="num" data-figure="fooled">2 (50.0%)</td>' in rows[0]
    assert '<td class="num" data-figure="validated">1 (25.0%)</td>' in rows[0]
    assert '<td class="num">1.25</td>' in rows[0]
    assert '<td class="num" data-figure="fooled">2 (66.7%)</td>' in rows[1]
    assert '<td class="num">60.0%</td>' in rows[1]
    assert '<td class="num" data-figure="fooled">0</td>' in rows[2]
    matrix = html[html.index("model-rounds-matrix") :]
    lines = matrix.split('<tr data-round="')[1:]
    assert 'data-model="2">F1 50.0 · fooled 66.7%' in lines[0]
    assert 'data-model="3">F1 50.0 · fooled 33.3%' in lines[0]
    assert (
        'data-model="1">F1 50.0 · fooled 33.3%<br><span class="hint">3 questions · while written'
        in lines[0]
    )
    assert 'data-model="3">F1 35.0 · fooled 50.0%' in lines[1]
    assert 'data-model="3">no question</td>' in lines[2]
    client.cookies["django_language"] = "fr"
    html = client.get("/manage/results/model-rounds/").content.decode()
    assert 'data-figure="fooled">2 (66,7\u202f%)' in html


def test_the_page_shows_a_later_rounds_job_while_it_waits(loop, client):
    client.cookies["django_language"] = "en"
    client.force_login(loop["boss"])
    html = client.get("/manage/results/model-rounds/").content.decode()
    matrix = html[html.index("model-rounds-matrix") :]
    assert 'data-model="2"><span class="badge badge-pending">Waiting for a worker</span>' in matrix


def test_the_api_gives_the_table_and_the_matrix_to_admins_only(loop):
    _run(loop["rounds"][1])
    api = APIClient()
    url = f"/api/v1/campaigns/{loop['campaign'].pk}/model-rounds/"
    api.force_authenticate(loop["writer"])
    assert api.get(url).status_code == 403
    api.force_authenticate(UserFactory(username="rev", roles=[Role.REVIEWER]))
    assert api.get(url).status_code == 403
    api.force_authenticate(None)
    assert api.get(url).status_code in (401, 403)
    api.force_authenticate(loop["boss"])
    with translation.override("en"):
        body = api.get(url, HTTP_ACCEPT_LANGUAGE="en").json()
    assert body["campaign"] == {"id": loop["campaign"].pk, "name": "Beat the <b>lexical</b>"}
    assert body["model_round"] == 3
    assert [r["number"] for r in body["rounds"]] == [1, 2, 3]
    second = body["rounds"][1]
    assert (second["fooled"], second["fooled_rate"], second["validated"]) == (2, 66.67, 1)
    assert second["job"] == {
        "status": "succeeded",
        "progress": 100,
        "message": "3 questions of the earlier rounds scored",
        "error": "",
    }
    assert second["results"]["rounds"]["1"]["fooled_rate"] == 66.67
    assert body["matrix"][0]["cells"][1] == {
        "model_round": 2,
        "own": False,
        "status": "succeeded",
        "questions": 3,
        "exact_match": 33.33,
        "f1": 50.0,
        "fooled": 2,
        "fooled_rate": 66.67,
    }
    assert body["matrix"][0]["cells"][2]["status"] == "pending"
    assert body["matrix"][0]["cells"][2]["f1"] is None
    assert body["matrix"][1]["cells"][0] is None
    assert api.get("/api/v1/campaigns/999999/model-rounds/").status_code == 404


def test_a_finetune_runs_round_is_scored_with_its_checkpoint(loop, tmp_path, models_folder):
    require_module("torch", "a round of a fine-tuned model runs a tiny transformer")
    require_module("transformers", "a round of a fine-tuned model runs a tiny transformer")
    from evaluation.baselines import qa  # noqa: PLC0415 (after the import checks)

    questions = list(
        Question.objects.filter(campaign=loop["campaign"])
        .exclude(status=Question.Status.REJECTED)
        .order_by("paragraph_id", "position")
    )
    texts = [GUTENBERG, RIQUET, *(q.text for q in loop["questions"])]
    model, tokenizer = qa.tiny_model_and_tokenizer(texts, vocab_size=300)
    train = [
        {
            "id": str(q.pk),
            "context": q.paragraph.text,
            "question": q.text,
            "answers": {
                "text": [q.answers.get(kind="original").text],
                "answer_start": [q.answers.get(kind="original").answer_start],
            },
        }
        for q in Question.objects.filter(pk__in=[q.pk for q in questions])
    ]
    config = qa.TrainConfig(max_steps=2, batch_size=4, eval_batch_size=8, device="cpu")
    qa.train(model, tokenizer, train, config)
    folder = qa.save_checkpoint(model, tokenizer, tmp_path / "tiny")
    run = BaselineRun.objects.create(
        release=loop["run"].release,
        kind=BaselineRun.Kind.FINETUNE,
        model="tiny",
        checkpoint=str(folder),
        hyperparameters={"max_steps": 2, "batch_size": 4, "eval_batch_size": 8},
        status=BaselineRun.Status.SUCCEEDED,
    )
    fourth = _round(loop["campaign"], 4, 40, kind=ModelKind.RUN, run=run, label="tiny")
    fourth = _run(fourth)
    assert fourth.status == ModelRound.Status.SUCCEEDED, fourth.error

    # The same checkpoint loaded here answers the same questions: the expected figures.
    loaded, loaded_tokenizer = qa.load_checkpoint(folder)
    expected = {}
    for number, group in ((1, questions[:3]), (2, questions[3:])):
        examples = [
            {"id": str(q.pk), "context": q.paragraph.text, "question": q.text} for q in group
        ]
        answers = qa.predict(loaded, loaded_tokenizer, examples, qa.TrainConfig(device="cpu"))
        scores = [
            answer_scores(answers[str(q.pk)], q.answers.get(kind="original").text, "fr")
            for q in group
        ]
        fooled = sum(f1 < 40 for _em, f1 in scores)
        expected[str(number)] = {
            "questions": len(group),
            "exact_match": round(sum(em for em, _f1 in scores) / len(group), 2),
            "f1": round(sum(f1 for _em, f1 in scores) / len(group), 2),
            "fooled": fooled,
            "fooled_rate": round(100 * fooled / len(group), 2),
        }
    assert [len(questions[:3]), len(questions[3:])] == [3, 4]
    assert fourth.results == {"rounds": {**expected, "3": _empty()}, "model": "tiny"}


def _empty() -> dict:
    return {"questions": 0, "exact_match": None, "f1": None, "fooled": 0, "fooled_rate": None}


def test_an_earlier_round_without_questions_is_listed_empty(loop):
    fourth = _run(_round(loop["campaign"], 4, 40))
    assert fourth.results["rounds"]["3"] == _empty()
    assert list(fourth.results["rounds"]) == ["1", "2", "3"]


def test_the_results_page_reads_as_many_queries_with_more_campaigns_and_rounds(loop, client):
    client.cookies["django_language"] = "en"
    client.force_login(loop["boss"])

    def grow():
        _run(loop["rounds"][1])
        other = campaign_create(name="Another loop", splits=["dev"], review_rate="0")
        for number in (1, 2):
            _round(other, number, 40)
        _round(loop["campaign"], 4, 50)

    before, after = queries_before_and_after(client, "/manage/results/model-rounds/", grow)
    assert before == after
    html = client.get("/manage/results/model-rounds/").content.decode()
    assert html.index("Another loop") < html.index("Beat the &lt;b&gt;lexical")
