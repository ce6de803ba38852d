"""Importing SQuAD-format datasets: PIAF as published, and hand-made files with every flaw."""

import json
import time
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db.models import Count
from django.utils import translation

from annotation.models import Answer, Campaign, Question, QuestionRevision
from core.errors import ServiceError
from corpus.models import Article, Paragraph
from corpus.readers import SourceArticle
from corpus.services.articles import article_store, paragraphs_sha256
from corpus.splits import target_counts
from exports.services.importing import ImportReport, squad_import
from tests.needs import PIAF, PIAF_2020, require_file

DORIS_DAY = ("p140295202893328", "p140295202390160")  # annotated at 90, the text is at 89


@pytest.fixture
def piaf_path():
    return require_file(PIAF)


@pytest.fixture
def piaf_2020_path():
    return require_file(PIAF_2020)


def table_counts() -> dict[str, int]:
    return {
        "articles": Article.objects.count(),
        "paragraphs": Paragraph.objects.count(),
        "campaigns": Campaign.objects.count(),
        "questions": Question.objects.count(),
        "answers": Answer.objects.count(),
        "revisions": QuestionRevision.objects.count(),
        "users": get_user_model().objects.count(),
    }


def stored_dataset() -> dict[str, tuple]:
    """Return {id: (source title, context, question, [(answer, start), ...])} as stored."""
    answers: dict[int, list] = {}
    for question_id, text, start in Answer.objects.order_by("pk").values_list(
        "question_id", "text", "answer_start"
    ):
        answers.setdefault(question_id, []).append((text, start))
    rows = Question.objects.values_list(
        "pk", "source_id", "paragraph__article__source_title", "paragraph__text", "text"
    )
    return {
        source_id: (title, context, text, answers[pk])
        for pk, source_id, title, context, text in rows
    }


