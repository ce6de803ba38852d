"""SQuAD v2.0 releases and imports: unanswerable questions with their plausible answers.

A small SQuAD 2.0 file, written here the way the official files are (train-v2.0.json and
dev-v2.0.json: `is_impossible` on every qa, `"answers": []` and `plausible_answers` on the
unanswerable ones, several answers and several plausible answers by different annotators on
dev), is imported, then released in v2.0 and in v1.1, through the command and the services.
"""

from __future__ import annotations

import gzip
import io
import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from rest_framework.test import APIClient

from annotation.models import Answer, Question
from core.errors import ServiceError
from core.roles import Role
from exports.formats.records import ExportAnswer, ExportArticle, ExportParagraph, ExportQuestion
from exports.formats.squad import SquadWriter, read_squad
from exports.models import Release
from exports.options import check_options
from exports.services.importing import squad_import
from exports.services.releases import release_build, release_create, release_gold
from tests.factories import UserFactory
from tests.needs import require_module

pytestmark = pytest.mark.usefixtures("releases_folder")

LYON_1 = (
    "Lyon est située au confluent du Rhône et de la Saône. La ville compte 522 250 habitants "
    "en 2020, ce qui en fait la troisième commune de France. Son centre historique est inscrit "
    "au patrimoine mondial de l'UNESCO depuis 1998."
)
LYON_2 = (
    "La basilique Notre-Dame de Fourvière domine la ville depuis la colline de Fourvière. Sa "
    "construction, financée par souscription, s'est achevée en 1884."
)
MARSEILLE_1 = (
    "Marseille est la plus ancienne ville de France, fondée vers 600 av. J.-C. par des marins "
    "grecs venus de Phocée. Son port, le Vieux-Port, fut longtemps le cœur de son activité "
    "commerciale."
)
MARSEILLE_2 = (
    "Le Mucem, musée des civilisations de l'Europe et de la Méditerranée, a ouvert ses portes "
    "en 2013 sur l'esplanade du J4."
)
NIMES = (
    "Les arènes de Nîmes, amphithéâtre romain construit vers 100 apr. J.-C., accueillent "
    "encore des spectacles."
)
TOULOUSE = (
    "Toulouse est surnommée la ville rose en raison de la couleur de ses briques. Airbus y a "
    "son siège depuis 1970."
)


def qa(qid: str, question: str, answers=(), plausible=None) -> dict:
    """A qa as the official files write it: plausible_answers first on an unanswerable one."""
    spans = [{"text": text, "answer_start": start} for text, start in answers]
    if plausible is None:
        return {"question": question, "id": qid, "answers": spans, "is_impossible": False}
    return {
        "plausible_answers": [{"text": text, "answer_start": start} for text, start in plausible],
        "question": question,
        "id": qid,
        "answers": [],
        "is_impossible": True,
    }


DEV_FILE = {
    "version": "v2.0",
    "data": [
        {
            "title": "Lyon",
            "paragraphs": [
                {
                    "context": LYON_1,
                    "qas": [
                        qa(
                            "lyon-1",
                            "Au confluent de quels cours d'eau Lyon est-elle située ?",
                            [
                                ("du Rhône et de la Saône", 29),
                                ("Rhône et de la Saône", 32),
                                ("du Rhône et de la Saône", 29),
                            ],
                        ),
                        qa(
                            "lyon-2",
                            "Combien d'habitants Lyon compte-t-elle en 2020 ?",
                            [("522 250", 70)],
                        ),
                        qa(
                            "lyon-3",
                            "Combien d'habitants Lyon comptait-elle en 1998 ?",
                            plausible=[("522 250", 70)],
                        ),
                        # Two annotators' plausible answers, as dev-v2.0.json has them.
                        qa(
                            "lyon-4",
                            "Depuis quand le centre de Marseille est-il inscrit au patrimoine "
                            "mondial ?",
                            plausible=[("1998", 219), ("depuis 1998", 212)],
                        ),
                        # Given 2 code points late: the text is once in the paragraph (112).
                        qa(
                            "lyon-5",
                            "Quelle est la deuxième commune de France ?",
                            plausible=[("la troisième commune de France", 114)],
                        ),
                    ],
                },
                {
                    "context": LYON_2,
                    "qas": [
                        qa("lyon-6", "Qui a dessiné les vitraux de la basilique ?", plausible=[]),
                        qa(
                            "lyon-7",
                            "En quelle année la construction de la basilique s'est-elle achevée ?",
                            [("1884", 146), ("en 1884", 143)],
                        ),
                    ],
                },
            ],
        },
        {
            "title": "Marseille",
            "paragraphs": [
                {
                    "context": MARSEILLE_1,
                    "qas": [
                        qa(
                            "mars-1",
                            "Qui a fondé Marseille ?",
                            [("des marins grecs venus de Phocée", 78)],
                        ),
                        qa(
                            "mars-2",
                            "Qui a fondé Lyon ?",
                            plausible=[("des marins grecs venus de Phocée", 78)],
                        ),
                        # Not in the paragraph: kept for the record, flagged, never released.
                        qa(
                            "mars-3",
                            "Quel est le nom du port de Toulon ?",
                            plausible=[("Vieux Port", 131)],
                        ),
                    ],
                },
                {
                    "context": MARSEILLE_2,
                    "qas": [
                        qa(
                            "mars-4",
                            "En quelle année le Mucem a-t-il fermé ses portes ?",
                            plausible=[("2013", 92)],
                        )
                    ],
                },
            ],
        },
        {
            "title": "Nîmes",
            "paragraphs": [
                {
                    "context": NIMES,
                    "qas": [
                        qa(
                            "nimes-1",
                            "Quand les arènes de Nîmes furent-elles restaurées ?",
                            plausible=[("vers 100 apr. J.-C.", 51)],
                        )
                    ],
                }
            ],
        },
    ],
}

