"""Learning-curve runs (issue 17): a tiny model fine-tuned on nested fractions of a release's
train questions through a real gpu-queue worker, the resume after a killed worker, the bad
input by field, the command; the results page's panel, the campaign dashboard's estimate and
the targets an admin accepts."""

from __future__ import annotations

import hashlib
import json
from datetime import timedelta
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db.models import F
from rest_framework.test import APIClient

from annotation.models import Campaign, Lease
from annotation.services.campaigns import campaign_create
from annotation.services.work import lease_claim_next, questions_submit
from core.roles import Role
from corpus.readers import SourceArticle
from corpus.services.articles import article_store
from evaluation.models import BaselineRun
from evaluation.release_data import release_examples
from evaluation.services.curves.fit import nested_subsets
from evaluation.services.curves.learning_curves import learning_curve_execute, learning_curve_record
from exports.models import Release
from exports.services.releases import release_build, release_create
from tests.evaluation.test_baseline_runs import releases_folder  # noqa: F401 (autouse)
from tests.factories import UserFactory
from tests.services import wait_until

NAMES = ["Aubert", "Berthe", "Clovis", "Dagobert", "Ermengarde", "Fulbert"]
TOWNS = ["Amiens", "Blois", "Cahors", "Dole", "Évreux", "Foix"]
YEARS = ["1101", "1202", "1303", "1404", "1505", "1606"]
WORKS = ["une abbaye", "un pont", "une école", "un moulin", "un hospice", "un marché"]
RIVERS = ["la Somme", "la Loire", "le Lot", "le Doubs", "l'Iton", "l'Ariège"]
SPLITS = ["train", "train", "train", "train", "dev", "test"]


def article(i: int) -> tuple[str, str, str, list[tuple[str, str]]]:
    """Return (title, split, text, questions): five questions per train paragraph, three on
    dev and test; every answer is in the text once."""
    name, town, year, work, river = NAMES[i], TOWNS[i], YEARS[i], WORKS[i], RIVERS[i]
    text = (
        f"{name} naquit à {town} en {year}. Pour aider les pauvres, {name} fonda {work} "
        f"au bord de {river}, que l'on visite encore."
    )
    questions = [
        (f"Qui fonda {work} ?", name),
        (f"Où naquit {name} ?", town),
        (f"Quand {name} naquit-il ?", year),
        (f"Que fonda {name} ?", work),
        (f"Au bord de quelle rivière se trouve {work} ?", river),
    ]
    return name, SPLITS[i], text, questions[: 5 if SPLITS[i] == "train" else 3]


ARTICLES = [article(i) for i in range(len(NAMES))]


