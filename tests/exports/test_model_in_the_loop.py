"""Releases of questions written with a model in the loop (issue 15, item 4).

A campaign writes questions on a train and a test paragraph; a reviewer judges them; then the
model-in-the-loop rows are stored directly (as the annotation page leaves them: rounds,
attempts, and each question's figures against its current answer). The release is built by
the real service: every HF JSONL line carries `model_in_the_loop`, SQuAD qas of the questions
written with a model carry it too (the official scripts give the same figures), MRQA does not,
the held-back test split keeps the model and the round only, the datasheet and the manifest
give the rounds and per split the fooling figures; a release without such questions is as
before.
"""

from __future__ import annotations

import gzip
import io
import json
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from annotation.models import Campaign, ModelAttempt, ModelKind, ModelRound, Question
from annotation.services.campaigns import campaign_create
from annotation.services.reviews import review_claim_next, review_submit
from annotation.services.work import lease_claim_next, questions_submit
from core.roles import Role
from corpus.readers import SourceArticle
from corpus.services.articles import article_store
from exports.build import build_release_files
from exports.formats.hf import HfJsonlWriter
from exports.formats.records import (
    ExportArticle,
    ExportModel,
    ExportParagraph,
    ExportQuestion,
)
from exports.models import Release
from exports.options import check_options
from exports.services.releases import release_build, release_create
from tests.factories import UserFactory
from tests.needs import require_module

pytestmark = [
    pytest.mark.usefixtures("releases_folder"),
    pytest.mark.usefixtures("loopback_allowed"),
]


CANAL = (
    "Le canal du Midi relie Toulouse à la mer Méditerranée. Pierre-Paul Riquet en dirigea les "
    "travaux à partir de 1666 ; il fut inauguré en 1681."
)
PRESSE = (
    "Gutenberg mit au point à Mayence, vers 1450, une presse à caractères mobiles qui permit "
    "d'imprimer la Bible à environ 180 exemplaires."
)

# (title, split, context, [(label, question, answer)])
ARTICLES = [
    (
        "Canal du Midi",
        "train",
        CANAL,
        [
            ("A0", "Quelle ville le canal relie-t-il à la mer ?", "Toulouse"),
            ("A1", "Qui dirigea les travaux du canal ?", "Pierre-Paul Riquet"),
            ("A2", "En quelle année fut-il inauguré ?", "1666"),
            ("A3", "Quelle mer le canal rejoint-il ?", "la mer Méditerranée"),
        ],
    ),
    (
        "Gutenberg",
        "test",
        PRESSE,
        [
            ("C0", "Où Gutenberg mit-il au point sa presse ?", "Mayence"),
            ("C1", "Vers quelle année la presse fut-elle mise au point ?", "1450"),
            ("C2", "Combien d'exemplaires de la Bible furent imprimés ?", "environ 180"),
            ("C3", "Quel livre la presse permit-elle d'imprimer ?", "la Bible"),
        ],
    ),
]
# The reviewer's corrections: A2's span was wrong, C1's too short.
CORRECTED = {"A2": "1681", "C1": "vers 1450"}
VERDICTS = {"A0": "approve", "A1": "approve", "A2": "correct", "A3": "approve"}
VERDICTS |= {"C0": "approve", "C1": "correct", "C2": "approve"}  # C3 is never reviewed