def file_dataset(path: Path) -> dict[str, tuple]:
    """Return the same mapping read straight from the file (questions are kept verbatim)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return {
        str(qa["id"]): (
            article["title"],
            paragraph["context"],
            qa["question"],
            [(a["text"], a["answer_start"]) for a in qa["answers"]],
        )
        for article in data["data"]
        for paragraph in article["paragraphs"]
        for qa in paragraph["qas"]
    }


# ---------------------------------------------------------------------------------------------
# PIAF


def test_piaf_is_imported_whole_with_the_two_doris_day_answers_repaired(db, piaf_path):
    started = time.perf_counter()
    report = squad_import(path=piaf_path, wave="1.0", language="fr")
    elapsed = time.perf_counter() - started

    assert elapsed < 10  # a few seconds at most (about 1 s on PostgreSQL)
    assert (report.articles_created, report.articles_matched) == (191, 0)
    assert (report.paragraphs_created, report.paragraphs_matched) == (761, 0)
    assert (report.questions_imported, report.answers_imported) == (3835, 3835)
    assert report.repaired == [
        {"id": "p140295202893328", "from": 90, "to": 89},
        {"id": "p140295202390160", "from": 90, "to": 89},
    ]
    assert (report.duplicates, report.misaligned, report.problems) == ([], [], [])
    assert report.splits == {"dev": 17, "test": 15, "train": 159}
    assert report.splits == dict(
        sorted(target_counts(191, {"train": 83, "dev": 9, "test": 8}).items())
    )
    assert table_counts() == {
        "articles": 191,
        "paragraphs": 761,
        "campaigns": 1,
        "questions": 3835,
        "answers": 3835,
        "revisions": 3835,
        "users": 1,
    }
    expected = file_dataset(piaf_path)
    for question_id in DORIS_DAY:
        title, context, text, _answers = expected[question_id]
        expected[question_id] = (title, context, text, [(context[89:132], 89)])
    assert stored_dataset() == expected


def test_piaf_articles_keep_their_raw_title_and_get_the_wave(db, piaf_path):
    squad_import(path=piaf_path, wave="1.0", language="fr")

    terminator = Article.objects.get(title="Terminator 2 : Le Jugement dernier")
    assert terminator.source_title == "<i>Terminator 2 : Le Jugement dernier</i>"
    pomerium = Article.objects.get(title="Pomerium")
    assert pomerium.source_title == '<i><span class="lang-la" lang="la">Pomerium</span></i>'
    assert set(Article.objects.values_list("wave", "source", "language")) == {("1.0", "file", "fr")}
    sport = Article.objects.get(title="Sport")
    assert sport.text_sha256 == paragraphs_sha256(
        list(sport.paragraphs.values_list("text", flat=True))
    )


def test_piaf_questions_belong_to_an_inactive_import_campaign_and_account(db, piaf_path):
    squad_import(path=piaf_path, wave="1.0", language="fr")

    campaign = Campaign.objects.get()
    assert (campaign.name, campaign.kind, campaign.active, campaign.splits, campaign.language) == (
        "Import piaf-v1.0.json",
        "questions",
        False,
        ["train", "dev", "test"],
        "fr",
    )
    author = get_user_model().objects.get()
    assert (author.username, author.is_active, author.has_usable_password()) == (
        "squad-import",
        False,
        False,
    )
    assert list(author.groups.all()) == []
    assert set(
        Question.objects.values_list("campaign", "author", "status", "sampled_for_review")
    ) == {(campaign.pk, author.pk, "pending", False)}
    assert set(Answer.objects.values_list("author", "kind", "misaligned", "no_answer")) == {
        (author.pk, "original", False, False)
    }
    question = Question.objects.get(source_id="p140295202893328")
    assert (question.text, question.question_type, question.position) == (
        "Peux-tu me raconter l'accident de Doris Day ?",
        "other",
        3,
    )
    assert list(
        question.revisions.values_list(
            "number", "origin", "editor__username", "text", "answer_start", "answer_text"
        )
    ) == [
        (
            1,
            "written",
            "squad-import",
            "Peux-tu me raconter l'accident de Doris Day ?",
            89,
            "sa voiture entre en collision avec un train",
        )
    ]


def test_piaf_questions_are_numbered_in_file_order_within_their_paragraph(db, piaf_path):
    squad_import(path=piaf_path, wave="1.0", language="fr")

    data = json.loads(piaf_path.read_text(encoding="utf-8"))
    first = data["data"][0]["paragraphs"][0]
    paragraph = Paragraph.objects.get(text=first["context"])
    assert list(paragraph.questions.order_by("position").values_list("position", "source_id")) == [
        (position, qa["id"]) for position, qa in enumerate(first["qas"])
    ]


def test_importing_piaf_again_reports_every_question_as_a_duplicate(db, piaf_path):
    squad_import(path=piaf_path, wave="1.0", language="fr")
    before = table_counts()
    stored = stored_dataset()

    report = squad_import(path=piaf_path, wave="1.1", language="fr", seed=7)

    assert report.duplicates == list(file_dataset(piaf_path))
    assert len(report.duplicates) == 3835
    assert (report.articles_created, report.articles_matched) == (0, 191)
    assert (report.paragraphs_created, report.paragraphs_matched) == (0, 761)
    assert (report.questions_imported, report.answers_imported) == (0, 0)
    assert (report.repaired, report.misaligned, report.problems, report.splits) == ([], [], [], {})
    assert table_counts() == before
    assert stored_dataset() == stored
    assert set(Article.objects.values_list("wave", flat=True)) == {"1.0"}


def test_the_2020_export_with_integer_ids_imports_them_as_strings(db, piaf_2020_path):
    report = squad_import(path=piaf_2020_path, wave="1.0", language="fr")

    assert (report.articles_created, report.paragraphs_created) == (300, 942)
    assert (report.questions_imported, report.answers_imported) == (4748, 4970)
    assert report.repaired == [
        {"id": "272", "from": 90, "to": 89},
        {"id": "266", "from": 90, "to": 89},
    ]
    assert (report.duplicates, report.misaligned, report.problems) == ([], [], [])
    assert table_counts() == {
        "articles": 300,
        "paragraphs": 942,
        "campaigns": 1,
        "questions": 4748,
        "answers": 4970,
        "revisions": 4748,
        "users": 3,
    }
    assert Question.objects.filter(source_id="272").exists()
    expected = file_dataset(piaf_2020_path)
    for question_id in ("272", "266"):
        title, context, text, _answers = expected[question_id]
        expected[question_id] = (title, context, text, [(context[89:132], 89)])
    assert stored_dataset() == expected
    by_author = (
        Answer.objects.values_list("author__username", "kind")
        .annotate(count=Count("pk"))
        .order_by("author__username")
    )
    assert list(by_author) == [
        ("squad-import", "original", 4748),
        ("squad-import-2", "additional", 220),
        ("squad-import-3", "additional", 2),
    ]
    assert not get_user_model().objects.filter(is_active=True).exists()


# ---------------------------------------------------------------------------------------------
# A hand-made file with every flaw the importer tolerates

CONTEXT = "Le renard parle au renard. Le prince écoute."  # renard at 3 and 19, écoute at 37
LOIRE_OLD = "La Loire est le plus long fleuve de France."
LOIRE_NEW = "Elle se jette dans l'océan Atlantique."
PETIT = "<i>Le  Petit</i> &amp; Prince"


def hand_document() -> dict:
    """No "version", extra keys, HTML in a title, an integer id and every kind of answer."""
    return {
        "data": [
            {
                "title": PETIT,
                "categorie": "Littérature",
                "paragraphs": [
                    {
                        "context": CONTEXT,
                        "source": "hand",
                        "qas": [
                            {
                                "id": "fox",
                                "question": "Qui  parle\n au renard ?",
                                "answers": [{"text": "renard", "answer_start": 30}],
                                "difficulty": 2,
                            },
                            {
                                "id": 7,
                                "question": "Qui écoute ?",
                                "answers": [
                                    {"text": "Le prince", "answer_start": 27},
                                    {"text": "prince", "answer_start": 30},
                                ],
                            },
                            {
                                "id": "fox",
                                "question": "Qui parle encore ?",
                                "answers": [{"text": "renard", "answer_start": 3}],
                            },
                            {
                                "id": "bad",
                                "question": "Quoi ?",
                                "answers": [{"text": "", "answer_start": 0}],
                            },
                            {
                                "id": "moved",
                                "question": "Que fait le prince ?",
                                "answers": [{"text": "écoute", "answer_start": 0}],
                            },
                            {"id": "unanswered", "question": "Pourquoi ?", "answers": []},
                        ],
                    }
                ],
            },
            {
                "title": "Loire",
                "paragraphs": [
                    {
                        "context": LOIRE_OLD,
                        "qas": [
                            {
                                "id": "long",
                                "question": "Quel est le plus long fleuve de France ?",
                                "answers": [{"text": "La Loire", "answer_start": 0}],
                            }
                        ],
                    },
                    {
                        "context": LOIRE_NEW,
                        "qas": [
                            {
                                "id": "sea",
                                "question": "Où se jette la Loire ?",
                                "answers": [{"text": "l'océan Atlantique", "answer_start": 19}],
                            }
                        ],
                    },
                ],
            },
            {"title": "<b>Le Petit &amp; Prince</b>", "paragraphs": [{"context": CONTEXT}]},
            {"title": 5, "paragraphs": []},
        ]
    }


HAND_PROBLEMS = [
    "article 0 ('<i>Le  Petit</i> &amp; Prince'), paragraph 0, qa 3 (id 'bad'), answer 0: "
    "\"text\" must be a non-empty string, found ''",
    "article '<i>Le  Petit</i> &amp; Prince', id 'unanswered': "
    "no answer (the platform keeps answered questions only)",
    'article 3: "title" must be a string, found a number',
]


def write_json(path: Path, document) -> Path:
    path.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    return path


@pytest.fixture
def hand_path(tmp_path) -> Path:
    return write_json(tmp_path / "hand.json", hand_document())


@pytest.fixture
def loire(db) -> Article:
    """The Loire, already in the corpus with one of the file's paragraphs."""
    source = SourceArticle(title="Loire", source_title="Loire")
    return article_store(
        language="fr", source=source, paragraphs=[LOIRE_OLD], wave="0.9", split="test", kind="file"
    )