def make_release(**options) -> Release:
    """20 train questions, 3 dev and 3 test, written in one campaign ("Q")."""
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
        text = lease.paragraph.text
        questions_submit(
            lease=lease,
            questions=[
                {"text": q, "answer_start": text.index(a), "answer_text": a, "seconds_spent": 10}
                for q, a in by_title[lease.paragraph.article.title]
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


def tiny_checkpoint(folder: Path) -> Path:
    from evaluation.baselines.qa import save_checkpoint, tiny_model_and_tokenizer

    texts = [text for _title, _split, text, _questions in ARTICLES]
    texts += [q for *_rest, questions in ARTICLES for q, _a in questions]
    model, tokenizer = tiny_model_and_tokenizer(texts, vocab_size=300)
    return save_checkpoint(model, tokenizer, folder / "tiny")


def digest(ids) -> str:
    return hashlib.sha256("\n".join(sorted(ids)).encode()).hexdigest()


TINY = {"max_steps": 2, "batch_size": 2, "eval_batch_size": 8}


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_tiny_model_on_nested_fractions_through_a_gpu_queue_worker_gives_four_points_and_a_fit(
    redis_worker_factory,
    releases_folder,  # noqa: F811 (the imported fixture)
    models_folder,
):
    from evaluation.services.curves.learning_curves import learning_curve_start

    release = make_release(include_test_answers=False)
    tiny_checkpoint(models_folder)
    redis_worker_factory(VAR_DIR=str(releases_folder), MODELS_DIR=str(models_folder))
    run = learning_curve_start(release=release, model="tiny", hyperparameters=TINY)
    wait_until(
        lambda: BaselineRun.objects.get(pk=run.pk),
        lambda row: row.is_finished,
        interval=1,
    )
    run.refresh_from_db()
    assert run.status == BaselineRun.Status.SUCCEEDED, run.error + run.log
    curve = run.curve
    points = curve["points"]
    assert [(p["fraction"], p["questions"]) for p in points] == [
        (10, 2),
        (25, 5),
        (50, 10),
        (100, 20),
    ]
    # Nested: the ids of each point are the prefix of one seeded shuffle of the train ids.
    train_ids = [e["id"] for e in release_examples(release, "train")]
    subsets = nested_subsets(train_ids, [10, 25, 50, 100], 42)
    assert [p["ids_sha256"] for p in points] == [digest(s) for s in subsets]
    for small, large in zip(subsets, subsets[1:], strict=False):
        assert set(small) < set(large)
    assert set(subsets[-1]) == set(train_ids)
    assert all(len(p["per_question_f1"]) == 3 for p in points)
    assert all(0 <= p["f1"] <= 100 and 0 <= p["exact_match"] <= p["f1"] for p in points)
    assert all(p["steps"] == 2 for p in points)
    # The fit and its estimates at 1×, 2× and 4× the 20 train questions.
    assert curve["fit"]["status"] in ("ok", "flat")
    assert curve["fit"]["points"] == 4
    assert [(e["times"], e["n"]) for e in curve["estimates"]] == [(1, 20), (2, 40), (4, 80)]
    assert curve["n_today"] == curve["train_questions"] == 20
    assert curve["dev_questions"] == 3
    assert curve["campaigns"] == {str(Campaign.objects.get().pk): 20}
    assert run.metrics["dev"]["f1"] == points[-1]["f1"]
    assert run.metrics["dev"]["total"] == 3
    assert set(run.breakdown["dev"]) == {"question_type", "answer_type"}
    assert run.device == "cpu"
    assert run.log.count("point ") == 4


class Killed(BaseException):
    """A worker killed in the middle of a point (not an error the job could record)."""


@pytest.mark.django_db
def test_a_killed_run_resumes_without_training_its_finished_points_again(
    monkeypatch, models_folder
):
    from evaluation.baselines import qa

    release = make_release()
    tiny_checkpoint(models_folder)
    calls = []
    real_train = qa.train

    def train(model, tokenizer, examples, config, progress=None):
        calls.append(len(examples))
        if len(calls) == 3:
            raise Killed
        return real_train(model, tokenizer, examples, config, progress=progress)

    monkeypatch.setattr(qa, "train", train)
    run = learning_curve_record(release=release, model="tiny", hyperparameters=TINY)
    with pytest.raises(Killed):
        learning_curve_execute(run=run)
    run.refresh_from_db()
    assert run.status == BaselineRun.Status.RUNNING
    assert [p["questions"] for p in run.curve["points"]] == [2, 5]
    # The task is delivered again: the two finished points are kept, the others trained.
    learning_curve_execute(run=BaselineRun.objects.get(pk=run.pk))
    run.refresh_from_db()
    assert run.status == BaselineRun.Status.SUCCEEDED, run.error
    assert calls == [2, 5, 10, 10, 20]
    assert [p["questions"] for p in run.curve["points"]] == [2, 5, 10, 20]
    assert run.attempts == 2
    assert "resumed: 2 of 4 points already scored" in run.log
    # Once finished, a redelivered task does nothing.
    learning_curve_execute(run=BaselineRun.objects.get(pk=run.pk))
    assert len(calls) == 5


@pytest.mark.django_db
def test_run_baseline_draws_a_curve_with_the_fractions_and_seed_given(models_folder):
    release = make_release()
    tiny_checkpoint(models_folder)
    out = StringIO()
    call_command(
        "run_baseline",
        "--release",
        str(release.pk),
        "--kind",
        "learning_curve",
        "--model",
        "tiny",
        "--fractions",
        "25,50,100",
        "--seed",
        "7",
        "--max-steps",
        "1",
        "--json",
        stdout=out,
    )
    result = json.loads(out.getvalue())
    assert result["status"] == "succeeded", result["error"]
    curve = result["curve"]
    assert (curve["fractions"], curve["seed"]) == ([25, 50, 100], 7)
    assert [p["questions"] for p in curve["points"]] == [5, 10, 20]
    train_ids = [e["id"] for e in release_examples(release, "train")]
    expected = nested_subsets(train_ids, [25, 50, 100], 7)
    assert [p["ids_sha256"] for p in curve["points"]] == [digest(s) for s in expected]
    assert "per_question_f1" not in curve["points"][0]
    assert [e["n"] for e in curve["estimates"]] == [20, 40, 80]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({"fractions": [0, 50, 100]}, "fractions"),
        ({"fractions": [10, 150]}, "fractions"),
        ({"fractions": [-5, 100]}, "fractions"),
        ({"fractions": [50, 25, 100]}, "fractions"),
        ({"fractions": [10, 10, 100]}, "fractions"),
        ({"fractions": list(range(5, 101, 5))}, "fractions"),  # 20 points: at most 10
        ({"fractions": []}, "fractions"),
        ({"fractions": ["abc"]}, "fractions"),
        ({"fractions": {"10": 25}}, "fractions"),
        ({"fractions": "10,x"}, "fractions"),
        ({"kind": "curve"}, "kind"),
        ({"model": ""}, "model"),
        ({"train_releases": [1]}, "train_releases"),
        ({"hyperparameters": {"epochs": 0}}, "hyperparameters"),
    ],
)
def test_bad_input_is_refused_by_field_and_records_nothing(
    payload, field, django_capture_on_commit_callbacks, sent_tasks
):
    release = make_release()
    api = APIClient()
    api.force_authenticate(release.created_by)
    body = {"release": release.pk, "kind": "learning_curve", "model": "camembert"}
    with django_capture_on_commit_callbacks(execute=True):
        answer = api.post("/api/v1/baseline-runs/", body | payload, format="json")
    assert answer.status_code == 400, answer.content
    assert list(answer.json()["errors"]) == [field]
    assert BaselineRun.objects.count() == 0
    assert sent_tasks.calls == []