ROUND_1 = "Lexical baseline"
ROUND_2 = "CamemBERT, run 7"
# label -> (round, [(text, model answer or None if unavailable)] in order, then the question's
# figures against its current answer: EM, F1, fooled). The last attempt is the one that counts.
MODEL = {
    "A1": (
        1,
        [
            ("Qui dirigea le canal ?", "Pierre-Paul Riquet"),
            ("Qui dirigea les travaux du canal ?", "Toulouse"),
        ],
        (0.0, 0.0, True),
    ),
    "A2": (1, [("En quelle année fut-il inauguré ?", "1681")], (100.0, 100.0, False)),
    "A3": (1, [("Quelle mer le canal rejoint-il ?", "Méditerranée")], (0.0, 66.67, False)),
    "C1": (
        1,
        [("Quand ?", "1450"), ("Vers quelle année la presse fut-elle mise au point ?", "Mayence")],
        (0.0, 0.0, True),
    ),
    "C2": (1, [("Combien d'exemplaires de la Bible furent imprimés ?", None)], None),
    "C3": (
        2,
        [
            ("Quel livre ?", "la Bible"),
            ("Quel ouvrage ?", "la Bible"),
            ("Quel texte ?", "la Bible"),
            ("Quel livre la presse permit-elle d'imprimer ?", "une presse à caractères mobiles"),
        ],
        (0.0, 0.0, True),
    ),
}


@dataclass
class Loop:
    campaign: Campaign
    questions: dict  # label -> Question

    def id(self, label: str) -> str:
        return str(self.questions[label].uuid)


def answer_of(label: str) -> tuple[str, int]:
    for _title, _split, context, questions in ARTICLES:
        for name, _question, answer in questions:
            if name == label:
                text = CORRECTED.get(label, answer)
                return text, context.index(text)
    raise KeyError(label)


def question_of(label: str) -> str:
    return next(q for *_a, qs in ARTICLES for name, q, _answer in qs if name == label)


def write_and_review() -> Loop:
    """Write the questions and review them by the services, with no model yet."""
    writer = UserFactory(username="writer", roles=[Role.ANNOTATOR])
    reviewer = UserFactory(username="checker", roles=[Role.REVIEWER])
    for title, split, context, _questions in ARTICLES:
        article_store(
            language="fr",
            source=SourceArticle(title=title, source_title=title, url="", revision_id=None),
            paragraphs=[context],
            wave="1.0",
            split=split,
            kind="file",
        )
    campaign = campaign_create(name="Boucle", splits=["train", "test"], review_rate=Decimal("1.00"))
    stored = {}
    specs = {title: (context, questions) for title, _split, context, questions in ARTICLES}
    for _ in ARTICLES:
        lease = lease_claim_next(campaign=campaign, annotator=writer).lease
        context, spec = specs[lease.paragraph.article.title]
        payload = [
            {
                "text": question,
                "answer_start": context.index(answer),
                "answer_text": answer,
                "seconds_spent": 40,
            }
            for _label, question, answer in spec
        ]
        written = questions_submit(lease=lease, questions=payload)
        stored |= {label: q for (label, *_rest), q in zip(spec, written, strict=True)}
    Question.objects.filter(pk=stored["C3"].pk).update(sampled_for_review=False)
    label_of = {q.pk: label for label, q in stored.items()}
    while claim := review_claim_next(campaign=campaign, reviewer=reviewer):
        label = label_of[claim.lease.question_id]
        data = {"verdict": VERDICTS[label]}
        if label in CORRECTED:
            text = CORRECTED[label]
            data |= {
                "question_text": question_of(label),
                "answer_text": text,
                "answer_start": answer_of(label)[1],
            }
        review_submit(lease=claim.lease, data=data)
    return Loop(campaign=campaign, questions=stored)


