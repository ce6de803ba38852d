"""Question–answer differences (issue 16, item 2): the seeded sample of 6 dev questions per
article, labels by reviewers and admins (service, API, page), and the table per wave."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation
from rest_framework.test import APIClient

from annotation.models import Answer, DifferenceLabelling, Question
from annotation.selectors.differences import (
    SAMPLE_PER_ARTICLE,
    difference_sample,
    difference_table,
    next_unlabelled,
    sample_rank,
)
from annotation.services.campaigns import campaign_create
from annotation.services.differences import difference_label
from core.errors import ServiceError
from core.roles import Role
from corpus.readers import SourceArticle
from corpus.services.articles import article_store
from tests.factories import UserFactory

TEXT = "Le canal du Midi relie Toulouse à la mer Méditerranée. Il fut inauguré en 1681."


def _article(title, *, wave="1.0", split="dev"):
    article = article_store(
        language="fr",
        source=SourceArticle(title=title, source_title=title),
        paragraphs=[TEXT],
        wave=wave,
        split=split,
        kind="file",
    )
    return article.paragraphs.get()


def _questions(paragraph, campaign, author, n, **extra):
    made = []
    for i in range(n):
        question = Question.objects.create(
            campaign=campaign,
            paragraph=paragraph,
            author=author,
            position=i,
            text=f"{paragraph.article.title} question {i} ?",
            question_type="what",
            **extra,
        )
        Answer.objects.create(
            question=question,
            author=author,
            answer_start=TEXT.index("Toulouse"),
            text="Toulouse",
            kind=Answer.Kind.ORIGINAL,
        )
        made.append(question)
    return made


@pytest.fixture
def corpus(db):
    """Dev: article A (wave 1.0, 8 questions, one rejected), B (wave 1.0, 3 questions),
    C (wave 1.1, 2 questions, one unanswerable more); train: D (4 questions)."""
    campaign = campaign_create(name="Q", splits=["dev", "train"], lease_minutes=30)
    author = UserFactory(username="writer", roles=[Role.ANNOTATOR])
    a, b = _article("A"), _article("B")
    c, d = _article("C", wave="1.1"), _article("D", split="train")
    made = {
        "A": _questions(a, campaign, author, 8),
        "B": _questions(b, campaign, author, 3),
        "C": _questions(c, campaign, author, 2),
        "D": _questions(d, campaign, author, 4),
    }
    made["A"][7].status = Question.Status.REJECTED
    made["A"][7].save()
    Question.objects.create(
        campaign=campaign,
        paragraph=c,
        author=author,
        position=9,
        text="Sans réponse ?",
        question_type="what",
        is_impossible=True,
    )
    return made


@pytest.fixture
def people(db):
    return {
        "rev": UserFactory(username="rev", roles=[Role.REVIEWER]),
        "rev2": UserFactory(username="rev2", roles=[Role.REVIEWER]),
        "adm": UserFactory(username="adm", roles=[Role.ADMIN]),
        "ann": UserFactory(username="ann", roles=[Role.ANNOTATOR]),
    }


def test_the_sample_takes_six_counting_dev_questions_per_article_seeded(corpus):
    sample = difference_sample()
    by_title = {}
    for item in sample:
        by_title.setdefault(item.title, []).append(item.pk)
    assert {t: len(pks) for t, pks in by_title.items()} == {"A": 6, "B": 3, "C": 2}
    # A: the 6 best-ranked of its 7 counting questions (the rejected one never counts).
    counting = [q for q in corpus["A"] if q.status != Question.Status.REJECTED]
    expected = sorted(counting, key=lambda q: sample_rank(q.uuid))[:SAMPLE_PER_ARTICLE]
    assert by_title["A"] == [q.pk for q in expected]
    assert corpus["A"][7].pk not in by_title["A"]
    # Order: wave, title, rank; replayable: the same call gives the same sample.
    assert [item.title for item in sample] == ["A"] * 6 + ["B"] * 3 + ["C"] * 2
    assert [item.pk for item in difference_sample()] == [item.pk for item in sample]
    assert [item.title for item in difference_sample(wave="1.1")] == ["C", "C"]


def test_labels_are_set_changed_and_counted_per_wave(corpus, people):
    sample = [item.pk for item in difference_sample()]
    a, b, c = sample[:6], sample[6:9], sample[9:]
    with translation.override("en"):
        difference_label(question=a[0], labeller=people["rev"], labels=["synonymy"])
        difference_label(
            question=a[1], labeller=people["rev"], labels=["synonymy", "world_knowledge"]
        )
        difference_label(question=b[0], labeller=people["adm"], labels=[])
        difference_label(question=c[0], labeller=people["rev"], labels=["multiple_sentences"])
        # Changed in place: one row per (question, person).
        labelling = difference_label(
            question=c[0], labeller=people["rev"], labels=["syntactic_variation", "synonymy"]
        )
        assert labelling.labels == ["synonymy", "syntactic_variation"]
        assert DifferenceLabelling.objects.count() == 4
        table = difference_table()
    cells = lambda row: {cell["label"]: (cell["count"], cell["percent"]) for cell in row["labels"]}  # noqa: E731
    first, second = table["waves"]
    assert (first["wave"], first["sampled"], first["labelled"]) == ("1.0", 9, 3)
    assert cells(first) == {
        "synonymy": (2, 66.7),
        "world_knowledge": (1, 33.3),
        "syntactic_variation": (0, 0.0),
        "multiple_sentences": (0, 0.0),
        "none": (1, 33.3),
    }
    assert (second["wave"], second["sampled"], second["labelled"]) == ("1.1", 2, 1)
    assert cells(second)["syntactic_variation"] == (1, 100.0)
    assert cells(second)["multiple_sentences"] == (0, 0.0)
    total = table["total"]
    assert (total["sampled"], total["labelled"]) == (11, 4)
    assert cells(total) == {
        "synonymy": (3, 75.0),
        "world_knowledge": (1, 25.0),
        "syntactic_variation": (1, 25.0),
        "multiple_sentences": (0, 0.0),
        "none": (1, 25.0),
    }
    # A release's questions (given by the layer that reads releases): only B's.
    assert difference_table(question_pks=b)["total"]["labelled"] == 1
    # The same by the ids of a release's file (uuids here: no imported id).
    released = [str(Question.objects.get(pk=pk).uuid) for pk in [a[0], c[0], c[1]]]
    release_table = difference_table(export_ids=released)
    assert [(r["wave"], r["sampled"], r["labelled"]) for r in release_table["waves"]] == [
        ("1.0", 1, 1),
        ("1.1", 2, 1),
    ]
    assert release_table["total"]["labels"][0]["count"] == 2  # synonymy: a[0] and c[0]


def test_a_label_applies_when_half_of_the_labellers_gave_it(corpus, people):
    pk = difference_sample()[0].pk
    difference_label(question=pk, labeller=people["rev"], labels=["synonymy", "world_knowledge"])
    difference_label(question=pk, labeller=people["rev2"], labels=["synonymy"])
    difference_label(question=pk, labeller=people["adm"], labels=["synonymy"])
    cells = {c["label"]: c["count"] for c in difference_table()["total"]["labels"]}
    assert cells == {
        "synonymy": 1,
        "world_knowledge": 0,  # 1 of 3
        "syntactic_variation": 0,
        "multiple_sentences": 0,
        "none": 0,
    }
    assert difference_table()["total"]["labelled"] == 1


def test_next_unlabelled_follows_the_sample_and_skips_ones_own(corpus, people):
    order = [item.pk for item in difference_sample()]
    assert next_unlabelled(people["rev"]) == order[0]
    difference_label(question=order[0], labeller=people["rev"], labels=[])
    difference_label(question=order[1], labeller=people["adm"], labels=[])  # someone else's
    assert next_unlabelled(people["rev"]) == order[1]
    assert next_unlabelled(people["rev"], after=order[4]) == order[5]
    for pk in order[1:]:
        difference_label(question=pk, labeller=people["rev"], labels=[])
    assert next_unlabelled(people["rev"]) is None


@pytest.mark.parametrize(
    ("who", "question", "labels", "field", "status"),
    [
        ("rev", "sample", ["telepathy"], "labels", 400),
        ("rev", "sample", "synonymy", "labels", 400),
        ("rev", "train", ["synonymy"], "question", 400),
        ("rev", "rejected", ["synonymy"], "question", 400),
        ("rev", "missing", ["synonymy"], "question", 404),
        ("rev", "abc", ["synonymy"], "question", 400),
        ("ann", "sample", ["synonymy"], "labeller", 403),
    ],
)
def test_bad_labels_are_refused_naming_the_field(
    corpus, people, who, question, labels, field, status
):
    pks = {
        "sample": difference_sample()[0].pk,
        "train": corpus["D"][0].pk,
        "rejected": corpus["A"][7].pk,
        "missing": 999999,
        "abc": "abc",
    }
    with translation.override("en"), pytest.raises(ServiceError) as error:
        difference_label(question=pks[question], labeller=people[who], labels=labels)
    assert list(error.value.errors) == [field]
    assert error.value.status == status
    assert DifferenceLabelling.objects.count() == 0


def _api(user):
    client = APIClient()
    client.force_authenticate(user)
    client.cookies["django_language"] = "en"
    return client


def test_the_api_gives_the_sample_takes_labels_and_gives_the_table(corpus, people):
    client = _api(people["rev"])
    response = client.get("/api/v1/differences/sample/")
    assert response.status_code == 200
    body = response.json()
    assert body["count"] == 11
    first = body["results"][0]
    assert first["article"] == "A" and first["wave"] == "1.0"
    assert first["answer"] == {"text": "Toulouse", "answer_start": TEXT.index("Toulouse")}
    assert first["labels"] is None
    put = client.put(
        f"/api/v1/differences/questions/{first['question']}/",
        {"labels": ["world_knowledge", "synonymy"]},
        format="json",
    )
    assert put.status_code == 200
    assert put.json()["labels"] == ["synonymy", "world_knowledge"]
    again = client.get("/api/v1/differences/sample/?wave=1.0").json()
    assert again["count"] == 9
    assert again["results"][0]["labels"] == ["synonymy", "world_knowledge"]
    # Another reviewer sees their own (none yet).
    assert (
        _api(people["rev2"]).get("/api/v1/differences/sample/").json()["results"][0]["labels"]
        is None
    )
    table = client.get("/api/v1/differences/table/").json()
    assert table["total"]["labelled"] == 1
    assert table["total"]["labels"][0] == {
        "label": "synonymy",
        "name": "synonymy",
        "count": 1,
        "percent": 100.0,
    }


def test_the_api_refuses_bad_input_naming_the_field(corpus, people):
    client = _api(people["rev"])
    sampled = difference_sample()[0].pk
    unknown = client.put(
        f"/api/v1/differences/questions/{sampled}/", {"labels": ["guess"]}, format="json"
    )
    assert unknown.status_code == 400
    assert list(unknown.json()["errors"]) == ["labels"]
    assert "guess" in unknown.json()["errors"]["labels"][0]
    outside = client.put(
        f"/api/v1/differences/questions/{corpus['D'][0].pk}/",
        {"labels": ["synonymy"]},
        format="json",
    )
    assert outside.status_code == 400
    assert outside.json()["errors"] == {
        "question": ["This question is not in the difference sample."]
    }
    missing = client.put("/api/v1/differences/questions/abc/", {"labels": []}, format="json")
    assert missing.status_code == 400
    assert list(missing.json()["errors"]) == ["question"]
    no_body = client.put(f"/api/v1/differences/questions/{sampled}/", [1, 2], format="json")
    assert no_body.status_code == 400
    assert list(no_body.json()["errors"]) == ["labels"]
    annotator = _api(people["ann"])
    for response in (
        annotator.get("/api/v1/differences/sample/"),
        annotator.get("/api/v1/differences/table/"),
        annotator.put(f"/api/v1/differences/questions/{sampled}/", {"labels": []}, format="json"),
    ):
        assert response.status_code == 403
        assert list(response.json()["errors"]) == ["labeller"]
    assert DifferenceLabelling.objects.count() == 0


def test_the_pages_label_and_go_on_to_the_next_question(client, corpus, people):
    client.cookies["django_language"] = "en"
    client.force_login(people["rev"])
    order = [item.pk for item in difference_sample()]
    start = client.get("/review/differences/next/")
    assert start.status_code == 302 and start.url == f"/review/differences/questions/{order[0]}/"
    page = client.get(start.url)
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="difference-question">A question' in html
    assert html.count('type="checkbox" name="labels"') == 4
    assert "<kbd>4</kbd> Multiple-sentence reasoning" in html
    saved = client.post(start.url, {"labels": ["synonymy", "multiple_sentences"]})
    assert saved.status_code == 302 and saved.url == f"/review/differences/questions/{order[1]}/"
    assert DifferenceLabelling.objects.get().labels == ["synonymy", "multiple_sentences"]
    # Back on it: the boxes are ticked.
    html = client.get(start.url).content.decode()
    assert 'value="synonymy" data-key="1" checked' in html
    assert 'value="world_knowledge" data-key="2">' in html
    bad = client.post(start.url, {"labels": ["guess"]})
    assert bad.status_code == 400
    assert 'data-field="labels"' in bad.content.decode()
    outside = client.get(f"/review/differences/questions/{corpus['D'][0].pk}/")
    assert outside.status_code == 302 and outside.url == "/review/differences/"
    table = client.get("/review/differences/").content.decode()
    assert 'id="differences-table"' in table
    assert (
        '<td class="num" data-wave="all">100.0% <span class="hint">(1)</span></td>' in table
    )
    assert '<td class="num" data-wave="all">1 / 11</td>' in table


def test_only_reviewers_and_admins_reach_the_pages(client, corpus, people):
    client.force_login(people["ann"])
    assert client.get("/review/differences/").status_code == 403
    client.force_login(people["adm"])
    assert client.get("/review/differences/").status_code == 200


def test_the_reviewer_home_and_the_analysis_page_link_to_the_table(client, people):
    client.force_login(people["rev"])
    assert (
        'id="differences-link" href="/review/differences/"'
        in client.get("/review/").content.decode()
    )
    client.force_login(people["adm"])
    html = client.get("/manage/analysis/").content.decode()
    assert 'id="differences-link" href="/review/differences/"' in html


def test_the_table_and_the_labelling_page_read_a_fixed_number_of_queries(client, corpus, people):
    """No query per label or per question: as many with one labelling as with eleven."""
    order = [item.pk for item in difference_sample()]
    client.force_login(people["rev"])

    def counts():
        with CaptureQueriesContext(connection) as table:
            difference_table()
        with CaptureQueriesContext(connection) as page:
            assert client.get(f"/review/differences/questions/{order[0]}/").status_code == 200
        return len(table), len(page)

    difference_label(question=order[0], labeller=people["rev"], labels=["synonymy"])
    few = counts()
    for pk in order[1:]:
        difference_label(
            question=pk, labeller=people["rev"], labels=["synonymy", "world_knowledge"]
        )
        difference_label(question=pk, labeller=people["adm"], labels=["multiple_sentences"])
    assert counts() == few
    assert few[0] == 2  # the sample, the labellings
