"""Corpora and campaigns in another language than French, for tests: XQuAD's paragraphs
(../shared/data/xquad/, CC BY-SA 4.0) stored as articles of that language, and a campaign
on them."""

from __future__ import annotations

import json

from annotation.models import Campaign
from annotation.services.campaigns import campaign_create
from annotation.services.items import items_sync
from corpus.readers import SourceArticle
from corpus.services.articles import article_store, check_language
from tests.needs import SHARED_DATA, require_file


def xquad_paragraphs(code: str, count: int = 1) -> list[dict]:
    """The first `count` paragraphs of XQuAD in a language: {"title", "context", "qas"}."""
    path = require_file(SHARED_DATA / "xquad" / f"xquad.{code}.json", "XQuAD paragraphs")
    found = []
    for article in json.loads(path.read_text(encoding="utf-8"))["data"]:
        for index, paragraph in enumerate(article["paragraphs"]):
            found.append({"title": f"{article['title']} {index}", **paragraph})
            if len(found) == count:
                return found
    return found


def store_paragraphs(code: str, paragraphs: list[dict], split: str = "dev") -> None:
    """Store each paragraph as an article of the language (the corpus of its campaigns)."""
    for paragraph in paragraphs:
        title = paragraph["title"]
        article_store(
            language=code,
            source=SourceArticle(title=title, source_title=title),
            paragraphs=[paragraph["context"]],
            wave="1.0",
            split=split,
            kind="file",
        )


def campaign_in(code: str, *, name: str, **fields) -> Campaign:
    """A campaign in the language, on the dev split.

    Until corpus checks languages against the registry (core.languages, branch h2), its
    `check_language` knows fr, en, de, es, it only: the campaign is then created in French
    and moved to the language, its work items made again as `campaign_update` would."""
    fields = {"splits": ["dev"], **fields}
    if not check_language(code):
        return campaign_create(name=name, language=code, **fields)
    campaign = campaign_create(name=name, language="fr", **fields)
    Campaign.objects.filter(pk=campaign.pk).update(language=code)
    campaign.refresh_from_db()
    items_sync(campaign=campaign)
    return campaign