TEST_FILE = {
    "version": "v2.0",
    "data": [
        {
            "title": "Toulouse",
            "paragraphs": [
                {
                    "context": TOULOUSE,
                    "qas": [
                        qa(
                            "toul-1",
                            "Pourquoi Toulouse est-elle surnommée la ville rose ?",
                            [("la couleur de ses briques", 50)],
                        ),
                        qa(
                            "toul-2",
                            "Depuis quand Airbus a-t-il quitté Toulouse ?",
                            plausible=[("1970", 105)],
                        ),
                    ],
                }
            ],
        }
    ],
}

UNANSWERABLE_DEV = ["lyon-3", "lyon-4", "lyon-5", "lyon-6", "mars-2", "mars-3", "mars-4", "nimes-1"]


def v2_expected(document: dict) -> dict:
    """What a v2.0 release gives back of an imported file: the same questions in our key order
    (id, question, answers, is_impossible, plausible_answers), the repaired offset, the
    misaligned plausible answer left out."""
    repaired = {("lyon-5", 114): 112}

    def spans(qid, items):
        return [
            {
                "text": s["text"],
                "answer_start": repaired.get((qid, s["answer_start"]), s["answer_start"]),
            }
            for s in items
            if qid != "mars-3"  # its one plausible answer is misaligned
        ]

    def our_qa(raw):
        out = {
            "id": raw["id"],
            "question": raw["question"],
            "answers": spans(raw["id"], raw["answers"]),
            "is_impossible": raw["is_impossible"],
        }
        if raw["is_impossible"]:
            out["plausible_answers"] = spans(raw["id"], raw["plausible_answers"])
        return out

    return {
        "version": "v2.0",
        "data": [
            {
                "title": article["title"],
                "paragraphs": [
                    {"context": p["context"], "qas": [our_qa(q) for q in p["qas"]]}
                    for p in article["paragraphs"]
                ],
            }
            for article in document["data"]
        ],
    }


def v1_expected(document: dict) -> dict:
    """The v1.1 release of the same data: the answerable questions only, and only the
    paragraphs and articles that have one."""
    data = []
    for article in document["data"]:
        paragraphs = []
        for p in article["paragraphs"]:
            qas = [
                {"id": q["id"], "question": q["question"], "answers": q["answers"]}
                for q in p["qas"]
                if not q["is_impossible"]
            ]
            if qas:
                paragraphs.append({"context": p["context"], "qas": qas})
        if paragraphs:
            data.append({"title": article["title"], "paragraphs": paragraphs})
    return {"version": "1.1", "data": data}


def dumped(document: dict) -> bytes:
    return json.dumps(document, ensure_ascii=False).encode() + b"\n"


@pytest.fixture
def files(tmp_path) -> dict[str, Path]:
    paths = {}
    for split, document in (("dev", DEV_FILE), ("test", TEST_FILE)):
        paths[split] = tmp_path / f"fquad2-{split}.json"
        paths[split].write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    return paths