def test_the_command_imports_a_hand_made_file_and_prints_its_report(hand_path, loire, capsys):
    old_paragraph = loire.paragraphs.get()

    call_command("import_squad", str(hand_path), "--wave", "1.1", "--split", "dev", "--json")

    assert json.loads(capsys.readouterr().out) == {
        "articles_created": 1,
        "articles_matched": 1,
        "paragraphs_created": 2,
        "paragraphs_matched": 1,
        "questions_imported": 5,
        "answers_imported": 6,
        "unanswerable_imported": 0,
        "plausible_imported": 0,
        "duplicates": ["fox"],
        "repaired": [{"id": "moved", "from": 0, "to": 37}],
        "misaligned": [{"id": "fox", "answer_start": 30, "text": "renard"}],
        "problems": HAND_PROBLEMS,
        "splits": {"dev": 1},
    }
    petit = Article.objects.get(title="Le Petit & Prince")
    assert (petit.source_title, petit.split, petit.wave, petit.source) == (
        PETIT,
        "dev",
        "1.1",
        "file",
    )
    assert list(petit.paragraphs.values_list("position", "text")) == [(0, CONTEXT)]
    loire.refresh_from_db()
    assert (loire.split, loire.wave) == ("test", "0.9")
    assert list(loire.paragraphs.values_list("pk", "position", "text")) == [
        (old_paragraph.pk, 0, LOIRE_OLD),
        (loire.paragraphs.get(position=1).pk, 1, LOIRE_NEW),
    ]
    assert loire.text_sha256 == paragraphs_sha256([LOIRE_OLD, LOIRE_NEW])
    assert Article.objects.count() == 2


