"""The datasheet's question–answer differences (issue 16, item 4): the table of the labels
reviewers gave on the sample of the release's dev questions."""

import pytest

from annotation.selectors.differences import difference_sample
from annotation.services.campaigns import campaign_create
from annotation.services.differences import difference_label
from annotation.services.work import questions_write
from core.roles import Role
from corpus.readers import SourceArticle
from corpus.services.articles import article_store
from exports.build import build_release_files
from exports.options import check_options
from tests.annotation.conftest import TEXTS, good_questions
from tests.factories import UserFactory


def build(tmp_path) -> str:
    files = build_release_files(
        options=check_options({"formats": ["squad"], "splits": ["dev"], "version": "1.0"}),
        name="fquad",
        version="1.0",
        directory=tmp_path,
    )
    assert "README.md" in {f.name for f in files.files}
    return (tmp_path / "README.md").read_text()


def section(readme: str) -> list[str]:
    lines = readme.split("\n")
    start = lines.index("## Question–answer differences (dev, labelled by hand)")
    return lines[start : lines.index("## Collection process")]


@pytest.fixture
def dev(db):
    campaign = campaign_create(name="Questions", splits=["dev"])
    writer = UserFactory(username="writer", roles=[Role.ANNOTATOR])
    for i, text in enumerate(TEXTS[:2]):
        article = article_store(
            language="fr",
            source=SourceArticle(title=f"A{i}", source_title=f"A{i}"),
            paragraphs=[text],
            wave="1.0",
            split="dev",
            kind="file",
        )
        paragraph = article.paragraphs.get()
        questions_write(
            campaign=campaign,
            paragraph=paragraph,
            annotator=writer,
            questions=good_questions(paragraph),
        )
    return difference_sample()


def test_the_datasheet_gives_the_labels_of_the_sampled_dev_questions(dev, tmp_path):
    assert len(dev) == 6  # 3 questions on each of the 2 dev articles: all sampled
    reviewer = UserFactory(username="rev", roles=[Role.REVIEWER])
    admin = UserFactory(username="boss", roles=[Role.ADMIN])
    first, second, third = (item.pk for item in dev[:3])
    difference_label(question=first, labeller=reviewer, labels=["synonymy"])
    difference_label(question=second, labeller=reviewer, labels=["synonymy", "world_knowledge"])
    difference_label(question=third, labeller=reviewer, labels=[])
    difference_label(question=third, labeller=admin, labels=["multiple_sentences"])

    assert section(build(tmp_path)) == [
        "## Question–answer differences (dev, labelled by hand)",
        "",
        "The reasoning a reader needs between a question and the sentence of its answer, as in "
        "the FQuAD paper: a seeded sample of 6 dev questions per article, labelled by reviewers "
        "and admins on the platform (several labels may apply; a label counts when at least "
        "half of a question's labellers gave it). 3 of the 6 sampled dev questions of this "
        "release are labelled.",
        "",
        "| label | questions | % of the labelled |",
        "| --- | --- | --- |",
        "| synonymy | 2 | 66.7 |",
        "| world knowledge | 1 | 33.3 |",
        "| syntactic variation | 0 | 0.0 |",
        "| multiple-sentence reasoning | 1 | 33.3 |",
        "| none of them | 0 | 0.0 |",
        "",
    ]


def test_without_labels_the_datasheet_says_so(dev, tmp_path):
    assert section(build(tmp_path))[-2] == (
        "The reasoning a reader needs between a question and the sentence of its answer, as in "
        "the FQuAD paper: a seeded sample of 6 dev questions per article, labelled by reviewers "
        "and admins on the platform (several labels may apply; a label counts when at least "
        "half of a question's labellers gave it). 0 of the 6 sampled dev questions of this "
        "release are labelled."
    )
