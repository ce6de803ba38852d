"""The dataset format writers and the SQuAD reader, on hand-made records and the PIAF files."""

import gzip
import hashlib
import io
import json
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest

from exports.formats import FORMATS
from exports.formats.hf import HfJsonlWriter
from exports.formats.mrqa import (
    MrqaWriter,
    TokenSpans,
    _load_spacy_tokenizer,
    detect_answers,
    simple_tokenizer,
    spacy_tokenizer,
)
from exports.formats.offsets import Alignment, AnswerCheck, check_answer
from exports.formats.records import (
    ExportAnswer,
    ExportArticle,
    ExportCounts,
    ExportParagraph,
    ExportQuestion,
    encode_json,
    json_ints,
    json_strings,
    json_text,
)
from exports.formats.squad import (
    SquadFormatError,
    SquadFormatWarning,
    SquadProblem,
    SquadWriter,
    read_squad,
)
from tests.needs import require_file, require_module

PIAF_V1 = Path("/work/shared/data/piaf/piaf-v1.0.json")
PIAF_2020 = Path("/work/shared/data/piaf/piaf-dataset-2020-02-24.json")

# "🎉" is one code point (two UTF-16 units, four UTF-8 bytes): "330 mètres" starts at 24.
EIFFEL = "🎉 La tour Eiffel mesure 330 mètres."
DORIS = "Née à Cincinnati, elle revient à Cincinnati."


def small_dataset() -> list[ExportArticle]:
    return [
        ExportArticle(
            "Tour Eiffel",
            [
                ExportParagraph(
                    EIFFEL,
                    [
                        ExportQuestion(
                            "q1", "Combien mesure la tour ?", [ExportAnswer("330 mètres", 24)]
                        )
                    ],
                    id="p1",
                )
            ],
        ),
        ExportArticle(
            "Doris Day",
            [
                ExportParagraph(
                    DORIS,
                    [
                        ExportQuestion(
                            "q2",
                            "Où est-elle née ?",
                            [ExportAnswer("Cincinnati", 6), ExportAnswer("à Cincinnati", 4)],
                        ),
                        ExportQuestion("q3", "Que fait-elle ?", [ExportAnswer("revient", 23)]),
                    ],
                )
            ],
        ),
    ]


def no_problem(problem: SquadProblem) -> None:
    pytest.fail(f"unexpected problem: {problem}")


def write(writer, articles) -> bytes:
    out = io.BytesIO()
    writer.write(articles, out)
    return out.getvalue()


def mrqa_lines(data: bytes) -> list[dict]:
    return [json.loads(line) for line in gzip.decompress(data).decode("utf-8").splitlines()]


# --- catalogue --------------------------------------------------------------------------------


def test_catalogue_names_each_writer_by_its_own_name():
    assert {name: cls.name for name, cls in FORMATS.items()} == {
        "squad": "squad",
        "hf": "hf",
        "mrqa": "mrqa",
    }
    assert [cls.extension for cls in FORMATS.values()] == [".json", ".jsonl", ".jsonl.gz"]


def test_format_modules_import_neither_django_nor_spacy():
    code = (
        "import sys, exports.formats, exports.formats.squad, exports.formats.hf, "
        "exports.formats.mrqa; print(sorted(m for m in sys.modules "
        "if m.split('.')[0] in ('django', 'spacy')))"
    )
    root = Path(__file__).resolve().parents[2]
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True
    )
    assert result.stdout == "[]\n"


def test_offsets_count_code_points_not_utf16_units_or_bytes():
    assert EIFFEL[24:34] == "330 mètres"
    assert EIFFEL.encode("utf-8").index(b"330") == 27
    assert len(EIFFEL[:24].encode("utf-16-le")) // 2 == 25


# --- SQuAD writer -----------------------------------------------------------------------------

EXPECTED_SQUAD = (
    '{"version": "1.1", "data": ['
    '{"title": "Tour Eiffel", "paragraphs": [{"context": "🎉 La tour Eiffel mesure 330 mètres.", '
    '"qas": [{"id": "q1", "question": "Combien mesure la tour ?", '
    '"answers": [{"text": "330 mètres", "answer_start": 24}]}]}]}, '
    '{"title": "Doris Day", "paragraphs": [{"context": "Née à Cincinnati, elle revient à Cincinnati.", '
    '"qas": [{"id": "q2", "question": "Où est-elle née ?", '
    '"answers": [{"text": "Cincinnati", "answer_start": 6}, {"text": "à Cincinnati", "answer_start": 4}]}, '
    '{"id": "q3", "question": "Que fait-elle ?", "answers": [{"text": "revient", "answer_start": 23}]}]}]}'
    "]}\n"
)