@pytest.fixture
def imported(db, files):
    dev = squad_import(path=files["dev"], wave="2.0", language="fr", split="dev")
    test = squad_import(path=files["test"], wave="2.0", language="fr", split="test")
    return dev, test


def export(out: Path, *args: str) -> dict:
    stdout = io.StringIO()
    call_command("export_release", "--out", str(out), "--json", *args, stdout=stdout)
    return json.loads(stdout.getvalue())


def mrqa_lines(data: bytes) -> list[dict]:
    return [json.loads(line) for line in gzip.decompress(data).decode().splitlines()]


def jsonl(data: bytes) -> list[dict]:
    return [json.loads(line) for line in data.decode().splitlines()]


# ---------------------------------------------------------------------------------------------
# Import


def test_offsets_of_the_file_are_where_its_texts_are():
    contexts = {}
    for document in (DEV_FILE, TEST_FILE):
        for article in document["data"]:
            for p in article["paragraphs"]:
                for q in p["qas"]:
                    contexts[q["id"]] = (
                        p["context"],
                        q["answers"] + q.get("plausible_answers", []),
                    )
    wrong = {
        (qid, span["text"], span["answer_start"])
        for qid, (context, spans) in contexts.items()
        for span in spans
        if context[span["answer_start"] :].startswith(span["text"]) is False
    }
    assert wrong == {
        ("lyon-5", "la troisième commune de France", 114),
        ("mars-3", "Vieux Port", 131),
    }


def test_a_squad_2_file_is_imported_with_its_unanswerable_questions_and_plausible_answers(
    imported,
):
    dev, _test = imported
    assert dev.as_dict() == {
        "articles_created": 3,
        "articles_matched": 0,
        "paragraphs_created": 5,
        "paragraphs_matched": 0,
        "questions_imported": 12,
        "answers_imported": 7,
        "unanswerable_imported": 8,
        "plausible_imported": 8,
        "duplicates": [],
        "repaired": [{"id": "lyon-5", "from": 114, "to": 112}],
        "misaligned": [{"id": "mars-3", "answer_start": 131, "text": "Vieux Port"}],
        "problems": [],
        "splits": {"dev": 3},
    }
    impossible = Question.objects.filter(is_impossible=True)
    assert sorted(impossible.values_list("source_id", flat=True)) == sorted(
        UNANSWERABLE_DEV + ["toul-2"]
    )
    assert sorted(
        Question.objects.filter(is_impossible=False).values_list("source_id", flat=True)
    ) == ["lyon-1", "lyon-2", "lyon-7", "mars-1", "toul-1"]
    # Every plausible answer is kept, each by its own import account, as answers are.
    plausible = Answer.objects.filter(kind=Answer.Kind.PLAUSIBLE).order_by("pk")
    assert list(
        plausible.values_list(
            "question__source_id", "author__username", "text", "answer_start", "misaligned"
        )
    ) == [
        ("lyon-3", "squad-import", "522 250", 70, False),
        ("lyon-4", "squad-import", "1998", 219, False),
        ("lyon-4", "squad-import-2", "depuis 1998", 212, False),
        ("lyon-5", "squad-import", "la troisième commune de France", 112, False),
        ("mars-2", "squad-import", "des marins grecs venus de Phocée", 78, False),
        ("mars-3", "squad-import", "Vieux Port", 131, True),
        ("mars-4", "squad-import", "2013", 92, False),
        ("nimes-1", "squad-import", "vers 100 apr. J.-C.", 51, False),
        ("toul-2", "squad-import", "1970", 105, False),
    ]
    # An unanswerable question has no answer of another kind; lyon-6 has none at all.
    assert (
        not Answer.objects.filter(question__is_impossible=True)
        .exclude(kind=Answer.Kind.PLAUSIBLE)
        .exists()
    )
    assert not Answer.objects.filter(question__source_id="lyon-6").exists()
    lyon_6 = Question.objects.get(source_id="lyon-6")
    version = lyon_6.revisions.get()
    assert (version.is_impossible, version.answer_start, version.answer_text) == (True, 0, "")
    lyon_4 = Question.objects.get(source_id="lyon-4").revisions.get()
    assert (lyon_4.is_impossible, lyon_4.answer_start, lyon_4.answer_text) == (True, 219, "1998")
    lyon_1 = Question.objects.get(source_id="lyon-1")
    assert list(lyon_1.answers.order_by("pk").values_list("author__username", "kind")) == [
        ("squad-import", "original"),
        ("squad-import-2", "additional"),
        ("squad-import-3", "additional"),
    ]


