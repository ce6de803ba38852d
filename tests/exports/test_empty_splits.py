"""A split without a question gets no data file: no empty hf-train.jsonl among a release's
files (docs/decisions.md, "Rough edges an admin meets"). Its internal gold file stays (`{}`:
scoring reads it as "nothing to score"); the manifest, the datasheet and the release page name
the split; readers of the release (training examples, the diff) take it as empty."""

from __future__ import annotations

import json

import pytest

from annotation.services.campaigns import campaign_create
from annotation.services.work import lease_claim_next, questions_submit
from core.errors import ServiceError
from core.roles import Role
from corpus.readers import SourceArticle
from corpus.services.articles import article_store
from evaluation.release_data import release_examples
from evaluation.services.baselines.sources import _release_sources
from exports.diff import release_diff
from tests.exports.test_releases import built, file_names, stored
from tests.factories import UserFactory

pytestmark = pytest.mark.usefixtures("releases_folder")

TEXT = (
    "La Loire est le plus long fleuve de France, avec 1 006 km. Elle prend sa source au mont "
    "Gerbier-de-Jonc en Ardèche et se jette dans l'océan Atlantique à Saint-Nazaire."
)


@pytest.fixture
def boss(db):
    return UserFactory(username="boss", roles=[Role.ADMIN])


@pytest.fixture
def dev_only(db):
    """One dev paragraph with one question; train and test hold none."""
    article_store(
        language="fr",
        source=SourceArticle(title="Loire", source_title="Loire", url="", revision_id=1),
        paragraphs=[TEXT],
        wave="1.0",
        split="dev",
        kind="file",
    )
    campaign = campaign_create(name="Questions", splits=["train", "dev", "test"], questions_min=1)
    writer = UserFactory(username="writer", roles=[Role.ANNOTATOR])
    lease = lease_claim_next(campaign=campaign, annotator=writer).lease
    answer = "1 006 km"
    questions_submit(
        lease=lease,
        questions=[
            {
                "text": "Quelle est la longueur de la Loire ?",
                "answer_start": TEXT.index(answer),
                "answer_text": answer,
                "seconds_spent": 30,
            }
        ],
    )


def test_a_split_without_a_question_gets_no_data_file(dev_only, boss, releases_folder):
    release = built(boss, "fquad", formats=["squad", "hf", "mrqa"])
    assert release.options["splits"] == ["train", "dev", "test"]
    assert file_names(release) == [
        "README.md",
        "hf-dev.jsonl",
        "manifest.json",
        "mrqa-dev.jsonl.gz",
        "squad-dev.json",
    ]
    assert file_names(release, internal=True) == [
        "gold-dev.json",
        "gold-test.json",
        "gold-train.json",
    ]
    assert stored(releases_folder, release, "gold-train.json") == b"{}\n"
    assert not (releases_folder / "releases" / str(release.pk) / "hf-train.jsonl").exists()
    manifest = json.loads(stored(releases_folder, release, "manifest.json"))
    assert manifest["splits_without_questions"] == ["train", "test"]
    assert [f["name"] for f in manifest["files"]] == [
        "squad-dev.json",
        "hf-dev.jsonl",
        "mrqa-dev.jsonl.gz",
        "README.md",
    ]
    assert release.manifest == manifest
    sheet = stored(releases_folder, release, "README.md").decode()
    assert "\nNo data file for the splits train, test: they hold no question.\n" in sheet


def test_a_full_release_has_no_such_manifest_key(dev_only, boss, releases_folder):
    release = built(boss, "fquad", splits=["dev"])
    assert file_names(release) == ["README.md", "hf-dev.jsonl", "manifest.json", "squad-dev.json"]
    assert "splits_without_questions" not in release.manifest
    sheet = stored(releases_folder, release, "README.md").decode()
    assert "No data file" not in sheet


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "No file for the split train: it holds no question."),
        ("fr", "Aucun fichier pour la partition train\u00a0: elle ne contient aucune question."),
    ],
)
def test_the_release_page_names_the_split_without_a_file(
    dev_only, boss, client, language, expected
):
    release = built(boss, "fquad", splits=["train", "dev"])
    client.force_login(boss)
    client.cookies["django_language"] = language
    page = client.get(f"/manage/releases/{release.pk}/", HTTP_ACCEPT_LANGUAGE=language)
    assert page.status_code == 200
    html = page.content.decode()
    note = html.split('id="release-empty-splits">', 1)[1].split("</p>", 1)[0]
    assert note == expected
    assert "hf-train.jsonl" not in html


def test_readers_take_a_split_without_a_file_as_empty(dev_only, boss):
    old = built(boss, "fquad-1.0")
    new = built(boss, "fquad-1.1")
    assert release_examples(new, "train") == []
    assert [e["question"] for e in release_examples(new, "dev")] == [
        "Quelle est la longueur de la Loire ?"
    ]
    assert release_diff(old=old, new=new)["counts"] == {"added": 0, "removed": 0, "changed": 0}
    with pytest.raises(ServiceError) as error:
        _release_sources([new.pk])
    assert error.value.errors == {
        "train_releases": [
            "La version publiée fquad-1.1 1.0 n’a aucune question dans un split train\u00a0: rien "
            "pour s’entraîner."
        ]
    }


def test_the_diff_of_releases_without_any_question(db, boss):
    old = built(boss, "vide-1.0", splits=["train"])
    new = built(boss, "vide-1.1", splits=["train"])
    assert file_names(new) == ["README.md", "manifest.json"]
    assert new.manifest["splits_without_questions"] == ["train"]
    assert release_diff(old=old, new=new)["counts"] == {"added": 0, "removed": 0, "changed": 0}


def test_the_baseline_page_offers_no_train_split_without_a_question(dev_only, boss, client):
    empty = built(boss, "sans-train")
    full = built(boss, "avec-dev", splits=["dev"])
    client.force_login(boss)
    page = client.get(f"/manage/results/baseline/?release={full.pk}").content.decode()
    sources = page.split('id="baseline-sources"', 1)[1].split("</fieldset>", 1)[0]
    assert f'<option value="{empty.pk}"' not in sources
    assert empty.manifest["splits_without_questions"] == ["train", "test"]