def test_squad_writer_writes_the_expected_bytes_and_counts():
    out = io.BytesIO()

    counts = SquadWriter().write(iter(small_dataset()), out)

    assert out.getvalue() == EXPECTED_SQUAD.encode("utf-8")
    assert counts == ExportCounts(articles=2, paragraphs=2, questions=3, answers=4)


def test_squad_writer_output_equals_json_dumps_of_the_whole_document():
    document = json.loads(EXPECTED_SQUAD)

    assert json.dumps(document, ensure_ascii=False) + "\n" == EXPECTED_SQUAD


def test_squad_writer_without_answers_keeps_questions_with_empty_answers():
    out = io.BytesIO()

    counts = SquadWriter(include_answers=False).write(small_dataset(), out)

    document = json.loads(out.getvalue())
    qas = [qa for a in document["data"] for p in a["paragraphs"] for qa in p["qas"]]
    assert [(qa["id"], qa["answers"]) for qa in qas] == [("q1", []), ("q2", []), ("q3", [])]
    assert counts == ExportCounts(articles=2, paragraphs=2, questions=3, answers=0)


def test_squad_writer_writes_an_empty_dataset():
    assert write(SquadWriter(version="2024.1"), []) == b'{"version": "2024.1", "data": []}\n'


def test_squad_round_trip_gives_back_the_records():
    data = write(SquadWriter(), small_dataset())

    articles = list(read_squad(io.BytesIO(data), on_problem=no_problem))

    expected = small_dataset()
    assert articles == [
        ExportArticle(a.title, [ExportParagraph(p.context, p.questions) for p in a.paragraphs])
        for a in expected
    ]


# --- SQuAD reader -----------------------------------------------------------------------------


def test_reader_accepts_missing_version_integer_ids_and_extra_keys():
    document = {
        "data": [
            {
                "title": "T",
                "wikipedia_page_id": "12",
                "paragraphs": [
                    {
                        "context": "Le chat dort.",
                        "extra": True,
                        "qas": [
                            {
                                "id": 7,
                                "question": "Qui dort ?",
                                "answers": [{"text": "Le chat", "answer_start": 0, "x": 1}],
                            }
                        ],
                    }
                ],
            }
        ]
    }

    articles = list(read_squad(io.StringIO(json.dumps(document)), on_problem=no_problem))

    question = ExportQuestion("7", "Qui dort ?", [ExportAnswer("Le chat", 0)])
    assert articles == [ExportArticle("T", [ExportParagraph("Le chat dort.", [question])])]


def malformed_document() -> dict:
    good = {"id": "ok", "question": "Q ?", "answers": [{"text": "a", "answer_start": 0}]}
    return {
        "version": "1.1",
        "data": [
            "not an article",
            {"paragraphs": []},
            {"title": "Sans paragraphes", "paragraphs": {}},
            {
                "title": "Mixte",
                "paragraphs": [
                    {"qas": []},
                    {
                        "context": "a b",
                        "qas": [
                            good,
                            {"question": "Sans id ?", "answers": []},
                            {"id": True, "question": "Booléen ?", "answers": []},
                            {"id": "ok", "question": "Doublon ?", "answers": []},
                            {"id": "q-empty", "question": " ", "answers": []},
                            {"id": "q-none", "question": "Réponses ?"},
                            {
                                "id": "q-start",
                                "question": "Début ?",
                                "answers": [{"text": "a", "answer_start": "0"}],
                            },
                            {
                                "id": "q-neg",
                                "question": "Négatif ?",
                                "answers": [{"text": "a", "answer_start": -1}],
                            },
                            {
                                "id": "q-text",
                                "question": "Texte ?",
                                "answers": [
                                    {"text": "a", "answer_start": 0},
                                    {"text": "", "answer_start": 0},
                                ],
                            },
                            {"id": "held-back", "question": "Test ?", "answers": []},
                        ],
                    },
                ],
            },
        ],
    }


def test_reader_reports_each_malformed_entry_with_its_place_and_keeps_the_rest():
    problems = []

    articles = list(
        read_squad(io.StringIO(json.dumps(malformed_document())), on_problem=problems.append)
    )

    at = "article 3 ('Mixte'), paragraph 1"
    assert [str(problem) for problem in problems] == [
        "article 0: expected an object, found a string",
        'article 1: "title" must be a string, found nothing',
        "article 2 ('Sans paragraphes'): \"paragraphs\" must be a list, found an object",
        "article 3 ('Mixte'), paragraph 0: \"context\" must be a string, found nothing",
        f'{at}, qa 1: "id" must be a string or an integer, found nothing',
        f'{at}, qa 2: "id" must be a string or an integer, found a boolean',
        f"{at}, qa 3 (id 'ok'): duplicate id, first seen at {at}, qa 0 (id 'ok')",
        f"{at}, qa 4 (id 'q-empty'): \"question\" must be a non-empty string, found ' '",
        f"{at}, qa 5 (id 'q-none'): \"answers\" must be a list, found nothing",
        f"{at}, qa 6 (id 'q-start'), answer 0: \"answer_start\" must be an integer >= 0, found '0'",
        f"{at}, qa 7 (id 'q-neg'), answer 0: \"answer_start\" must be an integer >= 0, found -1",
        f"{at}, qa 8 (id 'q-text'), answer 1: \"text\" must be a non-empty string, found ''",
    ]
    kept = [
        ExportQuestion("ok", "Q ?", [ExportAnswer("a", 0)]),
        ExportQuestion("held-back", "Test ?", []),
    ]
    assert articles == [ExportArticle("Mixte", [ExportParagraph("a b", kept)])]


