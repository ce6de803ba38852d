"""Issue 25, item 20: an answer whose text is not at its offset is refused alone.

PIAF v1.0 holds two such answers (article "Doris Day", offset 90: the text "sa voiture…"
starts at 89). `answer_types` used to raise a bare ValueError for the whole batch;
`answer_types_checked` refuses those two, naming each, and types the rest of the batch as
`answer_types` types them on their own.
"""

import json

import pytest

from evaluation.services.analysis.answer_types import (
    AnswerType,
    MisalignedAnswer,
    answer_types,
    answer_types_checked,
    load_french,
)
from tests.needs import PIAF, require_file

TEXT = "sa voiture entre en collision avec un train"


@pytest.fixture(scope="module")
def nlp():
    return load_french()


def doris_day_answers() -> list[tuple[str, int, str]]:
    """Every answer of PIAF's "Doris Day" paragraphs, as (context, start, text)."""
    require_file(PIAF)
    items = []
    for article in json.loads(PIAF.read_text(encoding="utf-8"))["data"]:
        if article["title"] != "Doris Day":
            continue
        for paragraph in article["paragraphs"]:
            for question in paragraph["qas"]:
                for answer in question["answers"]:
                    items.append((paragraph["context"], answer["answer_start"], answer["text"]))
    return items


def test_the_two_misaligned_piaf_answers_are_refused_alone_and_the_rest_typed(nlp):
    items = doris_day_answers()
    bad = [i for i, (context, start, text) in enumerate(items) if context[start:].find(text)]
    assert len(bad) == 2
    assert [(items[i][1], items[i][2]) for i in bad] == [(90, TEXT), (90, TEXT)]

    results = answer_types_checked(items, nlp=nlp)

    assert len(results) == len(items)
    for i in bad:
        refused = results[i]
        assert isinstance(refused, MisalignedAnswer)
        assert (refused.index, refused.start, refused.text) == (i, 90, TEXT)
        assert refused.found == "a voiture entre en collision avec un train."
        assert str(refused) == (
            f"answer {i} {TEXT!r} is not at offset 90 of its context "
            "(the context holds 'a voiture entre en collision avec un train.' there)"
        )
    good = [item for i, item in enumerate(items) if i not in bad]
    typed = [result for i, result in enumerate(results) if i not in bad]
    assert all(isinstance(result, AnswerType) for result in typed)
    assert typed == answer_types(good, nlp=nlp)
    # repaired (the importer's fix: the offset where the text is), the answer is typed
    context = items[bad[0]][0]
    (repaired,) = answer_types_checked([(context, 89, TEXT)], nlp=nlp)
    assert isinstance(repaired, AnswerType)


def test_answer_types_names_the_misaligned_answer_when_it_refuses_the_batch(nlp):
    items = [("Victor Hugo est né à Besançon.", 21, "Besançon"), ("Victor Hugo", 0, "Hugo")]

    with pytest.raises(MisalignedAnswer, match=r"^answer 1 'Hugo' is not at offset 0 ") as error:
        answer_types(items, nlp=nlp)
    assert isinstance(error.value, ValueError)  # callers that caught ValueError still do
    assert answer_types_checked(items, nlp=nlp)[0] == AnswerType.PLACE


def test_an_empty_or_negative_answer_is_refused_without_parsing_anything():
    class NoParsing:
        def pipe(self, texts, batch_size):
            raise AssertionError("nothing to parse")

    results = answer_types_checked([("Paris", 0, ""), ("Paris", -1, "Paris")], nlp=NoParsing())

    assert [type(result) for result in results] == [MisalignedAnswer, MisalignedAnswer]
    assert results[1].found == ""
