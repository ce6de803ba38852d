"""Releases as services: what each file holds, the datasheet, the manifest, the job's rules.

The dataset is built through the services people use (articles stored, questions written,
reviewed, answered again), small enough that a release with MRQA (spaCy) builds in a second.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal
from pathlib import Path

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from annotation.models import Answer, Question, QuestionRevision, Review
from annotation.services.answers import answer_claim_next, answer_submit
from annotation.services.campaigns import campaign_create
from annotation.services.reviews import review_claim_next, review_submit
from annotation.services.work import lease_claim_next, questions_submit
from core.errors import ServiceError
from core.roles import Role
from core.services.jobs import Superseded, job_start
from corpus.models import Paragraph
from corpus.readers import SourceArticle
from corpus.services.articles import article_store
from exports.build import build_release_files
from exports.formats.mrqa import simple_tokenizer, spacy_tokenizer
from exports.models import Release, ReleaseFile, TokenCache, TokenSweep
from exports.options import check_options
from exports.services.importing import squad_import
from exports.services.releases import (
    _build,
    release_build,
    release_create,
    release_file_get,
    release_resume,
)
from exports.services.tokens import tokens_ahead
from tests.factories import UserFactory

# Release files go to a folder of each test (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("releases_folder")

# ---------------------------------------------------------------------------------------------
# The dataset: four articles, twelve questions, seven reviews, three additional answers

TEXT_A = (
    "Le canal du Midi relie Toulouse à la mer Méditerranée. Pierre-Paul Riquet en dirigea les "
    "travaux à partir de 1666 ; il fut inauguré en 1681."
)
TEXT_B = (
    "La Loire est le plus long fleuve de France, avec 1 006 km. Elle prend sa source au mont "
    "Gerbier-de-Jonc 🌋 en Ardèche et se jette dans l'océan Atlantique à Saint-Nazaire."
)
TEXT_C = (
    "Gutenberg mit au point à Mayence, vers 1450, une presse à caractères mobiles qui permit "
    "d'imprimer la Bible à environ 180 exemplaires."
)
TEXT_D = (
    "Le mont Blanc culmine à 4 805 mètres d'altitude. Horace-Bénédict de Saussure offrit une "
    "récompense à qui en trouverait la voie ; Jacques Balmat et Michel Paccard l'atteignirent "
    "le 8 août 1786."
)
URL_A = "https://fr.wikipedia.org/wiki/Canal_du_Midi"
URL_B = "https://fr.wikipedia.org/wiki/Loire_(fleuve)"
URL_C = "https://fr.wikipedia.org/wiki/Johannes_Gutenberg"

# (label, title, split, wave, url, revision, text, [(label, question, answer, start)])
ARTICLES = [
    (
        "A",
        "Canal du Midi",
        "train",
        "1.0",
        URL_A,
        111,
        TEXT_A,
        [
            ("A0", "Qui dirigea les travaux du canal ?", "Pierre-Paul Riquet", 55),
            ("A1", "Quelle ville le canal relie-t-il à la mer ?", "Toulouse", 23),
            ("A2", "En quelle année fut-il inauguré ?", "1666", 109),
        ],
    ),
    (
        "B",
        "Loire",
        "dev",
        "1.0",
        URL_B,
        222,
        TEXT_B,
        [
            ("B0", "Quelle est la longueur de la Loire ?", "1 006 km", 49),
            ("B1", "Où la Loire prend-elle sa source ?", "au mont Gerbier-de-Jonc", 80),
            ("B2", "Où la Loire se jette-t-elle ?", "dans l'océan Atlantique à Saint-Nazaire", 129),
        ],
    ),
    (
        "C",
        "Gutenberg",
        "test",
        "1.1",
        URL_C,
        333,
        TEXT_C,
        [
            ("C0", "Où Gutenberg mit-il au point sa presse ?", "Mayence", 25),
            ("C1", "Vers quelle année la presse fut-elle mise au point ?", "1450", 39),
            ("C2", "Combien d'exemplaires de la Bible furent imprimés ?", "environ 180", 110),
        ],
    ),
    (
        "D",
        "Mont-Blanc",
        "dev",
        "1.1",
        "",
        None,
        TEXT_D,
        [
            ("D0", "Quelle est l'altitude du mont Blanc ?", "4 805 mètres", 24),
            ("D1", "Qui offrit une récompense ?", "Horace-Bénédict de Saussure", 49),
            ("D2", "Quand le sommet fut-il atteint ?", "le 8 août 1786", 177),
        ],
    ),
]

A2_CORRECTED = ("En quelle année le canal fut-il inauguré ?", "1681", 135)
C0_CORRECTED = ("Dans quelle ville Gutenberg mit-il au point sa presse ?", "à Mayence", 23)

# In review order (sampled questions are offered by id): A0…C0; C1, C2 and D* stay pending.
REVIEWS = [
    ("A0", {"verdict": "approve", "seconds_spent": 20}),
    ("A1", {"verdict": "reject", "reason": "ambiguous", "comment": "Deux villes possibles."}),
    (
        "A2",
        {
            "verdict": "correct",
            "question_text": A2_CORRECTED[0],
            "answer_text": A2_CORRECTED[1],
            "answer_start": A2_CORRECTED[2],
        },
    ),
    ("B0", {"verdict": "approve"}),
    ("B1", {"verdict": "approve"}),
    ("B2", {"verdict": "approve", "comment": "Très bien."}),
    (
        "C0",
        {
            "verdict": "correct",
            "question_text": C0_CORRECTED[0],
            "answer_text": C0_CORRECTED[1],
            "answer_start": C0_CORRECTED[2],
        },
    ),
]


@dataclass
class Dataset:
    writer: object
    reviewer: object
    answerers: list
    questions: dict  # label -> Question

    def id(self, label: str) -> str:
        return str(self.questions[label].uuid)

    def question(self, label: str) -> Question:
        return Question.objects.get(pk=self.questions[label].pk)


def make_dataset() -> Dataset:
    """Store the articles, and write, review and answer again their questions by the services."""
    writer = UserFactory(username="writer", roles=[Role.ANNOTATOR])
    answerers = [UserFactory(username=f"answerer{i}", roles=[Role.ANNOTATOR]) for i in (1, 2)]
    reviewer = UserFactory(username="checker", roles=[Role.REVIEWER])
    specs = {}
    for _label, title, split, wave, url, revision, text, questions in ARTICLES:
        article_store(
            language="fr",
            source=SourceArticle(title=title, source_title=title, url=url, revision_id=revision),
            paragraphs=[text],
            wave=wave,
            split=split,
            kind="file",
        )
        specs[title] = questions
    campaign = campaign_create(
        name="Questions", splits=["train", "dev", "test"], review_rate=Decimal("1.00")
    )
    stored = {}
    for _ in ARTICLES:
        lease = lease_claim_next(campaign=campaign, annotator=writer).lease
        spec = specs[lease.paragraph.article.title]
        for _label, _question, answer, start in spec:
            assert lease.paragraph.text[start : start + len(answer)] == answer
        payload = [
            {"text": question, "answer_start": start, "answer_text": answer, "seconds_spent": 30}
            for _label, question, answer, start in spec
        ]
        written = questions_submit(lease=lease, questions=payload)
        assert [q.sampled_for_review for q in written] == [True, True, True]
        stored |= {label: q for (label, *_rest), q in zip(spec, written, strict=True)}
    for label, verdict in REVIEWS:
        lease = review_claim_next(campaign=campaign, reviewer=reviewer).lease
        assert lease.question_id == stored[label].pk, label
        review_submit(lease=lease, data=verdict)
    dev_answers = campaign_create(name="Réponses dev", kind="additional_answers", splits=["dev"])
    test_answers = campaign_create(name="Réponses test", kind="additional_answers", splits=["test"])
    for campaign, person, data, label in [
        (dev_answers, answerers[0], {"answer_start": 49, "answer_text": "1 006"}, "B0"),
        (dev_answers, answerers[1], {"no_answer": True}, "B0"),
        (test_answers, answerers[0], {"answer_start": 25, "answer_text": "Mayence"}, "C0"),
    ]:
        lease = answer_claim_next(campaign=campaign, annotator=person).lease
        assert lease.question_id == stored[label].pk, label
        answer_submit(lease=lease, data=data)
    return Dataset(writer=writer, reviewer=reviewer, answerers=answerers, questions=stored)


# ---------------------------------------------------------------------------------------------
# Expected records (ids come from the database: the questions were not imported, so uuids)


def answers_of(ds: Dataset) -> dict[str, list[tuple[str, int]]]:
    """Every exported answer of each question: the original (as corrected) first."""
    found = {
        label: [(answer, start)]
        for *_a, questions in ARTICLES
        for label, _q, answer, start in questions
    }
    found["A2"] = [(A2_CORRECTED[1], A2_CORRECTED[2])]
    found["C0"] = [(C0_CORRECTED[1], C0_CORRECTED[2]), ("Mayence", 25)]
    found["B0"] = [("1 006 km", 49), ("1 006", 49)]  # the "no answer" is not exported
    return found


def question_texts() -> dict[str, str]:
    texts = {label: q for *_a, questions in ARTICLES for label, q, _answer, _start in questions}
    return texts | {"A2": A2_CORRECTED[0], "C0": C0_CORRECTED[0]}


ALL_BUT_REJECTED = {
    "train": [("Canal du Midi", TEXT_A, ["A0", "A2"])],
    "dev": [("Loire", TEXT_B, ["B0", "B1", "B2"]), ("Mont-Blanc", TEXT_D, ["D0", "D1", "D2"])],
    "test": [("Gutenberg", TEXT_C, ["C0", "C1", "C2"])],
}
APPROVED_ONLY = {
    "train": [("Canal du Midi", TEXT_A, ["A0", "A2"])],
    "dev": [("Loire", TEXT_B, ["B0", "B1", "B2"])],
    "test": [("Gutenberg", TEXT_C, ["C0"])],
}


def expected_squad(ds: Dataset, articles, *, answers: bool = True) -> dict:
    found, texts = answers_of(ds), question_texts()
    return {
        "version": "1.1",
        "data": [
            {
                "title": title,
                "paragraphs": [
                    {
                        "context": context,
                        "qas": [
                            {
                                "id": ds.id(label),
                                "question": texts[label],
                                "answers": [
                                    {"text": text, "answer_start": start}
                                    for text, start in found[label]
                                ]
                                if answers
                                else [],
                            }
                            for label in labels
                        ],
                    }
                ],
            }
            for title, context, labels in articles
        ],
    }


def expected_hf(ds: Dataset, articles, *, answers: bool = True) -> list[dict]:
    found, texts = answers_of(ds), question_texts()
    return [
        {
            "id": ds.id(label),
            "title": title,
            "context": context,
            "question": texts[label],
            "answers": {
                "text": [text for text, _start in found[label]] if answers else [],
                "answer_start": [start for _text, start in found[label]] if answers else [],
            },
        }
        for title, context, labels in articles
        for label in labels
    ]


# ---------------------------------------------------------------------------------------------
# Fixtures and helpers


@pytest.fixture
def boss(db):
    return UserFactory(username="boss", roles=[Role.ADMIN])


@pytest.fixture
def ds(db) -> Dataset:
    return make_dataset()


def create(user, name: str, **options) -> Release:
    options.setdefault("formats", ["squad", "hf"])
    options.setdefault("version", "1.0")
    return release_create(created_by=user, name=name, **options)


def built(user, name: str, **options) -> Release:
    """Create a release and build it here, as the export worker would."""
    release = create(user, name, **options)
    release_build(release=release)
    release.refresh_from_db()
    assert release.status == Release.Status.SUCCEEDED, release.error
    return release


def stored(folder: Path, release: Release, name: str) -> bytes:
    return (folder / "releases" / str(release.pk) / name).read_bytes()


def file_names(release: Release, *, internal: bool = False) -> list[str]:
    """The release's files people download (or, with internal=True, the server's own)."""
    files = release.files.filter(internal=internal).order_by("name")
    return list(files.values_list("name", flat=True))


def all_names(release: Release) -> list[str]:
    return list(release.files.order_by("name").values_list("name", flat=True))


def jsonl(data: bytes) -> list[dict]:
    assert data.endswith(b"\n")
    return [json.loads(line) for line in data.decode().splitlines()]


def mrqa_lines(data: bytes) -> list[dict]:
    return jsonl(gzip.decompress(data))


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def everything(folder: Path, release: Release) -> bytes:
    """Every byte a release holds (internal files too), MRQA decompressed."""
    parts = []
    for name in all_names(release):
        data = stored(folder, release, name)
        parts.append(gzip.decompress(data) if name.endswith(".gz") else data)
    return b"\n".join(parts)


def snapshot_of(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under the folder: its bytes and modification time."""
    return {
        str(p.relative_to(folder)): (p.read_bytes(), p.stat().st_mtime_ns)
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


# ---------------------------------------------------------------------------------------------
# The dataset itself (so that what follows tests the export, not the fixture)


def test_the_dataset_holds_what_the_release_tests_expect(ds):
    statuses = {label: ds.question(label).status for label in ds.questions}
    assert statuses == {
        "A0": "approved",
        "A1": "rejected",
        "A2": "corrected",
        "B0": "approved",
        "B1": "approved",
        "B2": "approved",
        "C0": "corrected",
        "C1": "pending",
        "C2": "pending",
        "D0": "pending",
        "D1": "pending",
        "D2": "pending",
    }
    b0 = ds.question("B0")
    assert list(b0.answers.order_by("pk").values_list("kind", "text", "no_answer")) == [
        ("original", "1 006 km", False),
        ("additional", "1 006", False),
        ("additional", "", True),
    ]
    assert Question.objects.filter(source_id="").count() == 12


# ---------------------------------------------------------------------------------------------
# What the files hold


def test_squad_and_hf_files_hold_every_question_but_the_rejected_one(ds, boss, releases_folder):
    release = built(boss, "fquad-all", include_test_answers=True)

    assert file_names(release) == [
        "README.md",
        "hf-dev.jsonl",
        "hf-test.jsonl",
        "hf-train.jsonl",
        "manifest.json",
        "squad-dev.json",
        "squad-test.json",
        "squad-train.json",
    ]
    assert file_names(release, internal=True) == [
        "gold-dev.json",
        "gold-test.json",
        "gold-train.json",
    ]
    for split, articles in ALL_BUT_REJECTED.items():
        squad = stored(releases_folder, release, f"squad-{split}.json")
        expected = expected_squad(ds, articles)
        assert squad == json.dumps(expected, ensure_ascii=False).encode() + b"\n", split
        hf = stored(releases_folder, release, f"hf-{split}.jsonl")
        assert jsonl(hf) == expected_hf(ds, articles), split
    counts = dict(release.files.values_list("name", "counts"))
    assert counts["squad-train.json"] == {
        "articles": 1,
        "paragraphs": 1,
        "questions": 2,
        "answers": 2,
    }
    assert counts["hf-dev.jsonl"] == {"articles": 2, "paragraphs": 2, "questions": 6, "answers": 7}
    assert counts["squad-test.json"] == {
        "articles": 1,
        "paragraphs": 1,
        "questions": 3,
        "answers": 4,
    }


def test_a_rejected_question_is_absent_from_every_file(ds, boss, releases_folder):
    release = built(boss, "fquad-every", formats=["squad", "hf", "mrqa"], include_history=True)

    assert len(file_names(release)) == 12
    data = everything(releases_folder, release)
    assert ds.id("A1").encode() not in data
    assert "Quelle ville le canal relie-t-il à la mer ?".encode() not in data
    for label in ("A0", "A2", "B0", "C0", "D2"):  # while the others are there
        assert ds.id(label).encode() in data, label


def test_approved_only_keeps_the_approved_and_corrected_questions(ds, boss, releases_folder):
    release = built(
        boss,
        "fquad-approved",
        formats=["squad", "hf", "mrqa"],
        approved_only=True,
        include_test_answers=True,
    )

    for split, articles in APPROVED_ONLY.items():
        squad = json.loads(stored(releases_folder, release, f"squad-{split}.json"))
        assert squad == expected_squad(ds, articles), split
        hf = jsonl(stored(releases_folder, release, f"hf-{split}.jsonl"))
        assert hf == expected_hf(ds, articles), split
        mrqa = mrqa_lines(stored(releases_folder, release, f"mrqa-{split}.jsonl.gz"))
        assert [[qa["qid"] for qa in line["qas"]] for line in mrqa[1:]] == [
            [ds.id(label) for label in labels] for _t, _c, labels in articles
        ]
    data = everything(releases_folder, release)
    for label in ("A1", "C1", "C2", "D0", "D1", "D2"):
        assert ds.id(label).encode() not in data, label
    assert release.options["approved_only"] is True


def test_a_corrected_question_appears_in_its_corrected_version(ds, boss, releases_folder):
    release = built(boss, "fquad-corrected", formats=["hf"], splits=["train"])

    rows = jsonl(stored(releases_folder, release, "hf-train.jsonl"))
    assert rows[1] == {
        "id": ds.id("A2"),
        "title": "Canal du Midi",
        "context": TEXT_A,
        "question": "En quelle année le canal fut-il inauguré ?",
        "answers": {"text": ["1681"], "answer_start": [135]},
    }
    data = stored(releases_folder, release, "hf-train.jsonl")
    assert "En quelle année fut-il inauguré ?".encode() not in data
    assert b'"1666"' not in data


def test_dev_questions_carry_the_original_answer_then_the_additional_ones(
    ds, boss, releases_folder
):
    release = built(boss, "fquad-dev", formats=["squad", "hf", "mrqa"], splits=["dev"])

    squad = json.loads(stored(releases_folder, release, "squad-dev.json"))
    b0 = squad["data"][0]["paragraphs"][0]["qas"][0]
    assert b0 == {
        "id": ds.id("B0"),
        "question": "Quelle est la longueur de la Loire ?",
        "answers": [
            {"text": "1 006 km", "answer_start": 49},
            {"text": "1 006", "answer_start": 49},
        ],
    }
    hf = jsonl(stored(releases_folder, release, "hf-dev.jsonl"))
    assert hf[0]["answers"] == {"text": ["1 006 km", "1 006"], "answer_start": [49, 49]}
    mrqa = mrqa_lines(stored(releases_folder, release, "mrqa-dev.jsonl.gz"))
    assert mrqa[0] == {"header": {"dataset": "fquad-dev", "split": "dev"}}
    qa = mrqa[1]["qas"][0]
    assert (qa["qid"], qa["answers"]) == (ds.id("B0"), ["1 006 km", "1 006"])
    assert [(d["text"], d["char_spans"]) for d in qa["detected_answers"]] == [
        ("1 006 km", [[49, 56]]),
        ("1 006", [[49, 53]]),
    ]
    # The "no answer" of answerer2 is in the database, not in the release.
    assert Answer.objects.filter(question=ds.questions["B0"], no_answer=True).count() == 1
    assert [len(row["answers"]["text"]) for row in hf] == [2, 1, 1, 1, 1, 1]


def test_the_original_answer_comes_first_even_with_a_larger_id(ds, boss, releases_folder):
    # Imported or repaired rows can give the original answer a larger id than an additional one.
    b1 = ds.questions["B1"]
    Answer.objects.create(
        question=b1,
        author=ds.answerers[0],
        kind="additional",
        text="mont Gerbier-de-Jonc",
        answer_start=83,
    )
    original = Answer.objects.get(question=b1, kind="original")
    original.delete()
    original.pk = None
    original.save()
    assert Answer.objects.filter(question=b1).latest("pk").kind == "original"
    release = built(boss, "fquad-order", formats=["hf"], splits=["dev"])

    row = jsonl(stored(releases_folder, release, "hf-dev.jsonl"))[1]
    assert row["answers"] == {
        "text": ["au mont Gerbier-de-Jonc", "mont Gerbier-de-Jonc"],
        "answer_start": [80, 83],
    }


def test_a_misaligned_answer_is_not_exported(ds, boss, releases_folder):
    Answer.objects.filter(question=ds.questions["C0"], kind="additional").update(misaligned=True)
    release = built(
        boss, "fquad-misaligned", formats=["hf"], splits=["test"], include_test_answers=True
    )

    row = jsonl(stored(releases_folder, release, "hf-test.jsonl"))[0]
    assert row["answers"] == {"text": ["à Mayence"], "answer_start": [23]}


# ---------------------------------------------------------------------------------------------
# Test answers held back or included


def test_test_answers_are_held_back_by_default_in_every_format(ds, boss, releases_folder):
    release = built(boss, "fquad-leaderboard", formats=["squad", "hf", "mrqa"])

    assert release.options["include_test_answers"] is False
    articles = ALL_BUT_REJECTED["test"]
    squad = stored(releases_folder, release, "squad-test.json")
    assert (
        squad
        == json.dumps(expected_squad(ds, articles, answers=False), ensure_ascii=False).encode()
        + b"\n"
    )
    assert b'"answers": []' in squad
    hf = jsonl(stored(releases_folder, release, "hf-test.jsonl"))
    assert hf == expected_hf(ds, articles, answers=False)
    assert [row["answers"] for row in hf] == [{"text": [], "answer_start": []}] * 3
    mrqa = mrqa_lines(stored(releases_folder, release, "mrqa-test.jsonl.gz"))
    assert mrqa[0] == {"header": {"dataset": "fquad-leaderboard", "split": "test"}}
    assert [
        (qa["qid"], qa["question"], qa["detected_answers"], qa["answers"]) for qa in mrqa[1]["qas"]
    ] == [
        (ds.id("C0"), C0_CORRECTED[0], [], []),
        (ds.id("C1"), "Vers quelle année la presse fut-elle mise au point ?", [], []),
        (ds.id("C2"), "Combien d'exemplaires de la Bible furent imprimés ?", [], []),
    ]
    assert b'"answers": [{' not in squad and b'"text": ["' not in squad
    counts = dict(release.files.values_list("name", "counts"))
    for name in ("squad-test.json", "hf-test.jsonl", "mrqa-test.jsonl.gz"):
        assert counts[name] == {"articles": 1, "paragraphs": 1, "questions": 3, "answers": 0}
    # dev keeps its answers
    assert counts["hf-dev.jsonl"]["answers"] == 7
    readme = stored(releases_folder, release, "README.md").decode()
    assert "The test answers are held back" in readme


def test_test_answers_are_there_when_included(ds, boss, releases_folder):
    release = built(boss, "fquad-full", formats=["squad", "hf", "mrqa"], include_test_answers=True)

    articles = ALL_BUT_REJECTED["test"]
    squad = json.loads(stored(releases_folder, release, "squad-test.json"))
    assert squad == expected_squad(ds, articles)
    hf = jsonl(stored(releases_folder, release, "hf-test.jsonl"))
    assert hf == expected_hf(ds, articles)
    mrqa = mrqa_lines(stored(releases_folder, release, "mrqa-test.jsonl.gz"))
    c0 = mrqa[1]["qas"][0]
    assert c0["answers"] == ["à Mayence", "Mayence"]
    assert [(d["text"], d["char_spans"]) for d in c0["detected_answers"]] == [
        ("à Mayence", [[23, 31]]),
        ("Mayence", [[25, 31]]),
    ]
    readme = stored(releases_folder, release, "README.md").decode()
    assert "The test answers are held back" not in readme


def test_mrqa_spans_and_tokens_match_the_context(ds, boss, releases_folder):
    release = built(boss, "fquad-mrqa", formats=["mrqa"], include_test_answers=True)

    detected = 0
    for split in ("train", "dev", "test"):
        lines = mrqa_lines(stored(releases_folder, release, f"mrqa-{split}.jsonl.gz"))
        assert lines[0] == {"header": {"dataset": "fquad-mrqa", "split": split}}
        for line in lines[1:]:
            context, tokens = line["context"], line["context_tokens"]
            assert all(context[o : o + len(t)] == t for t, o in tokens)
            for qa in line["qas"]:
                for found in qa["detected_answers"]:
                    for (s, e), (first, last) in zip(
                        found["char_spans"], found["token_spans"], strict=True
                    ):
                        assert context[s : e + 1] == found["text"]
                        overlapping = [
                            i for i, (t, o) in enumerate(tokens) if o <= e and o + len(t) > s
                        ]
                        assert overlapping == list(range(first, last + 1))
                        detected += 1
    assert detected == 13  # the 13 answers of the 11 questions, each found once


# ---------------------------------------------------------------------------------------------
# History


def versions(question: Question, *, shown: bool) -> list[dict]:
    return [
        {
            "version": v.number,
            "origin": v.origin,
            "editor": v.editor.username,
            "at": v.created_at.isoformat(),
            "question": v.text,
            **({"answer_start": v.answer_start, "answer_text": v.answer_text} if shown else {}),
        }
        for v in QuestionRevision.objects.filter(question=question).order_by("number")
    ]


def reviews(question: Question, *, shown: bool = True) -> list[dict]:
    return [
        {
            "verdict": r.verdict,
            "reason": r.reason,
            **({"comment": r.comment} if shown else {}),  # comments may quote the answer
            "reviewer": "checker",
            "at": r.created_at.isoformat(),
            "version": r.revision.number if r.revision else None,
        }
        for r in Review.objects.filter(question=question).order_by("created_at", "pk")
    ]


def test_history_lists_versions_and_reviews_and_hides_held_back_test_answers(
    ds, boss, releases_folder
):
    release = built(boss, "fquad-history", formats=["hf"], include_history=True)

    lines = jsonl(stored(releases_folder, release, "history.jsonl"))
    order = ["A0", "A2", "B0", "B1", "B2", "D0", "D1", "D2", "C0", "C1", "C2"]
    assert [line["id"] for line in lines] == [ds.id(label) for label in order]
    a2 = lines[1]
    assert a2 == {
        "id": ds.id("A2"),
        "status": "corrected",
        "versions": versions(ds.question("A2"), shown=True),
        "reviews": reviews(ds.question("A2")),
    }
    assert [
        (v["version"], v["origin"], v["editor"], v["question"], v["answer_start"], v["answer_text"])
        for v in a2["versions"]
    ] == [
        (1, "written", "writer", "En quelle année fut-il inauguré ?", 109, "1666"),
        (2, "corrected", "checker", "En quelle année le canal fut-il inauguré ?", 135, "1681"),
    ]
    assert [(r["verdict"], r["version"]) for r in a2["reviews"]] == [("correct", 2)]
    b2 = lines[4]
    assert [(r["verdict"], r["reason"], r["comment"], r["version"]) for r in b2["reviews"]] == [
        ("approve", "", "Très bien.", None)
    ]
    assert lines[5] == {
        "id": ds.id("D0"),
        "status": "pending",
        "versions": versions(ds.question("D0"), shown=True),
        "reviews": [],
    }
    c0 = lines[8]
    assert c0 == {
        "id": ds.id("C0"),
        "status": "corrected",
        "versions": versions(ds.question("C0"), shown=False),
        "reviews": reviews(ds.question("C0"), shown=False),
    }
    assert [list(v) for v in c0["versions"]] == [
        ["version", "origin", "editor", "at", "question"]
    ] * 2
    history = stored(releases_folder, release, "history.jsonl")
    for answer in ("à Mayence", "Mayence", "environ 180", "1450"):
        assert answer.encode() not in history, answer
    assert ds.id("A1").encode() not in history
    assert dict(release.files.values_list("name", "counts"))["history.jsonl"] == {"questions": 11}


def test_history_shows_the_test_answers_when_they_are_included(ds, boss, releases_folder):
    release = built(
        boss,
        "fquad-history-full",
        formats=["hf"],
        splits=["test"],
        include_history=True,
        include_test_answers=True,
    )

    lines = jsonl(stored(releases_folder, release, "history.jsonl"))
    assert [line["id"] for line in lines] == [ds.id(label) for label in ("C0", "C1", "C2")]
    assert [
        (v["version"], v["question"], v["answer_start"], v["answer_text"])
        for v in lines[0]["versions"]
    ] == [
        (1, "Où Gutenberg mit-il au point sa presse ?", 25, "Mayence"),
        (2, "Dans quelle ville Gutenberg mit-il au point sa presse ?", 23, "à Mayence"),
    ]


def test_no_history_file_unless_asked(ds, boss):
    release = built(boss, "fquad-nohistory", formats=["hf"], splits=["dev"])

    assert file_names(release) == ["README.md", "hf-dev.jsonl", "manifest.json"]


def test_the_answers_kept_for_scoring_are_internal_files(ds, boss, releases_folder):
    release = built(boss, "fquad-gold", formats=["hf"])  # the test answers held back

    internal = release.files.filter(internal=True).order_by("name")
    assert [(f.name, f.media_type, f.counts) for f in internal] == [
        ("gold-dev.json", "application/json", {"questions": 6}),
        ("gold-test.json", "application/json", {"questions": 3}),
        ("gold-train.json", "application/json", {"questions": 2}),
    ]
    for item in internal:
        data = stored(releases_folder, release, item.name)
        assert (item.bytes, item.sha256) == (len(data), sha256(data))
    gold = {
        "train": {ds.id("A0"): ["Pierre-Paul Riquet"], ds.id("A2"): ["1681"]},
        "dev": {
            ds.id("B0"): ["1 006 km", "1 006"],
            ds.id("B1"): ["au mont Gerbier-de-Jonc"],
            ds.id("B2"): ["dans l'océan Atlantique à Saint-Nazaire"],
            ds.id("D0"): ["4 805 mètres"],
            ds.id("D1"): ["Horace-Bénédict de Saussure"],
            ds.id("D2"): ["le 8 août 1786"],
        },
        "test": {
            ds.id("C0"): ["à Mayence", "Mayence"],
            ds.id("C1"): ["1450"],
            ds.id("C2"): ["environ 180"],
        },
    }
    for split, expected in gold.items():
        data = stored(releases_folder, release, f"gold-{split}.json")
        assert data == json.dumps(expected, ensure_ascii=False).encode() + b"\n", split
    # Kept apart: not downloadable, not in the manifest, not in the datasheet.
    with pytest.raises(ServiceError) as error:
        release_file_get(release=release, name="gold-test.json")
    assert error.value.status == 404
    manifest = stored(releases_folder, release, "manifest.json")
    readme = stored(releases_folder, release, "README.md")
    assert b"gold-" not in manifest and b"gold-" not in readme
    assert [
        row["answers"]["text"] for row in jsonl(stored(releases_folder, release, "hf-test.jsonl"))
    ] == [[], [], []]


# ---------------------------------------------------------------------------------------------
# Manifest and datasheet


def test_the_manifest_lists_every_other_file_with_the_digest_of_its_stored_bytes(
    ds, boss, releases_folder
):
    release = built(boss, "fquad-manifest", formats=["squad", "hf", "mrqa"], include_history=True)

    manifest = json.loads(stored(releases_folder, release, "manifest.json"))
    assert (manifest["name"], manifest["version"]) == ("fquad-manifest", "1.0")
    assert manifest["options"] == {
        "formats": ["squad", "hf", "mrqa"],
        "splits": ["train", "dev", "test"],
        "approved_only": False,
        "include_test_answers": False,
        "include_history": True,
        "squad_version": "1.1",
        "language": "fr",
    }
    listed = [entry["name"] for entry in manifest["files"]]
    assert sorted(listed) == sorted(set(file_names(release)) - {"manifest.json"})
    assert listed[:3] == ["squad-train.json", "hf-train.jsonl", "mrqa-train.jsonl.gz"]
    assert listed[-2:] == ["history.jsonl", "README.md"]
    rows = {f.name: f for f in release.files.filter(internal=False)}
    for entry in manifest["files"]:
        data = stored(releases_folder, release, entry["name"])
        assert entry["bytes"] == len(data) == rows[entry["name"]].bytes, entry["name"]
        assert entry["sha256"] == sha256(data) == rows[entry["name"]].sha256, entry["name"]
        assert entry["counts"] == rows[entry["name"]].counts
    manifest_row = rows["manifest.json"]
    data = stored(releases_folder, release, "manifest.json")
    assert (manifest_row.bytes, manifest_row.sha256) == (len(data), sha256(data))
    assert manifest_row.media_type == "application/json"
    assert {name: row.media_type for name, row in rows.items()} == {
        "README.md": "text/markdown",
        "history.jsonl": "application/x-ndjson",
        "manifest.json": "application/json",
        **{f"squad-{s}.json": "application/json" for s in ("train", "dev", "test")},
        **{f"hf-{s}.jsonl": "application/x-ndjson" for s in ("train", "dev", "test")},
        **{f"mrqa-{s}.jsonl.gz": "application/gzip" for s in ("train", "dev", "test")},
    }
    # The release row keeps the same manifest; the internal files are in neither.
    assert release.manifest == manifest
    assert not any(name.startswith("gold-") for name in listed)


def test_the_datasheet_counts_each_split_and_wave_and_credits_each_article(
    ds, boss, releases_folder
):
    release = built(boss, "fquad-sheet", formats=["squad", "hf"])

    readme = stored(releases_folder, release, "README.md").decode()
    lines = readme.splitlines()
    assert lines[0] == "# fquad-sheet 1.0"
    start = lines.index("| split | wave | articles | paragraphs | questions |")
    assert lines[start + 2 : start + 7] == [
        "| train | 1.0 | 1 | 1 | 2 |",
        "| dev | 1.0 | 1 | 1 | 3 |",
        "| dev | 1.1 | 1 | 1 | 3 |",
        "| test | 1.1 | 1 | 1 | 3 |",
        "",
    ]
    # the metric it is scored with: French articles, so FQuAD's rules
    start = lines.index("## Metric")
    assert lines[start + 2] == (
        "Answers are scored with `fquad-fr` (version 1), the metric of the release's language "
        "(fr): FQuAD's rules: SQuAD's, with French punctuation, apostrophes and articles (le, "
        "la, les, l', du, des, au, aux, un, une). The platform's `evaluate` command, "
        "leaderboard, human performance and baselines score with it."
    )
    start = lines.index("| article | URL | revision |")
    assert lines[start + 2 :] == [
        f"| Canal du Midi | {URL_A} | 111 |",
        f"| Gutenberg | {URL_C} | 333 |",
        f"| Loire | {URL_B} | 222 |",
        "| Mont-Blanc | https://fr.wikipedia.org/wiki/Mont-Blanc | unknown: imported with its "
        "title only; the address is made from it |",
    ]
    rows = {f.name: f for f in release.files.all()}
    for name in ("squad-train.json", "hf-test.jsonl"):
        assert f"| {name} | {rows[name].bytes} | {rows[name].sha256} |" in lines


def test_the_approved_only_datasheet_counts_only_those(ds, boss, releases_folder):
    release = built(boss, "fquad-sheet-approved", formats=["hf"], approved_only=True)

    lines = stored(releases_folder, release, "README.md").decode().splitlines()
    start = lines.index("| split | wave | articles | paragraphs | questions |")
    assert lines[start + 2 : start + 6] == [
        "| train | 1.0 | 1 | 1 | 2 |",
        "| dev | 1.0 | 1 | 1 | 3 |",
        "| test | 1.1 | 1 | 1 | 1 |",
        "",
    ]
    assert "This release holds only questions a reviewer approved or corrected." in lines
    assert not any(line.startswith("| Mont-Blanc |") for line in lines)


# ---------------------------------------------------------------------------------------------
# Deterministic output


DATA_FILES = [
    f"{fmt}-{split}{ext}"
    for split in ("train", "dev", "test")
    for fmt, ext in (("squad", ".json"), ("hf", ".jsonl"), ("mrqa", ".jsonl.gz"))
]


def test_two_builds_of_the_same_state_give_the_same_data_files(ds, boss, releases_folder, tmp_path):
    options = {"formats": ["squad", "hf", "mrqa"], "include_history": True}
    first = built(boss, "fquad-a", **options)
    second = built(boss, "fquad-b", **options)

    one = dict(first.files.values_list("name", "sha256"))
    two = dict(second.files.values_list("name", "sha256"))
    for name in DATA_FILES:
        assert sha256(stored(releases_folder, first, name)) == one[name], name
        assert sha256(stored(releases_folder, second, name)) == two[name], name
    for name in [f for f in DATA_FILES if not f.startswith("mrqa-")] + ["history.jsonl"]:
        assert one[name] == two[name], name
    # MRQA names the release in its header line (the "dataset"): the two releases' MRQA files
    # differ by that line only.
    for split in ("train", "dev", "test"):
        name = f"mrqa-{split}.jsonl.gz"
        a, b = (mrqa_lines(stored(releases_folder, r, name)) for r in (first, second))
        assert (a[0], b[0]) == (
            {"header": {"dataset": "fquad-a", "split": split}},
            {"header": {"dataset": "fquad-b", "split": split}},
        )
        assert a[1:] == b[1:]
    # Under the same name, two builds in folders give the same bytes for every file, and the
    # same data files as the release.
    for folder in ("x", "y"):
        (tmp_path / folder).mkdir()
        build_release_files(
            options=check_options(options),
            name="fquad-a",
            version="1.0",
            directory=tmp_path / folder,
        )
    for name in [*DATA_FILES, "history.jsonl", "README.md", "manifest.json"]:
        x = (tmp_path / "x" / name).read_bytes()
        assert x == (tmp_path / "y" / name).read_bytes(), name
        if name in DATA_FILES or name == "history.jsonl":
            assert sha256(x) == one[name], name


# ---------------------------------------------------------------------------------------------
# Refused options


@pytest.mark.parametrize(
    ("change", "field"),
    [
        pytest.param({"formats": []}, "formats", id="formats-empty"),
        pytest.param({"formats": ["csv"]}, "formats", id="formats-unknown"),
        pytest.param({"formats": "squad"}, "formats", id="formats-not-a-list"),
        pytest.param({"splits": ["validation"]}, "splits", id="splits-unknown"),
        pytest.param({"splits": []}, "splits", id="splits-empty"),
        pytest.param({"name": "fquad/1.1"}, "name", id="name-slash"),
        pytest.param({"name": "fquad 1.1"}, "name", id="name-space"),
        pytest.param({"name": "../fquad"}, "name", id="name-dots-slash"),
        pytest.param({"name": ""}, "name", id="name-empty"),
        # The NAME and VERSION patterns end with "$", which also matches before a final "\n".
        pytest.param({"name": "fquad-1.1\n"}, "name", id="name-final-newline"),
        pytest.param({"version": "1 0"}, "version", id="version-space"),
        pytest.param({"version": "1.0\n"}, "version", id="version-final-newline"),
        pytest.param({"approved_only": "yes"}, "approved_only", id="approved_only-string"),
        pytest.param({"include_test_answers": 1}, "include_test_answers", id="test-answers-int"),
        pytest.param({"description": "x" * 5001}, "description", id="description-long"),
        pytest.param({"description": "nul\x00"}, "description", id="description-nul"),
    ],
)
def test_bad_options_are_refused_naming_the_field_and_store_nothing(
    boss, change, field, django_capture_on_commit_callbacks
):
    data = {"name": "fquad-1.1", "version": "1.0", "formats": ["squad"]} | change
    with django_capture_on_commit_callbacks() as callbacks, pytest.raises(ServiceError) as error:
        release_create(created_by=boss, **data)

    assert list(error.value.errors) == [field]
    assert error.value.status == 400
    assert Release.objects.count() == 0
    assert callbacks == []


def test_every_bad_field_is_named_at_once(boss):
    with pytest.raises(ServiceError) as error:
        release_create(
            created_by=boss, name="a b", version="", formats=["csv"], splits=["validation"]
        )
    assert sorted(error.value.errors) == ["formats", "name", "splits", "version"]
    assert Release.objects.count() == 0


def test_a_duplicate_name_is_refused_and_the_first_release_is_kept(
    boss, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks() as callbacks:
        first = create(boss, "fquad-1.1")
    assert len(callbacks) == 1
    with django_capture_on_commit_callbacks() as callbacks, pytest.raises(ServiceError) as error:
        create(boss, "fquad-1.1", formats=["mrqa"])

    assert list(error.value.errors) == ["name"]
    assert callbacks == []
    assert list(Release.objects.values_list("pk", "name", "options")) == [
        (first.pk, "fquad-1.1", first.options)
    ]


def test_options_are_stored_in_canonical_order(boss):
    release = create(boss, "fquad-order", formats=["mrqa", "squad"], splits=["test", "train"])
    release.refresh_from_db()
    assert release.options == {
        "formats": ["squad", "mrqa"],
        "splits": ["train", "test"],
        "approved_only": False,
        "include_test_answers": False,
        "include_history": False,
        "squad_version": "1.1",
        "language": "fr",
    }
    assert (release.status, release.attempts, release.created_by) == ("pending", 0, boss)


# ---------------------------------------------------------------------------------------------
# The job: built once, resumed only when failed or abandoned


def test_a_finished_release_is_not_built_again(ds, boss, releases_folder):
    release = built(boss, "fquad-once", formats=["squad", "hf"])
    files_before = list(ReleaseFile.objects.order_by("pk").values())
    on_disk = snapshot_of(releases_folder)
    row = Release.objects.values().get(pk=release.pk)
    assert row["attempts"] == 1 and len(on_disk) == len(files_before) == 11  # 3 internal

    Question.objects.filter(pk=ds.questions["D0"].pk).update(text="Changée ?")
    release_build(release=Release.objects.get(pk=release.pk))

    assert Release.objects.values().get(pk=release.pk) == row
    assert list(ReleaseFile.objects.order_by("pk").values()) == files_before
    assert snapshot_of(releases_folder) == on_disk


def test_resume_refuses_a_succeeded_release(ds, boss, django_capture_on_commit_callbacks):
    release = built(boss, "fquad-done", formats=["hf"], splits=["dev"])
    row = Release.objects.values().get(pk=release.pk)

    with django_capture_on_commit_callbacks() as callbacks, pytest.raises(ServiceError) as error:
        release_resume(release=release)

    assert (list(error.value.errors), error.value.status) == (["release"], 409)
    assert callbacks == []
    assert Release.objects.values().get(pk=release.pk) == row


def test_resume_refuses_a_pending_or_recently_running_release(
    boss, django_capture_on_commit_callbacks
):
    release = create(boss, "fquad-waiting")
    for status, heartbeat in (("pending", None), ("running", timezone.now())):
        Release.objects.filter(pk=release.pk).update(status=status, heartbeat_at=heartbeat)
        with django_capture_on_commit_callbacks() as callbacks, pytest.raises(ServiceError) as e:
            release_resume(release=release)
        assert e.value.status == 409
        assert callbacks == []
        assert Release.objects.get(pk=release.pk).status == status


def test_a_failed_release_is_resumed_and_built_again_from_a_clean_folder(
    ds, boss, releases_folder, monkeypatch, django_capture_on_commit_callbacks
):
    release = create(boss, "fquad-retry", formats=["hf"], splits=["dev"])

    def broken(**kwargs):
        # A killed attempt may leave a file behind before the error.
        (kwargs["directory"] / "hf-dev.jsonl").write_bytes(b"partial")
        raise OSError("No space left on device")

    monkeypatch.setattr("exports.services.releases.build_release_files", broken)
    leftover = releases_folder / "releases" / str(release.pk) / "hf-dev.jsonl"
    leftover.parent.mkdir(parents=True)
    leftover.write_bytes(b"left by a killed worker")
    release_build(release=release)
    release.refresh_from_db()
    assert (release.status, release.attempts, release.error) == (
        "failed",
        1,
        "OSError: No space left on device",
    )
    assert release.files.count() == 0
    assert not leftover.exists()  # the attempt began by clearing the folder

    with django_capture_on_commit_callbacks() as callbacks:
        resumed = release_resume(release=release)
    assert (resumed.status, resumed.error, resumed.progress, resumed.finished_at) == (
        "pending",
        "",
        0,
        None,
    )
    assert len(callbacks) == 1

    monkeypatch.undo()
    release_build(release=resumed)
    release.refresh_from_db()
    assert (release.status, release.attempts, release.progress) == ("succeeded", 2, 100)
    assert file_names(release) == ["README.md", "hf-dev.jsonl", "manifest.json"]
    assert file_names(release, internal=True) == ["gold-dev.json"]
    folder = releases_folder / "releases" / str(release.pk)
    assert sorted(p.name for p in folder.iterdir()) == all_names(release)
    for item in release.files.all():
        assert sha256((folder / item.name).read_bytes()) == item.sha256


def test_a_release_silent_for_fifteen_minutes_can_be_resumed(
    boss, django_capture_on_commit_callbacks
):
    release = create(boss, "fquad-stale")
    silent = timezone.now() - timedelta(minutes=16)
    Release.objects.filter(pk=release.pk).update(
        status="running", started_at=silent, heartbeat_at=silent, attempts=1, progress=40
    )
    with django_capture_on_commit_callbacks() as callbacks:
        resumed = release_resume(release=release)
    assert (resumed.status, resumed.progress, resumed.attempts) == ("pending", 0, 1)
    assert len(callbacks) == 1


# Guards found in review: a superseded build stops quietly, a missing stored file is a 409,
# held-back test review comments stay on the server, questions without a showable answer are
# left out.


def test_a_build_whose_release_was_taken_over_stops_without_files(ds, boss):
    release = create(boss, "taken-over")
    job_start(release)  # this attempt is number 1…
    Release.objects.filter(pk=release.pk).update(attempts=2)  # …and a resumed one started since
    with pytest.raises(Superseded):
        _build(release)
    assert ReleaseFile.objects.filter(release=release).count() == 0
    assert Release.objects.get(pk=release.pk).status == Release.Status.RUNNING  # the other's


def test_a_file_missing_from_storage_is_a_409_naming_it(ds, boss, releases_folder):
    release = built(boss, "missing-file")
    item = ReleaseFile.objects.get(release=release, name="hf-dev.jsonl")
    (releases_folder / item.storage_name).unlink()
    api = APIClient()
    api.force_authenticate(boss)
    response = api.get(f"/api/v1/releases/{release.pk}/files/hf-dev.jsonl")
    assert response.status_code == 409
    assert list(response.json()["errors"]) == ["name"]


def test_review_comments_of_a_held_back_test_split_stay_on_the_server(ds, boss, releases_folder):
    release = built(boss, "comments", include_history=True, include_test_answers=False)
    lines = [
        json.loads(line) for line in stored(releases_folder, release, "history.jsonl").splitlines()
    ]
    test_ids = set(json.loads(stored(releases_folder, release, "gold-test.json")))
    dev_ids = set(json.loads(stored(releases_folder, release, "gold-dev.json")))
    reviews_of = {line["id"]: line["reviews"] for line in lines}
    assert any(reviews_of[i] for i in test_ids)  # the dataset reviews some test questions
    assert all("comment" not in r for i in test_ids for r in reviews_of[i])
    assert all("comment" in r for i in dev_ids for r in reviews_of[i])


def test_a_question_left_without_a_showable_answer_is_not_released(ds, boss, releases_folder):
    question = Question.objects.filter(paragraph__article__split="dev").order_by("pk").first()
    Answer.objects.filter(question=question).update(misaligned=True)
    release = built(boss, "no-answer-left", formats=["hf"])
    gold = json.loads(stored(releases_folder, release, "gold-dev.json"))
    assert question.export_id not in gold
    assert all(gold.values())  # every released question keeps at least one answer


def test_the_release_page_counts_the_files_it_lists_in_the_readers_language(ds, boss, client):
    release = built(boss, "counted", formats=["squad", "hf"])  # 3 splits × 2 + README + manifest
    client.force_login(boss)

    english = client.get(f"/manage/releases/{release.pk}/", HTTP_ACCEPT_LANGUAGE="en")
    french = client.get(f"/manage/releases/{release.pk}/", HTTP_ACCEPT_LANGUAGE="fr")

    assert release.files.filter(internal=False).count() == 8
    assert "8 files written." in english.content.decode()
    assert "8 fichiers écrits." in french.content.decode()
    assert "fichiers" not in english.content.decode()


def test_the_release_page_groups_the_file_sizes_in_the_readers_language(ds, boss, client):
    release = built(boss, "sized", formats=["hf"], splits=["dev"])
    release.files.filter(name="hf-dev.jsonl").update(bytes=1_234_567)
    client.force_login(boss)

    pages = {
        language: client.get(f"/manage/releases/{release.pk}/", HTTP_ACCEPT_LANGUAGE=language)
        for language in ("en", "fr")
    }

    assert '<td class="num">1,234,567</td>' in pages["en"].content.decode()
    assert '<td class="num">1\u00a0234\u00a0567</td>' in pages["fr"].content.decode()


def collection_section(readme: str) -> list[str]:
    lines = readme.splitlines()
    start = lines.index("## Collection process")
    end = lines.index("## Licence and attribution")
    return lines[start + 2 : end]


def test_the_datasheet_says_what_happened_to_questions_written_here(ds, boss, releases_folder):
    release = built(boss, "told", formats=["hf"], include_test_answers=True)

    section = collection_section(stored(releases_folder, release, "README.md").decode())

    assert section == [
        "### Written on the platform",
        "",
        "11 questions (train 2, dev 6, test 3). Paragraphs of at least 500 characters from the "
        "articles below were shown to annotators, one paragraph to one annotator, who wrote "
        "questions and selected for each the smallest span of the paragraph that answers it "
        "(offsets are Python code points).",
        "- Campaign Questions: 3 to 5 questions per paragraph; 100 % of each annotator's "
        "questions sampled for review; splits train, dev, test.",
        "",
        "A reviewer judged 6 of them (4 approved, 2 corrected); corrected questions "
        "appear in their corrected version. Rejected questions are not in this release.",
        "Of their dev and test questions (9), 2 got additional answers on the platform from "
        "other annotators, who did not see the earlier answers (1 from two or more); those "
        "answers follow the original one.",
        "",
    ]
    assert "### Imported" not in section


def test_the_datasheet_of_an_imported_dataset_claims_no_annotation_here(
    db, boss, releases_folder, tmp_path
):
    path = tmp_path / "piaf-mini.json"
    context = "Le phare fut allumé en 1852 par l'ingénieur Ambroise Vénétrel. " * 10
    path.write_text(
        json.dumps(
            {
                "version": "1.1",
                "data": [
                    {
                        "title": "Phare",
                        "paragraphs": [
                            {
                                "context": context,
                                "qas": [
                                    {
                                        "id": "p1",
                                        "question": "Quand le phare fut-il allumé ?",
                                        "answers": [{"text": "1852", "answer_start": 23}],
                                    }
                                ],
                            }
                        ],
                    }
                ],
            }
        ),
        encoding="utf-8",
    )
    squad_import(path=path, wave="1.0", language="fr", split="dev")
    release = built(boss, "imported", formats=["hf"], splits=["dev"])

    readme = stored(releases_folder, release, "README.md").decode()
    section = collection_section(readme)

    assert section == [
        "### Imported",
        "",
        "1 question (dev 1), imported from an existing dataset (Import piaf-mini.json), "
        "with the ids, questions and answers it gave: questions verbatim; an answer whose "
        "offset was wrong was moved to its text when that occurs once in the paragraph, and "
        "otherwise left out. They were not written on this platform: how they were collected "
        "is the source dataset's own account.",
        "",
        "No reviewer judged them.",
        "Of their dev and test questions (1), 0 got additional answers on the platform from "
        "other annotators, who did not see the earlier answers (0 from two or more); those "
        "answers follow the original one.",
        "",
    ]
    assert "shown to annotators" not in readme
    assert "| Phare | https://fr.wikipedia.org/wiki/Phare | unknown: imported with its title " in (
        readme
    )


# ---------------------------------------------------------------------------------------------
# One pass per split: every format, the gold files and the datasheet's figures


def build_here(tmp_path: Path, folder: str, report=None, **options):
    """Build a release named fquad into a folder of its own, with the gold files."""
    (tmp_path / folder).mkdir()
    return build_release_files(
        options=check_options(options),
        name="fquad",
        version="1.0",
        directory=tmp_path / folder,
        report=report,
        with_gold=True,
    )


def test_the_datasheet_tables_of_question_types_and_answer_lengths(ds, boss, releases_folder):
    release = built(boss, "tables", formats=["hf"])

    lines = stored(releases_folder, release, "README.md").decode().splitlines()
    start = lines.index("## Question types (% of questions)")
    # train: qui, quelle année (when); dev: quelle ×2, où ×2, qui, quand; test: où (the
    # corrected "Dans quelle ville" is still where), quelle année (when), combien.
    assert lines[start + 2 : start + 8] == [
        "| split | who | what | which | where | when | why | how | how_many | other |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
        "| train | 50.0 | 0.0 | 0.0 | 0.0 | 50.0 | 0.0 | 0.0 | 0.0 | 0.0 |",
        "| dev | 16.7 | 0.0 | 33.3 | 33.3 | 16.7 | 0.0 | 0.0 | 0.0 | 0.0 |",
        "| test | 0.0 | 0.0 | 0.0 | 33.3 | 33.3 | 0.0 | 0.0 | 33.3 | 0.0 |",
        "",
    ]
    start = lines.index("## Answer lengths (words, original answers)")
    # Words of the original answers (as corrected): train "Pierre-Paul Riquet", "1681";
    # dev 3, 3, 5 (Loire) and 3, 3, 4 (Mont-Blanc); test "à Mayence", "1450", "environ 180".
    # The held-back test answers are counted too: the datasheet describes the whole release.
    assert lines[start + 2 : start + 8] == [
        "| split | answers | mean | median | max |",
        "| --- | --- | --- | --- | --- |",
        "| train | 2 | 1.50 | 1.5 | 2 |",
        "| dev | 6 | 3.50 | 3.0 | 5 |",
        "| test | 3 | 1.67 | 2 | 2 |",
        "",
    ]


def test_each_split_is_read_once_whatever_the_formats(ds, tmp_path):
    counted = {}
    for formats in (["squad"], ["squad", "hf", "mrqa"]):
        with CaptureQueriesContext(connection) as queries:
            build_here(tmp_path, "-".join(formats), formats=formats, include_history=False)
        counted["+".join(formats)] = len(queries)

    # 1 read of the campaigns' languages (the release's language, exports.options); 1 count
    # of the questions per split (progress); per split its questions, their
    # paragraphs, their answers and their reviews, plus the additional-answer leases on dev
    # and test (4 + 5 + 5); the datasheet: the articles to credit, the campaigns, the
    # question–answer differences (the dev sample, its labels: 2); the stored answer types
    # come with the answers (no query of their own). MRQA adds, per split (one batch of texts
    # here), the lookup of its kept tokens and the store of those it made (exports.services.tokens): 3 × 2.
    assert counted == {"squad": 20, "squad+hf+mrqa": 20 + 6}


def test_a_build_reports_its_progress_as_it_reads_each_split(ds, tmp_path, monkeypatch):
    monkeypatch.setattr("exports.dataset.CHUNK", 2)
    reports = []

    build_here(
        tmp_path, "progress", lambda *report: reports.append(report), formats=["squad", "hf"]
    )

    # 11 questions: train 2, dev 6, test 3, read 2 at a time; 90 % when all are read.
    assert reports == [
        (0, "squad + hf · train"),
        (16, "squad + hf · train"),
        (16, "squad + hf · dev"),
        (32, "squad + hf · dev"),
        (49, "squad + hf · dev"),
        (65, "squad + hf · dev"),
        (65, "squad + hf · test"),
        (81, "squad + hf · test"),
        (90, "squad + hf · test"),
        (95, "README.md"),
    ]


def test_small_chunks_give_the_same_files_and_datasheet(ds, tmp_path, monkeypatch):
    options = {"formats": ["squad", "hf", "mrqa"], "include_history": True}
    whole = build_here(tmp_path, "whole", **options)
    monkeypatch.setattr("exports.dataset.CHUNK", 2)  # paragraphs and articles cut in two

    cut = build_here(tmp_path, "cut", **options)

    assert [(f.name, f.sha256) for f in cut.files] == [(f.name, f.sha256) for f in whole.files]
    assert cut.manifest == whole.manifest
    assert [f.name for f in whole.files] == [
        *DATA_FILES,
        "history.jsonl",
        "README.md",
        "manifest.json",
        "gold-train.json",
        "gold-dev.json",
        "gold-test.json",
    ]


def test_a_release_built_again_reads_its_tokens_from_the_cache(ds, boss, releases_folder):
    """MRQA tokens are kept between exports (exports.services.tokens): a second build tokenizes
    nothing and writes the same lines; the cache can be emptied at any time."""
    assert spacy_tokenizer().name.startswith("spacy ")

    def lines(name):
        release = built(boss, name, formats=["mrqa"], splits=["dev"])
        return mrqa_lines(stored(releases_folder, release, "mrqa-dev.jsonl.gz"))[1:]

    first = lines("fquad-a")
    # the dev split's 2 contexts and 6 questions, each once
    assert TokenCache.objects.count() == 8
    TokenCache.objects.update(spans=b"")  # read back, every token would be gone
    emptied = lines("fquad-b")
    assert [line["context_tokens"] for line in emptied] == [[], []]
    TokenCache.objects.all().delete()
    assert lines("fquad-c") == first
    assert TokenCache.objects.count() == 8


class Named:
    """simple_tokenizer under a name of its own, counting the texts it is given."""

    name = "simple (tests)"

    def __init__(self):
        self.texts = []

    def __call__(self, text):
        self.texts.append(text)
        return simple_tokenizer(text)


def test_the_background_pass_keeps_tokens_of_what_was_written_since_the_last(ds):
    tokenize = Named()
    paragraphs, questions = Paragraph.objects.count(), Question.objects.count()
    assert tokens_ahead(tokenize=tokenize) == {"paragraphs": paragraphs, "questions": questions}
    assert len(tokenize.texts) == len(set(tokenize.texts))  # each text tokenized once
    sweep = TokenSweep.objects.get(tokenizer="simple (tests)")
    assert (sweep.paragraph_id, sweep.question_id) == (
        Paragraph.objects.latest("pk").pk,
        Question.objects.latest("pk").pk,
    )
    seen = len(tokenize.texts)
    assert tokens_ahead(tokenize=tokenize) == {"paragraphs": 0, "questions": 0}
    assert len(tokenize.texts) == seen
    article_store(
        language="fr",
        source=SourceArticle(title="Nouveau", source_title="Nouveau"),
        paragraphs=["Un paragraphe tout neuf, écrit après le dernier passage."],
        wave="1.1",
        split="train",
        kind="file",
    )
    assert tokens_ahead(tokenize=tokenize) == {"paragraphs": 1, "questions": 0}
    assert tokenize.texts[seen:] == ["Un paragraphe tout neuf, écrit après le dernier passage."]


def test_after_the_background_pass_a_first_mrqa_export_tokenizes_nothing(ds, boss):
    assert tokens_ahead() == {
        "paragraphs": Paragraph.objects.count(),
        "questions": Question.objects.count(),
    }
    kept = TokenCache.objects.count()
    built(boss, "fquad-ahead", formats=["mrqa"])
    assert TokenCache.objects.count() == kept