def test_importing_the_squad_2_file_again_stores_nothing_twice(imported, files):
    again = squad_import(path=files["dev"], wave="2.0", language="fr", split="dev")
    assert (again.questions_imported, again.unanswerable_imported, again.plausible_imported) == (
        0,
        0,
        0,
    )
    assert sorted(again.duplicates) == sorted(
        ["lyon-1", "lyon-2", "lyon-7", "mars-1", *UNANSWERABLE_DEV]
    )


def test_the_import_command_says_how_many_questions_are_unanswerable(db, files, capsys):
    call_command("import_squad", str(files["dev"]), "--wave", "2.0", "--split", "dev")
    out = capsys.readouterr().out
    assert out.splitlines()[0] == (
        "12 questions and 7 answers imported, 8 of the questions unanswerable (with 8 "
        "plausible answers)."
    )


def bad_qa_file(tmp_path: Path, entry: dict) -> Path:
    document = {
        "version": "v2.0",
        "data": [
            {
                "title": "Lyon",
                "paragraphs": [
                    {
                        "context": LYON_1,
                        "qas": [
                            qa("ok", "Combien d'habitants Lyon compte-t-elle ?", [("522 250", 70)]),
                            {"question": "Une question ?", "id": "bad", "answers": []} | entry,
                        ],
                    }
                ],
            }
        ],
    }
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("entry", "problem"),
    [
        (
            {"is_impossible": "yes"},
            '"is_impossible" must be true or false, found a string',
        ),
        (
            {"is_impossible": True, "answers": [{"text": "1998", "answer_start": 219}]},
            "an unanswerable question (is_impossible) cannot have answers",
        ),
        (
            {"is_impossible": True, "plausible_answers": {"text": "1998"}},
            '"plausible_answers" must be a list, found an object',
        ),
        (
            {"is_impossible": True, "plausible_answers": [{"text": "", "answer_start": 0}]},
            "plausible answer 0: \"text\" must be a non-empty string, found ''",
        ),
        (
            {"is_impossible": True, "plausible_answers": [{"text": "1998", "answer_start": -1}]},
            'plausible answer 0: "answer_start" must be an integer >= 0, found -1',
        ),
    ],
)
def test_a_malformed_unanswerable_question_is_skipped_and_named(db, tmp_path, entry, problem):
    report = squad_import(path=bad_qa_file(tmp_path, entry), wave="2.0", language="fr")

    assert report.questions_imported == 1
    assert len(report.problems) == 1
    assert report.problems[0].startswith("article 0 ('Lyon'), paragraph 0, qa 1 (id 'bad')")
    assert report.problems[0].endswith(problem)
    assert list(Question.objects.values_list("source_id", flat=True)) == ["ok"]


def test_an_answerable_question_without_answers_is_still_refused(db, tmp_path):
    report = squad_import(
        path=bad_qa_file(tmp_path, {"is_impossible": False}), wave="2.0", language="fr"
    )
    assert report.problems == [
        "article 'Lyon', id 'bad': no answer (the platform keeps answered questions only)"
    ]


def test_plausible_answers_of_an_answerable_question_are_ignored():
    document = {
        "data": [
            {
                "title": "T",
                "paragraphs": [
                    {
                        "context": "Le chat dort.",
                        "qas": [
                            {
                                "id": "q",
                                "question": "Qui dort ?",
                                "answers": [{"text": "Le chat", "answer_start": 0}],
                                "is_impossible": False,
                                "plausible_answers": [{"text": "dort", "answer_start": 8}],
                            }
                        ],
                    }
                ],
            }
        ]
    }
    problems = []
    articles = list(read_squad(io.StringIO(json.dumps(document)), on_problem=problems.append))
    assert problems == []
    assert list(articles[0].paragraphs)[0].questions == [
        ExportQuestion("q", "Qui dort ?", [ExportAnswer("Le chat", 0)])
    ]


# ---------------------------------------------------------------------------------------------
# The writer


