"""The evaluation pages at scale (issue 13): human performance as a stored figure, the results'
baseline runs a page at a time, the leaderboard's bounded top, each with exact values."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import timedelta

import pytest
from django.utils import timezone

from annotation.models import Answer
from annotation.services.reviews import review_claim_next, review_submit
from core import figures
from core.models import StoredFigure
from core.roles import Role
from core.services.figure_jobs import figure_compute
from corpus.models import Article
from corpus.services.articles import article_set_split
from evaluation.models import BaselineRun, Submission
from evaluation.selectors import runs as selectors
from evaluation.selectors.human import HUMAN_FIGURE, _human_fingerprint, human_performance_report
from evaluation.services.leaderboard import board as leaderboard
from exports.models import Release
from tests.factories import UserFactory
from tests.pages import page_queries

pytestmark = pytest.mark.django_db

FIGURE_TASK = "core.tasks.stored_figure_task"
HUMAN_PAGE = "/manage/human-performance/"
RESULTS = "/manage/results/scores/"
LEADERBOARD = "/leaderboard/"


def link(html: str, rel: str) -> str | None:
    found = re.search(rf'rel="{rel}" href="\?([^"]*)"', html)
    return found.group(1).replace("&amp;", "&") if found else None


class Figures:
    """Switch the human performance figure between the request's computation (small data) and
    the stored one (as at 10× FQuAD), and run its pending job."""

    def __init__(self, monkeypatch, callbacks):
        self.monkeypatch, self.callbacks = monkeypatch, callbacks
        self.figure = figures.REGISTRY[HUMAN_FIGURE]

    def large(self):
        figure = replace(self.figure, small=lambda **params: False)
        self.monkeypatch.setitem(figures.REGISTRY, HUMAN_FIGURE, figure)

    def small(self):
        self.monkeypatch.setitem(figures.REGISTRY, HUMAN_FIGURE, self.figure)

    def get(self, client, url):
        with self.callbacks(execute=True):  # the job is sent once the request commits
            return client.get(url)

    def run_pending(self):
        for row in StoredFigure.objects.filter(name=HUMAN_FIGURE, status="pending"):
            figure_compute(row=row)


@pytest.fixture
def switch(monkeypatch, django_capture_on_commit_callbacks):
    return Figures(monkeypatch, django_capture_on_commit_callbacks)


def human_tables(html: str) -> str:
    """The two tables of the human performance page (per split, per annotator)."""
    start = html.index('id="human-performance"')
    end = html.index("</table>", html.index('id="human-performance-annotators"'))
    return html[start:end]


def figure_jobs(sent_tasks) -> list:
    return [call for call in sent_tasks.calls if call[0] == FIGURE_TASK]


# ---------------------------------------------------------------------------------------------
# Human performance


def test_the_stored_human_performance_shows_what_the_request_computes(
    answered, admin_client, switch, sent_tasks
):
    small = admin_client.get(HUMAN_PAGE).content.decode()
    assert StoredFigure.objects.count() == 0
    assert "66,7" in human_tables(small)  # dev EM 200/3, in French

    switch.large()
    first = switch.get(admin_client, HUMAN_PAGE)
    html = first.content.decode()
    assert first.status_code == 200
    assert 'id="human-figure"' in html and 'id="human-performance"' not in html
    row = StoredFigure.objects.get(name=HUMAN_FIGURE)
    assert (row.key, row.status) == ("", "pending")
    assert figure_jobs(sent_tasks) == [
        (FIGURE_TASK, {"kwargs": {"job_pk": row.pk}, "retry": False})
    ]
    switch.get(admin_client, HUMAN_PAGE)
    assert len(figure_jobs(sent_tasks)) == 1  # in flight: no second job

    switch.run_pending()
    stored = switch.get(admin_client, HUMAN_PAGE).content.decode()
    assert human_tables(stored) == human_tables(small)
    assert 'id="human-figure"' in stored  # computed on …
    assert len(figure_jobs(sent_tasks)) == 1


def test_a_review_changes_the_stored_figure_without_a_new_answer(
    answered, admin_client, switch, sent_tasks
):
    switch.large()
    switch.get(admin_client, HUMAN_PAGE)
    switch.run_pending()
    before = switch.get(admin_client, HUMAN_PAGE).content.decode()

    # Q1's answer is corrected and Q2 rejected: answer rows change in place, none is added.
    reviewer = UserFactory(username="rev", roles=[Role.REVIEWER])
    campaign = answered[0].campaign
    answers = Answer.objects.count()
    lease = review_claim_next(campaign=campaign, reviewer=reviewer).lease
    text = lease.question.paragraph.text
    start = text.index("juillet 1789")
    review_submit(
        lease=lease,
        data={"verdict": "correct", "answer_start": start, "answer_text": "juillet 1789"},
    )
    lease = review_claim_next(campaign=campaign, reviewer=reviewer).lease
    review_submit(lease=lease, data={"verdict": "reject", "reason": "outside_knowledge"})
    assert Answer.objects.count() == answers

    stale = switch.get(admin_client, HUMAN_PAGE).content.decode()
    assert human_tables(stale) == human_tables(before)  # the stored value, said to be old
    assert "human-figure" in stale
    assert len(figure_jobs(sent_tasks)) == 2
    switch.run_pending()
    fresh = switch.get(admin_client, HUMAN_PAGE).content.decode()
    assert human_tables(fresh) != human_tables(before)
    switch.small()
    assert human_tables(fresh) == human_tables(admin_client.get(HUMAN_PAGE).content.decode())
    stored = StoredFigure.objects.get(name=HUMAN_FIGURE, status="succeeded").value
    assert stored["splits"]["dev"]["questions"] == 1  # Q2 rejected, Q1 kept
    assert stored == human_performance_report()


def test_each_split_is_a_figure_of_its_own(answered, admin_client, switch):
    switch.large()
    switch.get(admin_client, f"{HUMAN_PAGE}?split=test")
    switch.get(admin_client, HUMAN_PAGE)
    keys = sorted(StoredFigure.objects.values_list("key", flat=True))
    assert keys == ["", '{"split":"test"}']
    switch.run_pending()
    html = switch.get(admin_client, f"{HUMAN_PAGE}?split=test").content.decode()
    assert 'data-split="test"' in html and 'data-split="dev"' not in html


def test_the_fingerprint_follows_answers_reviews_and_articles_moved(answered, people):
    seen = [_human_fingerprint()]
    question = answered[3]  # Q4: ann2 gave it back
    Answer.objects.create(
        question=question,
        author=people[2],
        answer_start=0,
        text="La",
        kind=Answer.Kind.ADDITIONAL,
    )
    seen.append(_human_fingerprint())
    reviewer = UserFactory(username="rev", roles=[Role.REVIEWER])
    lease = review_claim_next(campaign=answered[0].campaign, reviewer=reviewer).lease
    review_submit(lease=lease, data={"verdict": "approve"})
    seen.append(_human_fingerprint())
    dev = Article.objects.get(split="dev")
    article_set_split(article=dev, split="train")
    seen.append(_human_fingerprint())
    article_set_split(article=Article.objects.get(split="test"), split="dev")
    seen.append(_human_fingerprint())
    assert len(set(seen)) == len(seen)
    assert _human_fingerprint() == seen[-1]  # nothing changed: the same


# ---------------------------------------------------------------------------------------------
# Results: a release's runs, a page at a time


@pytest.fixture
def release(db):
    admin = UserFactory(username="chef", roles=[Role.ADMIN])
    return Release.objects.create(
        name="fquad-1.0", version="1.0", status=Release.Status.SUCCEEDED, created_by=admin
    )


def make_runs(release, count: int) -> list[int]:
    """Runs of the release, three of them started at the same instant."""
    now = timezone.now()
    pks = []
    for number in range(count):
        run = BaselineRun.objects.create(
            release=release,
            kind="lexical",
            status="succeeded",
            metrics={
                "dev": {"exact_match": 10.0 + number, "f1": 20.0 + number, "total": 5},
                "test": {"exact_match": 11.0 + number, "f1": 21.0 + number, "total": 5},
            },
        )
        at = now - timedelta(hours=5) if number in (1, 2, 3) else now - timedelta(hours=number)
        BaselineRun.objects.filter(pk=run.pk).update(created_at=at)
        pks.append(run.pk)
    return pks


def run_rows(html: str) -> list[int]:
    return [int(pk) for pk in re.findall(r'data-run="(\d+)"', html)]


def test_the_results_walk_every_run_once_in_order_both_ways(admin_client, release, monkeypatch):
    monkeypatch.setattr(selectors, "RUNS_PAGE", 2)
    make_runs(release, 5)
    expected = list(BaselineRun.objects.order_by("-created_at", "-pk").values_list("pk", flat=True))
    pages, query = [], f"release={release.pk}"
    while query:
        response = admin_client.get(f"{RESULTS}?{query}")
        assert response.status_code == 200
        html = response.content.decode()
        pages.append(run_rows(html))
        query = link(html, "next")
    assert [pk for page in pages for pk in page] == expected
    assert [len(page) for page in pages] == [2, 2, 1]
    back = []
    while query := link(html, "prev"):
        assert f"release={release.pk}" in query
        html = admin_client.get(f"{RESULTS}?{query}").content.decode()
        back.append(run_rows(html))
    assert back == [pages[1], pages[0]]
    # Each page charts its own finished runs beside the humans.
    first = admin_client.get(RESULTS).content.decode()
    assert run_rows(first) == pages[0]


@pytest.mark.parametrize("parameter", ["after", "before"])
def test_a_forged_results_cursor_is_a_400_naming_it(admin_client, release, monkeypatch, parameter):
    monkeypatch.setattr(selectors, "RUNS_PAGE", 2)
    make_runs(release, 3)
    response = admin_client.get(RESULTS, {"release": release.pk, parameter: "bm90IGEgY3Vyc29y"})
    assert response.status_code == 400
    html = response.content.decode()
    assert f'data-field="{parameter}"' in html
    assert len(run_rows(html)) == 2


def test_the_results_page_reads_as_many_queries_with_more_runs_and_releases(admin_client, release):
    make_runs(release, 3)
    before = page_queries(admin_client, RESULTS)
    make_runs(release, 30)
    for number in range(60):
        Release.objects.create(name=f"more-{number}", version="1", status="succeeded")
    assert page_queries(admin_client, f"{RESULTS}?release={release.pk}") == before


# ---------------------------------------------------------------------------------------------
# Leaderboard: the best submissions, from an index


def submit(release, person, label, f1, em, split="dev", minutes_ago=0):
    submission = Submission.objects.create(
        release=release,
        split=split,
        submitted_by=person,
        label=label,
        exact_match=em,
        f1=f1,
        total=5,
        normalization="fquad-fr",
        normalization_version="1",
    )
    at = timezone.now() - timedelta(minutes=minutes_ago)
    Submission.objects.filter(pk=submission.pk).update(created_at=at)
    return submission.pk


def board_rows(html: str) -> list[tuple[str, str, str]]:
    """(kind, id, rank cell) of each row of the table."""
    rows = re.findall(
        r'<tr class="row-(\w+)" data-kind="\w+"(?: data-id="(\d+)")?>\s*<td>(.*?)</td>', html
    )
    return [(kind, pk, re.sub(r"<[^>]+>", "", rank).strip()) for kind, pk, rank in rows]


@pytest.fixture
def entries(release):
    person = UserFactory(username="équipe", roles=[Role.ANNOTATOR])
    pks = {
        "a": submit(release, person, "A", 80.0, 70.0, minutes_ago=50),
        "b": submit(release, person, "B", 90.0, 60.0, minutes_ago=40),
        "c": submit(release, person, "C", 80.0, 70.0, minutes_ago=60),  # = A, older
        "d": submit(release, person, "D", 80.0, 75.0, minutes_ago=30),
        "e": submit(release, person, "E", 50.0, 40.0, minutes_ago=20),
        "f": submit(release, person, "F", 99.0, 99.0, split="test", minutes_ago=10),
    }
    return person, pks


def test_the_leaderboard_shows_the_best_submissions_with_exact_ranks(
    client, release, entries, monkeypatch
):
    person, pks = entries
    client.force_login(person)
    url = f"{LEADERBOARD}?release={release.pk}&split=dev"
    full = board_rows(client.get(url).content.decode())
    order = ["b", "d", "c", "a", "e"]
    assert full == [
        ("submission", str(pks[name]), rank)
        for name, rank in zip(order, ["1", "2", "3", "3", "5"], strict=True)
    ]
    monkeypatch.setattr(leaderboard, "LEADERBOARD_TOP", 4)
    html = client.get(url).content.decode()
    assert board_rows(html) == full[:4]  # the same ranks: every better one is shown
    assert 'id="leaderboard-top"' in html
    monkeypatch.setattr(leaderboard, "LEADERBOARD_TOP", 5)
    html = client.get(url).content.decode()
    assert board_rows(html) == full and 'id="leaderboard-top"' not in html


def test_the_leaderboard_reads_as_many_queries_with_more_submissions(
    client, release, entries, monkeypatch
):
    person, _pks = entries
    client.force_login(person)
    monkeypatch.setattr(leaderboard, "LEADERBOARD_TOP", 3)
    url = f"{LEADERBOARD}?release={release.pk}&split=dev"
    before = page_queries(client, url)
    for number in range(40):
        submit(release, person, f"N{number}", 60.0 + number / 10, 50.0)
    make_runs(release, 25)
    assert page_queries(client, url) == before
    assert len(board_rows(client.get(url).content.decode())) == 3 + selectors.LEADERBOARD_RUNS


def test_the_leaderboard_human_row_is_the_stored_figure(
    answered, client, release, switch, sent_tasks
):
    client.force_login(UserFactory(username="lecteur", roles=[Role.ANNOTATOR]))
    url = f"{LEADERBOARD}?release={release.pk}&split=dev"
    small = board_rows(client.get(url).content.decode())
    assert small == [("human", "", "humans")] or small[0][0] == "human"
    switch.large()
    html = switch.get(client, url).content.decode()
    assert board_rows(html) == [] and 'id="human-figure"' in html
    assert len(figure_jobs(sent_tasks)) == 1
    switch.run_pending()
    stored = switch.get(client, url).content.decode()
    switch.small()
    now = client.get(url).content.decode()
    row = re.compile(r'<tr class="row-human".*?</tr>', re.S)
    assert row.search(stored).group(0) == row.search(now).group(0)


def chart_bars(html: str) -> dict[str, list[tuple[str, str]]]:
    """The results page's bar charts: {caption: [(label, bar width in percent of the track)]}."""
    charts = {}
    for figure in re.findall(r'<figure class="chart">(.*?)</figure>', html, re.S):
        caption = re.search(r"<figcaption>(.*?)</figcaption>", figure, re.S).group(1).strip()
        charts[caption] = re.findall(
            r'<span class="bar-label">(.*?)</span>.*?<rect width="([\d.]+)"', figure, re.S
        )
    return charts


def test_every_f1_chart_is_drawn_on_one_scale_from_0_to_100(admin_client, release):
    """Issue 25 item 10: a test F1 of 5.6 alone on its chart filled the bar."""
    run = BaselineRun.objects.create(
        release=release,
        kind="lexical",
        status="succeeded",
        metrics={
            "dev": {"exact_match": 20.0, "f1": 60.0, "total": 5},
            "test": {"exact_match": 1.0, "f1": 5.6, "total": 5},
        },
    )
    admin_client.cookies["django_language"] = "en"
    charts = chart_bars(admin_client.get(f"{RESULTS}?release={release.pk}").content.decode())
    label = f"#{run.pk} sliding window (lexical, CPU)"
    assert {k: v for k, v in charts.items() if k != "F1 on dev (scale 0–100)"} == {
        "F1 on test (scale 0–100)": [(label, "5.6")]
    }
    assert charts["F1 on dev (scale 0–100)"][-1] == (label, "60.0")