@pytest.mark.django_db
def test_a_release_without_train_questions_is_refused_naming_the_release(sent_tasks):
    release = make_release(splits=["dev", "test"])
    api = APIClient()
    api.force_authenticate(release.created_by)
    answer = api.post(
        "/api/v1/baseline-runs/",
        {"release": release.pk, "kind": "learning_curve", "model": "/m"},
        format="json",
    )
    assert (answer.status_code, list(answer.json()["errors"])) == (400, ["release"])
    assert BaselineRun.objects.count() == 0


@pytest.mark.django_db
def test_admins_start_a_curve_on_the_gpu_queue_and_others_cannot(
    django_capture_on_commit_callbacks, sent_tasks
):
    release = make_release()
    api = APIClient()
    body = {
        "release": release.pk,
        "kind": "learning_curve",
        "model": "camembert",
        "fractions": [20, 40, 100],
        "hyperparameters": {"seed": 5},
    }
    api.force_authenticate(UserFactory(username="rev", roles=[Role.REVIEWER]))
    assert api.post("/api/v1/baseline-runs/", body, format="json").status_code == 403
    api.force_authenticate(release.created_by)
    with django_capture_on_commit_callbacks(execute=True):
        made = api.post("/api/v1/baseline-runs/", body, format="json")
    assert made.status_code == 201, made.content
    assert made.json()["curve"] == {"fractions": [20, 40, 100], "seed": 5, "points": []}
    assert [(name, kw["queue"]) for name, kw in sent_tasks.calls] == [
        ("evaluation.tasks.gpu_baseline_task", "gpu")
    ]
    # The default fractions.
    body.pop("fractions")
    with django_capture_on_commit_callbacks(execute=True):
        again = api.post("/api/v1/baseline-runs/", body, format="json")
    assert again.json()["curve"]["fractions"] == [10, 25, 50, 100]


# ---------------------------------------------------------------------------------------------
# Pages: a finished curve with known figures (no training needed to show it)