def test_the_v2_writer_writes_the_squad_2_layout_and_hides_it_all_when_answers_are_held_back():
    articles = [
        ExportArticle(
            "Lyon",
            [
                ExportParagraph(
                    LYON_1,
                    [
                        ExportQuestion("a", "Combien ?", [ExportAnswer("522 250", 70)]),
                        ExportQuestion("u", "Depuis ?", [], True, [ExportAnswer("1998", 219)]),
                    ],
                )
            ],
        )
    ]
    context = json.dumps(LYON_1, ensure_ascii=False)
    out = io.BytesIO()
    counts = SquadWriter(version="v2.0", unanswerable=True).write(articles, out)
    assert out.getvalue().decode() == (
        '{"version": "v2.0", "data": [{"title": "Lyon", "paragraphs": [{"context": '
        + context
        + ', "qas": [{"id": "a", "question": "Combien ?", "answers": [{"text": "522 250", '
        '"answer_start": 70}], "is_impossible": false}, {"id": "u", "question": "Depuis ?", '
        '"answers": [], "is_impossible": true, "plausible_answers": [{"text": "1998", '
        '"answer_start": 219}]}]}]}]}\n'
    )
    assert counts.as_dict(unanswerable=True) == {
        "articles": 1,
        "paragraphs": 1,
        "questions": 2,
        "answers": 1,
        "unanswerable": 1,
        "left_out": 0,
    }
    held = io.BytesIO()
    SquadWriter(version="v2.0", unanswerable=True, include_answers=False).write(articles, held)
    assert held.getvalue().decode() == (
        '{"version": "v2.0", "data": [{"title": "Lyon", "paragraphs": [{"context": '
        + context
        + ', "qas": [{"id": "a", "question": "Combien ?", "answers": []}, {"id": "u", '
        '"question": "Depuis ?", "answers": []}]}]}]}\n'
    )


# ---------------------------------------------------------------------------------------------
# Round trip: import, export v2.0 (and v1.1), compare


def test_a_squad_2_file_comes_back_whole_from_a_v2_release(imported, tmp_path):
    result = export(
        tmp_path / "v2",
        "--squad-version",
        "2.0",
        "--formats",
        "squad,hf,mrqa",
        "--splits",
        "dev,test",
        "--include-test-answers",
    )

    assert result["squad_version"] == "2.0"
    squad = (tmp_path / "v2" / "squad-dev.json").read_bytes()
    assert squad == dumped(v2_expected(DEV_FILE))
    # Every id, is_impossible, answer and plausible answer of the file, compared as read.
    back = {
        q.id: q
        for article in read_squad(tmp_path / "v2" / "squad-dev.json")
        for p in article.paragraphs
        for q in p.questions
    }
    for article in DEV_FILE["data"]:
        for p in article["paragraphs"]:
            for raw in p["qas"]:
                q = back.pop(raw["id"])
                assert (q.question, q.is_impossible) == (raw["question"], raw["is_impossible"])
                assert [(a.text, a.answer_start) for a in q.answers] == [
                    (a["text"], a["answer_start"]) for a in raw["answers"]
                ]
                if raw["id"] == "lyon-5":  # repaired
                    assert q.plausible_answers == [
                        ExportAnswer("la troisième commune de France", 112)
                    ]
                elif raw["id"] == "mars-3":  # misaligned: not released
                    assert q.plausible_answers == []
                else:
                    assert [(a.text, a.answer_start) for a in q.plausible_answers] == [
                        (a["text"], a["answer_start"]) for a in raw.get("plausible_answers", [])
                    ], raw["id"]
    assert back == {}
    assert (tmp_path / "v2" / "squad-test.json").read_bytes() == dumped(v2_expected(TEST_FILE))
    counts = {f["name"]: f["counts"] for f in result["files"]}
    assert counts["squad-dev.json"] == {
        "articles": 3,
        "paragraphs": 5,
        "questions": 12,
        "answers": 7,
        "unanswerable": 8,
        "left_out": 0,
    }
    assert counts["hf-dev.jsonl"] == counts["squad-dev.json"]
    assert counts["mrqa-dev.jsonl.gz"] == {
        "articles": 2,
        "paragraphs": 3,
        "questions": 4,
        "answers": 7,
        "unanswerable": 0,
        "left_out": 8,
    }


