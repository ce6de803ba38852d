"""Campaigns: FQuAD defaults, the rules on their settings, admin pages, API, guidelines."""

from decimal import Decimal

import pytest
from django.db import IntegrityError, transaction
from rest_framework.test import APIClient

from annotation.models import Campaign
from annotation.services.campaigns import campaign_create, campaign_update
from core.errors import ServiceError
from core.markdown import render_markdown


def test_a_new_campaign_follows_fquad(db):
    campaign = campaign_create(name="FQuAD 1.1")
    assert (campaign.kind, campaign.splits, campaign.questions_min, campaign.questions_max) == (
        "questions",
        ["train", "dev", "test"],
        3,
        5,
    )
    assert (campaign.review_rate, campaign.extra_answers, campaign.lease_minutes) == (
        Decimal("0.25"),
        2,
        30,
    )


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"questions_min": 0}, "questions_min"),
        ({"questions_min": 4, "questions_max": 3}, "questions_max"),
        ({"questions_max": 11}, "questions_max"),
        ({"review_rate": Decimal("1.5")}, "review_rate"),
        ({"review_rate": Decimal("0.255")}, "review_rate"),
        ({"lease_minutes": 2}, "lease_minutes"),
        ({"extra_answers": 6}, "extra_answers"),
        ({"splits": []}, "splits"),
        ({"splits": ["validation"]}, "splits"),
        ({"kind": "translations"}, "kind"),
        ({"kind": "additional_answers", "splits": ["train", "dev"]}, "splits"),
        ({"question_type_targets": {"why": 60, "how": 50}}, "question_type_targets"),
        ({"question_type_targets": {"whence": 10}}, "question_type_targets"),
        ({"question_type_targets": {"why": -1}}, "question_type_targets"),
        ({"name": "   "}, "name"),
    ],
)
def test_bad_settings_are_refused_by_field_and_nothing_is_saved(db, fields, field):
    with pytest.raises(ServiceError) as error:
        campaign_create(**({"name": "C"} | fields))
    assert list(error.value.errors) == [field]
    assert Campaign.objects.count() == 0


def test_names_are_unique(db):
    campaign_create(name="C")
    with pytest.raises(ServiceError) as error:
        campaign_create(name="C")
    assert list(error.value.errors) == ["name"]


def test_update_changes_only_what_is_given(db):
    campaign = campaign_create(name="C", guidelines="Soyez précis.")
    campaign_update(campaign=campaign, questions_max=4, splits=["test", "dev"])
    campaign.refresh_from_db()
    assert (campaign.questions_max, campaign.splits, campaign.guidelines) == (
        4,
        ["dev", "test"],
        "Soyez précis.",
    )


def test_the_database_enforces_the_bounds_too(db):
    campaign = campaign_create(name="C")
    with pytest.raises(IntegrityError), transaction.atomic():
        Campaign.objects.filter(pk=campaign.pk).update(questions_max=2)


def test_markdown_guidelines_cannot_inject_script():
    html = render_markdown("**Gras** <script>alert(1)</script> [x](javascript:alert(1))")
    assert "<strong>Gras</strong>" in html
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert 'href="javascript' not in html


def test_admin_creates_a_campaign_from_the_page(admin_client):
    response = admin_client.post(
        "/manage/campaigns/new/",
        {
            "name": "Vague 1.1",
            "kind": "questions",
            "splits": ["train", "dev"],
            "questions_min": "3",
            "questions_max": "5",
            "review_rate": "0.25",
            "extra_answers": "2",
            "lease_minutes": "30",
            "guidelines": "# Consignes",
            "active": "on",
            "target_why": "15",
            "target_how": "10",
        },
    )
    assert response.status_code == 302
    campaign = Campaign.objects.get()
    assert campaign.question_type_targets == {"why": 15, "how": 10}
    assert campaign.splits == ["train", "dev"]
    page = admin_client.get(f"/manage/campaigns/{campaign.pk}/")
    assert b"<h1>Consignes</h1>" in page.content


def test_a_bad_page_submission_is_a_400_and_keeps_what_was_typed(admin_client):
    response = admin_client.post(
        "/manage/campaigns/new/",
        {
            "name": "Vague 1.1",
            "kind": "questions",
            "splits": ["train"],
            "questions_min": "4",
            "questions_max": "3",
            "review_rate": "0.25",
            "extra_answers": "2",
            "lease_minutes": "30",
            "guidelines": "Mes consignes",
        },
    )
    assert response.status_code == 400
    assert "questions_max" in response.context["form"].errors
    assert b"Mes consignes" in response.content
    assert Campaign.objects.count() == 0


