"""Scoring on release (issue 17, item 1), on the exports side: a release names the baselines to
run once built, by the service, the API, the release form and `export_release`; every bad
input is a 400 (or a command error) naming the field, and records no release."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.utils import translation
from rest_framework.test import APIClient

from core.errors import ServiceError
from core.roles import Role
from exports.models import Release
from exports.services.releases import release_create
from tests.factories import UserFactory

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("loopback_allowed")]

API = "/api/v1/releases/"
PAGES = "/manage/releases/"
FINETUNE = {"kind": "finetune", "model": "camembert-base", "hyperparameters": {"epochs": 2}}


@pytest.fixture
def boss(db):
    return UserFactory(username="boss", roles=[Role.ADMIN])


@pytest.fixture
def api(boss):
    client = APIClient()
    client.force_authenticate(boss)
    return client


BAD = [
    pytest.param("lexical", {}, ["score_with"], id="not-a-list"),
    pytest.param(["lexical"], {}, ["score_with[0]"], id="entry-not-an-object"),
    pytest.param([{"kind": "magic"}], {}, ["score_with[0].kind"], id="unknown-kind"),
    pytest.param([{"kind": 3}], {}, ["score_with[0].kind"], id="kind-not-text"),
    pytest.param([{"model": "x"}], {}, ["score_with[0].kind"], id="no-kind"),
    pytest.param([{"kind": "evaluate", "model": "x"}], {}, ["score_with[0].kind"], id="evaluate"),
    pytest.param(
        [{"kind": "lexical"}, {"kind": "finetune"}], {}, ["score_with[1].model"], id="no-model"
    ),
    pytest.param(
        [{"kind": "finetune", "model": "  "}], {}, ["score_with[0].model"], id="blank-model"
    ),
    pytest.param(
        [{"kind": "finetune", "model": "dossier\x00"}], {}, ["score_with[0].model"], id="nul"
    ),
    pytest.param(
        [{"kind": "http", "model": "ftp://example.org/"}], {}, ["score_with[0].model"], id="ftp"
    ),
    pytest.param(
        [{"kind": "http", "model": "http://user:token@10.0.0.5:8000/"}],
        {},
        ["score_with[0].model"],
        id="credentials-in-url",
    ),
    pytest.param(
        [{"kind": "finetune", "model": "x", "hyperparameters": {"epochs": 0}}],
        {},
        ["score_with[0].hyperparameters"],
        id="epochs-0",
    ),
    pytest.param(
        [{"kind": "finetune", "model": "x", "hyperparameters": {"lr": 1}}],
        {},
        ["score_with[0].hyperparameters"],
        id="unknown-setting",
    ),
    pytest.param(
        [{"kind": "finetune", "model": "x", "hyperparameters": [3]}],
        {},
        ["score_with[0].hyperparameters"],
        id="settings-not-an-object",
    ),
    pytest.param(
        [{"kind": "finetune", "model": "x", "hyperparameters": {"epochs": True}}],
        {},
        ["score_with[0].hyperparameters"],
        id="settings-boolean",
    ),
    pytest.param([{"kind": "lexical", "model": "x"}], {}, ["score_with[0]"], id="unknown-key"),
    pytest.param([{"kind": "lexical"}, {"kind": "lexical"}], {}, ["score_with[1]"], id="duplicate"),
    pytest.param([FINETUNE, dict(FINETUNE)], {}, ["score_with[1]"], id="duplicate-finetune"),
    pytest.param(
        [{"kind": "http", "model": f"http://127.0.0.1:{9000 + i}/"} for i in range(6)],
        {},
        ["score_with"],
        id="too-many",
    ),
    pytest.param(
        [{"kind": "lexical"}, FINETUNE],
        {"splits": ["dev", "test"]},
        ["score_with[1]"],
        id="no-train",
    ),
    pytest.param([{"kind": "lexical"}], {"splits": ["train"]}, ["score_with"], id="no-dev-or-test"),
    pytest.param(
        [{"kind": "magic"}, {"kind": "http", "model": "ftp://x/"}],
        {},
        ["score_with[0].kind", "score_with[1].model"],
        id="every-bad-entry-named",
    ),
    pytest.param(
        [{"kind": "magic"}], {"name": "bad name!"}, ["name", "score_with[0].kind"], id="with-name"
    ),
]


@pytest.mark.parametrize(("score_with", "extra", "fields"), BAD)
def test_bad_score_with_is_refused_by_the_service_naming_the_field(boss, score_with, extra, fields):
    arguments = {"name": "r", "version": "1", "formats": ["squad"]} | extra
    with pytest.raises(ServiceError) as error:
        release_create(created_by=boss, score_with=score_with, **arguments)
    assert (sorted(error.value.errors), error.value.status) == (fields, 400)
    assert Release.objects.count() == 0


@pytest.mark.parametrize(("score_with", "extra", "fields"), BAD)
def test_bad_score_with_is_a_400_of_the_api_naming_the_field(api, score_with, extra, fields):
    payload = {"name": "r", "version": "1", "formats": ["squad"], "score_with": score_with} | extra
    response = api.post(API, payload, format="json")
    assert response.status_code == 400
    assert sorted(response.json()["errors"]) == fields
    assert Release.objects.count() == 0


def test_the_messages_say_what_is_wrong(boss):
    with translation.override("en"), pytest.raises(ServiceError) as error:
        release_create(
            created_by=boss,
            name="r",
            version="1",
            formats=["squad"],
            splits=["dev", "test"],
            score_with=[
                {"kind": "magic"},
                {"kind": "lexical"},
                {"kind": "lexical", "model": "x", "seed": 1},
                {"kind": "lexical"},
                {"kind": "finetune", "model": "x", "hyperparameters": {"epochs": 0, "lr": 1}},
            ],
        )
    assert error.value.errors == {
        "score_with[0].kind": ["Choose lexical, finetune or http."],
        "score_with[2]": ["A lexical baseline takes no “model”, “seed”."],
        "score_with[3]": ["The same baseline as entry 0: each is run once."],
        "score_with[4].hyperparameters": [
            "epochs: a number from 1 to 50.",
            "Unknown setting “lr”.",
        ],
    }
    with translation.override("en"), pytest.raises(ServiceError) as error:
        release_create(
            created_by=boss,
            name="r",
            version="1",
            formats=["squad"],
            splits=["dev", "test"],
            score_with=[{"kind": "finetune", "model": "x"}],
        )
    assert error.value.errors == {
        "score_with[0]": ["Fine-tuning needs a train split: add train to the splits."]
    }
    with translation.override("en"), pytest.raises(ServiceError) as error:
        release_create(
            created_by=boss, name="r", version="1", formats=["squad"], score_with=[{}] * 6
        )
    assert error.value.errors == {"score_with": ["At most 5 baselines per release."]}


def test_the_api_records_the_checked_list_and_shows_it(api, django_capture_on_commit_callbacks):
    score_with = [
        {"kind": "lexical"},
        {"kind": "finetune", "model": " camembert-base ", "hyperparameters": {"epochs": 2.0}},
        {"kind": "http", "model": "http://127.0.0.1:8888/"},
    ]
    response = api.post(
        API,
        {"name": "r", "version": "1", "formats": ["squad"], "score_with": score_with},
        format="json",
    )
    assert response.status_code == 201, response.content
    expected = [
        {"kind": "lexical"},
        {"kind": "finetune", "model": "camembert-base", "hyperparameters": {"epochs": 2}},
        {"kind": "http", "model": "http://127.0.0.1:8888/"},
    ]
    assert response.json()["score_with"] == expected
    assert Release.objects.get().score_with == expected
    assert api.get(f"{API}{response.json()['id']}/").json()["score_with"] == expected
    # Left out or empty: nothing to score.
    for n, payload in enumerate([{}, {"score_with": []}]):
        made = api.post(
            API,
            {"name": f"plain{n}", "version": "1", "formats": ["squad"]} | payload,
            format="json",
        )
        assert (made.status_code, made.json()["score_with"]) == (201, [])


def form(**fields) -> dict:
    return {
        "name": "r",
        "version": "1",
        "formats": ["squad"],
        "splits": ["train", "dev", "test"],
    } | fields


def field_errors(html: str, field: str) -> str:
    """The error list Django renders next to a field (its id is the field's)."""
    marker = f'id="id_{field}_error"'
    assert marker in html, field
    return html.split(marker)[1].split("</ul>")[0]


def test_the_release_form_has_a_score_with_fieldset_and_records_its_choices(client, boss):
    client.force_login(boss)
    page = client.get(PAGES).content.decode()
    fieldset = page.split('<fieldset id="score-with">')[1].split("</fieldset>")[0]
    for name in (
        "score_lexical",
        "score_finetune_model",
        "score_finetune_epochs",
        "score_finetune_learning_rate",
        "score_finetune_batch_size",
        "score_finetune_max_steps",
        "score_http_model",
    ):
        assert f'name="{name}"' in fieldset, name
    response = client.post(
        PAGES,
        form(
            score_lexical="on",
            score_finetune_model="camembert-base",
            score_finetune_epochs="3",
            score_finetune_learning_rate="3e-5",
            score_http_model="http://127.0.0.1:8888/",
        ),
    )
    release = Release.objects.get()
    assert (response.status_code, response["Location"]) == (302, f"{PAGES}{release.pk}/")
    assert release.score_with == [
        {"kind": "lexical"},
        {
            "kind": "finetune",
            "model": "camembert-base",
            "hyperparameters": {"epochs": 3, "learning_rate": 3e-5},
        },
        {"kind": "http", "model": "http://127.0.0.1:8888/"},
    ]
    shown = client.get(f"{PAGES}{release.pk}/").content.decode()
    assert (
        '<dd id="release-score-with">la référence lexicale, un affinage de '
        "<code>camembert-base</code>, un serveur de prédiction</dd>" in shown
    )
    client.post(PAGES, form(name="plain"))
    assert Release.objects.get(name="plain").score_with == []


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        (
            {"score_finetune_model": "x", "score_finetune_epochs": "0"},
            "score_finetune_epochs",
            "epochs",
        ),
        ({"score_finetune_epochs": "2"}, "score_finetune_model", "mod"),  # settings, no model
        ({"score_lexical": "on", "score_http_model": "ftp://x/"}, "score_http_model", "http"),
        (
            {"score_finetune_model": "x", "splits": ["dev", "test"]},
            "score_finetune_model",
            "train",
        ),
        ({"score_finetune_epochs": "many"}, "score_finetune_epochs", ""),  # the form's own check
    ],
)
def test_a_refused_choice_shows_next_to_its_field_with_a_400(client, boss, fields, field, message):
    client.force_login(boss)
    response = client.post(PAGES, form(**fields))
    assert response.status_code == 400
    html = response.content.decode()
    assert message in field_errors(html, field)
    assert Release.objects.count() == 0