def test_the_v1_release_of_the_same_data_leaves_the_unanswerable_questions_out(imported, tmp_path):
    result = export(
        tmp_path / "v1", "--formats", "squad,hf", "--splits", "dev,test", "--include-test-answers"
    )

    assert result["squad_version"] == "1.1"
    assert (tmp_path / "v1" / "squad-dev.json").read_bytes() == dumped(v1_expected(DEV_FILE))
    assert (tmp_path / "v1" / "squad-test.json").read_bytes() == dumped(v1_expected(TEST_FILE))
    hf_ids = [row["id"] for row in jsonl((tmp_path / "v1" / "hf-dev.jsonl").read_bytes())]
    assert hf_ids == ["lyon-1", "lyon-2", "lyon-7", "mars-1"]
    counts = {f["name"]: f["counts"] for f in result["files"]}
    assert counts["squad-dev.json"] == {
        "articles": 2,
        "paragraphs": 3,
        "questions": 4,
        "answers": 7,
    }
    readme = (tmp_path / "v1" / "README.md").read_text()
    assert "| split | wave | articles | paragraphs | questions |\n" in readme
    assert "unanswerable" not in readme


def test_the_hf_file_is_in_the_squad_v2_form_and_loads_with_datasets(imported, tmp_path):
    datasets = require_module("datasets", "users read the HF JSONL with it")
    export(tmp_path / "v2", "--squad-version", "2.0", "--formats", "hf", "--splits", "dev")
    path = tmp_path / "v2" / "hf-dev.jsonl"
    rows = jsonl(path.read_bytes())
    assert [row["id"] for row in rows] == [
        "lyon-1",
        "lyon-2",
        "lyon-3",
        "lyon-4",
        "lyon-5",
        "lyon-6",
        "lyon-7",
        "mars-1",
        "mars-2",
        "mars-3",
        "mars-4",
        "nimes-1",
    ]

    loaded = datasets.load_dataset(
        "json", data_files=str(path), split="train", cache_dir=str(tmp_path / "cache")
    )

    assert loaded.num_rows == 12
    assert loaded.column_names == ["id", "title", "context", "question", "answers"]
    by_id = {row["id"]: row for row in loaded}
    assert by_id["lyon-4"] == {
        "id": "lyon-4",
        "title": "Lyon",
        "context": LYON_1,
        "question": "Depuis quand le centre de Marseille est-il inscrit au patrimoine mondial ?",
        "answers": {"text": [], "answer_start": []},
    }
    assert by_id["lyon-1"]["answers"] == {
        "text": ["du Rhône et de la Saône", "Rhône et de la Saône", "du Rhône et de la Saône"],
        "answer_start": [29, 32, 29],
    }
    empty = sorted(i for i, row in by_id.items() if row["answers"]["text"] == [])
    assert empty == sorted(UNANSWERABLE_DEV)


def test_mrqa_leaves_the_unanswerable_questions_out_and_the_datasheet_says_so(imported, tmp_path):
    export(
        tmp_path / "v2", "--squad-version", "2.0", "--formats", "squad,mrqa", "--splits", "dev,test"
    )

    lines = mrqa_lines((tmp_path / "v2" / "mrqa-dev.jsonl.gz").read_bytes())
    assert [line["context"] for line in lines[1:]] == [LYON_1, LYON_2, MARSEILLE_1]
    assert [[qa["qid"] for qa in line["qas"]] for line in lines[1:]] == [
        ["lyon-1", "lyon-2"],
        ["lyon-7"],
        ["mars-1"],
    ]
    # The test answers are held back: its MRQA file keeps both questions, without answers.
    test = mrqa_lines((tmp_path / "v2" / "mrqa-test.jsonl.gz").read_bytes())
    assert [(qa["qid"], qa["answers"]) for qa in test[1]["qas"]] == [
        ("toul-1", []),
        ("toul-2", []),
    ]
    readme = (tmp_path / "v2" / "README.md").read_text()
    assert (
        "| split | wave | articles | paragraphs | questions | answerable | unanswerable |\n"
        "| --- | --- | --- | --- | --- | --- | --- |\n"
        "| dev | 2.0 | 3 | 5 | 12 | 4 | 8 |\n"
        "| test | 2.0 | 1 | 1 | 2 | 1 | 1 |\n"
    ) in readme
    assert (
        "MRQA has no unanswerable questions: the MRQA files leave them out, and a paragraph "
        "left with none; they left out 8 unanswerable questions (8 from mrqa-dev.jsonl.gz). "
        "A split whose answers are held back keeps every question in its MRQA file, without "
        "answers, so that nothing tells which ones are unanswerable."
    ) in readme
    assert (
        "Of these, 9 are unanswerable: the paragraph does not answer them, and the files give "
        "no answer but a plausible one, the span a careless reader would give (SQuAD 2.0's "
        "`plausible_answers`)."
    ) in readme