def test_every_answer_is_kept_with_its_flag_and_author(hand_path, loire):
    squad_import(path=hand_path, wave="1.1", language="fr")

    rows = Answer.objects.order_by("question__paragraph_id", "question__position", "pk")
    assert list(
        rows.values_list(
            "question__source_id",
            "question__position",
            "question__text",
            "question__question_type",
            "author__username",
            "kind",
            "answer_start",
            "text",
            "misaligned",
        )
    ) == [
        (
            "long",
            0,
            "Quel est le plus long fleuve de France ?",
            "which",
            "squad-import",
            "original",
            0,
            "La Loire",
            False,
        ),
        (
            "fox",
            0,
            "Qui  parle\n au renard ?",
            "who",
            "squad-import",
            "original",
            30,
            "renard",
            True,
        ),
        ("7", 1, "Qui écoute ?", "who", "squad-import", "original", 27, "Le prince", False),
        ("7", 1, "Qui écoute ?", "who", "squad-import-2", "additional", 30, "prince", False),
        (
            "moved",
            2,
            "Que fait le prince ?",
            "what",
            "squad-import",
            "original",
            37,
            "écoute",
            False,
        ),
        (
            "sea",
            0,
            "Où se jette la Loire ?",
            "where",
            "squad-import",
            "original",
            19,
            "l'océan Atlantique",
            False,
        ),
    ]
    revisions = QuestionRevision.objects.order_by("question__source_id")
    assert list(
        revisions.values_list(
            "question__source_id", "number", "editor__username", "answer_start", "answer_text"
        )
    ) == [
        ("7", 1, "squad-import", 27, "Le prince"),
        ("fox", 1, "squad-import", 30, "renard"),
        ("long", 1, "squad-import", 0, "La Loire"),
        ("moved", 1, "squad-import", 37, "écoute"),
        ("sea", 1, "squad-import", 19, "l'océan Atlantique"),
    ]
    accounts = get_user_model().objects.order_by("username")
    assert list(accounts.values_list("username", "is_active")) == [
        ("squad-import", False),
        ("squad-import-2", False),
    ]
    assert not any(user.has_usable_password() or user.groups.exists() for user in accounts)


