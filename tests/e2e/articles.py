"""One stored article of one paragraph, for the browser tests' setups."""

from __future__ import annotations

from corpus.readers import SourceArticle
from corpus.services.articles import article_store


def one_article(title: str, text: str, *, split: str = "dev", language: str = "fr"):
    """Store `text` as the one paragraph of the article `title` (wave 1.0, from a file)."""
    return article_store(
        language=language,
        source=SourceArticle(title=title, source_title=title),
        paragraphs=[text],
        wave="1.0",
        split=split,
        kind="file",
    )