def finished_curve(release: Release, campaign: Campaign, **changes) -> BaselineRun:
    points = [
        {
            "fraction": fraction,
            "questions": n,
            "f1": 85 - 300 * n**-0.5,
            "exact_match": 70 - 300 * n**-0.5,
            "seconds": 12.5,
            "per_question_f1": [50.0, 100.0, 0.0],
            "question_type": {
                "why": {"f1": 40.0, "share": 25.0},
                "who": {"f1": 90.0, "share": 75.0},
            },
            "answer_type": {"date": {"f1": 80.0, "share": 100.0}},
        }
        for fraction, n in ((10, 100), (25, 250), (50, 500), (100, 1000))
    ]
    curve = {
        "fractions": [10, 25, 50, 100],
        "seed": 42,
        "points": points,
        "n_today": 1000,
        "train_questions": 1000,
        "fit": {"status": "ok", "a": 85.0, "b": 300.0, "c": 0.5, "rmse": 0.0, "points": 4},
        "estimates": [
            {"times": 1, "n": 1000, "f1": 75.51, "low": 74.0, "high": 77.0, "gain": 0.0},
            {"times": 2, "n": 2000, "f1": 78.29, "low": 75.04, "high": 80.12, "gain": 2.78}
            | {"gain_low": 1.5, "gain_high": 3.9},
            {"times": 4, "n": 4000, "f1": 80.26, "low": 76.5, "high": 82.91, "gain": 4.75}
            | {"gain_low": 2.6, "gain_high": 6.7},
        ],
        "helps": True,
        "overall_f1": 75.51,
        "types": {
            "question_type": {
                "why": {
                    "f1": 40.0,
                    "gain": 6.0,
                    "slope_per_1000": 4.0,
                    "verdict": "gains",
                    "share": 25.0,
                },
                "who": {
                    "f1": 90.0,
                    "gain": 0.2,
                    "slope_per_1000": 0.1,
                    "verdict": "above",
                    "share": 75.0,
                },
            },
            "answer_type": {"date": {"f1": 80.0, "gain": 0.0, "verdict": "above"}},
        },
        "proposal": {"who": 50, "why": 50},
        "campaigns": {str(campaign.pk): 20},
    }
    curve |= changes
    return BaselineRun.objects.create(
        release=release,
        kind=BaselineRun.Kind.LEARNING_CURVE,
        model="camembert-base",
        status=BaselineRun.Status.SUCCEEDED,
        metrics={
            "dev": {"f1": points[-1]["f1"], "exact_match": points[-1]["exact_match"], "total": 3}
        },
        curve=curve,
    )


@pytest.mark.django_db
def test_the_results_page_plots_a_finished_curve_with_its_estimate(client):
    release = make_release()
    run = finished_curve(release, Campaign.objects.get())
    client.force_login(release.created_by)
    client.cookies["django_language"] = "en"
    page = client.get(f"/manage/results/experiments/?release={release.pk}")
    # A curve is many models: the cross-dataset matrix (one model a row) leaves it out.
    assert page.context["matrix"]["rows"] == []
    html = client.get(f"/manage/results/curves/?release={release.pk}").content.decode()
    assert f'id="learning-curve-chart-{run.pk}"' in html
    assert f'<title id="learning-curve-chart-{run.pk}-title">' in html
    assert (
        "At 2× (2,000 questions): F1 ≈ 78.3 (90%: 75.0–80.1); "
        "at 4× (4,000 questions): F1 ≈ 80.3 (90%: 76.5–82.9)."
    ) in html
    assert html.count('class="estimate-row"') == 2
    assert f'id="learning-curve-types-{run.pk}"' in html
    assert "gains from more data" in html and "above the overall F1 (75.5)" in html
    assert "why (pourquoi) 50%" in html
    assert f'id="learning-curve-noise-{run.pk}"' not in html


