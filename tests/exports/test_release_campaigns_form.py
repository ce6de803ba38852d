"""The release form's campaigns picker (issue 17, item 2): the page limits a release to chosen
campaigns as the API does (`options["campaigns"]`), refuses an unknown one beside the field, and
the release page names the campaigns a release holds."""

from __future__ import annotations

import re

import pytest

from annotation.models import Campaign
from annotation.services.campaigns import campaign_create
from exports.forms import releases as release_forms
from exports.models import Release
from exports.tasks import release_build_task
from tests.exports.test_releases import make_dataset

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("releases_folder")]

PAGES = "/manage/releases/"


@pytest.fixture
def admin_client(admin_client):
    """The admin's pages in English (the messages compared below)."""
    admin_client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return admin_client


def picker(html: str) -> list[tuple[str, str]]:
    """The campaigns picker's (value, label) pairs, in the page's order."""
    block = re.search(
        r"<fieldset[^>]*>\s*<legend[^>]*>Campaigns:</legend>(.*?)</fieldset>", html, re.S
    )
    assert block, "no campaigns picker"
    return re.findall(
        r'<input type="checkbox" name="campaigns" value="(\d+)"[^>]*>\s*([^<]*?)\s*</label>',
        block.group(1),
    )


def test_the_form_offers_every_campaign_newest_first_with_its_kind_and_language(admin_client):
    old = campaign_create(name="FQuAD 1.0", splits=["train"])
    answers = campaign_create(name="Réponses <dev>", kind="additional_answers", splits=["dev"])
    newest = campaign_create(name="Sans réponse", kind="unanswerable", splits=["train"])
    page = admin_client.get(PAGES)
    assert page.status_code == 200
    html = page.content.decode()
    assert picker(html) == [
        (str(newest.pk), "Sans réponse (unanswerable questions · fr)"),
        (str(answers.pk), "Réponses &lt;dev&gt; (additional answers · fr)"),
        (str(old.pk), "FQuAD 1.0 (questions · fr)"),
    ]
    assert "None checked: the questions of every campaign." in html
    assert not re.search(r'name="campaigns"[^>]*checked', html)  # none checked by default


def test_a_release_limited_to_one_campaign_records_exactly_that_id_and_names_it(
    admin_client, sent_tasks, django_capture_on_commit_callbacks
):
    make_dataset()
    questions = Campaign.objects.get(name="Questions")
    form = {"name": "fquad-questions", "version": "1.0", "formats": ["hf"], "splits": ["dev"]}
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(PAGES, form | {"campaigns": [str(questions.pk)]})
    release = Release.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"{PAGES}{release.pk}/"
    assert release.options["campaigns"] == [questions.pk]
    assert [name for name, _options in sent_tasks.calls] == ["exports.tasks.release_build_task"]

    release_build_task(job_pk=release.pk)
    release.refresh_from_db()
    assert release.status == Release.Status.SUCCEEDED
    assert release.manifest["campaigns"] == [{"id": questions.pk, "name": "Questions"}]
    shown = admin_client.get(f"{PAGES}{release.pk}/").content.decode()
    assert '<dd id="release-campaigns">Questions</dd>' in shown

    # None checked: every campaign, and no `campaigns` option (the API's "left out").
    with django_capture_on_commit_callbacks(execute=True):
        admin_client.post(PAGES, form | {"name": "fquad-all"})
    every = Release.objects.get(name="fquad-all")
    assert "campaigns" not in every.options
    assert 'id="release-campaigns"' not in admin_client.get(f"{PAGES}{every.pk}/").content.decode()


def test_an_unknown_campaign_is_refused_beside_the_field_and_nothing_is_recorded(
    admin_client, sent_tasks, django_capture_on_commit_callbacks
):
    kept = campaign_create(name="Kept", splits=["train"])
    form = {"name": "bad", "version": "1.0", "formats": ["hf"], "splits": ["train"]}
    for value in ([str(kept.pk), "999999"], ["x"]):
        with django_capture_on_commit_callbacks(execute=True):
            response = admin_client.post(PAGES, form | {"campaigns": value})
        assert response.status_code == 400
        assert sorted(response.context["form"].errors) == ["campaigns"]
        # The error sits in the campaigns field's group, beside its checkboxes.
        html = response.content.decode()
        field = re.search(r"<legend[^>]*>Campaigns:</legend>(.*?)</fieldset>", html, re.S).group(1)
        assert 'class="errorlist"' in field
        assert "is not one of the available choices." in field
    assert Release.objects.count() == 0
    assert sent_tasks.calls == []


def test_a_campaign_deleted_while_the_form_was_open_is_refused_by_the_service(
    admin_client, sent_tasks, monkeypatch, django_capture_on_commit_callbacks
):
    """The form offered it, the service no longer finds it: its message beside the field."""
    kept = campaign_create(name="Kept", splits=["train"])
    gone = campaign_create(name="Gone", splits=["train"])
    offered = release_forms.campaign_choices()
    gone_pk = gone.pk
    gone.delete()
    monkeypatch.setattr(release_forms, "campaign_choices", lambda: offered)
    form = {"name": "late", "version": "1.0", "formats": ["hf"], "splits": ["train"]}
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(PAGES, form | {"campaigns": [str(kept.pk), str(gone_pk)]})
    assert response.status_code == 400
    assert response.context["form"].errors == {"campaigns": [f"No such campaign: {gone_pk}."]}
    field = re.search(
        r"<legend[^>]*>Campaigns:</legend>(.*?)</fieldset>", response.content.decode(), re.S
    ).group(1)
    assert f"No such campaign: {gone_pk}." in field
    assert Release.objects.count() == 0
    assert sent_tasks.calls == []


def test_campaigns_in_several_languages_are_refused_beside_the_picker(admin_client):
    # The page has no language field: a release takes its campaigns' language, so the admin
    # is told to check campaigns of one language, beside the picker whose choices name it.
    french = campaign_create(name="Questions FR", splits=["train"])
    english = campaign_create(name="Questions EN", language="en", splits=["train"])
    form = {"name": "mixed", "version": "1.0", "formats": ["hf"], "splits": ["train"]}
    message = (
        "These campaigns are in several languages (en, fr) and a release holds one: "
        "check only campaigns in one language."
    )
    for chosen in ([], [str(french.pk), str(english.pk)]):
        response = admin_client.post(PAGES, form | {"campaigns": chosen})
        assert response.status_code == 400
        assert response.context["form"].errors == {"campaigns": [message]}
        summary = response.content.decode().split('id="form-error-summary">')[1].split("</div>")[0]
        assert f'<li><a href="#id_campaigns">Campaigns</a>: {message}</li>' in summary
        assert picker(response.content.decode())[0] == (
            str(english.pk),
            "Questions EN (questions · en)",
        )
    assert Release.objects.count() == 0
