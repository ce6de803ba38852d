"""Every page's SQL queries stay the same when the data grows (issue 13: pages at scale).

The site is filled through the services (`tests.e2e.site_data.build_site`, as the every-page
browser test does); each page is loaded as its role, then the site grows by one more of
everything (`tests.pages.grow_site`) and the page is loaded again: the number of queries must
be the same. The times at 10× FQuAD are measured by bench/pages_scale.py.
"""

import pytest
from django.test import Client

from tests.e2e.test_every_page import PAGES, label_of, page_url
from tests.pages import grow_site, page_queries

pytestmark = pytest.mark.django_db

VISITS = [(page, role) for page in PAGES for role in page.roles if role != "anonymous"]


def counts(site) -> dict[str, int]:
    clients = {}
    found = {}
    for page, role in VISITS:
        if role not in clients:
            clients[role] = Client()
            clients[role].force_login(site.users[role])
        url = page_url(page, site)
        page_queries(clients[role], url, page.status)  # caches filled
        found[f"{label_of(page)} [{role}]"] = page_queries(clients[role], url, page.status)
    return found


def rows() -> dict[str, int]:
    from annotation.models import Answer, Lease, Question, Review
    from corpus.models import Article, ScrapeRun
    from evaluation.models import BaselineRun, Submission
    from exports.models import Release

    models = [Article, ScrapeRun, Question, Answer, Lease, Review, Release, BaselineRun, Submission]
    return {model.__name__: model.objects.count() for model in models}


def test_no_page_runs_more_queries_when_the_data_grows(site):
    before, small = counts(site), rows()
    grow_site(site, 1)
    grow_site(site, 2)
    after = counts(site)
    # Every table the pages read has grown: 4 articles, 12 questions… per round.
    assert rows() == {
        "Article": small["Article"] + 8,
        "ScrapeRun": small["ScrapeRun"] + 2,
        "Question": small["Question"] + 24,
        "Answer": small["Answer"] + 60,
        "Lease": small["Lease"] + 50,
        "Review": small["Review"] + 6,
        "Release": small["Release"] + 2,
        "BaselineRun": small["BaselineRun"] + 2,
        "Submission": small["Submission"] + 2,
    }
    grown = {name: (before[name], after[name]) for name in before if after[name] != before[name]}
    assert grown == {}
    assert len(before) == len(VISITS)