def test_reader_warns_about_malformed_entries_by_default():
    source = io.StringIO(json.dumps({"data": [{"title": "T", "paragraphs": [1]}]}))

    with pytest.warns(
        SquadFormatWarning,
        match=r"^article 0 \('T'\), paragraph 0: expected an object, found a number$",
    ):
        articles = list(read_squad(source))

    assert articles == [ExportArticle("T", [])]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"data": [', r"^<file>: not valid JSON: Expecting value: line 1 column 11 \(char 10\)$"),
        ('{"version": "1.1"}', r'^<file>: expected an object with a "data" list$'),
        ("[]", r'^<file>: expected an object with a "data" list$'),
    ],
)
def test_reader_refuses_a_file_that_is_not_squad(content, message):
    with pytest.raises(SquadFormatError, match=message):
        read_squad(io.BytesIO(content.encode()))


def test_reader_names_the_file_it_refuses(tmp_path):
    path = tmp_path / "broken.json"
    path.write_bytes(b"\xff\xfe{")

    with pytest.raises(SquadFormatError, match=r"broken\.json: not valid JSON"):
        read_squad(path)


# --- answer alignment -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "start", "expected"),
    [
        ("330 mètres", 24, AnswerCheck(Alignment.ALIGNED, 24)),
        ("🎉", 0, AnswerCheck(Alignment.ALIGNED, 0)),
        ("330 mètres", 25, AnswerCheck(Alignment.REPAIRABLE, 24)),  # a UTF-16 offset
        ("330 mètres", 27, AnswerCheck(Alignment.REPAIRABLE, 24)),  # a UTF-8 offset
        ("330 mètres", -1, AnswerCheck(Alignment.REPAIRABLE, 24)),
        ("400 mètres", 24, AnswerCheck(Alignment.MISALIGNED, 24)),  # absent
        ("", 0, AnswerCheck(Alignment.MISALIGNED, 0)),
    ],
)
def test_check_answer_classifies_spans(text, start, expected):
    assert check_answer(EIFFEL, text, start) == expected


def test_check_answer_does_not_guess_between_two_occurrences():
    assert check_answer(DORIS, "Cincinnati", 0) == AnswerCheck(Alignment.MISALIGNED, 0)
    assert check_answer(DORIS, "Cincinnati", 33) == AnswerCheck(Alignment.ALIGNED, 33)


# --- PIAF -------------------------------------------------------------------------------------


def raw_questions(path: Path) -> list[tuple[str, str, list[tuple[str, int]]]]:
    document = json.loads(path.read_text(encoding="utf-8"))
    return [
        (str(qa["id"]), qa["question"], [(a["text"], a["answer_start"]) for a in qa["answers"]])
        for article in document["data"]
        for paragraph in article["paragraphs"]
        for qa in paragraph["qas"]
    ]


def record_questions(articles) -> list[tuple[str, str, list[tuple[str, int]]]]:
    return [
        (q.id, q.question, [(a.text, a.answer_start) for a in q.answers])
        for article in articles
        for paragraph in article.paragraphs
        for q in paragraph.questions
    ]


@pytest.mark.parametrize(("path", "count"), [(PIAF_V1, 3835), (PIAF_2020, 4748)])
def test_piaf_read_write_read_keeps_every_question_and_answer(path, count):
    articles = list(read_squad(path, on_problem=no_problem))

    written = write(SquadWriter(version="1.0"), articles)
    again = list(read_squad(io.BytesIO(written), on_problem=no_problem))

    assert len(record_questions(again)) == count
    assert record_questions(again) == raw_questions(path)
    assert again == articles


def test_piaf_2020_integer_ids_become_strings():
    questions = record_questions(read_squad(PIAF_2020, on_problem=no_problem))

    assert questions[0][:2] == ("1015", "Combien de personnes travaillent au ministère des sports")
    assert all(qid.isdigit() for qid, _, _ in questions)


