"""XQuAD's twelve files imported into one platform, then released one language at a time.

XQuAD gives each question the same id in its twelve languages (and the articles the same
titles): each language's import must still take all 1,190 of its questions, and each
language's release hold its own 1,190 questions and none of another's (issue 27).
"""

from __future__ import annotations

import json
from io import StringIO

from django.core.management import call_command

from annotation.models import Campaign, Question
from core.roles import Role
from corpus.models import Article, Paragraph
from evaluation.services.leaderboard.submissions import release_split_normalization
from exports.services.releases import release_build, release_create
from tests.factories import UserFactory
from tests.needs import SHARED_DATA, require_file

CODES = ("en", "de", "es", "ro", "tr", "vi", "ru", "el", "ar", "hi", "th", "zh")


def xquad_ids(path) -> set[str]:
    data = json.loads(path.read_text(encoding="utf-8"))["data"]
    return {qa["id"] for a in data for p in a["paragraphs"] for qa in p["qas"]}


def import_file(path, code: str) -> dict:
    out = StringIO()
    call_command(
        "import_squad", str(path), "--wave", "1.0", "--language", code, "--json", stdout=out
    )
    return json.loads(out.getvalue())


def test_each_language_imports_its_whole_file_and_releases_only_its_own(db, releases_folder):
    paths = {
        code: require_file(SHARED_DATA / "xquad" / f"xquad.{code}.json", "XQuAD, CC BY-SA 4.0")
        for code in CODES
    }
    ids = xquad_ids(paths["en"])
    assert len(ids) == 1190
    for code, path in paths.items():
        assert xquad_ids(path) == ids  # the same ids in every language
        report = import_file(path, code)
        assert (report["questions_imported"], report["answers_imported"]) == (1190, 1190), code
        assert (report["articles_created"], report["paragraphs_created"]) == (48, 240), code
        assert (report["duplicates"], report["problems"], report["misaligned"]) == ([], [], [])
    assert Question.objects.count() == 12 * 1190
    assert Article.objects.count() == 12 * 48 and Paragraph.objects.count() == 12 * 240
    # Imported again, a file adds nothing: its ids are there, in its language.
    again = import_file(paths["zh"], "zh")
    assert (again["questions_imported"], len(again["duplicates"])) == (0, 1190)

    admin = UserFactory(username="admin", roles=[Role.ADMIN])
    for code in ("zh", "ar", "de"):
        release = release_create(
            created_by=admin,
            name=f"xquad-{code}",
            version="1.0",
            formats=["squad"],
            include_test_answers=True,
            language=code,
        )
        release_build(release=release)
        release.refresh_from_db()
        assert release.status == "succeeded", release.error
        found, contexts = [], set()
        for split in ("train", "dev", "test"):
            name = f"squad-{split}.json"
            data = json.loads((releases_folder / "releases" / str(release.pk) / name).read_bytes())
            for article in data["data"]:
                for paragraph in article["paragraphs"]:
                    contexts.add(paragraph["context"])
                    found += [qa["id"] for qa in paragraph["qas"]]
        assert len(found) == 1190 and set(found) == ids
        stored = set(
            Paragraph.objects.filter(article__language=code).values_list("text", flat=True)
        )
        assert contexts == stored and len(stored) == 240
        # Scored with the release's own language: its ids alone are every language's (a tie
        # of twelve, which the id lookup settles alphabetically, for Arabic).
        assert release_split_normalization(question_ids=found, release=release).name == (
            f"mlqa-{code}"
        )
        assert release_split_normalization(question_ids=found).name == "mlqa-ar"


def _tiny_squad(folder, text: str, question: str, answer: str):
    folder.mkdir()
    path = folder / "same-name.json"
    qa = {"id": "q1", "question": question, "answers": [{"text": answer, "answer_start": 0}]}
    data = {"data": [{"title": "T", "paragraphs": [{"context": text, "qas": [qa]}]}]}
    path.write_text(json.dumps({"version": "1.1", "data": data["data"]}), encoding="utf-8")
    return path


def test_one_file_name_in_two_languages_makes_two_campaigns_of_one_language_each(db, tmp_path):
    french = _tiny_squad(tmp_path / "fr", "Paris est la capitale.", "Quelle capitale ?", "Paris")
    german = _tiny_squad(tmp_path / "de", "Berlin ist die Hauptstadt.", "Welche Stadt?", "Berlin")

    assert import_file(french, "fr")["questions_imported"] == 1
    assert import_file(german, "de")["questions_imported"] == 1
    assert import_file(german, "de")["questions_imported"] == 0  # again: the same campaign

    campaigns = Campaign.objects.filter(name__startswith="Import same-name.json").order_by("pk")
    assert [(c.name, c.language) for c in campaigns] == [
        ("Import same-name.json", "fr"),
        ("Import same-name.json (de)", "de"),
    ]
    assert [
        sorted(Question.objects.filter(campaign=c).values_list("text", flat=True))
        for c in campaigns
    ] == [["Quelle capitale ?"], ["Welche Stadt?"]]