def attach_model(loop: Loop) -> None:
    """Store the rounds and attempts, and each question's figures, as the page leaves them."""
    campaign = loop.campaign
    Campaign.objects.filter(pk=campaign.pk).update(model_kind=ModelKind.LEXICAL, model_round=2)
    rounds = {
        1: ModelRound.objects.create(
            campaign=campaign,
            number=1,
            model_kind=ModelKind.LEXICAL,
            label=ROUND_1,
            f1_threshold=Decimal("40.00"),
        ),
        2: ModelRound.objects.create(
            campaign=campaign,
            number=2,
            model_kind=ModelKind.SERVER,
            model_url="http://127.0.0.1:9/predict",
            label=ROUND_2,
            f1_threshold=Decimal("50.00"),
        ),
    }
    for label, (number, attempts, figures) in MODEL.items():
        question = Question.objects.get(pk=loop.questions[label].pk)
        answer, start = answer_of(label)
        last = None
        for index, (text, model_answer) in enumerate(attempts, start=1):
            answered = model_answer is not None
            last = ModelAttempt.objects.create(
                campaign=campaign,
                lease=question.lease,
                question=question,
                round=rounds[number],
                key=f"q-{label}",
                number=index,
                text=text,
                answer_start=start,
                answer_text=answer,
                status="answered" if answered else "unavailable",
                model_answer=model_answer or "",
                model_answer_start=0 if answered else None,
                exact_match=0.0 if answered else None,
                f1=0.0 if answered else None,
                fooled=True if answered else None,
                milliseconds=12,
            )
        exact, f1, fooled = figures or (None, None, None)
        Question.objects.filter(pk=question.pk).update(
            model_attempt=last,
            model_attempts=len(attempts),
            model_exact=exact,
            model_f1=f1,
            model_fooled=fooled,
        )


@pytest.fixture
def boss(db):
    return UserFactory(username="boss", roles=[Role.ADMIN])


@pytest.fixture
def written(db) -> Loop:
    return write_and_review()


@pytest.fixture
def loop(written) -> Loop:
    attach_model(written)
    return written


def built(user, name: str, **options) -> Release:
    options.setdefault("formats", ["squad", "hf", "mrqa"])
    options.setdefault("version", "1.0")
    release = release_create(created_by=user, name=name, **options)
    release_build(release=release)
    release.refresh_from_db()
    assert release.status == Release.Status.SUCCEEDED, release.error
    return release


def stored(folder: Path, release: Release, name: str) -> bytes:
    return (folder / "releases" / str(release.pk) / name).read_bytes()


def jsonl(data: bytes) -> list[dict]:
    assert data.endswith(b"\n")
    return [json.loads(line) for line in data.decode().splitlines()]


# ---------------------------------------------------------------------------------------------
# Expected objects


def answered(model: str, number: int, answer: str, em, f1, fooled, attempts) -> dict:
    return {
        "model": model,
        "round": number,
        "status": "answered",
        "answer": answer,
        "exact_match": em,
        "f1": f1,
        "fooled": fooled,
        "attempts": attempts,
    }


def blank(model: str, number: int, status: str, attempts: int = 0) -> dict:
    return {
        "model": model,
        "round": number,
        "status": status,
        "answer": "",
        "exact_match": 0.0,
        "f1": 0.0,
        "fooled": False,
        "attempts": attempts,
    }


NONE = blank("", 0, "none")
SHOWN = {
    "A0": NONE,
    "A1": answered(ROUND_1, 1, "Toulouse", 0.0, 0.0, True, 2),
    "A2": answered(ROUND_1, 1, "1681", 100.0, 100.0, False, 1),
    "A3": answered(ROUND_1, 1, "Méditerranée", 0.0, 66.67, False, 1),
    "C0": NONE,
    "C1": answered(ROUND_1, 1, "Mayence", 0.0, 0.0, True, 2),
    "C2": blank(ROUND_1, 1, "unavailable", 1),
    "C3": answered(ROUND_2, 2, "une presse à caractères mobiles", 0.0, 0.0, True, 4),
}
WITHHELD = {
    "C0": NONE,
    "C1": blank(ROUND_1, 1, "withheld"),
    "C2": blank(ROUND_1, 1, "withheld"),
    "C3": blank(ROUND_2, 2, "withheld"),
}
TRAIN = ["A0", "A1", "A2", "A3"]
TEST = ["C0", "C1", "C2", "C3"]