@pytest.mark.parametrize(
    ("path", "ids"),
    [(PIAF_V1, ["p140295202893328", "p140295202390160"]), (PIAF_2020, ["272", "266"])],
)
def test_piaf_has_exactly_two_answers_one_character_off_which_are_repaired(path, ids):
    checks = [
        (
            article.title,
            paragraph_index,
            question.id,
            answer,
            check_answer(paragraph.context, answer.text, answer.answer_start),
        )
        for article in read_squad(path, on_problem=no_problem)
        for paragraph_index, paragraph in enumerate(article.paragraphs)
        for question in paragraph.questions
        for answer in question.answers
    ]

    flagged = [check for check in checks if check[4].alignment != Alignment.ALIGNED]
    text = "sa voiture entre en collision avec un train"
    assert flagged == [
        ("Doris Day", 0, qid, ExportAnswer(text, 90), AnswerCheck(Alignment.REPAIRABLE, 89))
        for qid in ids
    ]


def test_piaf_misaligned_answer_is_written_as_given_and_repairs_to_the_text():
    article = next(a for a in read_squad(PIAF_V1, on_problem=no_problem) if a.title == "Doris Day")
    paragraph = article.paragraphs[0]

    assert paragraph.context[90:133] == "a voiture entre en collision avec un train."
    assert paragraph.context[89:132] == "sa voiture entre en collision avec un train"
    document = json.loads(write(SquadWriter(), [article]))
    written = {qa["id"]: qa["answers"] for qa in document["data"][0]["paragraphs"][0]["qas"]}
    assert written["p140295202893328"] == [
        {"text": "sa voiture entre en collision avec un train", "answer_start": 90}
    ]


# --- HF JSONL ---------------------------------------------------------------------------------

EXPECTED_HF = (
    '{"id": "q1", "title": "Tour Eiffel", "context": "🎉 La tour Eiffel mesure 330 mètres.", '
    '"question": "Combien mesure la tour ?", "answers": {"text": ["330 mètres"], "answer_start": [24]}}\n'
    '{"id": "q2", "title": "Doris Day", "context": "Née à Cincinnati, elle revient à Cincinnati.", '
    '"question": "Où est-elle née ?", "answers": {"text": ["Cincinnati", "à Cincinnati"], "answer_start": [6, 4]}}\n'
    '{"id": "q3", "title": "Doris Day", "context": "Née à Cincinnati, elle revient à Cincinnati.", '
    '"question": "Que fait-elle ?", "answers": {"text": ["revient"], "answer_start": [23]}}\n'
)


def test_hf_writer_writes_one_line_per_question():
    out = io.BytesIO()

    counts = HfJsonlWriter().write(small_dataset(), out)

    assert out.getvalue() == EXPECTED_HF.encode("utf-8")
    assert counts == ExportCounts(articles=2, paragraphs=2, questions=3, answers=4)


def test_hf_lines_parse_back_to_the_records():
    lines = write(HfJsonlWriter(), small_dataset()).split(b"\n")

    assert lines[-1] == b""
    rows = [json.loads(line) for line in lines[:-1]]
    assert [
        (r["id"], r["question"], list(zip(*r["answers"].values(), strict=True))) for r in rows
    ] == (record_questions(small_dataset()))


def test_hf_writer_without_answers_writes_empty_lists():
    rows = [
        json.loads(line)
        for line in write(HfJsonlWriter(include_answers=False), small_dataset()).splitlines()
    ]

    assert [row["answers"] for row in rows] == [{"text": [], "answer_start": []}] * 3