@pytest.mark.django_db
def test_the_dashboard_loads_the_estimate_beside_the_annotation_cost(client):
    release = make_release()
    campaign = Campaign.objects.get()
    # 6 paragraphs of 13 minutes for 26 questions: 180 s a question (the hours report's time).
    Lease.objects.filter(campaign=campaign).update(
        created_at=F("finished_at") - timedelta(minutes=13)
    )
    client.force_login(release.created_by)
    client.cookies["django_language"] = "en"
    url = f"/manage/campaigns/{campaign.pk}/learning-estimate/"
    dashboard = client.get(f"/manage/campaigns/{campaign.pk}/dashboard/").content.decode()
    assert f'hx-get="{url}"' in dashboard and 'hx-trigger="load"' in dashboard
    none = client.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert 'id="learning-estimate-none"' in none
    assert "<html" not in none
    finished_curve(release, campaign)
    part = client.get(url, HTTP_HX_REQUEST="true").content.decode()
    # 1,000 more questions at 180 s: 50 hours, for 78.29 − 75.51 F1.
    assert "About 50.0 more hours for +2.8 F1." in part
    assert "1,000 more questions at 180 s each" in part
    assert (
        "At 2× (2,000 questions): F1 ≈ 78.3 (90%: 75.0–80.1); "
        "at 4× (4,000 questions): F1 ≈ 80.3 (90%: 76.5–82.9)."
    ) in part
    assert 'name="target_why" inputmode="numeric" value="50"' in part
    assert 'name="target_who" inputmode="numeric" value="50"' in part
    # Under two hours (issue 25, left over: "hours" whatever the number): 23.4 s a paragraph
    # is 5.4 s a question, 1.5 hours. French says "1,5 heure", English "1.5 hours".
    Lease.objects.filter(campaign=campaign).update(
        created_at=F("finished_at") - timedelta(seconds=23.4)
    )
    part = client.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert "<strong>About 1.5 more hours for +2.8 F1.</strong>" in part
    client.cookies["django_language"] = "fr"
    part = client.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert "<strong>Environ 1,5 heure de plus pour +2,8 de F1.</strong>" in part
    client.cookies["django_language"] = "en"
    # Another campaign is not covered by the curve.
    other = campaign_create(name="Other")
    assert (
        'id="learning-estimate-none"'
        in client.get(f"/manage/campaigns/{other.pk}/learning-estimate/").content.decode()
    )


@pytest.mark.django_db
def test_the_targets_form_saves_exactly_what_was_posted_and_refuses_bad_values(client):
    release = make_release()
    campaign = Campaign.objects.get()
    finished_curve(release, campaign)
    url = f"/manage/campaigns/{campaign.pk}/learning-estimate/targets/"
    client.force_login(UserFactory(username="rev", roles=[Role.REVIEWER]))
    assert client.post(url, {"target_why": "50"}).status_code == 403
    assert client.get(url.replace("targets/", "")).status_code == 403
    assert client.get(url).status_code == 403  # the role is checked before the method
    client.force_login(release.created_by)
    saved = client.post(url, {"target_why": "57", "target_who": "40", "target_how": ""})
    assert (saved.status_code, saved["Location"]) == (
        302,
        f"/manage/campaigns/{campaign.pk}/dashboard/",
    )
    campaign.refresh_from_db()
    assert campaign.question_type_targets == {"why": 57, "who": 40}
    for bad in (
        {"target_why": "120"},
        {"target_why": "x"},
        {"target_why": "60", "target_who": "50"},
    ):
        answer = client.post(url, bad)
        assert answer.status_code == 400
        assert 'data-field="question_type_targets"' in answer.content.decode()
    campaign.refresh_from_db()
    assert campaign.question_type_targets == {"why": 57, "who": 40}


@pytest.mark.django_db
def test_the_estimate_and_the_targets_through_the_api():
    release = make_release()
    campaign = Campaign.objects.get()
    run = finished_curve(release, campaign)
    api = APIClient()
    url = f"/api/v1/campaigns/{campaign.pk}/learning-estimate/"
    api.force_authenticate(UserFactory(username="ann", roles=[Role.ANNOTATOR]))
    assert api.get(url).status_code == 403
    api.force_authenticate(release.created_by)
    body = api.get(url).json()["estimate"]
    assert (body["run"], body["n_today"], body["gain"], body["proposal"]) == (
        run.pk,
        1000,
        2.78,
        {"who": 50, "why": 50},
    )
    assert body["seconds_per_question"] == pytest.approx(body["hours"] * 3600 / 1000)
    assert api.get("/api/v1/campaigns/999999/learning-estimate/").status_code == 404
    # The run's curve through the baseline-runs API, without each dev question's F1.
    shown = api.get(f"/api/v1/baseline-runs/{run.pk}/").json()["curve"]
    assert [p["questions"] for p in shown["points"]] == [100, 250, 500, 1000]
    assert all("per_question_f1" not in p for p in shown["points"])
    assert shown["proposal"] == {"who": 50, "why": 50}
    saved = api.post(url + "targets/", {"question_type_targets": {"why": 30}}, format="json")
    assert (saved.status_code, saved.json()) == (200, {"question_type_targets": {"why": 30}})
    bad = api.post(url + "targets/", {"question_type_targets": {"pourquoi": 30}}, format="json")
    assert (bad.status_code, list(bad.json()["errors"])) == (400, ["question_type_targets"])
    campaign.refresh_from_db()
    assert campaign.question_type_targets == {"why": 30}


