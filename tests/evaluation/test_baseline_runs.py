"""Baseline runs: the lexical floor, a model served over HTTP, a tiny transformer fine-tuned
through a real worker on the gpu queue (on the CPU), the API, the pages and the bad input."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from annotation.services.campaigns import campaign_create
from annotation.services.work import lease_claim_next, questions_submit
from core.errors import ServiceError
from core.roles import Role
from corpus.readers import SourceArticle
from corpus.services.articles import article_store
from evaluation.models import BaselineRun, DatasetAnalysis
from evaluation.services.analysis.dataset_analysis import analysis_execute, analysis_start
from evaluation.services.baselines.execute import baseline_run_execute
from evaluation.services.baselines.runs import baseline_run_record
from exports.models import Release
from exports.services.releases import release_build, release_create
from tests.factories import UserFactory
from tests.services import wait_until

pytestmark = pytest.mark.usefixtures("loopback_allowed")

# Each context starts with its answer's first word, so a server answering "the first word of
# the context" is right on one question in two (the other asks about something later).
ARTICLES = [
    (
        "Gutenberg",
        "train",
        "Gutenberg mit au point à Mayence, vers 1450, une presse à caractères "
        "mobiles qui permit d'imprimer la Bible à environ 180 exemplaires.",
        [
            ("Qui mit au point la presse ?", "Gutenberg"),
            ("Où Gutenberg mit-il au point la presse ?", "Mayence"),
            ("Combien de Bibles furent imprimées ?", "180"),
        ],
    ),
    (
        "Riquet",
        "dev",
        "Riquet dirigea les travaux du canal du Midi à partir de 1666 ; le canal "
        "relie Toulouse à la mer Méditerranée et fut inauguré en 1681.",
        [
            ("Qui dirigea les travaux du canal ?", "Riquet"),
            ("Quelle ville le canal relie-t-il à la mer ?", "Toulouse"),
            ("En quelle année le canal fut-il inauguré ?", "1681"),
        ],
    ),
    (
        "Balmat",
        "test",
        "Balmat et Paccard atteignirent le sommet du mont Blanc le 8 août 1786, "
        "à 4 805 mètres d'altitude, après une longue ascension depuis Chamonix.",
        [
            ("Qui atteignit le sommet avec Paccard ?", "Balmat"),
            ("D'où partit l'ascension ?", "Chamonix"),
            ("Quand le sommet fut-il atteint ?", "8 août 1786"),
        ],
    ),
]


@pytest.fixture(autouse=True)
def releases_folder(settings, tmp_path) -> Path:
    folder = tmp_path / "var"
    settings.VAR_DIR = folder
    settings.STORAGES = {
        **settings.STORAGES,
        "releases": {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"location": str(folder / "releases")},
        },
    }
    return folder


def make_release(**options) -> Release:
    writer = UserFactory(username="writer", roles=[Role.ANNOTATOR])
    for title, split, text, _questions in ARTICLES:
        article_store(
            language="fr",
            source=SourceArticle(title=title, source_title=title),
            paragraphs=[text],
            wave="1.0",
            split=split,
            kind="file",
        )
    campaign = campaign_create(name="Q", splits=["train", "dev", "test"], review_rate="0")
    by_title = {title: questions for title, _s, _t, questions in ARTICLES}
    for _ in ARTICLES:
        lease = lease_claim_next(campaign=campaign, annotator=writer).lease
        questions = by_title[lease.paragraph.article.title]
        text = lease.paragraph.text
        questions_submit(
            lease=lease,
            questions=[
                {"text": q, "answer_start": text.index(a), "answer_text": a, "seconds_spent": 10}
                for q, a in questions
            ],
        )
    boss = UserFactory(username="boss", roles=[Role.ADMIN])
    release = release_create(
        created_by=boss, name="r1", version="1", formats=["squad", "hf"], **options
    )
    release_build(release=release)
    release.refresh_from_db()
    assert release.status == Release.Status.SUCCEEDED, release.error
    return release


class FirstWord(BaseHTTPRequestHandler):
    """An MRQA predict server answering every question with the context's first word."""

    def do_POST(self):  # noqa: N802 (http.server's name)
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        first = body["context"].split()[0]
        answer = json.dumps({qa["qid"]: first for qa in body["qas"]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, *args):
        pass


@pytest.fixture
def first_word_server():
    server = ThreadingHTTPServer(("127.0.0.1", 0), FirstWord)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()


def run_here(release, kind, model="", **hyperparameters) -> BaselineRun:
    run = baseline_run_record(
        release=release, kind=kind, model=model, hyperparameters=hyperparameters
    )
    baseline_run_execute(run=run)
    run.refresh_from_db()
    return run


@pytest.mark.django_db
def test_a_model_served_over_http_is_scored_on_dev_and_test_with_its_breakdown(first_word_server):
    release = make_release(include_test_answers=False)
    run = run_here(release, "http", first_word_server)
    assert run.status == BaselineRun.Status.SUCCEEDED, run.error
    # One question in three per split is answered by the context's first word.
    for split in ("dev", "test"):
        figures = run.metrics[split]
        assert (figures["total"], figures["missing"]) == (3, 0)
        assert figures["exact_match"] == pytest.approx(100 / 3)
        assert figures["f1"] == pytest.approx(100 / 3)
    assert (run.normalization, run.normalization_version, run.device) == ("fquad-fr", "1", "remote")
    # Dev: Riquet (who, person), Toulouse (which, place), 1681 ("en quelle année": when, date).
    by_question = run.breakdown["dev"]["question_type"]
    assert {k: (v["total"], v["exact_match"]) for k, v in by_question.items()} == {
        "who": (1, 100.0),
        "which": (1, 0.0),
        "when": (1, 0.0),
    }
    by_answer = run.breakdown["dev"]["answer_type"]
    assert by_answer["person"]["exact_match"] == 100.0
    assert by_answer["date"]["exact_match"] == 0.0
    assert "dev: EM 33.33, F1 33.33" in run.log


@pytest.mark.django_db
def test_the_lexical_floor_runs_in_seconds_and_scores_every_question():
    release = make_release(include_test_answers=True)
    run = run_here(release, "lexical")
    assert run.status == BaselineRun.Status.SUCCEEDED, run.error
    assert {split: run.metrics[split]["total"] for split in run.metrics} == {"dev": 3, "test": 3}
    assert set(run.breakdown["test"]) == {"question_type", "answer_type"}
    assert run.device == "cpu"
    assert run.message.startswith("dev: F1 ")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("arguments", "field"),
    [
        ({"kind": "magic"}, "kind"),
        ({"kind": "http", "model": "ftp://example.org/"}, "model"),
        ({"kind": "finetune", "model": ""}, "model"),
        ({"kind": "finetune", "model": "x", "hyperparameters": {"epochs": 0}}, "hyperparameters"),
        ({"kind": "finetune", "model": "x", "hyperparameters": {"lr": 1}}, "hyperparameters"),
        ({"kind": "finetune", "model": "x", "hyperparameters": {"epochs": 1.5}}, "hyperparameters"),
        (
            {"kind": "finetune", "model": "x", "hyperparameters": {"epochs": 10**400}},
            "hyperparameters",
        ),
        ({"kind": "finetune", "model": "dossier\x00"}, "model"),
        ({"kind": "http", "model": "http://user:token@10.0.0.5:8000/"}, "model"),
    ],
)
def test_bad_settings_are_refused_by_field_and_record_nothing(arguments, field):
    release = make_release()
    with pytest.raises(ServiceError) as error:
        baseline_run_record(release=release, **arguments)
    assert list(error.value.errors) == [field]
    assert BaselineRun.objects.count() == 0


