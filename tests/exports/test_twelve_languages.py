"""Twelve languages end to end (issue 27): a language is a registry entry, and that is enough.

For each of XQuAD's twelve languages (the same 240 paragraphs and 1,190 questions, CC BY-SA
4.0, ../shared/data/xquad): a stand-in wiki serves XQuAD's first articles in that wiki's
quality category, the real `wikipedia-api` client scrapes them, the language's paragraph rule
keeps what it should, a campaign runs through the API (questions, review, additional answers),
a release exports SQuAD, HF and MRQA (tokens from the language's pipeline), and the importer
reads the language's XQuAD file back (test_twelve_languages_import.py, all twelve in one
database). Then one platform holds three languages at once, and nothing of one reaches
another's campaign or release.
"""

from __future__ import annotations

import functools
import gzip
import json

import pytest
from rest_framework.test import APIClient

from annotation.models import Answer, Question
from annotation.services.answers import answer_claim_next, answer_submit
from annotation.services.campaigns import campaign_create
from annotation.services.work import lease_claim_next, questions_submit
from core.errors import ServiceError
from core.languages import language
from core.roles import Role
from corpus.models import Paragraph
from corpus.segmentation import normalize, segment
from corpus.services.scraping import scrape_run_execute, scrape_run_start
from corpus.wikipedia import WikipediaClient
from evaluation.selectors.human import human_performance_report, release_human_params
from exports.models import Release
from exports.services.releases import release_build, release_create
from tests.corpus.fake_mediawiki import FakeMediaWiki, article_extract, piaf_articles
from tests.factories import UserFactory
from tests.needs import SHARED_DATA, require_file

AGENT = "qaplatform-tests/1.0 (https://example.org; tests@example.org)"
CODES = ("en", "de", "es", "ro", "tr", "vi", "ru", "el", "ar", "hi", "th", "zh")
ARTICLES = 2  # XQuAD's first two articles (Super Bowl 50, Warsaw): 10 paragraphs
# Of XQuAD's 240 paragraphs, those the language's rule keeps (FQuAD's 500 French characters,
# scaled by the language's length ratio: core.languages). A flat 500 would keep 4 in Chinese.
KEPT_OF_240 = {
    "en": 221,
    "de": 208,
    "es": 217,
    "ro": 204,
    "tr": 207,
    "vi": 208,
    "ru": 211,
    "el": 215,
    "ar": 210,
    "hi": 212,
    "th": 207,
    "zh": 207,
}
# Of the first two articles' 10 paragraphs.
KEPT_OF_10 = {
    "en": 7,
    "de": 7,
    "es": 8,
    "ro": 6,
    "tr": 7,
    "vi": 7,
    "ru": 6,
    "el": 7,
    "ar": 7,
    "hi": 6,
    "th": 7,
    "zh": 7,
}
QUESTIONS = 3  # written on each of the first two paragraphs claimed


@pytest.fixture(autouse=True)
def wikipedia_settings(settings):
    # Dev and test only, so that every question also gets an additional answer (campaigns of
    # additional answers take no train questions).
    settings.CORPUS_SPLIT_RATIOS = {"train": 0, "dev": 50, "test": 50}
    settings.WIKIPEDIA_USER_AGENT = AGENT
    settings.WIKIPEDIA_MIN_INTERVAL = 0


@functools.cache
def xquad(code: str) -> list[dict]:
    path = require_file(SHARED_DATA / "xquad" / f"xquad.{code}.json", "XQuAD, CC BY-SA 4.0")
    return json.loads(path.read_text(encoding="utf-8"))["data"]


def xquad_path(code: str):
    return SHARED_DATA / "xquad" / f"xquad.{code}.json"


def extract(code: str, contexts: list[str]) -> str:
    """An article as TextExtracts writes it: an introduction, a section, then the language's
    first end-matter section, whose line must not be kept."""
    reference = "A line of the references, long enough to pass any rule, never to be kept. " * 9
    end = language(code).end_matter[0]
    return "\n\n\n".join(
        [contexts[0], "== 1 ==\n" + "\n".join(contexts[1:]), f"== {end} ==\n{reference}"]
    )