def test_the_held_back_test_split_shows_neither_answers_nor_which_questions_are_unanswerable(
    imported, tmp_path
):
    export(tmp_path / "v2", "--squad-version", "2.0", "--formats", "squad,hf", "--splits", "test")

    squad = json.loads((tmp_path / "v2" / "squad-test.json").read_bytes())
    assert squad["version"] == "v2.0"
    assert squad["data"][0]["paragraphs"][0]["qas"] == [
        {
            "id": "toul-1",
            "question": "Pourquoi Toulouse est-elle surnommée la ville rose ?",
            "answers": [],
        },
        {"id": "toul-2", "question": "Depuis quand Airbus a-t-il quitté Toulouse ?", "answers": []},
    ]
    hf = jsonl((tmp_path / "v2" / "hf-test.jsonl").read_bytes())
    assert [row["answers"] for row in hf] == [{"text": [], "answer_start": []}] * 2


# ---------------------------------------------------------------------------------------------
# A v2.0 release through the services, the API and the page


@pytest.fixture
def boss(db):
    return UserFactory(username="boss", roles=[Role.ADMIN])


def built(boss, name: str, **options) -> Release:
    release = release_create(created_by=boss, name=name, version="2.0", **options)
    release_build(release=release)
    release.refresh_from_db()
    assert release.status == Release.Status.SUCCEEDED, release.error
    return release


def test_the_gold_of_a_v2_release_gives_no_answer_to_an_unanswerable_question(
    imported, boss, releases_folder
):
    release = built(boss, "fquad-2.0", formats=["squad"], squad_version="2.0")

    assert release.squad_version == "2.0"
    assert release_gold(release=release, split="dev") == {
        "lyon-1": ["du Rhône et de la Saône", "Rhône et de la Saône", "du Rhône et de la Saône"],
        "lyon-2": ["522 250"],
        "lyon-3": [],
        "lyon-4": [],
        "lyon-5": [],
        "lyon-6": [],
        "lyon-7": ["1884", "en 1884"],
        "mars-1": ["des marins grecs venus de Phocée"],
        "mars-2": [],
        "mars-3": [],
        "mars-4": [],
        "nimes-1": [],
    }
    # The test answers are held back from the files, never from the gold the server scores.
    assert release_gold(release=release, split="test") == {
        "toul-1": ["la couleur de ses briques"],
        "toul-2": [],
    }
    gold = release.files.get(name="gold-dev.json")
    assert (gold.internal, gold.counts) == (True, {"questions": 12, "unanswerable": 8})
    manifest = json.loads(
        (releases_folder / "releases" / str(release.pk) / "manifest.json").read_bytes()
    )
    assert manifest["options"]["squad_version"] == "2.0"
    test_file = json.loads(
        (releases_folder / "releases" / str(release.pk) / "squad-test.json").read_bytes()
    )
    assert b"toul-2" in json.dumps(test_file).encode()
    assert "plausible_answers" not in json.dumps(test_file)
    assert "is_impossible" not in json.dumps(test_file)


def test_a_v1_release_of_the_same_data_has_no_unanswerable_gold(imported, boss):
    release = built(boss, "fquad-1.1", formats=["hf"])

    assert release.options["squad_version"] == "1.1"
    assert release_gold(release=release, split="test") == {"toul-1": ["la couleur de ses briques"]}
    assert release.files.get(name="gold-dev.json").counts == {"questions": 4}


def test_the_history_of_a_v2_release_says_which_versions_were_unanswerable(
    imported, boss, releases_folder
):
    release = built(
        boss, "fquad-history", formats=["hf"], squad_version="2.0", include_history=True
    )

    lines = jsonl((releases_folder / "releases" / str(release.pk) / "history.jsonl").read_bytes())
    by_id = {line["id"]: line for line in lines}
    assert len(by_id) == 14
    lyon_4 = by_id["lyon-4"]["versions"]
    assert [(v["answer_text"], v["answer_start"], v["is_impossible"]) for v in lyon_4] == [
        ("1998", 219, True)
    ]
    assert by_id["lyon-2"]["versions"][0]["is_impossible"] is False
    # The held-back test split: no span, and nothing that says which one is unanswerable.
    assert by_id["toul-2"]["versions"][0].keys() == {
        "version",
        "origin",
        "editor",
        "at",
        "question",
    }