@pytest.mark.django_db
def test_an_unknown_kind_is_refused_naming_every_kind_there_is():
    with pytest.raises(ServiceError) as error:
        baseline_run_record(release=make_release(), kind="magic")
    assert error.value.errors == {  # the site's default language, French
        "kind": ["Choisissez l’un de\xa0: lexical, finetune, evaluate, http, learning_curve."]
    }


@pytest.mark.django_db
def test_an_unfinished_release_or_one_without_train_cannot_be_fine_tuned():
    release = make_release()
    Release.objects.filter(pk=release.pk).update(status=Release.Status.RUNNING)
    release.refresh_from_db()
    with pytest.raises(ServiceError) as error:
        baseline_run_record(release=release, kind="lexical")
    assert (list(error.value.errors), error.value.status) == (["release"], 409)
    Release.objects.filter(pk=release.pk).update(
        status=Release.Status.SUCCEEDED, options={**release.options, "splits": ["dev", "test"]}
    )
    release.refresh_from_db()
    with pytest.raises(ServiceError) as error:
        baseline_run_record(release=release, kind="finetune", model="x")
    assert list(error.value.errors) == ["release"]
    assert BaselineRun.objects.count() == 0


@pytest.mark.django_db
def test_the_api_is_for_admins_and_sends_transformers_to_the_gpu_queue(
    django_capture_on_commit_callbacks, sent_tasks
):
    release = make_release()
    api = APIClient()
    api.force_authenticate(UserFactory(username="ann", roles=[Role.ANNOTATOR]))
    assert (
        api.post(
            "/api/v1/baseline-runs/", {"release": release.pk, "kind": "lexical"}, format="json"
        ).status_code
        == 403
    )
    api.force_authenticate(release.created_by)
    with django_capture_on_commit_callbacks(execute=True):
        made = api.post(
            "/api/v1/baseline-runs/",
            {
                "release": release.pk,
                "kind": "finetune",
                "model": "camembert",
                "hyperparameters": {"epochs": 2},
            },
            format="json",
        )
    assert made.status_code == 201
    body = made.json()
    assert (body["kind"], body["model"], body["hyperparameters"], body["status"]) == (
        "finetune",
        "camembert",
        {"epochs": 2},
        "pending",
    )
    assert [(name, kw["queue"]) for name, kw in sent_tasks.calls] == [
        ("evaluation.tasks.gpu_baseline_task", "gpu")
    ]
    bad = api.post(
        "/api/v1/baseline-runs/",
        {"release": release.pk, "kind": "http", "model": "file:///etc/passwd"},
        format="json",
    )
    assert (bad.status_code, list(bad.json()["errors"])) == (400, ["model"])
    assert BaselineRun.objects.count() == 1