def scrape(code: str, *, count: int = ARTICLES, pages: dict[str, str] | None = None):
    """Scrape `count` articles of the language's first quality category from a stand-in wiki."""
    entry = language(code)
    if pages is None:
        pages = {
            a["title"]: extract(code, [p["context"] for p in a["paragraphs"]])
            for a in xquad(code)[:count]
        }
    category = entry.wiki.quality_categories[0]
    fake = FakeMediaWiki(
        pages=pages, category=f"{entry.wiki.category_prefix}:{category}", members=list(pages)
    )
    client = WikipediaClient(
        language=code,
        api_url=entry.wiki.api_url,
        user_agent=AGENT,
        min_interval=0,
        transport=fake.transport(),
        sleep=lambda seconds: None,
    )
    run = scrape_run_start(
        category=category, sample_size=len(pages), seed=5, wave="1.0", language=code, enqueue=False
    )
    scrape_run_execute(run=run, client=client)
    run.refresh_from_db()
    assert run.status == "succeeded", run.error
    return run


def api_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def xquad_questions(code: str) -> dict[str, list[tuple[str, str, int]]]:
    """{normalized context: [(question, answer, answer_start), ...]} of the language's file."""
    found = {}
    for article in xquad(code):
        for paragraph in article["paragraphs"]:
            found[normalize(paragraph["context"])] = [
                (qa["question"], qa["answers"][0]["text"], qa["answers"][0]["answer_start"])
                for qa in paragraph["qas"]
            ]
    return found


def span_in(text: str, answer: str, start: int) -> int:
    """The answer's offset in the stored paragraph: XQuAD's when the text is unchanged."""
    return start if text[start : start + len(answer)] == answer else text.index(answer)


# The two paragraphs the author is given are test paragraphs (the queue's order, in every
# language): the release writes no data file for train and dev, which hold no question.
SPLITS_WRITTEN = ["test"]


def read_release(folder, release: Release, name: str) -> bytes:
    return (folder / "releases" / str(release.pk) / name).read_bytes()


def splits_with_files(folder, release: Release) -> list[str]:
    """The splits the release wrote data files for: a split without questions has none, and
    its manifest says so."""
    without = release.manifest.get("splits_without_questions", [])
    for split in without:
        assert not (folder / "releases" / str(release.pk) / f"squad-{split}.json").exists()
    return [split for split in ("train", "dev", "test") if split not in without]


@pytest.mark.parametrize("code", CODES)
def test_the_rule_keeps_the_languages_share_of_xquads_240_paragraphs(code):
    rule = language(code).min_chars
    kept = sum(
        len(segment(p["context"], language=code, min_chars=rule).paragraphs)
        for article in xquad(code)
        for p in article["paragraphs"]
    )
    assert kept == KEPT_OF_240[code]