def test_hf_jsonl_loads_with_hugging_face_datasets(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    datasets = require_module("datasets", "users read the HF JSONL with it")
    path = tmp_path / "train.jsonl"
    path.write_bytes(write(HfJsonlWriter(), small_dataset()))

    dataset = datasets.load_dataset(
        "json", data_files=str(path), split="train", cache_dir=str(tmp_path / "cache")
    )

    assert dataset.num_rows == 3
    assert dataset[1] == json.loads(EXPECTED_HF.splitlines()[1])
    assert dataset[0]["context"][24:34] == "330 mètres"


# --- MRQA -------------------------------------------------------------------------------------


def test_simple_tokenizer_splits_words_numbers_and_punctuation():
    assert simple_tokenizer("🎉 L'été, 1,5 km!") == [
        ("🎉", 0),
        ("L", 2),
        ("'", 3),
        ("été", 4),
        (",", 7),
        ("1,5", 9),
        ("km", 13),
        ("!", 15),
    ]


def test_token_spans_cover_the_tokens_a_char_span_overlaps():
    spans = TokenSpans(simple_tokenizer("Né à Paris, il"))  # Né à Paris , il

    assert spans.covering(5, 9) == (2, 2)
    assert spans.covering(3, 9) == (1, 2)
    assert spans.covering(6, 10) == (2, 3)  # inside a token: the whole token
    assert spans.covering(2, 2) is None  # a space alone


def test_mrqa_writer_writes_header_then_one_line_per_context():
    paragraph = ExportParagraph(
        "Né à Paris, il revient à Paris.",
        [
            ExportQuestion(
                "q1",
                "Où est-il né ?",
                [ExportAnswer("Paris", 5), ExportAnswer("à Paris", 3), ExportAnswer("Paris", 5)],
            )
        ],
    )
    out = io.BytesIO()

    counts = MrqaWriter(dataset="FQuAD", split="dev", tokenize=simple_tokenizer).write(
        [ExportArticle("Paris", [paragraph])], out
    )

    assert mrqa_lines(out.getvalue()) == [
        {"header": {"dataset": "FQuAD", "split": "dev"}},
        {
            "context": "Né à Paris, il revient à Paris.",
            "context_tokens": [
                ["Né", 0],
                ["à", 3],
                ["Paris", 5],
                [",", 10],
                ["il", 12],
                ["revient", 15],
                ["à", 23],
                ["Paris", 25],
                [".", 30],
            ],
            "qas": [
                {
                    "qid": "q1",
                    "question": "Où est-il né ?",
                    "question_tokens": [
                        ["Où", 0],
                        ["est", 3],
                        ["-", 6],
                        ["il", 7],
                        ["né", 10],
                        ["?", 13],
                    ],
                    "detected_answers": [
                        {
                            "text": "Paris",
                            "char_spans": [[5, 9], [25, 29]],
                            "token_spans": [[2, 2], [7, 7]],
                        },
                        {
                            "text": "à Paris",
                            "char_spans": [[3, 9], [23, 29]],
                            "token_spans": [[1, 2], [6, 7]],
                        },
                    ],
                    "answers": ["Paris", "à Paris", "Paris"],
                }
            ],
        },
    ]
    assert counts == ExportCounts(articles=1, paragraphs=1, questions=1, answers=3)


def test_mrqa_writes_the_paragraph_id_and_code_point_offsets():
    lines = mrqa_lines(
        write(MrqaWriter(dataset="d", split="s", tokenize=simple_tokenizer), small_dataset())
    )

    first = lines[1]
    assert list(first) == ["id", "context", "context_tokens", "qas"]
    assert first["id"] == "p1"
    assert first["qas"][0]["detected_answers"] == [
        {"text": "330 mètres", "char_spans": [[24, 33]], "token_spans": [[5, 6]]}
    ]
    assert first["context_tokens"][5:7] == [["330", 24], ["mètres", 28]]
    assert "id" not in lines[2]


def test_mrqa_without_answers_detects_nothing():
    lines = mrqa_lines(
        write(
            MrqaWriter(dataset="d", split="test", tokenize=simple_tokenizer, include_answers=False),
            small_dataset(),
        )
    )

    qas = [qa for line in lines[1:] for qa in line["qas"]]
    assert [(qa["qid"], qa["detected_answers"], qa["answers"]) for qa in qas] == [
        ("q1", [], []),
        ("q2", [], []),
        ("q3", [], []),
    ]


def test_mrqa_gzip_header_has_no_time_and_no_file_name():
    data = write(MrqaWriter(dataset="d", split="s", tokenize=simple_tokenizer), small_dataset())

    assert data[:3] == b"\x1f\x8b\x08"
    assert data[3] == 0  # no FNAME flag
    assert data[4:8] == b"\x00\x00\x00\x00"  # mtime 0


def assert_mrqa_spans_are_consistent(lines: list[dict]) -> int:
    """Check every detected span against the context and its tokens; return how many."""
    checked = 0
    for line in lines[1:]:
        context, tokens = line["context"], line["context_tokens"]
        for qa in line["qas"]:
            for detected in qa["detected_answers"]:
                assert detected["text"] in qa["answers"]
                for (start, end), (first, last) in zip(
                    detected["char_spans"], detected["token_spans"], strict=True
                ):
                    assert context[start : end + 1] == detected["text"]
                    overlapping = [
                        i
                        for i, (tok, off) in enumerate(tokens)
                        if off <= end and off + len(tok) > start
                    ]
                    assert overlapping == list(range(first, last + 1))
                    checked += 1
    return checked


def aligned_answers(articles) -> int:
    return sum(
        check_answer(p.context, a.text, a.answer_start).alignment == Alignment.ALIGNED
        for article in articles
        for p in article.paragraphs
        for q in p.questions
        for a in q.answers
    )


def test_mrqa_on_piaf_detects_every_aligned_answer_with_consistent_spans():
    articles = list(read_squad(PIAF_V1, on_problem=no_problem))

    lines = mrqa_lines(
        write(MrqaWriter(dataset="PIAF", split="train", tokenize=simple_tokenizer), articles)
    )

    assert lines[0] == {"header": {"dataset": "PIAF", "split": "train"}}
    assert len(lines) == 1 + 761
    assert [qa["qid"] for line in lines[1:] for qa in line["qas"]] == [
        q[0] for q in raw_questions(PIAF_V1)
    ]
    assert assert_mrqa_spans_are_consistent(lines) >= aligned_answers(articles) == 3833
    detected = {
        qa["qid"]: [span for d in qa["detected_answers"] for span in d["char_spans"]]
        for line in lines[1:]
        for qa in line["qas"]
    }
    missed = [
        (q.id, a.answer_start, detected[q.id])
        for article in articles
        for p in article.paragraphs
        for q in p.questions
        for a in q.answers
        if [a.answer_start, a.answer_start + len(a.text) - 1] not in detected[q.id]
    ]
    # The two answers annotated one character late are detected where their text really is.
    assert missed == [("p140295202893328", 90, [[89, 131]]), ("p140295202390160", 90, [[89, 131]])]


def test_mrqa_without_spacy_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "spacy", None)  # makes `import spacy` fail
    _load_spacy_tokenizer.cache_clear()
    out = io.BytesIO()

    with pytest.raises(ImportError, match=r"^MRQA export tokenizes with spaCy: install spacy"):
        MrqaWriter(dataset="d", split="s").write(small_dataset(), out)

    assert out.getvalue() == b""