@pytest.mark.django_db
def test_the_results_page_shows_runs_beside_humans(client, first_word_server):
    release = make_release(include_test_answers=True)
    run_here(release, "http", first_word_server)
    client.force_login(release.created_by)
    page = client.get(f"/manage/results/scores/?release={release.pk}")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="results-table"' in html and 'class="human-row"' in html
    assert "33,3 / 33,3" in html  # French number format
    types = client.get(f"/manage/results/types/?release={release.pk}").content.decode()
    assert 'id="answer-type-table"' in types
    client.force_login(UserFactory(username="rev", roles=[Role.REVIEWER]))
    assert client.get("/manage/results/").status_code == 403


@pytest.mark.django_db
def test_the_analysis_job_computes_types_lengths_and_overlap(client):
    make_release()
    analysis = analysis_start()
    analysis_execute(analysis=analysis)
    analysis.refresh_from_db()
    assert analysis.status == DatasetAnalysis.Status.SUCCEEDED, analysis.error
    dev = analysis.results["splits"]["dev"]
    assert dev["questions"] == 3
    assert dev["question_types"]["who"] == pytest.approx(100 / 3)
    assert sum(dev["answer_types"].values()) == pytest.approx(100.0)
    assert dev["answer_length"]["mean"] == pytest.approx(1.0)  # Riquet, Toulouse, 1681
    assert 0 < dev["overlap"]["mean"] < 100
    client.force_login(UserFactory(username="adm", roles=[Role.ADMIN]))
    html = client.get("/manage/analysis/").content.decode()
    assert 'id="analysis-answer-types"' in html and 'id="analysis-overlap"' in html