BAD_PAGE_POST = {
    "name": "Vague 1.1",
    "kind": "questions",
    "splits": ["train"],
    "questions_min": "4",
    "questions_max": "3",
    "review_rate": "2",
    "extra_answers": "2",
    "lease_minutes": "30",
}


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "en",
            '<p>Correct these fields:</p>\n  <ul><li><a href="#id_questions_max">Most questions per'
            ' paragraph</a>: Between the fewest questions and 10.</li><li><a href="#id_review_rate">'
            "Review rate</a>: A share from 0 to 1 with at most two decimals, like 0.25.</li></ul>",
        ),
        (
            "fr",
            '<p>Corrigez ces champs\u00a0:</p>\n  <ul><li><a href="#id_questions_max">Nombre maximal'
            " de questions par paragraphe</a>\u00a0: Entre le nombre minimal de questions et 10."
            '</li><li><a href="#id_review_rate">Taux de relecture</a>\u00a0: Une part de 0 à 1 avec'
            " au plus deux décimales, comme 0.25.</li></ul>",
        ),
    ],
)
def test_a_refused_page_names_each_bad_field_at_the_top_with_a_link(
    admin_client, language, expected
):
    # The page comes back at its top after a refused Save, far from the fields at fault.
    admin_client.cookies["django_language"] = language
    response = admin_client.post(
        "/manage/campaigns/new/", BAD_PAGE_POST, HTTP_ACCEPT_LANGUAGE=language
    )
    assert response.status_code == 400
    page = response.content.decode()
    summary = page.split('id="form-error-summary">', 1)[1].split("</div>", 1)[0].strip()
    assert summary == expected
    assert page.index('id="form-error-summary"') < page.index('name="name"')
    assert Campaign.objects.count() == 0


def test_a_valid_page_has_no_error_summary(admin_client):
    assert b"form-error-summary" not in admin_client.get("/manage/campaigns/new/").content


def test_campaign_pages_are_for_admins(client, annotator):
    client.force_login(annotator)
    assert client.get("/manage/campaigns/").status_code == 403
    assert client.post("/manage/campaigns/new/", {"name": "x"}).status_code == 403
    assert Campaign.objects.count() == 0


def test_annotators_see_active_campaigns_with_safe_guidelines(client, annotator):
    campaign_create(name="Ouverte", guidelines="*Lisez tout* <b>avant</b>")
    campaign_create(name="Fermée", active=False)
    client.force_login(annotator)
    html = client.get("/annotate/").content.decode()
    assert "Ouverte" in html and "Fermée" not in html
    assert "<em>Lisez tout</em> &lt;b&gt;avant&lt;/b&gt;" in html


def test_api_lists_by_role_and_only_admins_write(annotator, admin_user):
    campaign_create(name="Ouverte")
    campaign_create(name="Fermée", active=False)
    api = APIClient()
    api.force_authenticate(annotator)
    assert [c["name"] for c in api.get("/api/v1/campaigns/").json()["results"]] == ["Ouverte"]
    assert api.post("/api/v1/campaigns/", {"name": "X"}, format="json").status_code == 403
    api.force_authenticate(admin_user)
    assert len(api.get("/api/v1/campaigns/").json()["results"]) == 2
    created = api.post(
        "/api/v1/campaigns/",
        {"name": "X", "splits": ["dev", "test"], "kind": "additional_answers"},
        format="json",
    )
    assert created.status_code == 201
    assert created.json()["splits"] == ["dev", "test"]
    bad = api.patch(
        f"/api/v1/campaigns/{created.json()['id']}/", {"questions_min": 9}, format="json"
    )
    assert bad.status_code == 400
    assert list(bad.json()["errors"]) == ["questions_max"]
    assert Campaign.objects.get(name="X").questions_min == 3


def test_a_language_segmentation_does_not_know_is_refused(db):
    with pytest.raises(ServiceError) as error:
        campaign_create(name="Langue", language="zz-!!")
    assert list(error.value.errors) == ["language"]
    assert Campaign.objects.count() == 0


def test_review_warm_up_settings_are_checked_and_kept(admin_user):
    api = APIClient()
    api.force_authenticate(admin_user)
    bad = api.post(
        "/api/v1/campaigns/",
        {"name": "W", "review_warmup": -1, "review_warmup_rate": "1.50"},
        format="json",
    )
    assert bad.status_code == 400
    assert sorted(bad.json()["errors"]) == ["review_warmup", "review_warmup_rate"]
    assert Campaign.objects.count() == 0
    made = api.post(
        "/api/v1/campaigns/",
        {"name": "W", "review_warmup": 10, "review_warmup_rate": "0.50"},
        format="json",
    )
    assert made.status_code == 201
    assert (made.json()["review_warmup"], made.json()["review_warmup_rate"]) == (10, "0.50")
    campaign = Campaign.objects.get(name="W")
    assert (campaign.review_warmup, str(campaign.review_warmup_rate)) == (10, "0.50")


