"""The annotation pages per language (core.languages): reading direction, lang attribute,
question marks of the hints, and what a language lacks said on the campaign pages."""

import json
import re

import pytest

from annotation.services.campaigns import campaign_create
from annotation.services.work import lease_claim_next
from core.roles import Role
from corpus.readers import SourceArticle
from corpus.services.articles import article_store
from tests.factories import UserFactory

ARABIC = (
    "القاهرة هي عاصمة جمهورية مصر العربية وأكبر مدنها، تقع على ضفاف نهر النيل، "
    "وهي من أكبر مدن أفريقيا والشرق الأوسط من حيث عدد السكان."
)


def _lease_page(client, language, text):
    article_store(
        language=language,
        source=SourceArticle(title=f"Article {language}", source_title=f"Article {language}"),
        paragraphs=[text],
        wave="1.0",
        split="train",
        kind="file",
    )
    campaign = campaign_create(name=f"Q {language}", language=language)
    writer = UserFactory(username=f"writer-{language}", roles=[Role.ANNOTATOR])
    lease = lease_claim_next(campaign=campaign, annotator=writer).lease
    client.force_login(writer)
    response = client.get(f"/annotate/leases/{lease.pk}/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    return response.content.decode()


def _marks(page: str) -> list[str]:
    script = re.search(r'id="paragraph-language"[^>]*>(.*?)</script>', page, re.S)[1]
    return json.loads(script)["marks"]


def _hint(page: str) -> str:
    messages = re.search(r'id="annotate-messages"[^>]*>(.*?)</script>', page, re.S)[1]
    return json.loads(messages)["noQuestionMark"]


def test_an_arabic_paragraph_reads_right_to_left_with_arabic_question_marks(db, client):
    page = _lease_page(client, "ar", ARABIC)

    assert 'id="paragraph" class="paragraph-text" lang="ar" dir="rtl"' in page
    assert '<textarea id="question-text" rows="2" lang="ar" dir="rtl"' in page
    assert _marks(page) == ["؟", "?"]
    assert _hint(page) == "A question ends with “؟”."


def test_a_french_paragraph_keeps_its_question_mark(db, client):
    page = _lease_page(client, "fr", "Le canal du Midi relie Toulouse à la Méditerranée. " * 12)

    assert 'lang="fr" dir="ltr"' in page
    assert _marks(page) == ["?"]


def test_thai_asks_for_no_question_mark(db, client):
    page = _lease_page(client, "th", "กรุงเทพมหานครเป็นเมืองหลวงของประเทศไทย " * 15)

    assert 'lang="th" dir="ltr"' in page
    assert _marks(page) == []


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("th", "Guidelines: none in Thai yet; the campaign starts with the English text."),
        ("fr", None),
    ],
)
def test_the_campaign_page_says_what_its_language_lacks(db, client, language, said):
    campaign = campaign_create(name=f"Q {language}", language=language)
    client.force_login(UserFactory(username="boss", roles=[Role.ADMIN]))
    page = client.get(
        f"/manage/campaigns/{campaign.pk}/", HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()

    if said is None:
        assert 'id="guidelines-unavailable"' not in page
        assert 'id="question-types-unavailable"' not in page
        assert campaign.guidelines.startswith("## Écrire les questions")
    else:
        assert said in page
        assert "Question types: not available for Thai." in page
        assert campaign.guidelines.startswith("## Writing the questions")
    assert "Thai (th) · ไทย" in page