@pytest.mark.django_db
def test_run_baseline_runs_here_and_prints_json(first_word_server):
    release = make_release()
    out = StringIO()
    call_command(
        "run_baseline",
        "--release",
        str(release.pk),
        "--kind",
        "http",
        "--model",
        first_word_server,
        "--json",
        stdout=out,
    )
    result = json.loads(out.getvalue())
    assert result["status"] == "succeeded"
    assert result["metrics"]["dev"]["exact_match"] == pytest.approx(100 / 3)
    assert result["normalization"] == {"name": "fquad-fr", "version": "1"}


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_tiny_transformer_is_fine_tuned_through_a_real_gpu_queue_worker(
    redis_worker_factory, releases_folder, settings
):
    from evaluation.baselines.qa import save_checkpoint, tiny_model_and_tokenizer

    release = make_release(include_test_answers=False)
    texts = [text for _title, _split, text, _questions in ARTICLES]
    texts += [q for *_rest, questions in ARTICLES for q, _a in questions]
    model, tokenizer = tiny_model_and_tokenizer(texts, vocab_size=300)
    # The models folder is where fine-tuned checkpoints are written (VAR_DIR/models).
    settings.MODELS_DIR = releases_folder / "models"
    save_checkpoint(model, tokenizer, settings.MODELS_DIR / "tiny")
    redis_worker_factory(VAR_DIR=str(releases_folder), MODELS_DIR=str(settings.MODELS_DIR))
    from evaluation.services.baselines.runs import baseline_run_start

    run = baseline_run_start(
        release=release,
        kind="finetune",
        model="tiny",
        hyperparameters={"max_steps": 3, "batch_size": 2, "eval_batch_size": 4},
    )
    wait_until(
        lambda: BaselineRun.objects.get(pk=run.pk),
        lambda row: row.is_finished,
        interval=1,
    )
    run.refresh_from_db()
    assert run.status == BaselineRun.Status.SUCCEEDED, run.error + run.log
    assert {split: run.metrics[split]["total"] for split in run.metrics} == {"dev": 3, "test": 3}
    assert all(0 <= run.metrics[s]["f1"] <= 100 for s in run.metrics)
    assert "step 3/3" in run.log
    assert run.device == "cpu"
    checkpoint = Path(run.checkpoint)
    assert checkpoint == releases_folder / "models" / f"baseline-{run.pk}"
    assert (checkpoint / "model.safetensors").exists()
    assert not list(checkpoint.glob("*.bin"))
    # The trained checkpoint can be evaluated as it is (the paper's evaluate-only runs).
    again = run_here(release, "evaluate", f"baseline-{run.pk}", eval_batch_size=4)
    assert again.status == BaselineRun.Status.SUCCEEDED, again.error
    assert again.metrics == run.metrics


@pytest.mark.django_db
def test_an_http_model_is_named_by_its_host_only(first_word_server):
    release = make_release()
    run = baseline_run_record(release=release, kind="http", model=first_word_server + "p?k=1")
    assert run.model_name == "127.0.0.1"
    folder = baseline_run_record(release=release, kind="evaluate", model="camembert")
    assert folder.model_name == "camembert"


@pytest.mark.django_db
def test_a_split_with_nothing_to_score_is_refused_or_skipped():
    release = make_release(approved_only=True)  # nothing reviewed: every split is empty
    from evaluation.services.leaderboard.submissions import submission_create

    with pytest.raises(ServiceError) as error:
        submission_create(
            user=release.created_by, release=release, split="dev", label="x", predictions={}
        )
    assert (list(error.value.errors), error.value.status) == (["split"], 409)
    run = run_here(release, "lexical")
    assert (run.status, run.metrics) == (BaselineRun.Status.SUCCEEDED, {})
    assert "dev: no question to score" in run.log


@pytest.mark.django_db
def test_admins_start_an_analysis_by_the_api_and_others_cannot(
    django_capture_on_commit_callbacks, sent_tasks
):
    api = APIClient()
    api.force_authenticate(UserFactory(username="rev", roles=[Role.REVIEWER]))
    assert api.post("/api/v1/analyses/").status_code == 403
    api.force_authenticate(UserFactory(username="adm", roles=[Role.ADMIN]))
    with django_capture_on_commit_callbacks(execute=True):
        made = api.post("/api/v1/analyses/")
    assert (made.status_code, made.json()["status"]) == (201, "pending")
    assert [(name, kw["queue"]) for name, kw in sent_tasks.calls] == [
        ("evaluation.tasks.analysis_task", "default")
    ]
    assert DatasetAnalysis.objects.count() == 1
    assert api.get(f"/api/v1/analyses/{made.json()['id']}/").json()["results"] == {}