def hf_line(loop: Loop, label: str, model: dict, *, answers: bool = True) -> dict:
    title, context = ("Canal du Midi", CANAL) if label.startswith("A") else ("Gutenberg", PRESSE)
    text, start = answer_of(label)
    return {
        "id": loop.id(label),
        "title": title,
        "context": context,
        "question": question_of(label),
        "answers": {"text": [text] if answers else [], "answer_start": [start] if answers else []},
        "model_in_the_loop": model,
    }


# ---------------------------------------------------------------------------------------------
# HF JSONL


def test_every_hf_line_carries_the_model_fields_in_order(loop, boss, releases_folder):
    release = built(boss, "boucle", include_test_answers=True)

    data = stored(releases_folder, release, "hf-train.jsonl")
    assert jsonl(data) == [hf_line(loop, label, SHOWN[label]) for label in TRAIN]
    assert jsonl(stored(releases_folder, release, "hf-test.jsonl")) == [
        hf_line(loop, label, SHOWN[label]) for label in TEST
    ]
    # json.dumps of each line, byte for byte, the field last
    first, second = data.decode().splitlines()[:2]
    assert first == json.dumps(hf_line(loop, "A0", NONE), ensure_ascii=False)
    assert second.endswith(
        ', "model_in_the_loop": {"model": "Lexical baseline", "round": 1, "status": '
        '"answered", "answer": "Toulouse", "exact_match": 0.0, "f1": 0.0, "fooled": true, '
        '"attempts": 2}}'
    )


def test_a_held_back_test_split_keeps_the_model_and_round_only(loop, boss, releases_folder):
    release = built(boss, "boucle")  # test answers held back (the default)

    assert jsonl(stored(releases_folder, release, "hf-test.jsonl")) == [
        hf_line(loop, label, WITHHELD[label], answers=False) for label in TEST
    ]
    squad = json.loads(stored(releases_folder, release, "squad-test.json"))
    assert squad["data"][0]["paragraphs"][0]["qas"] == [
        {"id": loop.id("C0"), "question": question_of("C0"), "answers": []},
        *(
            {
                "id": loop.id(label),
                "question": question_of(label),
                "answers": [],
                "model_in_the_loop": WITHHELD[label],
            }
            for label in ["C1", "C2", "C3"]
        ),
    ]
    # neither the model's answers nor their scores are anywhere in the test files
    for name in ("hf-test.jsonl", "squad-test.json"):
        text = stored(releases_folder, release, name).decode()
        assert '"answered"' not in text and '"unavailable"' not in text
        assert '"fooled": true' not in text
    # the train split is shown as usual
    assert jsonl(stored(releases_folder, release, "hf-train.jsonl")) == [
        hf_line(loop, label, SHOWN[label]) for label in TRAIN
    ]


def test_the_release_files_load_with_datasets(loop, boss, releases_folder, tmp_path):
    datasets = require_module("datasets", "users read the HF JSONL with it")
    release = built(boss, "boucle", include_test_answers=True, formats=["hf"])
    folder = releases_folder / "releases" / str(release.pk)

    loaded = datasets.load_dataset(
        "json",
        data_files={"train": str(folder / "hf-train.jsonl"), "test": str(folder / "hf-test.jsonl")},
        cache_dir=str(tmp_path / "cache"),
    )

    assert loaded["train"].column_names == [
        "id",
        "title",
        "context",
        "question",
        "answers",
        "model_in_the_loop",
    ]
    assert [row["model_in_the_loop"] for row in loaded["train"]] == [SHOWN[x] for x in TRAIN]
    assert [row["model_in_the_loop"] for row in loaded["test"]] == [SHOWN[x] for x in TEST]
    assert str(loaded["train"].features["model_in_the_loop"]["f1"].dtype) == "float64"