# --- spaCy ------------------------------------------------------------------------------------


def require_spacy_model():
    require_module("spacy", "MRQA tokens")
    require_module("fr_core_news_sm", "the French spaCy pipeline (a main dependency)")


def test_the_mrqa_tokenizer_splits_all_of_piaf_as_the_pipelines_tokenizer_does():
    """Loaded fresh without lexeme attribute getters (a cold tokenizer's cost), it gives
    the tokens of spaCy's tokenizer as shipped, on every PIAF context and question."""
    require_spacy_model()
    import spacy

    data = json.loads(require_file(PIAF_V1).read_text())
    texts = [
        text
        for article in data["data"]
        for paragraph in article["paragraphs"]
        for text in [paragraph["context"], *(qa["question"] for qa in paragraph["qas"])]
    ]
    _load_spacy_tokenizer.cache_clear()
    ours = spacy_tokenizer()
    assert ours.tokenizer.vocab.lex_attr_getters == {}
    shipped = spacy.load("fr_core_news_sm").tokenizer
    expected = [[(token.text, token.idx) for token in doc] for doc in shipped.pipe(texts)]
    assert len(texts) == 4596
    assert sum(map(len, expected)) == 142323
    assert ours.many(texts) == expected


def test_spacy_tokenizer_gives_spacy_french_tokens_with_code_point_offsets():
    require_spacy_model()

    tokens = spacy_tokenizer()("🎉 L'homme a mesuré 330 mètres.")

    assert tokens == [
        ("🎉", 0),
        ("L'", 2),
        ("homme", 4),
        ("a", 10),
        ("mesuré", 12),
        ("330", 19),
        ("mètres", 23),
        (".", 29),
    ]


def piaf_texts(articles: list[ExportArticle]) -> list[str]:
    """Every context, then every question, of these articles."""
    paragraphs = [p for article in articles for p in article.paragraphs]
    return [p.context for p in paragraphs] + [q.question for p in paragraphs for q in p.questions]


def test_batched_spacy_tokens_are_each_text_s_own_on_all_of_piaf():
    require_spacy_model()
    texts = piaf_texts(list(read_squad(PIAF_V1, on_problem=no_problem)))
    tokenize = spacy_tokenizer()

    batched = [
        tokens for at in range(0, len(texts), 500) for tokens in tokenize.many(texts[at : at + 500])
    ]

    assert len(texts) == 761 + 3835
    assert batched == [tokenize(text) for text in texts]
    assert all(
        text[offset : offset + len(token)] == token
        for text, tokens in zip(texts, batched, strict=True)
        for token, offset in tokens
    )


def test_the_tagger_parser_and_ner_do_not_change_the_tokens():
    require_spacy_model()
    spacy = require_module("spacy", "MRQA tokens")
    nlp = spacy.load("fr_core_news_sm")  # the whole pipeline
    texts = piaf_texts(list(read_squad(PIAF_V1, on_problem=no_problem))[:8])

    whole = [[(token.text, token.idx) for token in doc] for doc in nlp.pipe(texts)]

    assert {"morphologizer", "parser", "ner"} <= set(nlp.pipe_names)
    assert len(texts) > 150
    assert spacy_tokenizer().many(texts) == whole