def test_no_dev_or_test_split_is_said_above_the_form(client, boss):
    client.force_login(boss)
    response = client.post(PAGES, form(splits=["train"], score_lexical="on"))
    assert response.status_code == 400
    errors = response.content.decode().split('<div class="form-errors" role="alert">')[1]
    assert "dev" in errors.split("</div>")[0]
    assert Release.objects.count() == 0


def run_command(*args) -> dict:
    out = StringIO()
    call_command("export_release", *args, "--json", stdout=out)
    return json.loads(out.getvalue())


def test_export_release_records_a_release_scored_with_its_baselines(
    django_capture_on_commit_callbacks, sent_tasks
):
    with django_capture_on_commit_callbacks(execute=True):
        result = run_command(
            "--name",
            "from-shell",
            "--release-version",
            "2",
            "--formats",
            "squad,hf",
            "--score-with",
            "lexical",
            "--score-with",
            "finetune:camembert-base",
            "--score-with",
            "http:http://127.0.0.1:8888/",
            "--score-with",
            '{"kind": "finetune", "model": "flaubert", "hyperparameters": {"epochs": 1}}',
        )
    release = Release.objects.get()
    assert result == {
        "release": release.pk,
        "name": "from-shell",
        "version": "2",
        "status": "pending",
        "options": release.options,
        "score_with": [
            {"kind": "lexical"},
            {"kind": "finetune", "model": "camembert-base", "hyperparameters": {}},
            {"kind": "http", "model": "http://127.0.0.1:8888/"},
            {"kind": "finetune", "model": "flaubert", "hyperparameters": {"epochs": 1}},
        ],
    }
    assert release.score_with == result["score_with"]
    assert (release.created_by, release.options["formats"]) == (None, ["squad", "hf"])
    assert [(name, kw["queue"]) for name, kw in sent_tasks.calls] == [
        ("exports.tasks.release_build_task", "export")
    ]
    out = StringIO()
    call_command("export_release", "--record", "--name", "plain", stdout=out)
    assert out.getvalue() == (
        f"Recorded release {release.pk + 1} (plain 0): the export worker builds it.\n"
    )


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["--score-with", "magic"], "score_with[0].kind"),
        (["--score-with", "lexical", "--score-with", "finetune"], "score_with[1].model"),
        (["--score-with", "lexical:x"], "score_with[0]"),
        (["--score-with", "{not json"], "score_with[0]"),
        (["--score-with", "http:ftp://x/"], "score_with[0].model"),
        (["--score-with", "lexical", "--splits", "train"], "score_with"),
        (["--score-with", "lexical", "--out", str(Path(__file__).parent / "never")], "--out"),
        ([], "--out"),
    ],
)
def test_export_release_refuses_bad_baselines_naming_them(args, named):
    with pytest.raises(CommandError) as error:
        call_command("export_release", "--name", "x", *args, stdout=StringIO())
    assert str(error.value).startswith(named + ":" if named.startswith("--") else named), error
    assert Release.objects.count() == 0
