"""The results pages (issue 26 item 5): one page per part under /manage/results/, tabs between
them that keep the release, each refused to non-admins, each form posting to its own page and
coming back there with its errors; the overview answers the addresses bookmarked before."""

from __future__ import annotations

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from core.roles import Role
from evaluation.models import BaselineRun, TrainingFile
from tests.evaluation.test_baseline_runs import make_release
from tests.evaluation.test_baseline_sources import (
    figures,
    finished,
    imported,
    releases_folder,
    second_release,
    squad_bytes,
)
from tests.factories import UserFactory

__all__ = ["releases_folder"]  # the autouse fixture: release files in a temporary folder

pytestmark = pytest.mark.django_db

PAGES = {  # route name: path
    "results": "/manage/results/",
    "results-scores": "/manage/results/scores/",
    "results-experiments": "/manage/results/experiments/",
    "results-unanswerable": "/manage/results/unanswerable/",
    "results-types": "/manage/results/types/",
    "results-curves": "/manage/results/curves/",
    "results-baseline": "/manage/results/baseline/",
    "results-files": "/manage/results/training-files/",
    "results-rounds": "/manage/results/model-rounds/",
}
FORM_PAGES = ("results-experiments", "results-baseline", "results-files")


def tabs(html: str) -> list[tuple[str, str, bool]]:
    """The sub-navigation's links: (page, href, current)."""
    nav = html[html.index('<nav class="subnav"') : html.index("</nav>", html.index("subnav"))]
    found = re.findall(r'<a href="([^"]*)" data-page="([\w-]+)"( aria-current="page")?>', nav)
    return [(page, href.replace("&amp;", "&"), bool(current)) for href, page, current in found]


@pytest.fixture
def release():
    return make_release(include_test_answers=True)


@pytest.mark.parametrize("name", PAGES)
def test_every_results_page_is_for_admins_only(client, release, name):
    url = f"{PAGES[name]}?release={release.pk}"
    assert client.get(url).status_code == 302  # anonymous: to the sign-in page
    assert client.get(url)["Location"].startswith("/accounts/login/")
    for role in (Role.ANNOTATOR, Role.REVIEWER):
        client.force_login(UserFactory(username=f"not-admin-{role}", roles=[role]))
        assert client.get(url).status_code == 403
        if name in FORM_PAGES or name == "results":
            posted = {"form": "training-file", "kind": "lexical", "run": "1", "target": "x"}
            assert client.post(url, posted).status_code == 403
    assert (BaselineRun.objects.count(), TrainingFile.objects.count()) == (0, 0)
    client.force_login(release.created_by)
    assert client.get(url).status_code == 200


@pytest.mark.parametrize("name", PAGES)
def test_each_page_marks_its_tab_and_every_tab_keeps_the_release(client, release, name):
    other = second_release(release)
    client.cookies["django_language"] = "en"
    client.force_login(release.created_by)
    html = client.get(f"{PAGES[name]}?release={release.pk}").content.decode()
    assert tabs(html) == [
        (page, f"{path}?release={release.pk}", page == name) for page, path in PAGES.items()
    ]
    chooser = 'id="results-release"' in html
    assert chooser == (name not in ("results-files", "results-rounds"))
    if chooser:
        assert f'<option value="{release.pk}" selected>r1 1</option>' in html
        assert f'<option value="{other.pk}">r2 1</option>' in html
    # Without a release in the address: the newest finished one, kept the same way.
    html = client.get(PAGES[name]).content.decode()
    assert tabs(html)[0] == ("results", f"/manage/results/?release={other.pk}", name == "results")