def test_new_articles_get_splits_by_the_ratios_and_existing_ones_keep_theirs(hand_path, loire):
    report = squad_import(path=hand_path, wave="1.1", language="fr", seed=0)

    # 2 articles after the import: the targets are train 2, dev 0, test 0; Loire stays in test.
    assert report.splits == {"train": 1}
    assert dict(Article.objects.values_list("title", "split")) == {
        "Le Petit & Prince": "train",
        "Loire": "test",
    }


def test_a_reimport_of_the_same_file_name_reuses_its_campaign_and_numbers_on(
    tmp_path, hand_path, loire
):
    squad_import(path=hand_path, wave="1.1", language="fr")
    document = hand_document()
    document["data"][1]["paragraphs"][0]["qas"].append(
        {
            "id": "mouth",
            "question": "Combien de kilomètres fait la Loire ?",
            "answers": [{"text": "La Loire", "answer_start": 0}],
        }
    )
    write_json(hand_path, document)

    report = squad_import(path=hand_path, wave="1.1", language="fr")

    assert (report.questions_imported, report.answers_imported) == (1, 1)
    assert report.duplicates == ["fox", "fox", "7", "moved", "long", "sea"]
    assert (report.articles_created, report.articles_matched) == (0, 2)
    assert (report.paragraphs_created, report.paragraphs_matched) == (0, 3)
    assert (report.repaired, report.misaligned, report.problems) == ([], [], HAND_PROBLEMS)
    campaign = Campaign.objects.get()
    assert campaign.name == "Import hand.json"
    mouth = Question.objects.get(source_id="mouth")
    assert (mouth.campaign, mouth.position, mouth.paragraph.text) == (campaign, 1, LOIRE_OLD)
    assert Question.objects.count() == 6


def test_another_file_gets_its_own_campaign(tmp_path, hand_path, loire):
    squad_import(path=hand_path, wave="1.1", language="fr")
    other = write_json(
        tmp_path / "other.json",
        {
            "version": "1.1",
            "data": [
                {
                    "title": "Loire",
                    "paragraphs": [
                        {
                            "context": LOIRE_NEW,
                            "qas": [
                                {
                                    "id": "ocean",
                                    "question": "Dans quel océan se jette la Loire ?",
                                    "answers": [{"text": "Atlantique", "answer_start": 27}],
                                }
                            ],
                        }
                    ],
                }
            ],
        },
    )

    report = squad_import(path=other, wave="1.1", language="fr")

    assert report.as_dict() == {
        "articles_created": 0,
        "articles_matched": 1,
        "paragraphs_created": 0,
        "paragraphs_matched": 1,
        "questions_imported": 1,
        "answers_imported": 1,
        "unanswerable_imported": 0,
        "plausible_imported": 0,
        "duplicates": [],
        "repaired": [],
        "misaligned": [],
        "problems": [],
        "splits": {},
    }
    assert list(Campaign.objects.order_by("name").values_list("name", flat=True)) == [
        "Import hand.json",
        "Import other.json",
    ]
    ocean = Question.objects.get(source_id="ocean")
    assert (ocean.campaign.name, ocean.position, ocean.question_type) == (
        "Import other.json",
        1,
        "where",
    )


def test_the_human_summary_names_what_was_repaired_flagged_and_skipped(hand_path, loire, capsys):
    call_command("import_squad", str(hand_path), "--wave", "1.1", "--split", "dev")

    assert capsys.readouterr().out == (
        "5 questions and 6 answers imported.\n"
        "Articles: 1 created (dev 1), 1 already there. Paragraphs: 2 created, 1 already there.\n"
        "1 duplicates skipped, 1 answers repaired, 1 misaligned (flagged), "
        "3 malformed entries skipped.\n"
        "  repaired moved: 0 → 37\n"
        "  misaligned fox: 'renard' at 30\n"
        f"  skipped: {HAND_PROBLEMS[0]}\n"
        f"  skipped: {HAND_PROBLEMS[1]}\n"
        f"  skipped: {HAND_PROBLEMS[2]}\n"
    )