def test_mrqa_with_spacy_on_piaf_has_consistent_spans():
    require_spacy_model()
    articles = list(read_squad(PIAF_V1, on_problem=no_problem))[:20]

    lines = mrqa_lines(write(MrqaWriter(dataset="PIAF", split="train"), articles))

    assert assert_mrqa_spans_are_consistent(lines) >= aligned_answers(articles) > 0


# --- the bytes of the writers, against json.dumps ------------------------------------------

# Characters JSON encoders disagree on: quotes, backslash, controls, DEL, U+2028/U+2029 (kept
# raw by json.dumps with ensure_ascii=False, escaped by some fast encoders), non-BMP.
TRICKY = 'Il dit « "oui" » \\ puis\n\t\x00\x1f\x7f \u2028 \u2029 \u00e9\u0301 \U0001f389 fin.'


def tricky_dataset() -> list[ExportArticle]:
    return [
        ExportArticle(
            'Titre \u2028 « "cité" »',
            [
                ExportParagraph(
                    TRICKY,
                    [
                        ExportQuestion("q\u2029", "Qu'a-t-il dit ?", [ExportAnswer('"oui"', 9)]),
                        ExportQuestion("q2", "Puis ?", []),
                    ],
                )
            ],
        ),
        ExportArticle("Vide", []),
        *small_dataset(),
    ]


def test_the_tricky_answer_is_where_it_says():
    assert TRICKY[9:14] == '"oui"'


def squad_reference(articles, *, answers: bool = True) -> bytes:
    """The SQuAD document as json.dumps writes it whole."""
    document = {
        "version": "1.1",
        "data": [
            {
                "title": article.title,
                "paragraphs": [
                    {
                        "context": p.context,
                        "qas": [
                            {
                                "id": q.id,
                                "question": q.question,
                                "answers": [
                                    {"text": a.text, "answer_start": a.answer_start}
                                    for a in (q.answers if answers else [])
                                ],
                            }
                            for q in p.questions
                        ],
                    }
                    for p in article.paragraphs
                ],
            }
            for article in articles
        ],
    }
    return (json.dumps(document, ensure_ascii=False) + "\n").encode()


def hf_reference(articles, *, answers: bool = True) -> bytes:
    """One json.dumps line per question, the dict of the Hugging Face squad card."""
    lines = [
        json.dumps(
            {
                "id": q.id,
                "title": article.title,
                "context": p.context,
                "question": q.question,
                "answers": {
                    "text": [a.text for a in (q.answers if answers else [])],
                    "answer_start": [a.answer_start for a in (q.answers if answers else [])],
                },
            },
            ensure_ascii=False,
        )
        + "\n"
        for article in articles
        for p in article.paragraphs
        for q in p.questions
    ]
    return "".join(lines).encode()


@pytest.mark.parametrize("answers", [True, False], ids=["answers", "held-back"])
@pytest.mark.parametrize("source", ["tricky", "piaf"])
def test_squad_and_hf_bytes_are_json_dumps_of_the_records(source, answers):
    articles = tricky_dataset() if source == "tricky" else list(read_squad(PIAF_V1))

    squad = write(SquadWriter(include_answers=answers), articles)
    hf = write(HfJsonlWriter(include_answers=answers), articles)

    assert squad == squad_reference(articles, answers=answers)
    assert hf == hf_reference(articles, answers=answers)


def mrqa_reference(articles, tokenize, *, dataset: str, split: str) -> bytes:
    """The MRQA file as one json.dumps line per context, one tokenize call per text."""
    lines = [{"header": {"dataset": dataset, "split": split}}]
    for article in articles:
        for p in article.paragraphs:
            tokens = tokenize(p.context)
            spans = TokenSpans(tokens)
            lines.append(
                {
                    "context": p.context,
                    "context_tokens": tokens,
                    "qas": [
                        {
                            "qid": q.id,
                            "question": q.question,
                            "question_tokens": tokenize(q.question),
                            "detected_answers": detect_answers(
                                p.context, [a.text for a in q.answers], spans
                            ),
                            "answers": [a.text for a in q.answers],
                        }
                        for q in p.questions
                    ],
                }
            )
    raw = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines).encode()
    out = io.BytesIO()
    with gzip.GzipFile(fileobj=out, mode="wb", mtime=0, filename="") as stream:
        stream.write(raw)  # deflate's output does not depend on how its input is cut
    return out.getvalue()


def test_mrqa_in_batches_and_a_gzip_thread_writes_the_bytes_of_one_line_at_a_time():
    # PIAF 2020 has 942 paragraphs: many batches, more than the gzip thread may queue.
    articles = list(read_squad(PIAF_2020, on_problem=no_problem))
    writer = MrqaWriter(dataset="PIAF", split="train", tokenize=simple_tokenizer)

    data = write(writer, articles)

    reference = mrqa_reference(articles, simple_tokenizer, dataset="PIAF", split="train")
    assert data == reference
    assert len(mrqa_lines(data)) == 943