def test_the_release_pages_show_the_squad_version(imported, boss, client):
    release = built(boss, "fquad-2.0", formats=["squad", "hf"], squad_version="2.0")
    client.force_login(boss)
    client.cookies["django_language"] = "en"

    detail = client.get(f"/manage/releases/{release.pk}/").content.decode()
    listing = client.get("/manage/releases/").content.decode()

    assert '<dd id="release-squad-version">2.0: with the unanswerable questions</dd>' in detail
    assert "SQuAD v2.0 JSON, Hugging Face JSONL" in detail
    assert "SQuAD v2.0 JSON, Hugging Face JSONL" in listing


def test_the_page_form_makes_a_v2_release(boss, client, sent_tasks):
    client.force_login(boss)
    response = client.post(
        "/manage/releases/",
        {
            "name": "fquad-2",
            "version": "2.0",
            "formats": ["squad"],
            "splits": ["dev"],
            "squad_version": "2.0",
        },
    )
    release = Release.objects.get()
    assert response.status_code == 302
    assert release.options["squad_version"] == "2.0"


@pytest.mark.parametrize("value", ["3.0", "2", "v2.0", ""])
def test_the_page_refuses_a_bad_squad_version_and_makes_nothing(boss, client, sent_tasks, value):
    client.force_login(boss)
    form = {"name": "fquad-2", "version": "2.0", "formats": ["squad"], "splits": ["dev"]}
    response = client.post("/manage/releases/", form | ({"squad_version": value} if value else {}))
    if not value:  # left out: 1.1
        assert response.status_code == 302
        assert Release.objects.get().options["squad_version"] == "1.1"
        return
    assert response.status_code == 400
    assert list(response.context["form"].errors) == ["squad_version"]
    assert Release.objects.count() == 0
    assert sent_tasks.calls == []


@pytest.fixture
def api(boss):
    client = APIClient()
    client.force_authenticate(boss)
    return client


def test_the_api_makes_a_v2_release(api, sent_tasks):
    response = api.post(
        "/api/v1/releases/",
        {"name": "fquad-2", "version": "2.0", "formats": ["squad"], "squad_version": "2.0"},
        format="json",
    )
    assert response.status_code == 201, response.content
    assert response.json()["options"]["squad_version"] == "2.0"
    assert Release.objects.get().squad_version == "2.0"


@pytest.mark.parametrize("value", ["3.0", 2, 2.0, "v2.0", None, ["2.0"], True])
def test_the_api_refuses_a_bad_squad_version_naming_it_and_makes_nothing(api, sent_tasks, value):
    response = api.post(
        "/api/v1/releases/",
        {"name": "fquad-2", "version": "2.0", "formats": ["squad"], "squad_version": value},
        format="json",
    )
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["squad_version"]
    assert Release.objects.count() == 0
    assert sent_tasks.calls == []


@pytest.mark.parametrize("value", ["3.0", 2, "", None])
def test_the_service_refuses_a_bad_squad_version(db, value):
    with pytest.raises(ServiceError) as error:
        check_options({"formats": ["squad"], "squad_version": value})
    assert list(error.value.errors) == ["squad_version"]


def test_export_release_refuses_a_bad_squad_version(db, tmp_path):
    with pytest.raises(CommandError) as error:
        export(tmp_path / "out", "--squad-version", "3.0")
    assert "squad_version" in str(error.value)
    assert not (tmp_path / "out").exists()


def test_the_datasheet_counts_the_questions_a_reviewer_found_answerable():
    from collections import Counter
    from types import SimpleNamespace

    from exports.datasheet.process import _reviewed

    part = SimpleNamespace(verdicts=Counter({"approve": 3, "answerable": 2}))
    assert _reviewed(part) == (
        "A reviewer judged 5 of them (3 approved, 2 found answerable though written "
        "unanswerable); corrected questions appear in their corrected version. Rejected "
        "questions are not in this release."
    )


def test_a_held_back_history_writes_actually_answerable_as_a_correction():
    from exports.history import _verdict_shown

    assert _verdict_shown("answerable", shown=True) == "answerable"
    # Held back: "answerable" would tell which questions have an answer.
    assert _verdict_shown("answerable", shown=False) == "correct"
    assert [_verdict_shown(v, shown=False) for v in ("approve", "reject", "correct")] == [
        "approve",
        "reject",
        "correct",
    ]