def test_the_overview_is_short_and_leads_to_every_page(client, release):
    old = finished(release, kind="lexical", metrics={"dev": figures(10.0, 5.0)})
    runs = [
        finished(release, kind="lexical", metrics={"dev": figures(20.0 + n, 10.0)})
        for n in range(3)
    ]
    BaselineRun.objects.create(release=release, kind="lexical")  # not finished: not shown
    client.cookies["django_language"] = "en"
    client.force_login(release.created_by)
    html = client.get(f"/manage/results/?release={release.pk}").content.decode()
    shown = [int(pk) for pk in re.findall(r'data-newest-run="(\d+)"', html)]
    assert shown == [run.pk for run in reversed(runs)] and old.pk not in shown
    assert "22.0 / 10.0" in html and "The 3 newest finished runs of this release." in html
    cards = re.findall(r'<a class="card" href="([^"]*)" id="card-([\w-]+)">', html)
    assert cards == [
        (f"{path}?release={release.pk}", page) for page, path in list(PAGES.items())[1:]
    ]
    # The old page's anchors land on the card that leads there.
    assert '<li id="matrix-title"><a class="card" href="/manage/results/experiments/' in html
    assert '<li id="model-rounds"><a class="card" href="/manage/results/model-rounds/' in html
    assert '<strong id="model-in-the-loop">Model in the loop</strong>' in html
    for absent in ("results-table", "matrix-table", "baseline-form", "training-file-form"):
        assert f'id="{absent}"' not in html


def test_an_old_runs_page_address_goes_on_to_the_scores_page(client, release):
    client.force_login(release.created_by)
    old = client.get("/manage/results/", {"release": release.pk, "after": "abc"})
    assert (old.status_code, old["Location"]) == (
        302,
        f"/manage/results/scores/?release={release.pk}&after=abc",
    )
    # The forged cursor is then refused there, naming it, as before.
    answer = client.get(old["Location"])
    assert answer.status_code == 400 and 'data-field="after"' in answer.content.decode()


@pytest.mark.parametrize(
    "form, page",
    [
        ("cross-evaluation", "results-experiments"),
        ("training-file", "results-files"),
        ("training-file-delete", "results-files"),
        ("training-file-unshare", "results-files"),
        ("", "results-baseline"),
    ],
)
def test_a_form_posted_to_the_old_address_is_sent_on_to_its_page(client, release, form, page):
    client.force_login(release.created_by)
    answer = client.post(f"/manage/results/?release={release.pk}", {"form": form})
    assert (answer.status_code, answer["Location"]) == (
        307,
        f"{PAGES[page]}?release={release.pk}",
    )
    assert (BaselineRun.objects.count(), TrainingFile.objects.count()) == (0, 0)


def test_an_old_tabs_baseline_form_still_starts_its_run(
    client, release, django_capture_on_commit_callbacks, sent_tasks
):
    client.cookies["django_language"] = "en"
    client.force_login(release.created_by)
    with django_capture_on_commit_callbacks(execute=True):
        done = client.post(
            f"/manage/results/?release={release.pk}", {"kind": "lexical"}, follow=True
        )
    run = BaselineRun.objects.get()
    assert done.redirect_chain == [
        (f"/manage/results/baseline/?release={release.pk}", 307),
        (f"/manage/results/baseline/?release={release.pk}", 302),
    ]
    assert f"Baseline run {run.pk} is queued." in done.content.decode()


def test_the_baseline_form_comes_back_on_its_page_as_typed(client, release):
    other = second_release(release)
    made = imported(release.created_by, name="mt.json")
    client.cookies["django_language"] = "en"
    client.force_login(release.created_by)
    url = f"/manage/results/baseline/?release={release.pk}"
    refused = client.post(
        url,
        {
            "kind": "lexical",
            "model": "x <y>",
            "epochs": "2",
            "train_releases": [str(other.pk)],
            "train_files": [str(made.pk)],
        },
    )
    assert refused.status_code == 400
    html = refused.content.decode()
    assert '<p class="field-error" role="alert" data-field="train_releases">' in html
    assert 'name="model" maxlength="500" value="x &lt;y&gt;"' in html
    assert 'name="epochs" inputmode="numeric" value="2"' in html
    assert f'<option value="{other.pk}" selected>r2 1 · train</option>' in html
    assert (
        f'<option value="{made.pk}" selected>mt.json (fr) · translated · 4 questions</option>'
        in html
    )
    assert ('data-page="results-baseline" aria-current="page"') in html
    assert BaselineRun.objects.count() == 0