def _many_lines(path: Path, *, plain: int, with_model: int) -> None:
    """An HF file of `plain` questions written without a model, then `with_model` with one."""
    context = "Le canal du Midi relie Toulouse à la mer Méditerranée. " * 12
    model = ExportModel(ROUND_1, 1, "Toulouse", 0.0, 25.0, True, 3)

    def paragraphs():
        for index in range(plain + with_model):
            question = ExportQuestion(
                f"q{index}", "Quelle ville ?", model=model if index >= plain else None
            )
            yield ExportParagraph(context=context, questions=[question])

    with path.open("wb") as out:
        HfJsonlWriter(with_model=True).write([ExportArticle("Canal", paragraphs())], out)


def test_a_file_whose_first_block_has_no_model_question_loads(tmp_path):
    """`datasets` reads a JSON Lines file 10 MB at a time and types each column from the first
    block: a field null in every line of it, then an object, fails ("Couldn't cast ... to
    null"). The field's types never change, so a file of 11+ MB of questions without a model
    followed by some with one loads, and so does its first line (checked against the null
    form, which does not)."""
    datasets = require_module("datasets", "users read the HF JSONL with it")
    path = tmp_path / "hf-train.jsonl"
    _many_lines(path, plain=16_000, with_model=5)
    assert path.stat().st_size > 11 << 20  # more than one block of the loader (10 MB)

    loaded = datasets.load_dataset(
        "json", data_files=str(path), split="train", cache_dir=str(tmp_path / "cache")
    )

    assert loaded.num_rows == 16_005
    assert loaded[0]["model_in_the_loop"] == NONE
    assert loaded[16_004]["model_in_the_loop"] == answered(
        ROUND_1, 1, "Toulouse", 0.0, 25.0, True, 3
    )
    # the same file with null for "no model" is what the loader cannot read
    nulled = tmp_path / "nulled.jsonl"
    none = json.dumps(NONE, ensure_ascii=False)
    nulled.write_text(path.read_text().replace(none, "null"))
    with pytest.raises(datasets.exceptions.DatasetGenerationError):
        datasets.load_dataset(
            "json", data_files=str(nulled), split="train", cache_dir=str(tmp_path / "cache2")
        )


def test_a_release_without_model_questions_has_no_model_field(written, boss, releases_folder):
    release = built(boss, "plain", include_test_answers=True)

    lines = jsonl(stored(releases_folder, release, "hf-train.jsonl"))
    assert [list(line) for line in lines] == [["id", "title", "context", "question", "answers"]] * 4
    assert b"model_in_the_loop" not in stored(releases_folder, release, "squad-train.json")
    assert "model_in_the_loop" not in release.manifest
    assert "Model in the loop" not in stored(releases_folder, release, "README.md").decode()


# ---------------------------------------------------------------------------------------------
# SQuAD JSON and MRQA


def test_squad_qas_carry_the_field_only_where_a_model_was(loop, boss, releases_folder):
    release = built(boss, "boucle", include_test_answers=True)

    squad = json.loads(stored(releases_folder, release, "squad-train.json"))
    qas = squad["data"][0]["paragraphs"][0]["qas"]
    expected = []
    for label in TRAIN:
        text, start = answer_of(label)
        qa = {
            "id": loop.id(label),
            "question": question_of(label),
            "answers": [{"text": text, "answer_start": start}],
        }
        if label != "A0":
            qa["model_in_the_loop"] = SHOWN[label]
        expected.append(qa)
    assert qas == expected
    assert squad["version"] == "1.1"


def test_mrqa_files_are_unchanged(loop, boss, releases_folder):
    """MRQA has no place for the fields: its lines are those of a release without a model."""
    release = built(boss, "boucle", include_test_answers=True)
    data = gzip.decompress(stored(releases_folder, release, "mrqa-train.jsonl.gz"))
    assert b"model_in_the_loop" not in data
    lines = jsonl(data)
    assert [qa["qid"] for qa in lines[1]["qas"]] == [loop.id(label) for label in TRAIN]
    assert sorted(lines[1]["qas"][1]) == [
        "answers",
        "detected_answers",
        "qid",
        "question",
        "question_tokens",
    ]