@pytest.mark.django_db
def test_a_gain_within_its_noise_says_more_data_would_not_help_and_proposes_nothing(client):
    """Issue 25 item 12: a flat tiny-model curve said "About 52.1 more hours for +0.0 F1"."""
    release = make_release()
    campaign = Campaign.objects.get()
    flat = {"times": 2, "n": 2000, "f1": 5.54, "low": 4.13, "high": 6.79, "gain": 0.05}
    run = finished_curve(
        release,
        campaign,
        helps=False,
        overall_f1=5.49,
        proposal={},
        estimates=[
            {"times": 1, "n": 1000, "f1": 5.49, "low": 4.1, "high": 6.72, "gain": 0.0},
            flat | {"gain_low": 0.0, "gain_high": 0.11},
            {"times": 4, "n": 4000, "f1": 5.6, "low": 4.19, "high": 6.84, "gain": 0.11}
            | {"gain_low": 0.0, "gain_high": 0.22},
        ],
        types={
            "question_type": {
                "how_many": {"f1": 14.0, "gain": 0.4, "verdict": "above", "share": 6.8},
                "what": {"f1": 3.0, "gain": 0.0, "verdict": "below", "share": 93.2},
            },
            "answer_type": {},
        },
    )
    client.force_login(release.created_by)
    client.cookies["django_language"] = "en"
    part = client.get(
        f"/manage/campaigns/{campaign.pk}/learning-estimate/", HTTP_HX_REQUEST="true"
    ).content.decode()
    assert (
        "<strong>More data of this kind would not help.</strong> Doubling the 1,000 training "
        f"questions (learning curve #{run.pk}) is estimated at +0.1 F1, within the noise of "
        "the dev questions (90%: +0.0 to +0.1)."
    ) in part
    assert "more hours" not in part
    assert 'id="learning-targets-none"' in part
    assert 'name="target_how_many" inputmode="numeric" value=""' in part
    assert "above the overall F1 (5.5)" in part and "below the overall F1 (5.5)" in part
    html = client.get(f"/manage/results/curves/?release={release.pk}").content.decode()
    assert (
        f'<p class="learning-curve-noise" id="learning-curve-noise-{run.pk}"><strong>More data '
        "of this kind would not help.</strong> The F1 gained at 2× (+0.1) is within the noise "
        "of the dev questions (90%: +0.0 to +0.1): no question-type targets are proposed.</p>"
    ) in html
    assert f'id="learning-curve-proposal-{run.pk}"' not in html


@pytest.mark.django_db
def test_a_flat_curve_or_one_with_too_few_points_says_so(client):
    release = make_release()
    campaign = Campaign.objects.get()
    flat = {"status": "flat", "a": 60.0, "b": 0.0, "c": None, "rmse": 0.5, "points": 4}
    run = finished_curve(release, campaign, fit=flat, proposal={})
    client.force_login(release.created_by)
    client.cookies["django_language"] = "en"
    page = client.get(f"/manage/results/experiments/?release={release.pk}")
    # A curve is many models: the cross-dataset matrix (one model a row) leaves it out.
    assert page.context["matrix"]["rows"] == []
    html = client.get(f"/manage/results/curves/?release={release.pk}").content.decode()
    assert f'id="learning-curve-chart-{run.pk}"' in html
    assert "The curve is flat: training on more of these questions did not raise dev F1" in html
    assert (
        "extended to 4×"
        not in html.split(f'id="learning-curve-chart-{run.pk}"')[1].split("</figure>")[0]
    )
    run.curve = run.curve | {
        "fit": {"status": "too_few_points", "points": 2},
        "points": run.curve["points"][:2],
        "estimates": [
            {"times": t, "n": 1000 * t, "f1": None, "low": None, "high": None, "gain": None}
            for t in (1, 2, 4)
        ],
    }
    run.save()
    html = client.get(f"/manage/results/curves/?release={release.pk}").content.decode()
    assert "Too few points to fit a curve (three are needed)." in html
    assert html.count('class="estimate-row"') == 0
    part = client.get(
        f"/manage/campaigns/{campaign.pk}/learning-estimate/", HTTP_HX_REQUEST="true"
    ).content.decode()
    assert f"The learning curve of run #{run.pk} has too few points to estimate" in part


