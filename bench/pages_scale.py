"""Every page at 10× FQuAD 2.0 scale: p50 / p95 time and SQL queries per page (issue 13).

Run from the project root: `.venv/bin/python bench/pages_scale.py` (see bench/README.md, "Pages
at scale"). It makes sure the scale database is there (`bench/scale_data.py`: built once at
`--scale`, reused afterwards), sets Django up on it with production settings (DEBUG off, the
cached template loader, no Redis: the cache is this process's memory), and requests each page
of `PAGES` through Django's test client in this process, signed in as the page's role (no HTTP
server: what is timed is the middleware, the view, its SQL on the real PostgreSQL and the
template). Each page is requested `--warmup` times untimed, then `--repeat` times timed
(`time.perf_counter`, the whole request), then once more with the SQL captured, to count the
queries. It prints, per page, p50 and p95 in ms and the queries, beside the target of issue 13:
p95 ≤ 300 ms; and the load average before and after, since other work on the machine moves
the times.

Adding a page: append a `Page(name, role, url)` to `PAGES`. The url is a format string; its
`{fields}` come from `facts()` (ids found in the database: campaigns, a question, leases held
now, a release…); add a fact there when a page needs another id. Roles are the users
`scale_data` makes: "annotator" (ann011, the most productive, who holds a paragraph now),
"reviewer" (rev00, who holds a question to review now), "admin" (admin0).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import scale_data  # noqa: E402  (bench/ is not a package)
from figures import beside_floor, print_machine  # noqa: E402

TARGET_P95_MS = 300.0
USERS = {"annotator": scale_data.TOP_ANNOTATOR, "reviewer": "rev00", "admin": "admin0"}


@dataclass(frozen=True)
class Page:
    name: str
    role: str  # a key of USERS
    url: str  # a format string filled from facts()
    status: int = 200  # what the page answers on the bench's data


PAGES = [
    # Annotation: annotators
    Page("annotator home", "annotator", "/annotate/"),
    Page("annotation page (held paragraph)", "annotator", "/annotate/leases/{write_lease}/"),
    # Annotation: reviewers
    Page("reviewer home (review queue)", "reviewer", "/review/"),
    Page("review page (held question)", "reviewer", "/review/leases/{review_lease}/"),
    Page("quality table (reviewer)", "reviewer", "/manage/quality/"),
    # Annotation: admins
    Page("quality table", "admin", "/manage/quality/"),
    Page("quality table, one campaign", "admin", "/manage/quality/?campaign={questions}"),
    Page("campaigns", "admin", "/manage/campaigns/"),
    Page("campaign settings", "admin", "/manage/campaigns/{questions}/"),
    Page("campaign dashboard (questions)", "admin", "/manage/campaigns/{questions}/dashboard/"),
    Page("campaign dashboard (answers)", "admin", "/manage/campaigns/{answers}/dashboard/"),
    Page("campaign dashboard (closed)", "admin", "/manage/campaigns/{pilot}/dashboard/"),
    Page("hours report, last week", "admin", "/manage/reports/hours/?{week}"),
    Page("hours report, 26 weeks", "admin", "/manage/reports/hours/?{half_year}"),
    Page("hours report CSV, last week", "admin", "/manage/reports/hours.csv?{week}"),
    Page("question page (admin)", "admin", "/questions/{question}/"),
    Page("question page (its author)", "annotator", "/questions/{own_question}/"),
    # Corpus: admins
    Page("articles", "admin", "/manage/corpus/"),
    Page("articles, a later page", "admin", "/manage/corpus/?{articles_later}"),
    Page("articles, title search", "admin", "/manage/corpus/?q=Paris"),
    Page("article", "admin", "/manage/corpus/articles/{article}/"),
    Page("corpus statistics", "admin", "/manage/corpus/stats/"),
    Page("scrape runs", "admin", "/manage/corpus/scrape-runs/"),
    Page("scrape run", "admin", "/manage/corpus/scrape-runs/{scrape_run}/"),
    # Releases and evaluation
    Page("releases", "admin", "/manage/releases/"),
    Page("release", "admin", "/manage/releases/{release}/"),
    # The bench's releases have file rows but no files: the diff says which file is missing.
    Page(
        "release diff (files missing)",
        "admin",
        "/manage/releases/diff/?old={old_release}&new={release}",
        409,
    ),
    Page("human performance", "admin", "/manage/human-performance/"),
    Page("results", "admin", "/manage/results/"),
    Page("results: scores", "admin", "/manage/results/scores/"),
    Page("results: experiments", "admin", "/manage/results/experiments/"),
    Page("results: per type", "admin", "/manage/results/types/"),
    Page("results: score a baseline", "admin", "/manage/results/baseline/"),
    Page("results: model in the loop", "admin", "/manage/results/model-rounds/"),
    Page("analysis", "admin", "/manage/analysis/"),
    Page("leaderboard", "annotator", "/leaderboard/"),
    Page("leaderboard (admin)", "admin", "/leaderboard/"),
]


def facts(filled_at: str) -> dict:
    """Ids and query strings the page urls name, read from the database."""
    from annotation.models import Campaign, Lease, Question
    from corpus.models import Article, ScrapeRun
    from exports.models import Release

    now = datetime.fromisoformat(filled_at)
    day = now.date()
    campaigns = {c.name: c.pk for c in Campaign.objects.all()}
    annotator, reviewer = USERS["annotator"], USERS["reviewer"]
    active = Lease.objects.filter(status=Lease.Status.ACTIVE)
    corrected = Question.objects.filter(status=Question.Status.CORRECTED).order_by("pk").first()
    own = Question.objects.filter(author__username=annotator).order_by("-pk").first()
    return {
        "pilot": campaigns["Pilote 2025"],
        "questions": campaigns["FQuAD 2026 · questions"],
        "answers": campaigns["FQuAD 2026 · réponses supplémentaires"],
        "write_lease": active.get(kind=Lease.Kind.WRITE, annotator__username=annotator).pk,
        "review_lease": active.get(kind=Lease.Kind.REVIEW, annotator__username=reviewer).pk,
        "question": corrected.uuid,
        "own_question": own.uuid,
        "article": Article.objects.order_by("pk").values_list("pk", flat=True)[1000],
        # An old-style page number: the list's 2,000th page (the pages say how they page).
        "articles_later": "page=2000",
        "scrape_run": ScrapeRun.objects.order_by("pk").values_list("pk", flat=True).first(),
        "release": Release.objects.order_by("-pk").values_list("pk", flat=True).first(),
        "old_release": Release.objects.order_by("-pk").values_list("pk", flat=True)[1],
        "week": f"start={day - timedelta(days=6)}&end={day + timedelta(days=1)}",
        "half_year": f"start={day - timedelta(days=26 * 7)}&end={day + timedelta(days=1)}",
    }


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile: the smallest value with `share` of them at or below it."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def compute_stored_figures() -> list[dict]:
    """Compute the stored figures a page asked for (`core.figures`), as the worker would, so
    that the page is measured in its steady state; return what each took."""
    from core.models import StoredFigure
    from core.services.figure_jobs import figure_compute

    done = []
    for row in StoredFigure.objects.filter(status=StoredFigure.Status.PENDING).order_by("pk"):
        started = time.perf_counter()
        figure_compute(row=row)
        row.refresh_from_db()
        done.append(
            {
                "figure": row.name,
                "key": row.key,
                "status": row.status,
                "seconds": round(time.perf_counter() - started, 2),
            }
        )
    return done


def measure(page: Page, url: str, client, warmup: int, repeat: int, slowest: int) -> dict:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    response = client.get(url)  # a stored figure the page reads is asked for
    computed = compute_stored_figures()
    for _ in range(warmup):
        response = client.get(url)
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        response = client.get(url)
        times.append(1000 * (time.perf_counter() - started))
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    queries = sorted(captured.captured_queries, key=lambda q: -float(q["time"]))
    return {
        "page": page.name,
        "role": page.role,
        "url": url,
        "computed": computed,
        "status": response.status_code,
        "bytes": len(response.content),
        "p50_ms": round(statistics.median(times), 1),
        "p95_ms": round(percentile(times, 0.95), 1),
        "max_ms": round(max(times), 1),
        "queries": len(captured.captured_queries),
        "sql_ms": round(1000 * sum(float(q["time"]) for q in captured.captured_queries), 1),
        "slowest": [
            {"ms": round(1000 * float(q["time"]), 1), "sql": q["sql"][:600]}
            for q in queries[:slowest]
        ],
    }


EMPTY_PAGE = "/bench-empty-page/"


def add_empty_page() -> str:
    """The floor (issue 24): an empty page for a signed-in user, added to this process's URLs
    only: the site's layout (base.html) with no content, behind `login_required`, so it pays
    what every page pays (middleware, session, user, menus, template) and nothing else."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth.decorators import login_required
    from django.shortcuts import render
    from django.urls import clear_url_caches, path

    urls = import_module(settings.ROOT_URLCONF)
    view = login_required(lambda request: render(request, "base.html"))
    urls.urlpatterns.insert(0, path(EMPTY_PAGE.strip("/") + "/", view))
    clear_url_caches()
    return EMPTY_PAGE


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="1 = 1,000,000 paragraphs")
    parser.add_argument("--database-url", default=scale_data.DEFAULT_URL)
    parser.add_argument("--rebuild", action="store_true", help="build the database again")
    parser.add_argument("--repeat", type=int, default=20, help="timed requests per page (20)")
    parser.add_argument("--warmup", type=int, default=2, help="untimed requests first (2)")
    parser.add_argument("--only", default="", help="pages whose name holds this text")
    parser.add_argument("--slowest", type=int, default=0, help="print each page's N slowest SQL")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead")
    args = parser.parse_args(argv)
    if args.repeat < 1 or args.warmup < 0:
        parser.error("--repeat must be >= 1 and --warmup >= 0")
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    found = scale_data.ensure(args.database_url, args.scale, force=args.rebuild)
    from django.contrib.auth import get_user_model
    from django.test import Client

    known = facts(found["filled_at"])
    users = {role: get_user_model().objects.get(username=name) for role, name in USERS.items()}
    clients = {}
    for role, user in users.items():
        clients[role] = Client()
        clients[role].force_login(user)
    load_before = load_average()
    empty = Page("empty authenticated page (floor)", "annotator", add_empty_page())
    floors = {}
    for role, client in clients.items():  # the floor of each role's pages
        floors[role] = measure(empty, EMPTY_PAGE, client, args.warmup, args.repeat, 0)
    if not args.json:
        print_machine()
        for role, floor in floors.items():
            print(
                f"floor: empty page as {role}: p50 {floor['p50_ms']:.1f} ms, p95 "
                f"{floor['p95_ms']:.1f} ms, {floor['queries']} queries"
            )
    results = []
    for page in PAGES:
        if args.only and args.only not in page.name:
            continue
        url = page.url.format(**known)
        client = clients[page.role]
        results.append(measure(page, url, client, args.warmup, args.repeat, args.slowest))
        if not args.json:
            r = results[-1]
            met = "met" if r["p95_ms"] <= TARGET_P95_MS else "MISSED"
            problem = "" if r["status"] == page.status else f"  status {r['status']}!"
            print(
                f"{r['page']:<36} {r['role']:<9} p50 {r['p50_ms']:7.1f} ms  p95 "
                f"{r['p95_ms']:7.1f} ms ({met})  {r['queries']:3d} queries "
                f"({r['sql_ms']:.1f} ms of SQL){problem}",
                flush=True,
            )
            for q in r["slowest"]:
                print(f"      {q['ms']:7.1f} ms  {q['sql']}")
            beside_floor(
                "page." + "_".join(r["page"].split()),
                r["p95_ms"],
                floors[page.role]["p95_ms"],
                "ms",
                what="      p95",
                floor_what=f"the empty page as {page.role}, p95",
            )
            for c in r["computed"]:
                print(
                    f"      stored figure {c['figure']} {c['key']}: computed in "
                    f"{c['seconds']:.2f} s ({c['status']}) before the timed loads"
                )
    summary = {
        "scale": found["scale"],
        "counts": found["counts"],
        "filled_at": found["filled_at"],
        "load_before": load_before,
        "load_after": load_average(),
        "cores": os.cpu_count(),
        "target_p95_ms": TARGET_P95_MS,
        "pages": results,
        "floors": floors,
    }
    if args.json:
        print(json.dumps(summary, indent=2, default=str))
    else:
        missed = [r["page"] for r in results if r["p95_ms"] > TARGET_P95_MS]
        print(
            f"target p95 <= {TARGET_P95_MS:g} ms: {len(results) - len(missed)} of {len(results)} "
            f"pages met{'; missed: ' + ', '.join(missed) if missed else ''}"
        )
        counts = found["counts"]
        print(
            f"scale {found['scale']:g}: {counts['corpus_paragraph']:,} paragraphs, "
            f"{counts['annotation_question']:,} questions, {counts['annotation_lease']:,} leases; "
            f"{os.cpu_count()} cores, load average {load_before} before, "
            f"{summary['load_after']} after"
        )
    expected = {page.name: page.status for page in PAGES}
    return 0 if all(r["status"] == expected[r["page"]] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