def _strip(document: dict) -> dict:
    """The document without the model fields (what a release without a model would hold)."""
    for article in document["data"]:
        for paragraph in article["paragraphs"]:
            for qa in paragraph["qas"]:
                qa.pop("model_in_the_loop", None)
    return document


def _scored(data: Path, predictions: Path) -> dict:
    """The `evaluate` command's figures: it reads what the official scripts read (each
    question's id and answers, and v2.0's is_impossible), the official figures to every digit
    (tests/evaluation/test_official_scores.py)."""
    out = io.StringIO()
    call_command("evaluate", str(data), str(predictions), "--json", stdout=out)
    return json.loads(out.getvalue())


# A prediction per train question: right, right, the corrected span missed, a third of the span.
PREDICTIONS = {"A0": "Toulouse", "A1": "Pierre-Paul Riquet", "A2": "1666", "A3": "Méditerranée"}


@pytest.mark.parametrize("squad_version", ["1.1", "2.0"])
def test_scoring_gives_the_same_figures_with_the_key(
    loop, boss, releases_folder, tmp_path, squad_version
):
    release = built(
        boss,
        f"boucle-{squad_version}",
        formats=["squad"],
        include_test_answers=True,
        squad_version=squad_version,
    )
    with_key = releases_folder / "releases" / str(release.pk) / "squad-train.json"
    assert with_key.read_bytes().count(b'"model_in_the_loop"') == 3
    without = tmp_path / "without.json"
    without.write_text(json.dumps(_strip(json.loads(with_key.read_text())), ensure_ascii=False))
    predictions = tmp_path / "predictions.json"
    predictions.write_text(
        json.dumps({loop.id(label): text for label, text in PREDICTIONS.items()})
    )

    scored = _scored(with_key, predictions)

    assert scored == _scored(without, predictions)
    assert (scored["total"], scored.get("squad_version", "1.1")) == (4, squad_version)
    # EM (1 + 1 + 0 + 0) / 4; F1 (1 + 1 + 0 + 1/2) / 4: "méditerranée" is 1 of the 3 words
    # of "la mer méditerranée" (the v1.1 normalization keeps "la"): P 1, R 1/3, F1 1/2
    assert scored["exact_match" if squad_version == "1.1" else "exact"] == 50.0
    assert scored["f1"] == pytest.approx(100 * (2 + 1 / 2) / 4)


# ---------------------------------------------------------------------------------------------
# Datasheet and manifest