@pytest.mark.parametrize(
    ("language", "epochs", "steps"),
    [
        (
            "en",
            "Epochs: a whole number from 1 to 50.",
            "Maximum steps: a whole number from 1 to 10,000,000.",
        ),
        (
            "fr",
            "Époques\u00a0: un nombre entier de 1 à 50.",
            "Nombre maximal de pas\u00a0: un nombre entier de 1 à 10\u00a0000\u00a0000.",
        ),
    ],
)
def test_a_bad_setting_is_named_as_its_field_is_and_marked(
    client, release, language, epochs, steps
):
    # Not by the service's key ("epochs: a number from 1 to 50."), in English on a French page.
    client.cookies["django_language"] = language
    client.force_login(release.created_by)
    refused = client.post(
        f"/manage/results/baseline/?release={release.pk}",
        {"kind": "finetune", "model": "x", "epochs": "-1", "max_steps": "abc"},
    )
    assert refused.status_code == 400
    html = refused.content.decode()
    shown = re.findall(r'<p class="field-error" role="alert" data-field="(\w+)">([^<]*)</p>', html)
    assert shown == [("epochs", epochs), ("max_steps", steps)]
    assert 'name="epochs" inputmode="numeric" value="-1" aria-invalid="true">' in html
    assert 'name="max_steps" inputmode="numeric" value="abc" aria-invalid="true">' in html
    assert BaselineRun.objects.count() == 0


def test_the_import_form_comes_back_on_its_page_with_its_fields(client, release):
    client.cookies["django_language"] = "en"
    client.force_login(release.created_by)
    url = f"/manage/results/training-files/?release={release.pk}"
    refused = client.post(
        url,
        {"form": "training-file", "name": "SQuAD <fr>", "language": "fr", "shared": "on"},
    )
    assert refused.status_code == 400
    html = refused.content.decode()
    assert (
        '<p class="field-error" role="alert" data-field="file">Choose a SQuAD-format JSON file.</p>'
        in html
    )
    assert 'name="name" maxlength="200" value="SQuAD &lt;fr&gt;"' in html
    assert 'name="language" maxlength="16" value="fr"' in html
    assert '<input type="checkbox" name="shared" checked>' in html
    assert '<input type="checkbox" name="translated">' in html
    upload = SimpleUploadedFile("mt.json", squad_bytes(), content_type="application/json")
    done = client.post(url, {"form": "training-file", "file": upload, "name": "ok"})
    assert (done.status_code, done["Location"]) == (302, url)
    assert TrainingFile.objects.get().name == "ok"
    refused = client.post(url, {"form": "training-file-delete", "file": "999999"})
    assert refused.status_code == 404
    assert "No training file that you may read." in refused.content.decode()
    assert TrainingFile.objects.count() == 1


def test_the_cross_evaluation_form_comes_back_on_the_experiments_page(client, release):
    second_release(release)  # a dataset to score on: the form is shown
    run = finished(release, kind="lexical", metrics={"dev": figures(20.0, 10.0)})
    client.cookies["django_language"] = "en"
    client.force_login(release.created_by)
    url = f"/manage/results/experiments/?release={release.pk}"
    refused = client.post(url, {"form": "cross-evaluation", "run": str(run.pk), "target": "x"})
    assert refused.status_code == 400
    html = refused.content.decode()
    assert 'id="matrix-table"' in html and 'id="cross-evaluation-form"' in html
    assert 'data-page="results-experiments" aria-current="page"' in html
    assert re.search(r'<p class="field-error" role="alert" data-field="\w+">', html)


@pytest.mark.parametrize("name", ["results-scores", "results-unanswerable", "results-types"])
def test_the_pages_of_runs_walk_the_same_pages(client, release, monkeypatch, name):
    from evaluation.selectors import runs as selectors

    monkeypatch.setattr(selectors, "RUNS_PAGE", 2)
    for n in range(3):
        finished(release, kind="lexical", metrics={"dev": figures(20.0 + n, 10.0)})
    client.force_login(release.created_by)
    html = client.get(f"{PAGES[name]}?release={release.pk}").content.decode()
    after = re.search(r'rel="next" href="\?([^"]*)"', html).group(1).replace("&amp;", "&")
    assert after.startswith(f"release={release.pk}&after=")
    assert client.get(f"{PAGES[name]}?{after}").status_code == 200
    refused = client.get(f"{PAGES[name]}?release={release.pk}&before=bm90IGEgY3Vyc29y")
    assert refused.status_code == 400 and 'data-field="before"' in refused.content.decode()