@pytest.mark.parametrize("code", CODES)
def test_a_language_goes_from_its_wiki_to_a_release_and_back(
    code, db, releases_folder, django_capture_on_commit_callbacks
):
    entry = language(code)
    # 1. The stand-in wiki, scraped by the real client: the language's rule and end matter.
    run = scrape(code)
    contexts = [normalize(p["context"]) for a in xquad(code)[:ARTICLES] for p in a["paragraphs"]]
    expected = [c for c in contexts if len(c) >= entry.min_chars]
    assert (run.language, run.min_chars) == (code, entry.min_chars)
    assert run.paragraphs_kept == len(expected) == KEPT_OF_10[code]
    stored = Paragraph.objects.filter(article__language=code).order_by("article__title", "position")
    assert sorted(p.text for p in stored) == sorted(expected)
    assert not any("never to be kept" in p.text for p in stored)

    # 2. A questions campaign in the language, through the API: two paragraphs, three
    # questions each, taken from XQuAD (its questions in its language), every one reviewed.
    admin = UserFactory(username="admin", roles=[Role.ADMIN])
    author = UserFactory(username="author", roles=[Role.ANNOTATOR])
    answerer = UserFactory(username="answerer", roles=[Role.ANNOTATOR])
    reviewer = UserFactory(username="reviewer", roles=[Role.REVIEWER])
    made = api_for(admin).post(
        "/api/v1/campaigns/",
        {"name": f"Questions {code}", "language": code, "review_rate": "1.00"},
        format="json",
    )
    assert made.status_code == 201, made.json()
    campaign = made.json()
    assert (campaign["language"], campaign["splits"]) == (code, ["train", "dev", "test"])
    by_context = xquad_questions(code)
    written = {}
    for _ in range(2):
        lease = api_for(author).post(f"/api/v1/campaigns/{campaign['id']}/leases/").json()
        text = Paragraph.objects.get(pk=lease["paragraph"]["id"]).text
        items = by_context[text][:QUESTIONS]
        payload = [
            {"text": q, "answer_start": span_in(text, a, s), "answer_text": a, "seconds_spent": 50}
            for q, a, s in items
        ]
        sent = api_for(author).post(
            f"/api/v1/leases/{lease['id']}/submit/", {"questions": payload}, format="json"
        )
        assert sent.status_code == 201, sent.json()
        written |= {" ".join(q.split()): a for q, a, _s in items}  # stored trimmed
    assert Question.objects.filter(campaign__language=code).count() == 2 * QUESTIONS

    reviewed = 0
    while (
        claim := api_for(reviewer).post(f"/api/v1/campaigns/{campaign['id']}/review-leases/")
    ).status_code != 204:
        verdict = api_for(reviewer).post(
            f"/api/v1/leases/{claim.json()['id']}/submit/", {"verdict": "approve"}, format="json"
        )
        assert verdict.status_code == 201, verdict.json()
        reviewed += 1
    assert reviewed == 2 * QUESTIONS
    assert set(Question.objects.values_list("status", flat=True)) == {"approved"}

    # 3. Additional answers, through the API: another annotator answers every question.
    made = api_for(admin).post(
        "/api/v1/campaigns/",
        {
            "name": f"Answers {code}",
            "kind": "additional_answers",
            "language": code,
            "splits": ["dev", "test"],
            "extra_answers": 1,
        },
        format="json",
    )
    assert made.status_code == 201, made.json()
    answers = made.json()
    answered = 0
    while (
        claim := api_for(answerer).post(f"/api/v1/campaigns/{answers['id']}/leases/")
    ).status_code != 204:
        question = Question.objects.get(uuid=claim.json()["question"]["id"])
        original = question.answers.get(kind="original")
        sent = api_for(answerer).post(
            f"/api/v1/leases/{claim.json()['id']}/submit/",
            {
                "answer_start": original.answer_start,
                "answer_text": original.text,
                "seconds_spent": 20,
            },
            format="json",
        )
        assert sent.status_code == 201, sent.json()
        answered += 1
    assert answered == 2 * QUESTIONS
    assert Answer.objects.filter(kind="additional").count() == 2 * QUESTIONS

    # 4. A release of the language in SQuAD, HF and MRQA, through the API, built as the
    # export worker would.
    made = api_for(admin).post(
        "/api/v1/releases/",
        {
            "name": f"xquad-{code}",
            "version": "1.0",
            "formats": ["squad", "hf", "mrqa"],
            "include_test_answers": True,
            "language": code,
        },
        format="json",
    )
    assert made.status_code == 201, made.json()
    release = Release.objects.get(pk=made.json()["id"])
    release_build(release=release)
    release.refresh_from_db()
    assert release.status == "succeeded", release.error
    assert release.options["language"] == code
    squad, hf, mrqa = {}, [], []
    assert splits_with_files(releases_folder, release) == SPLITS_WRITTEN
    for split in SPLITS_WRITTEN:
        data = json.loads(read_release(releases_folder, release, f"squad-{split}.json"))
        for article in data["data"]:
            for paragraph in article["paragraphs"]:
                assert paragraph["context"] in expected
                for qa in paragraph["qas"]:
                    squad[qa["question"]] = [a["text"] for a in qa["answers"]]
        lines = read_release(releases_folder, release, f"hf-{split}.jsonl").decode()
        hf += [json.loads(line) for line in lines.splitlines()]
        raw = gzip.decompress(read_release(releases_folder, release, f"mrqa-{split}.jsonl.gz"))
        mrqa += [json.loads(line) for line in raw.decode().splitlines()[1:]]
    # Each question comes back with its original answer and the additional one (the same span).
    assert squad == {question: [answer, answer] for question, answer in written.items()}
    assert sorted(row["question"] for row in hf) == sorted(written)
    assert sum(len(line["qas"]) for line in mrqa) == 2 * QUESTIONS
    for line in mrqa:
        context = line["context"]
        # The language's own tokens: each one is the text at its offset.
        assert all(context[i : i + len(t)] == t for t, i in line["context_tokens"])
        for qa in line["qas"]:
            assert [d["text"] for d in qa["detected_answers"]] == [written[qa["question"]]]
            for found in qa["detected_answers"]:
                for start, end in found["char_spans"]:
                    assert context[start : end + 1] == found["text"]
    if code == "zh":  # "blank:zh" with spaCy's character segmenter: one token per character
        assert all(len(t) == 1 for line in mrqa for t, _i in line["context_tokens"])


