"""Offline corpus files: SQuAD contexts grouped by title, or a corpus JSONL."""

import json

import pytest

from corpus.readers import CorpusFileError, display_title, read_corpus_file


def test_piaf_contexts_are_grouped_by_title(piaf_path):
    articles = read_corpus_file(piaf_path)
    assert len(articles) == 191
    assert sum(len(a.paragraphs) for a in articles) == 761
    assert all(500 <= len(p) <= 996 for a in articles for p in a.paragraphs)
    sport = articles[0]
    assert (sport.title, sport.source_title) == ("Sport", "Sport")


def test_html_in_titles_is_stripped_for_display_and_kept_as_source(piaf_path):
    by_source = {a.source_title: a for a in read_corpus_file(piaf_path)}
    pomerium = by_source['<i><span class="lang-la" lang="la">Pomerium</span></i>']
    assert pomerium.title == "Pomerium"
    assert display_title("<i>Terminator 2 : Le Jugement dernier</i>") == (
        "Terminator 2 : Le Jugement dernier"
    )
    assert display_title("Ben &amp; Jerry&#39;s") == "Ben & Jerry's"


def test_the_2020_export_with_page_ids_reads_too(piaf_2020_path):
    articles = read_corpus_file(piaf_2020_path)
    assert len(articles) == 300
    assert articles[0].page_id == 2713


def test_jsonl_with_paragraphs_or_text(tmp_path):
    path = tmp_path / "corpus.jsonl"
    rows = [
        {"title": "A", "paragraphs": ["p1", "p2"], "url": "https://x/A", "revision_id": "7"},
        {"title": "B", "text": "== Intro ==\nsome text", "split": "dev"},
    ]
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n\n", encoding="utf-8")
    a, b = read_corpus_file(path)
    assert (a.paragraphs, a.text, a.url, a.revision_id) == (["p1", "p2"], None, "https://x/A", 7)
    assert (b.paragraphs, b.text, b.split) == ([], "== Intro ==\nsome text", "dev")


@pytest.mark.parametrize(
    ("content", "suffix", "message"),
    [
        ('{"title": "A"}\n', ".jsonl", "corpus.jsonl line 1: give 'paragraphs' (a list) or 'text'"),
        ('{"paragraphs": ["x"]}\n', ".jsonl", "corpus.jsonl line 1: 'title' is missing"),
        ("not json\n", ".jsonl", "corpus.jsonl line 1: not JSON (Expecting value)"),
        (
            '{"title": "A", "text": "t", "revision_id": "abc"}\n',
            ".jsonl",
            "corpus.jsonl line 1: expected a whole number from 0, got 'abc'",
        ),
        ('{"version": "1"}', ".json", "corpus.json: no 'data' list, so this is not a SQuAD file"),
        ("[1, 2]", ".json", "corpus.json: expected a JSON object with a 'data' list"),
        ('{"data": [{"paragraphs": []}]}', ".json", "corpus.json: data[0] has no title"),
        ("[1, 2]\n", ".jsonl", "corpus.jsonl line 1: expected a JSON object"),
        ('{"data": ["x"]}', ".json", "corpus.json: data[0] is not an object"),
        (
            '{"data": [{"title": "A", "paragraphs": [{"context": 5}]}]}',
            ".json",
            "corpus.json: data[0].paragraphs[0].context: a paragraph must be text",
        ),
        (
            '{"title": "A", "text": "t", "split": ["dev"]}\n',
            ".jsonl",
            "corpus.jsonl line 1: 'split' must be train, dev or test",
        ),
        (
            '{"title": "A", "text": "t", "page_id": -1}\n',
            ".jsonl",
            "corpus.jsonl line 1: expected a whole number from 0, got -1",
        ),
        (
            '{"title": "A", "text": "t", "page_id": 1000000000000000000000000000000}\n',
            ".jsonl",
            "corpus.jsonl line 1: expected a whole number from 0, got "
            "1000000000000000000000000000000",
        ),
        (
            '{"title": "<b></b>", "text": "t"}\n',
            ".jsonl",
            "corpus.jsonl line 1: the title is missing or empty once HTML is removed",
        ),
        (
            '{"title": "' + "x" * 400 + '", "text": "t"}\n',
            ".jsonl",
            "corpus.jsonl line 1: the title is longer than 300 characters",
        ),
        (
            '{"title": "A", "paragraphs": ["a\\u0000b"]}\n',
            ".jsonl",
            "corpus.jsonl line 1: a paragraph holds NUL or broken Unicode",
        ),
    ],
)
def test_bad_files_say_where_and_why(tmp_path, content, suffix, message):
    path = tmp_path / f"corpus{suffix}"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(CorpusFileError) as error:
        read_corpus_file(path)
    assert str(error.value) == message


def test_a_missing_file_is_reported(tmp_path):
    with pytest.raises(CorpusFileError, match="No such file or directory"):
        read_corpus_file(tmp_path / "nope.json")