def test_pushing_records_one_by_one_writes_what_write_writes():
    articles = tricky_dataset()
    for make_writer in WRITERS.values():
        writer, out = make_writer(), io.BytesIO()
        writer.begin(out)
        for article in articles:
            writer.article(article.title)
            for paragraph in article.paragraphs:
                writer.paragraph(paragraph)
        counts = writer.end()

        assert out.getvalue() == write(make_writer(), articles)
        assert counts == ExportCounts(articles=4, paragraphs=3, questions=5, answers=5)


def test_a_failing_file_stops_the_mrqa_writer_with_its_error():
    class Full(io.RawIOBase):
        def writable(self):
            return True

        def write(self, data):
            raise OSError("No space left on device")

    with pytest.raises(OSError, match="No space left on device"):
        MrqaWriter(dataset="d", split="s", tokenize=simple_tokenizer).write(
            generated_dataset(2_000), Full()
        )


@pytest.mark.parametrize(
    "value",
    [
        TRICKY,
        "",
        [TRICKY, "", "a"],
        [],
        [0, 7, 10**20, -1],
        {"a": [1, 2], "é": {"x": None, "y": True, "z": 1.5}},
    ],
)
def test_the_shared_encoders_write_what_json_dumps_writes(value):
    expected = json.dumps(value, ensure_ascii=False)

    assert encode_json(value) == expected.encode("utf-8")
    assert json_text(value) == expected
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        assert json_strings(value) == expected
    if isinstance(value, list) and all(isinstance(v, int) for v in value):
        assert json_ints(value) == expected


# --- determinism and memory -------------------------------------------------------------------


WRITERS = {
    "squad": SquadWriter,
    "hf": HfJsonlWriter,
    "mrqa": lambda: MrqaWriter(dataset="d", split="s", tokenize=simple_tokenizer),
}


@pytest.mark.parametrize("make_writer", WRITERS.values(), ids=WRITERS.keys())
def test_writing_twice_gives_the_same_bytes(make_writer):
    articles = list(read_squad(PIAF_2020, on_problem=no_problem))

    first = hashlib.sha256(write(make_writer(), articles)).hexdigest()
    second = hashlib.sha256(write(make_writer(), articles)).hexdigest()

    assert first == second


MEMORY_BOUND = 2_000_000  # bytes; the writers peak far below, the dataset far above


class HashingSink(io.RawIOBase):
    """A binary file that keeps only a hash and a size of what it is given."""

    def __init__(self):
        self.sha256 = hashlib.sha256()
        self.size = 0

    def writable(self):
        return True

    def write(self, data):
        self.sha256.update(data)
        self.size += len(data)
        return len(data)


def generated_dataset(questions: int):
    """Yield articles of 2 paragraphs of 10 questions, each paragraph a fresh 1.3 kB string."""
    filler = "Gustave Eiffel présenta ultérieurement l'extraordinaire charpente métallique. " * 16
    for article in range(questions // 20):

        def paragraphs(article=article):
            for n in range(2):
                context = f"Paragraphe {article}-{n} : la tour mesure 330 mètres. {filler}"
                yield ExportParagraph(
                    context,
                    [
                        ExportQuestion(
                            f"{article}-{n}-{k}",
                            f"Question {k} ?",
                            [ExportAnswer("330 mètres", context.index("330"))],
                        )
                        for k in range(10)
                    ],
                )

        yield ExportArticle(f"Article {article}", paragraphs())


@pytest.mark.parametrize("make_writer", WRITERS.values(), ids=WRITERS.keys())
def test_writers_stream_without_holding_the_dataset(make_writer):
    # A first small write does what happens once in a process (imports, compiled patterns,
    # the encoders' caches), so the peak below is the write's own. The MRQA writer's peak
    # depends a little on its gzip thread's pace (a batch of lines may wait for it): since
    # its batch takes tokens as its lines need them and hands its lines over unjoined, it
    # peaks at 1.01-1.04 MB idle and 0.87-1.02 MB with 4 busy processes on 2 cores (it was
    # 1.77 MB idle and reached 2.01 MB under load, past the bound).
    make_writer().write(generated_dataset(10), HashingSink())
    writer, sink = make_writer(), HashingSink()
    tracemalloc.start()
    try:
        counts = writer.write(generated_dataset(20_000), sink)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()

    assert counts.questions == 20_000
    assert peak < MEMORY_BOUND


def test_the_memory_bound_is_smaller_than_the_dataset():
    tracemalloc.start()
    try:
        held = [ExportArticle(a.title, list(a.paragraphs)) for a in generated_dataset(20_000)]
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()

    assert peak > MEMORY_BOUND
    assert len(write(SquadWriter(), held)) > MEMORY_BOUND