def write_questions(campaign, user) -> list[str]:
    """Three questions on the paragraph the campaign gives; return the paragraph's text."""
    lease = lease_claim_next(campaign=campaign, annotator=user).lease
    text = lease.paragraph.text
    words = [w for w in text.split() if len(w) > 1][:3]
    questions_submit(
        lease=lease,
        questions=[
            {
                "text": f"{campaign.language} {i} {w}",
                "answer_start": text.index(w),
                "answer_text": w,
                "seconds_spent": 30,
            }
            for i, w in enumerate(words)
        ],
    )
    return text


@pytest.mark.both_backends  # `make test` runs it on SQLite too
def test_one_platform_holds_three_languages_and_none_leaks_into_another(db, releases_folder):
    piaf = dict(list(piaf_articles().items())[:2])
    scrape("fr", pages={t: article_extract(c) for t, c in piaf.items()})
    scrape("zh")
    scrape("ar")
    admin = UserFactory(username="admin", roles=[Role.ADMIN])
    author = UserFactory(username="author", roles=[Role.ANNOTATOR])
    campaigns = {
        code: campaign_create(name=f"Q {code}", language=code) for code in ("fr", "zh", "ar")
    }

    written = {code: write_questions(campaign, author) for code, campaign in campaigns.items()}
    for code, text in written.items():  # each campaign gave a paragraph of its own language
        assert Paragraph.objects.get(text=text).article.language == code

    def release(name, **options):
        made = release_create(
            created_by=admin,
            name=name,
            version="1",
            formats=["squad"],
            include_test_answers=True,
            **options,
        )
        release_build(release=made)
        made.refresh_from_db()
        assert made.status == "succeeded", made.error
        contexts, questions = set(), []
        for split in splits_with_files(releases_folder, made):
            data = json.loads(read_release(releases_folder, made, f"squad-{split}.json"))
            for article in data["data"]:
                for paragraph in article["paragraphs"]:
                    contexts.add(paragraph["context"])
                    questions += [qa["question"] for qa in paragraph["qas"]]
        return contexts, sorted(questions)

    # A release of one language holds its questions only, asked by language or by campaign.
    french = sorted(
        Question.objects.filter(campaign=campaigns["fr"]).values_list("text", flat=True)
    )
    assert release("only-fr", language="fr") == ({written["fr"]}, french)
    for code in ("zh", "ar"):
        by_language = release(f"only-{code}", language=code)
        by_campaign = release(f"campaign-{code}", campaigns=[campaigns[code].pk])
        expected = sorted(
            Question.objects.filter(campaign=campaigns[code]).values_list("text", flat=True)
        )
        assert by_language == by_campaign == ({written[code]}, expected)
        assert len(expected) == 3
    with pytest.raises(ServiceError) as mixed:
        release_create(
            created_by=admin,
            name="mixed",
            version="1",
            formats=["squad"],
            campaigns=[campaigns["zh"].pk, campaigns["ar"].pk],
        )
    assert list(mixed.value.errors) in (["campaigns"], ["language"])  # refused, named
    with pytest.raises(ServiceError) as other:
        release_create(
            created_by=admin,
            name="other",
            version="1",
            formats=["squad"],
            language="zh",
            campaigns=[campaigns["fr"].pk],
        )
    assert list(other.value.errors) in (["campaigns"], ["language"])
    with pytest.raises(ServiceError) as unknown:
        release_create(
            created_by=admin, name="unknown", version="1", formats=["squad"], language="xx"
        )
    assert list(unknown.value.errors) == ["language"]
    assert Release.objects.count() == 5

    # Human performance is per language: two more answers to each Chinese question count for
    # Chinese only.
    answers = campaign_create(
        name="A zh", kind="additional_answers", language="zh", splits=["dev", "test"]
    )
    for username in ("b", "c"):
        person = UserFactory(username=username, roles=[Role.ANNOTATOR])
        while (claim := answer_claim_next(campaign=answers, annotator=person)) is not None:
            original = claim.lease.question.answers.get(kind="original")
            answer_submit(
                lease=claim.lease,
                data={
                    "answer_start": original.answer_start,
                    "answer_text": original.text,
                    "seconds_spent": 9,
                },
            )
    chinese = human_performance_report(language="zh")
    assert sum(row["questions"] for row in chinese["splits"].values()) == 3
    assert {row["f1"] for row in chinese["splits"].values()} == {100.0}
    assert human_performance_report(language="ar")["splits"] == {}
    assert human_performance_report()["splits"] == {}  # the site's language: French
    zh_release = Release.objects.get(name="only-zh")
    assert release_human_params(zh_release) == {"language": "zh"}
    assert release_human_params(Release.objects.get(name="only-fr")) == {}