# ---------------------------------------------------------------------------------------------
# Refusals: nothing is stored


EMPTY = {
    "articles": 0,
    "paragraphs": 0,
    "campaigns": 0,
    "questions": 0,
    "answers": 0,
    "revisions": 0,
    "users": 0,
}


def test_a_file_that_is_not_json_is_refused_naming_it(db, tmp_path):
    path = tmp_path / "notes.json"
    path.write_text("Ceci n'est pas du JSON.", encoding="utf-8")

    with pytest.raises(ServiceError) as error:
        squad_import(path=path, wave="1.0", language="fr")

    assert error.value.errors == {
        "path": [f"{path}: not valid JSON: Expecting value: line 1 column 1 (char 0)"]
    }
    assert table_counts() == EMPTY


def test_the_command_turns_a_refused_file_into_a_command_error(db, tmp_path):
    path = write_json(tmp_path / "list.json", [{"title": "Loire"}])

    with pytest.raises(CommandError) as error:
        call_command("import_squad", str(path), "--wave", "1.0", "--json")

    assert str(error.value) == f'path: {path}: expected an object with a "data" list'
    assert table_counts() == EMPTY


def test_a_missing_file_is_refused(db, tmp_path):
    path = tmp_path / "absent.json"

    with pytest.raises(ServiceError) as error:
        squad_import(path=path, wave="1.0", language="fr")

    assert error.value.errors == {"path": [f"{path}: No such file or directory"]}
    assert table_counts() == EMPTY


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"wave": "bad wave!"}, "wave"),
        ({"language": "French"}, "language"),
        ({"split": "holdout"}, "split"),
    ],
)
def test_bad_options_are_refused_and_nothing_is_stored(hand_path, db, options, field):
    with pytest.raises(ServiceError) as error:
        squad_import(path=hand_path, **({"wave": "1.0", "language": "fr"} | options))

    assert list(error.value.errors) == [field]
    assert table_counts() == EMPTY


def test_a_crash_midway_leaves_nothing_half_imported(hand_path, loire, monkeypatch):
    before = table_counts()

    def crash(questions):  # once the questions, answers and versions are written
        raise RuntimeError("worker killed")

    monkeypatch.setattr("annotation.services.questions.items_for_questions", crash)
    with pytest.raises(RuntimeError):
        squad_import(path=hand_path, wave="1.1", language="fr")

    assert table_counts() == before
    loire.refresh_from_db()
    assert list(loire.paragraphs.values_list("text", flat=True)) == [LOIRE_OLD]
    assert loire.text_sha256 == paragraphs_sha256([LOIRE_OLD])


def test_the_report_is_a_dataclass_with_empty_defaults():
    assert ImportReport().as_dict() == {
        "articles_created": 0,
        "articles_matched": 0,
        "paragraphs_created": 0,
        "paragraphs_matched": 0,
        "questions_imported": 0,
        "answers_imported": 0,
        "unanswerable_imported": 0,
        "plausible_imported": 0,
        "duplicates": [],
        "repaired": [],
        "misaligned": [],
        "problems": [],
        "splits": {},
    }


def test_an_import_that_loses_a_race_on_the_same_ids_is_refused_whole(
    hand_path, loire, monkeypatch
):
    squad_import(path=hand_path, wave="1.1", language="fr")
    before = table_counts()
    # As if another import stored the same questions after this one looked for them.
    monkeypatch.setattr(
        "exports.services.importing.source_ids_stored", lambda ids, language=None: set()
    )

    with pytest.raises(ServiceError) as error, translation.override("en"):
        squad_import(path=hand_path, wave="1.1", language="fr")

    assert (error.value.status, error.value.errors) == (
        409,
        {"path": ["Another import stored some of these rows meanwhile; run this one again."]},
    )
    assert table_counts() == before
