"""PIAF in, releases out: every question, answer and offset comes back through the commands."""

from __future__ import annotations

import gzip
import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from exports.formats.squad import read_squad
from tests.needs import PIAF, PIAF_2020, require_file, require_module

DORIS_DAY = ("p140295202893328", "p140295202390160")  # annotated at 90, the text is at 89
DORIS_DAY_ANSWER = "sa voiture entre en collision avec un train"


def command(*args) -> dict:
    out = StringIO()
    call_command(*args, "--json", stdout=out)
    return json.loads(out.getvalue())


def import_file(path: Path) -> dict:
    return command("import_squad", str(path), "--wave", "1.0")


def export(out: Path, *args) -> dict:
    return command("export_release", "--out", str(out), *args)


def file_questions(path: Path) -> dict[str, tuple[str, str, list[tuple[str, int]]]]:
    """{id: (context, question, [(answer, start), ...])} straight from a SQuAD file."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return {
        str(qa["id"]): (
            paragraph["context"],
            qa["question"],
            [(a["text"], a["answer_start"]) for a in qa["answers"]],
        )
        for article in data["data"]
        for paragraph in article["paragraphs"]
        for qa in paragraph["qas"]
    }


def exported_questions(folder: Path) -> dict[str, tuple[str, str, list[tuple[str, int]]]]:
    """The same mapping, read back from the three SQuAD files of a release with read_squad."""
    found = {}
    problems = []
    for split in ("train", "dev", "test"):
        for article in read_squad(folder / f"squad-{split}.json", on_problem=problems.append):
            for paragraph in article.paragraphs:
                for question in paragraph.questions:
                    assert question.id not in found, question.id
                    found[question.id] = (
                        paragraph.context,
                        question.question,
                        [(a.text, a.answer_start) for a in question.answers],
                    )
    assert problems == []
    return found


@pytest.fixture
def piaf(db):
    path = require_file(PIAF)
    return path, import_file(path)


def test_piaf_comes_back_whole_from_the_squad_files(piaf, tmp_path):
    path, report = piaf
    assert (report["questions_imported"], report["answers_imported"]) == (3835, 3835)
    assert report["repaired"] == [
        {"id": DORIS_DAY[0], "from": 90, "to": 89},
        {"id": DORIS_DAY[1], "from": 90, "to": 89},
    ]
    assert (report["misaligned"], report["problems"], report["duplicates"]) == ([], [], [])

    result = export(tmp_path / "out", "--formats", "squad,hf", "--include-test-answers")

    assert [f["name"] for f in result["files"]] == [
        "squad-train.json",
        "hf-train.jsonl",
        "squad-dev.json",
        "hf-dev.jsonl",
        "squad-test.json",
        "hf-test.jsonl",
        "README.md",
        "manifest.json",
    ]
    counts = {f["name"]: f["counts"] for f in result["files"]}
    assert sum(counts[f"squad-{s}.json"]["questions"] for s in ("train", "dev", "test")) == 3835
    assert sum(counts[f"squad-{s}.json"]["answers"] for s in ("train", "dev", "test")) == 3835
    assert sum(counts[f"squad-{s}.json"]["articles"] for s in ("train", "dev", "test")) == 191
    assert sum(counts[f"squad-{s}.json"]["paragraphs"] for s in ("train", "dev", "test")) == 761

    expected = file_questions(path)
    for qid in DORIS_DAY:
        context, question, answers = expected[qid]
        assert answers == [(DORIS_DAY_ANSWER, 90)]
        assert context[89 : 89 + len(DORIS_DAY_ANSWER)] == DORIS_DAY_ANSWER
        expected[qid] = (context, question, [(DORIS_DAY_ANSWER, 89)])
    # Contexts, questions, answers and offsets come back exactly.
    found = exported_questions(tmp_path / "out")
    assert len(found) == 3835
    assert found == expected
    for qid in DORIS_DAY:
        assert found[qid][2] == [(DORIS_DAY_ANSWER, 89)]
        context = found[qid][0]
        assert context[89 : 89 + len(DORIS_DAY_ANSWER)] == DORIS_DAY_ANSWER


def test_piaf_question_texts_come_back_verbatim(piaf, tmp_path):
    path, _report = piaf
    export(tmp_path / "out", "--formats", "squad", "--include-test-answers")

    expected = {qid: question for qid, (_c, question, _a) in file_questions(path).items()}
    found = {
        qid: question for qid, (_c, question, _a) in exported_questions(tmp_path / "out").items()
    }
    assert set(found) == set(expected)
    differing = {
        qid: (expected[qid], found[qid]) for qid in expected if found[qid] != expected[qid]
    }
    # Kept verbatim: 44 PIAF questions hold a double space, and one the no-break spaces of
    # French typography ("«\xa0l’élément 120\xa0»").
    assert differing == {}


def test_the_titles_come_back_without_their_html(piaf, tmp_path):
    export(tmp_path / "out", "--formats", "squad", "--include-test-answers")

    titles = set()
    for split in ("train", "dev", "test"):
        titles |= {a.title for a in read_squad(tmp_path / "out" / f"squad-{split}.json")}
    assert len(titles) == 191
    assert "Terminator 2 : Le Jugement dernier" in titles
    assert "Pomerium" in titles
    assert not any("<" in title for title in titles)


def test_the_hf_files_load_with_hugging_face_datasets(piaf, tmp_path, monkeypatch):
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    datasets = require_module("datasets", "users read the HF JSONL with it")
    path, _report = piaf
    export(tmp_path / "out", "--formats", "hf", "--include-test-answers")
    files = [str(tmp_path / "out" / f"hf-{split}.jsonl") for split in ("train", "dev", "test")]

    loaded = datasets.load_dataset(
        "json", data_files=files, split="train", cache_dir=str(tmp_path / "cache")
    )

    assert loaded.num_rows == 3835
    assert loaded.column_names == ["id", "title", "context", "question", "answers"]
    rows = {row["id"]: row for row in loaded}
    assert len(rows) == 3835
    context, question, _answers = file_questions(path)[DORIS_DAY[0]]
    assert rows[DORIS_DAY[0]] == {
        "id": DORIS_DAY[0],
        "title": rows[DORIS_DAY[0]]["title"],
        "context": context,
        "question": "Peux-tu me raconter l'accident de Doris Day ?",
        "answers": {"text": [DORIS_DAY_ANSWER], "answer_start": [89]},
    }
    assert rows[DORIS_DAY[0]]["title"] == "Doris Day"
    per_split = {
        split: datasets.load_dataset(
            "json",
            data_files=str(tmp_path / "out" / f"hf-{split}.jsonl"),
            split="train",
            cache_dir=str(tmp_path / "cache"),
        ).num_rows
        for split in ("train", "dev", "test")
    }
    assert sum(per_split.values()) == 3835


def test_every_detected_mrqa_span_is_the_answer_text(piaf, tmp_path):
    result = export(tmp_path / "out", "--formats", "mrqa", "--include-test-answers")

    questions = detected = 0
    for split in ("train", "dev", "test"):
        raw = (tmp_path / "out" / f"mrqa-{split}.jsonl.gz").read_bytes()
        lines = [json.loads(line) for line in gzip.decompress(raw).decode().splitlines()]
        assert lines[0] == {"header": {"dataset": "dataset", "split": split}}
        for line in lines[1:]:
            context, tokens = line["context"], line["context_tokens"]
            for qa in line["qas"]:
                questions += 1
                assert len(qa["answers"]) == 1
                assert [d["text"] for d in qa["detected_answers"]] == qa["answers"]
                for found in qa["detected_answers"]:
                    for (start, end), (first, last) in zip(
                        found["char_spans"], found["token_spans"], strict=True
                    ):
                        assert context[start : end + 1] == found["text"]
                        overlapping = [
                            i
                            for i, (token, offset) in enumerate(tokens)
                            if offset <= end and offset + len(token) > start
                        ]
                        assert overlapping == list(range(first, last + 1))
                        detected += 1
    assert questions == 3835
    assert detected >= 3835  # every answer, and its other occurrences in the context
    counts = {f["name"]: f["counts"] for f in result["files"]}
    assert sum(counts[f"mrqa-{s}.jsonl.gz"]["answers"] for s in ("train", "dev", "test")) == 3835


def test_the_2020_export_with_integer_ids_comes_back_with_string_ids(db, tmp_path):
    path = require_file(PIAF_2020)
    raw = json.loads(path.read_text(encoding="utf-8"))
    raw_ids = [qa["id"] for a in raw["data"] for p in a["paragraphs"] for qa in p["qas"]]
    assert all(isinstance(i, int) for i in raw_ids)
    report = import_file(path)
    assert report["questions_imported"] == 4748

    export(tmp_path / "out", "--formats", "squad,hf", "--include-test-answers")

    squad_ids, hf_ids = [], []
    for split in ("train", "dev", "test"):
        data = json.loads((tmp_path / "out" / f"squad-{split}.json").read_text(encoding="utf-8"))
        squad_ids += [qa["id"] for a in data["data"] for p in a["paragraphs"] for qa in p["qas"]]
        lines = (tmp_path / "out" / f"hf-{split}.jsonl").read_text(encoding="utf-8")
        hf_ids += [json.loads(line)["id"] for line in lines.splitlines()]
    assert all(isinstance(i, str) for i in squad_ids + hf_ids)
    assert sorted(squad_ids) == sorted(hf_ids) == sorted(str(i) for i in raw_ids)
    found = exported_questions(tmp_path / "out")
    assert found["272"][2][0] == (found["272"][0][89 : 89 + len(found["272"][2][0][0])], 89)
    expected = file_questions(path)
    for qid in ("272", "266"):
        context, question, answers = expected[qid]
        expected[qid] = (context, question, [(answers[0][0], 89), *answers[1:]])
    assert found == expected