MODEL_SECTION = [
    "## Model in the loop",
    "",
    "6 questions of this release were written with a model in the loop (as in Beat the AI, "
    "Bartolo et al. 2020): after adding a question, its author saw the model's answer and "
    "could rephrase it and ask again. A question fooled the model when the model's F1 against "
    "the question's answer is under the round's threshold; the figures are against the answer "
    "as released (computed again when a reviewer corrected the span). The HF JSONL files give "
    'each question\'s figures in `model_in_the_loop` (`status` "none" on a question written '
    "without a model), the SQuAD files in a `model_in_the_loop` key of the questions written "
    "with one; the MRQA files do not carry them. `manifest.json` holds these tables as "
    "`model_in_the_loop`.",
    "",
    "| campaign | round | model | F1 threshold (%) | questions |",
    "| --- | --- | --- | --- | --- |",
    "| Boucle | 1 | Lexical baseline | 40 | 5 |",
    "| Boucle | 2 | CamemBERT, run 7 | 50 | 1 |",
    "",
    "| split | questions with a model | answered by it | fooled | fooling rate (% of answered) "
    "| reviewed | validated fooled | attempts per question |",
    "| --- | --- | --- | --- | --- | --- | --- | --- |",
    "| train | 3 | 3 | 1 | 33.3 | 3 | 1 | 1.33 |",
    "| test | 3 | 2 | 2 | 100.0 | 2 | 1 | 2.33 |",
    "",
    "Validated fooled: fooled, and approved by a reviewer, or corrected by one and still fooled "
    "against the corrected answer; out of the reviewed questions. A question the model could "
    "not answer (unavailable) counts in neither answered nor fooled.",
    "",
]
HELD_BACK_NOTE = [
    "In the held-back test files the model's answer, its scores, whether it was fooled and the "
    'attempts are withheld with the answers (`status` "withheld"); the model and the round are '
    "given.",
    "",
]
MANIFEST = {
    "rounds": [
        {
            "campaign": "Boucle",
            "round": 1,
            "model": ROUND_1,
            "f1_threshold": 40.0,
            "questions": 5,
        },
        {
            "campaign": "Boucle",
            "round": 2,
            "model": ROUND_2,
            "f1_threshold": 50.0,
            "questions": 1,
        },
    ],
    "splits": {
        # A1 fooled and approved; A2 corrected, no longer fooled; A3 approved, not fooled
        "train": {
            "questions": 3,
            "answered": 3,
            "fooled": 1,
            "fooling_rate": 33.3,
            "reviewed": 3,
            "validated_fooled": 1,
            "attempts_mean": 1.33,
        },
        # C1 corrected and still fooled; C2 unavailable, approved; C3 fooled, never reviewed
        "test": {
            "questions": 3,
            "answered": 2,
            "fooled": 2,
            "fooling_rate": 100.0,
            "reviewed": 2,
            "validated_fooled": 1,
            "attempts_mean": 2.33,
        },
    },
}


def _section(readme: str) -> list[str]:
    lines = readme.split("\n")
    start = lines.index("## Model in the loop")
    end = lines.index("## Licence and attribution")
    return lines[start:end]


def test_the_datasheet_gives_the_rounds_and_the_fooling_figures(loop, boss, releases_folder):
    release = built(boss, "boucle", include_test_answers=True)

    readme = stored(releases_folder, release, "README.md").decode()

    assert _section(readme) == MODEL_SECTION
    manifest = json.loads(stored(releases_folder, release, "manifest.json"))
    assert manifest["model_in_the_loop"] == MANIFEST
    assert release.manifest["model_in_the_loop"] == MANIFEST


def test_a_held_back_datasheet_says_what_the_test_files_withhold(loop, boss, releases_folder):
    release = built(boss, "boucle")

    readme = stored(releases_folder, release, "README.md").decode()

    assert _section(readme) == MODEL_SECTION + HELD_BACK_NOTE


def test_the_datasheet_counts_only_the_splits_released(loop, boss, releases_folder):
    release = built(boss, "boucle", splits=["test"], include_test_answers=True)

    assert release.manifest["model_in_the_loop"] == {
        "rounds": [{**MANIFEST["rounds"][0], "questions": 2}, MANIFEST["rounds"][1]],
        "splits": {"test": MANIFEST["splits"]["test"]},
    }
    readme = stored(releases_folder, release, "README.md").decode()
    assert "| test | 3 | 2 | 2 | 100.0 | 2 | 1 | 2.33 |" in _section(readme)
    assert "| train |" not in "\n".join(_section(readme))


# ---------------------------------------------------------------------------------------------
# Speed: no query per question


def test_the_model_fields_cost_one_query_per_chunk_not_per_question(written, tmp_path):
    def queries(name: str) -> int:
        options = check_options({"formats": ["squad", "hf"], "include_test_answers": True})
        with CaptureQueriesContext(connection) as captured, translation.override("en"):
            build_release_files(options=options, name=name, version="1", directory=tmp_path / name)
        return len(captured)

    (tmp_path / "before").mkdir()
    (tmp_path / "after").mkdir()
    before = queries("before")
    attach_model(written)
    after = queries("after")

    # per split one query for its chunk's model figures (train, test), then the rounds once
    assert after - before == 3