def test_a_new_campaign_starts_with_fquads_guidelines_in_its_language(db):
    french = campaign_create(name="Questions FR")
    english = campaign_create(name="Questions EN", language="en", questions_min=2)
    answers = campaign_create(name="Réponses", kind="additional_answers")
    german = campaign_create(name="Fragen", language="de")
    chosen = campaign_create(name="Mine", guidelines="## Nos règles")

    assert french.guidelines.startswith("## Écrire les questions\n")
    assert "**3 à 5 questions**" in french.guidelines
    assert "Comptez environ une minute par question." in french.guidelines
    assert "**2 to 5 questions**" in english.guidelines
    assert "Spend about a minute on each question." in english.guidelines
    # Exactly one question: the one number, in the singular (issue 25, left over).
    for language, line in (
        ("fr", "- Lisez tout le paragraphe, puis écrivez **1 question** dont la réponse"),
        ("en", "- Read the whole paragraph, then write **1 question** whose answer"),
    ):
        one = campaign_create(
            name=f"One {language}", language=language, questions_min=1, questions_max=1
        )
        assert line in one.guidelines
    assert "Comptez environ 30 secondes par question." in answers.guidelines
    assert german.guidelines.startswith("## Writing the questions\n")  # no German text yet
    assert chosen.guidelines == "## Nos règles"
    campaign_update(campaign=chosen, guidelines="")
    chosen.refresh_from_db()
    assert chosen.guidelines == ""  # an admin may clear them later


def test_the_campaign_page_offers_the_language(admin_client):
    response = admin_client.post(
        "/manage/campaigns/new/",
        {
            "name": "English",
            "kind": "questions",
            "language": "en",
            "splits": ["train"],
            "questions_min": 3,
            "questions_max": 5,
            "review_rate": "0.25",
            "extra_answers": 2,
            "lease_minutes": 30,
            "active": "on",
        },
    )
    assert response.status_code == 302
    campaign = Campaign.objects.get(name="English")
    assert (campaign.language, campaign.guidelines[:25]) == ("en", "## Writing the questions\n")


LONG_GUIDELINES = "a" * (Campaign.GUIDELINES_MAX_LENGTH + 1)


def test_guidelines_longer_than_the_limit_are_refused_by_the_service(db):
    assert Campaign.GUIDELINES_MAX_LENGTH == 20_000
    with pytest.raises(ServiceError) as error:
        campaign_create(name="Longue", guidelines=LONG_GUIDELINES)
    assert error.value.errors == {
        "guidelines": [
            "Au plus 20\u00a0000 caractères\u00a0: ces consignes en comptent 20\u00a0001."
        ]
    }
    campaign = campaign_create(name="Juste", guidelines="b" * 20_000)
    assert len(campaign.guidelines) == 20_000
    with pytest.raises(ServiceError) as error:
        campaign_update(campaign=campaign, guidelines=LONG_GUIDELINES)
    assert list(error.value.errors) == ["guidelines"]
    campaign.refresh_from_db()
    assert campaign.guidelines == "b" * 20_000


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "en",
            '<li><a href="#id_guidelines">Guidelines (Markdown)</a>: At most 20,000 characters:'
            " these guidelines have 20,001.</li>",
        ),
        (
            "fr",
            '<li><a href="#id_guidelines">Consignes (Markdown)</a>\u00a0: Au plus 20\u00a0000'
            " caractères\u00a0: ces consignes en comptent 20\u00a0001.</li>",
        ),
    ],
)
def test_the_campaign_page_refuses_guidelines_over_the_limit_naming_the_field(
    admin_client, language, expected
):
    admin_client.cookies["django_language"] = language
    response = admin_client.post(
        "/manage/campaigns/new/",
        {
            **BAD_PAGE_POST,
            "questions_max": "5",
            "review_rate": "0.25",
            "guidelines": LONG_GUIDELINES,
        },
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert response.status_code == 400
    page = response.content.decode()
    summary = page.split('id="form-error-summary">', 1)[1].split("</div>", 1)[0]
    assert summary.count("<li>") == 1
    assert expected in summary
    assert LONG_GUIDELINES in page  # what was typed is kept
    assert 'maxlength="' not in page.split('name="guidelines"', 1)[1].split(">", 1)[0]
    assert Campaign.objects.count() == 0


def test_the_campaign_page_says_how_long_guidelines_may_be(admin_client):
    page = admin_client.get("/manage/campaigns/new/").content.decode()
    assert (
        "avec son propre nombre de questions et son rythme. Au plus 20\u00a0000 caractères." in page
    )


def test_the_api_refuses_guidelines_over_the_limit_naming_the_field(admin_user):
    api = APIClient()
    api.force_authenticate(admin_user)
    refused = api.post(
        "/api/v1/campaigns/", {"name": "X", "guidelines": LONG_GUIDELINES}, format="json"
    )
    assert refused.status_code == 400
    assert refused.json()["errors"] == {
        "guidelines": [
            "Au plus 20\u00a0000 caractères\u00a0: ces consignes en comptent 20\u00a0001."
        ]
    }
    assert Campaign.objects.count() == 0
    created = api.post("/api/v1/campaigns/", {"name": "X"}, format="json")
    bad = api.patch(
        f"/api/v1/campaigns/{created.json()['id']}/",
        {"guidelines": LONG_GUIDELINES},
        format="json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert bad.status_code == 400
    assert bad.json()["errors"] == {
        "guidelines": ["At most 20,000 characters: these guidelines have 20,001."]
    }
