"""Pages at scale (issue 13): a page's number of SQL queries must not grow with the data.

`queries_before_and_after(client, url, grow)` loads the page once (caches filled), counts the
queries of a second load, calls `grow()` (which adds rows of every kind the page reads: more
articles, questions, leases, people…), loads it once more and counts again. A test asserts the
two counts are equal, as exact values: a page that runs a query per row fails.
"""

from __future__ import annotations

from collections.abc import Callable

from django.db import connection
from django.test.utils import CaptureQueriesContext


def page_queries(client, url: str, status: int = 200) -> int:
    """Load the page and return how many SQL queries it ran (the status is checked)."""
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == status, (url, response.status_code)
    return len(captured)


def queries_before_and_after(client, url: str, grow: Callable[[], object]) -> tuple[int, int]:
    """Return the page's query count before and after `grow()` adds data (each load warmed)."""
    page_queries(client, url)
    before = page_queries(client, url)
    grow()
    page_queries(client, url)
    return before, page_queries(client, url)


def grow_site(site, round_: int) -> None:
    """Add one more of everything the filled site (`tests.e2e.site_data.build_site`) holds,
    through the services: articles, a new annotator's questions on them, reviews, additional
    answers, a release with a baseline run and a leaderboard entry, a scrape run."""
    from annotation.models import Campaign
    from annotation.services.reviews import review_claim_next, review_submit
    from annotation.services.work import lease_claim_next, questions_submit
    from core.roles import Role
    from corpus.readers import SourceArticle
    from corpus.services.articles import article_store
    from corpus.services.scraping import scrape_run_start
    from evaluation.services.baselines.execute import baseline_run_execute
    from evaluation.services.baselines.runs import baseline_run_record
    from evaluation.services.leaderboard.submissions import submission_create
    from exports.services.releases import release_build, release_create, release_gold
    from tests.e2e.site_data import ARTICLES, _answer
    from tests.factories import UserFactory

    by_text = {text: questions for _title, _split, text, questions in ARTICLES}
    for title, split, text, _questions in ARTICLES:
        article_store(
            language="fr",
            source=SourceArticle(title=f"{title} ({round_})", source_title=f"{title} ({round_})"),
            paragraphs=[text],
            wave="1.0",
            split=split,
            kind="file",
        )
    campaign = Campaign.objects.get(pk=site.campaign)
    writer = UserFactory(username=f"grown{round_}", roles=[Role.ANNOTATOR])
    for _ in ARTICLES:
        lease = lease_claim_next(campaign=campaign, annotator=writer).lease
        if lease is None:
            break
        text = lease.paragraph.text
        questions_submit(
            lease=lease,
            questions=[
                {"text": q, "answer_start": text.index(a), "answer_text": a, "seconds_spent": 50}
                for q, a in by_text[text]
            ],
        )
    reviewer = UserFactory(username=f"grown-reviewer{round_}", roles=[Role.REVIEWER])
    for _ in range(3):
        lease = review_claim_next(campaign=campaign, reviewer=reviewer).lease
        if lease is None:
            break
        review_submit(lease=lease, data={"verdict": "approve", "comment": ""})
    answers = Campaign.objects.get(pk=site.answers_campaign)
    for number in range(2):
        person = UserFactory(username=f"grown-answers{round_}-{number}", roles=[Role.ANNOTATOR])
        _answer(answers, person)
    boss = site.users["admin"]
    release = release_create(
        created_by=boss, name=f"grown-{round_}", version="1.0", formats=["squad", "hf"]
    )
    release_build(release=release)
    run = baseline_run_record(release=release, kind="lexical", created_by=boss)
    baseline_run_execute(run=run)
    gold = release_gold(release=release, split="dev")
    submission_create(
        user=boss,
        release=release,
        split="dev",
        label=f"Grown {round_}",
        predictions={qid: answers[0] for qid, answers in gold.items()},
    )
    scrape_run_start(
        category="Article de qualité",
        sample_size=3,
        seed=round_,
        wave=f"2.{round_}",
        created_by=boss,
        enqueue=False,
    )