@pytest.mark.django_db
def test_the_results_page_form_starts_a_curve_with_its_fractions(
    client, django_capture_on_commit_callbacks, sent_tasks
):
    release = make_release()
    client.force_login(release.created_by)
    client.cookies["django_language"] = "en"
    url = f"/manage/results/baseline/?release={release.pk}"
    form = {"kind": "learning_curve", "model": "camembert", "max_steps": "50"}
    refused = client.post(url, form | {"fractions": "0, 50"}, follow=True)
    assert "Each fraction is a percentage above 0 and at most 100." in refused.content.decode()
    assert BaselineRun.objects.count() == 0
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url, form | {"fractions": "20, 50, 100"})
    run = BaselineRun.objects.get()
    assert (run.kind, run.hyperparameters, run.curve) == (
        "learning_curve",
        {"max_steps": 50},
        {"fractions": [20, 50, 100], "seed": 42, "points": []},
    )
    assert [(name, kw["queue"]) for name, kw in sent_tasks.calls] == [
        ("evaluation.tasks.gpu_baseline_task", "gpu")
    ]


# ---------------------------------------------------------------------------------------------
# Fractions given to a kind that draws no curve: refused naming the field, never ignored

ONLY_A_CURVE = {
    "en": "Only a learning curve takes percentages of the train questions: leave that field "
    "empty for this kind.",
    "fr": "Seule une courbe d’apprentissage prend des pourcentages des questions "
    "d’entraînement\u00a0: laissez ce champ vide pour ce type.",
}


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("fractions", ["0, 50", "20, 50, 100"])
def test_the_results_page_refuses_fractions_for_another_kind(
    client, sent_tasks, language, fractions
):
    release = make_release()
    client.force_login(release.created_by)
    client.cookies["django_language"] = language
    url = f"/manage/results/baseline/?release={release.pk}"
    refused = client.post(
        url, {"kind": "lexical", "fractions": fractions}, HTTP_ACCEPT_LANGUAGE=language
    )
    assert refused.status_code == 400
    html = refused.content.decode()
    error = html.split('<p class="field-error" role="alert" data-field="fractions">', 1)[1]
    assert error.split("</p>", 1)[0] == ONLY_A_CURVE[language]
    assert html.count('class="field-error"') == 1
    assert (
        f'name="fractions" placeholder="10, 25, 50, 100" maxlength="100" value="{fractions}"'
        ' aria-invalid="true">' in html
    )
    assert BaselineRun.objects.count() == 0
    assert sent_tasks.calls == []


@pytest.mark.django_db
def test_the_results_page_starts_a_lexical_run_with_the_fractions_left_empty(
    client, django_capture_on_commit_callbacks, sent_tasks
):
    release = make_release()
    client.force_login(release.created_by)
    url = f"/manage/results/baseline/?release={release.pk}"
    with django_capture_on_commit_callbacks(execute=True):
        started = client.post(url, {"kind": "lexical", "fractions": "  "})
    assert started.status_code == 302
    assert BaselineRun.objects.get().kind == "lexical"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("kind", "fractions"),
    [("lexical", [0, 50]), ("lexical", [20, 50, 100]), ("finetune", "10,25"), ("http", [])],
)
def test_the_api_refuses_fractions_for_another_kind(sent_tasks, kind, fractions):
    release = make_release()
    api = APIClient()
    api.force_authenticate(release.created_by)
    body = {"release": release.pk, "kind": kind, "model": "camembert", "fractions": fractions}
    answer = api.post("/api/v1/baseline-runs/", body, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 400, answer.content
    assert answer.json()["errors"] == {"fractions": [ONLY_A_CURVE["en"]]}
    assert BaselineRun.objects.count() == 0
    assert sent_tasks.calls == []


@pytest.mark.django_db
def test_run_baseline_refuses_fractions_for_another_kind():
    release = make_release()
    with pytest.raises(CommandError) as error:
        call_command(
            "run_baseline", "--release", str(release.pk), "--kind", "lexical", "--fractions", "50"
        )
    assert str(error.value) == f"fractions: {ONLY_A_CURVE['fr']}"
    assert BaselineRun.objects.count() == 0
