"""Loading offline corpora and fixing splits by hand."""

import json

import pytest
from django.db import IntegrityError, transaction

from core.errors import ServiceError
from corpus.models import Article, Paragraph
from corpus.readers import SourceArticle
from corpus.services.articles import (
    article_set_split,
    article_store,
    corpus_load,
    paragraphs_sha256,
)
from corpus.splits import target_counts


def test_loading_piaf_creates_every_article_and_paragraph_verbatim(db, piaf_path):
    result = corpus_load(path=piaf_path, wave="1.0", language="fr", seed=3)
    assert (result.created, result.paragraphs, result.skipped) == (191, 761, [])
    assert Article.objects.count() == 191
    assert Paragraph.objects.count() == 761
    data = json.loads(piaf_path.read_text())
    first = data["data"][0]["paragraphs"][0]["context"]
    sport = Article.objects.get(title="Sport")
    assert sport.paragraphs.get(position=0).text == first  # byte for byte
    assert sport.text_sha256 == paragraphs_sha256([first])
    counts = {s: Article.objects.filter(split=s).count() for s in ("train", "dev", "test")}
    assert counts == target_counts(191, {"train": 83, "dev": 9, "test": 8})


def test_loading_again_adds_nothing_and_moves_nothing(db, piaf_path):
    corpus_load(path=piaf_path, wave="1.0", language="fr", seed=3)
    before = dict(Article.objects.values_list("title", "split"))
    result = corpus_load(path=piaf_path, wave="1.1", language="fr", seed=99)
    assert (result.created, len(result.skipped)) == (0, 191)
    assert dict(Article.objects.values_list("title", "split")) == before
    assert Paragraph.objects.count() == 761


def test_a_forced_split_puts_every_new_article_there(db, piaf_path):
    corpus_load(path=piaf_path, wave="1.0", language="fr", split="test")
    assert set(Article.objects.values_list("split", flat=True)) == {"test"}


def test_a_jsonl_text_is_segmented(db, tmp_path, settings):
    settings.CORPUS_MIN_PARAGRAPH_CHARS = 20
    path = tmp_path / "c.jsonl"
    text = (
        "Intro assez longue pour rester.\n== Histoire ==\nUn paragraphe assez long ici.\nCourt.\n"
    )
    path.write_text(json.dumps({"title": "T", "text": text}) + "\n", encoding="utf-8")
    result = corpus_load(path=path, wave="1.0", language="fr")
    assert result.created == 1
    assert list(Paragraph.objects.values_list("text", flat=True)) == [
        "Intro assez longue pour rester.",
        "Un paragraphe assez long ici.",
    ]


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"wave": "bad wave!"}, "wave"),
        ({"language": "French"}, "language"),
        ({"language": "pt"}, "language"),
        ({"split": "validation"}, "split"),
    ],
)
def test_bad_options_are_refused_and_nothing_is_written(db, piaf_path, kwargs, field):
    options = {"wave": "1.0", "language": "fr"} | kwargs
    with pytest.raises(ServiceError) as error:
        corpus_load(path=piaf_path, **options)
    assert list(error.value.errors) == [field]
    assert Article.objects.count() == 0


def test_a_bad_line_in_the_middle_writes_nothing(db, tmp_path):
    path = tmp_path / "c.jsonl"
    path.write_text(
        json.dumps({"title": "A", "paragraphs": ["x" * 600]}) + "\n{oops\n", encoding="utf-8"
    )
    with pytest.raises(ServiceError) as error:
        corpus_load(path=path, wave="1.0", language="fr")
    assert error.value.errors == {
        "path": ["c.jsonl line 2: not JSON (Expecting property name enclosed in double quotes)"]
    }
    assert Article.objects.count() == 0


def test_a_split_fixed_by_hand_is_kept_by_later_loads(db, piaf_path, tmp_path):
    corpus_load(path=piaf_path, wave="1.0", language="fr", seed=1)
    article = Article.objects.filter(split="train").first()
    article_set_split(article=article, split="test")
    article.refresh_from_db()
    assert (article.split, article.split_fixed) == ("test", True)
    more = tmp_path / "more.jsonl"
    more.write_text(
        "".join(
            json.dumps({"title": f"New {i}", "paragraphs": ["x" * 600]}) + "\n" for i in range(30)
        ),
        encoding="utf-8",
    )
    corpus_load(path=more, wave="1.1", language="fr", seed=1)
    article.refresh_from_db()
    assert article.split == "test"


def test_an_unknown_split_is_refused(db, piaf_path):
    corpus_load(path=piaf_path, wave="1.0", language="fr")
    article = Article.objects.first()
    with pytest.raises(ServiceError) as error:
        article_set_split(article=article, split="holdout")
    assert list(error.value.errors) == ["split"]
    article.refresh_from_db()
    assert article.split_fixed is False


def test_the_database_refuses_a_second_article_with_the_same_title(db):
    source = SourceArticle(title="Loire", source_title="Loire")
    assert (
        article_store(
            language="fr", source=source, paragraphs=["x"], wave="1", split="dev", kind="file"
        )
        is not None
    )
    assert (
        article_store(
            language="fr", source=source, paragraphs=["y"], wave="1", split="train", kind="file"
        )
        is None
    )
    with pytest.raises(IntegrityError), transaction.atomic():
        Article.objects.create(
            language="fr", title="Loire", wave="1", split="dev", source="file", text_sha256="0"
        )
    assert Paragraph.objects.get().text == "x"


def test_the_database_refuses_empty_paragraphs_and_duplicate_positions(db):
    source = SourceArticle(title="Loire", source_title="Loire")
    article = article_store(
        language="fr", source=source, paragraphs=["x"], wave="1", split="dev", kind="file"
    )
    with pytest.raises(IntegrityError), transaction.atomic():
        Paragraph.objects.create(article=article, position=1, text="")
    with pytest.raises(IntegrityError), transaction.atomic():
        Paragraph.objects.create(article=article, position=0, text="again")
