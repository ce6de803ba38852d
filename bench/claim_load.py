"""Load test of the claim path: N annotators claim and submit paragraphs against real gunicorn.

Run from the project root: `.venv/bin/python bench/claim_load.py` (see bench/README.md).

It builds a throw-away PostgreSQL database (dropped at the end unless --keep), migrates it, loads
the PIAF paragraphs and copies them until the run cannot run out, creates one questions campaign
and N annotators with API tokens, starts gunicorn on 127.0.0.1, and lets N client threads loop
for --seconds: claim (POST /api/v1/campaigns/{id}/leases/, timed) then submit three valid
questions (POST /api/v1/leases/{id}/submit/). It prints the throughput, the claim latency
percentiles, the errors, the duplicate claims (from the responses and from the database) and the
weight of the annotation page, each beside its target.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import httpx
import psycopg
from psycopg import sql

ROOT = Path(__file__).resolve().parent.parent
PYTHON = ROOT / ".venv" / "bin" / "python"
GUNICORN = ROOT / ".venv" / "bin" / "gunicorn"
PIAF = ROOT.parent / "shared" / "data" / "piaf" / "piaf-v1.0.json"
HOST = "127.0.0.1"

TARGET_CLAIMS_PER_S = 300
TARGET_P95_MS = 50
TARGET_PAGE_BYTES = 100_000
PARAGRAPHS_PER_CLIENT_SECOND = 10  # paragraphs created per client and second of the run

# Run in ONE subprocess (cwd = project root, the bench environment): load PIAF with
# load_corpus, copy its articles under new titles until there are enough paragraphs, create the
# campaign, the annotators and their tokens, and write what the bench needs as JSON.
SETUP_SCRIPT = r"""
import json, os, sys
import django

django.setup()
from django.contrib.auth import get_user_model
from django.core.management import call_command

from accounts.services import token_issue, user_grant_role
from annotation.services.campaigns import campaign_create
from corpus.models import Article, Paragraph
from corpus.readers import SourceArticle
from corpus.services import article_store

out, clients, need, piaf = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
password = os.environ["BENCH_PAGE_PASSWORD"]
call_command("load_corpus", piaf, wave="1.0", language="fr", json=True)
originals = [
    (a.title, a.split, [p.text for p in a.paragraphs.order_by("position")])
    for a in Article.objects.order_by("pk").prefetch_related("paragraphs")
]
total, copy = Paragraph.objects.count(), 0
while total < need and originals:
    copy += 1
    for title, split, texts in originals:
        if total >= need:
            break
        name = f"{title} (copie {copy})"
        article_store(
            language="fr",
            source=SourceArticle(title=name, source_title=name),
            paragraphs=texts,
            wave="1.0",
            split=split,
            kind="file",
        )
        total += len(texts)
campaign = campaign_create(name="Bench claims", splits=["train", "dev", "test"])
User = get_user_model()
tokens = []
for i in range(clients):
    user = User(username=f"bench{i:03d}")
    user.set_unusable_password()
    user.save()
    user_grant_role(user=user, role="annotator")
    tokens.append(token_issue(user=user))
page_user = User(username="bench-page")
page_user.set_password(password)
page_user.save()
user_grant_role(user=page_user, role="annotator")
with open(out, "w") as f:
    json.dump(
        {
            "campaign": campaign.pk,
            "tokens": tokens,
            "page_user": page_user.username,
            "paragraphs": Paragraph.objects.count(),
            "articles": Article.objects.count(),
        },
        f,
    )
"""


# ---------------------------------------------------------------------------------------------
# Set-up and tear-down


def parse_args(argv=None) -> argparse.Namespace:
    cores = os.cpu_count() or 1
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50, help="concurrent annotators (50)")
    parser.add_argument("--seconds", type=float, default=20, help="length of the run (20)")
    parser.add_argument("--port", type=int, default=8765, help="gunicorn port on 127.0.0.1")
    parser.add_argument(
        "--database-url",
        default="postgres://postgres@127.0.0.1:5432/qaplatform_bench",
        help="the bench database; it is DROPPED and recreated",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=cores + 1,
        help=f"gunicorn worker processes (default cores + 1 = {cores + 1}: best figures measured "
        "on 2 cores; 2 x cores + 1 and gthread were no faster, see bench/README.md)",
    )
    parser.add_argument(
        "--threads",
        type=int,
        default=1,
        help="threads per worker; 1 = sync workers (default), >1 = gthread",
    )
    parser.add_argument(
        "--warmup",
        type=float,
        default=3,
        help="seconds of the same load run first and not measured, so every worker has loaded "
        "its code and opened its database connection (3)",
    )
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    args = parser.parse_args(argv)
    if (
        args.clients < 1
        or args.seconds <= 0
        or args.workers < 1
        or args.threads < 1
        or (args.warmup < 0)
    ):
        parser.error("--clients, --seconds, --workers and --threads must be positive")
    parts = urlsplit(args.database_url)
    if parts.scheme not in ("postgres", "postgresql") or not parts.path.strip("/"):
        parser.error("--database-url must be postgres://user@host:port/name")
    if parts.hostname not in ("127.0.0.1", "localhost"):
        parser.error("the bench only runs against a local database (127.0.0.1)")
    return args


def admin_url(database_url: str) -> tuple[str, str]:
    """Return (URL of the `postgres` maintenance database, name of the bench database)."""
    parts = urlsplit(database_url)
    name = parts.path.strip("/")
    return urlunsplit(parts._replace(scheme="postgresql", path="/postgres")), name


DROP = sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)")


def recreate_database(database_url: str) -> None:
    url, name = admin_url(database_url)
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(DROP.format(sql.Identifier(name)))
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def drop_database(database_url: str) -> None:
    url, name = admin_url(database_url)
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(DROP.format(sql.Identifier(name)))


def analyze_database(database_url: str) -> None:
    """Give the planner statistics, as autovacuum would soon after a load in production."""
    with psycopg.connect(
        urlunsplit(urlsplit(database_url)._replace(scheme="postgresql")), autocommit=True
    ) as conn:
        conn.execute("VACUUM ANALYZE")


def bench_env(database_url: str, var_dir: Path) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DEBUG", "REDIS_URL", "CSRF_TRUSTED_ORIGINS", "BEHIND_PROXY", "SITE_URL"}
    }
    env.update(
        DATABASE_URL=database_url,
        HTTPS="false",
        ALLOWED_HOSTS=HOST,
        SECRET_KEY=secrets.token_urlsafe(48),  # 64 characters, new for every run
        VAR_DIR=str(var_dir),
        STATIC_MANIFEST="true",
        DJANGO_SETTINGS_MODULE="config.settings",
        LOG_LEVEL="WARNING",
        PYTHONUNBUFFERED="1",
    )
    return env


def run_step(label: str, command: list[str], env: dict[str, str], timeout: float) -> str:
    started = time.perf_counter()
    done = subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )
    if done.returncode != 0:
        sys.stderr.write(done.stdout[-4000:] + done.stderr[-4000:])
        raise SystemExit(f"{label} failed (exit {done.returncode})")
    print(f"  {label}: {time.perf_counter() - started:.1f} s", flush=True)
    return done.stdout


def start_gunicorn(args, env: dict[str, str], var_dir: Path) -> subprocess.Popen:
    log = var_dir / "gunicorn.log"
    command = [
        str(GUNICORN),
        "config.wsgi",
        "--bind",
        f"{HOST}:{args.port}",
        "--workers",
        str(args.workers),
        "--threads",
        str(args.threads),
        "--worker-class",
        "gthread" if args.threads > 1 else "sync",
        "--worker-tmp-dir",
        str(var_dir),
        "--timeout",
        "60",
        "--log-level",
        "warning",
    ]
    with log.open("w") as out:
        return subprocess.Popen(  # noqa: S603 (fixed command)
            command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT
        )


def wait_healthy(base: str, server: subprocess.Popen, log: Path, limit: float = 60) -> None:
    deadline = time.monotonic() + limit
    with httpx.Client(base_url=base, timeout=2) as client:
        while time.monotonic() < deadline:
            if server.poll() is not None:
                break
            try:
                if client.get("/healthz").status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.2)
    sys.stderr.write(log.read_text()[-4000:] if log.exists() else "")
    raise SystemExit("gunicorn did not answer /healthz")


def stop_gunicorn(server: subprocess.Popen | None) -> None:
    if server is None or server.poll() is not None:
        return
    server.send_signal(signal.SIGTERM)
    try:
        server.wait(timeout=15)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait(timeout=10)


# ---------------------------------------------------------------------------------------------
# CPU accounting (Linux /proc; best effort)


def _cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue
            if int(stat[1]) == pid:
                found.append(int(entry.name))
    return found


def backend_pids(database_url: str) -> list[int]:
    url, name = admin_url(database_url)
    with psycopg.connect(url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
            [name],
        ).fetchall()
    return [row[0] for row in rows]


# ---------------------------------------------------------------------------------------------
# The load


WORD = re.compile(r"[^\W\d_]{5,}")


def build_questions(text: str, count: int = 3) -> list[dict]:
    """Questions whose answers are distinct words of the text, at their code-point offsets."""
    picked, seen = [], set()
    for match in WORD.finditer(text):
        if match.group() not in seen:
            seen.add(match.group())
            picked.append((match.start(), match.group()))
        if len(picked) == count:
            break
    while len(picked) < count:  # short or unusual paragraph: fall back to single characters
        start = len(picked) % max(len(text), 1)
        picked.append((start, text[start]))
    return [
        {
            "text": f"Question {i} sur « {word} » ?",
            "answer_start": start,
            "answer_text": word,
            "seconds_spent": 30 + i,
        }
        for i, (start, word) in enumerate(picked)
    ]


@dataclass
class ClientStats:
    latencies: list[float] = field(default_factory=list)  # seconds, successful claims
    claims: list[int] = field(default_factory=list)  # paragraph ids of the successful claims
    held: int = 0  # 200: the lease already held was returned
    submits: int = 0
    released: list[int] = field(default_factory=list)
    errors: Counter = field(default_factory=Counter)
    none_left: int = 0


def client_loop(base, token, campaign, deadline_box, barrier, stats: ClientStats) -> None:
    headers = {"Authorization": f"Token {token}", "Accept": "application/json"}
    claim_path = f"/api/v1/campaigns/{campaign}/leases/"
    limits = httpx.Limits(max_connections=1, max_keepalive_connections=1)
    with httpx.Client(base_url=base, headers=headers, timeout=30, limits=limits) as client:
        barrier.wait()
        deadline = deadline_box[0]
        while time.perf_counter() < deadline:
            try:
                started = time.perf_counter()
                response = client.post(claim_path)
                elapsed = time.perf_counter() - started
            except httpx.HTTPError as error:
                stats.errors[f"claim {type(error).__name__}"] += 1
                time.sleep(0.05)
                continue
            if response.status_code == 204:
                stats.none_left += 1
                return
            if not response.is_success:
                stats.errors[f"claim {response.status_code}"] += 1
                continue
            lease = response.json()
            stats.latencies.append(elapsed)
            stats.claims.append(lease["paragraph"]["id"])
            if response.status_code == 200:
                stats.held += 1
            questions = build_questions(lease["paragraph"]["text"])
            try:
                submitted = client.post(
                    f"/api/v1/leases/{lease['id']}/submit/", json={"questions": questions}
                )
            except httpx.HTTPError as error:
                stats.errors[f"submit {type(error).__name__}"] += 1
                continue
            if submitted.is_success:
                stats.submits += 1
                continue
            stats.errors[f"submit {submitted.status_code}"] += 1
            # Give the paragraph back so the next claim gets a fresh one.
            try:
                client.post(f"/api/v1/leases/{lease['id']}/release/", json={"reason": "skip"})
                stats.released.append(lease["paragraph"]["id"])
            except httpx.HTTPError:
                stats.errors["release error"] += 1


@dataclass
class LoadResult:
    elapsed: float
    stats: list[ClientStats]

    @property
    def latencies(self) -> list[float]:
        return sorted(x for s in self.stats for x in s.latencies)

    @property
    def claims(self) -> int:
        return sum(len(s.claims) for s in self.stats)

    @property
    def submits(self) -> int:
        return sum(s.submits for s in self.stats)

    @property
    def errors(self) -> Counter:
        total = Counter()
        for s in self.stats:
            total.update(s.errors)
        return total

    def duplicates(self) -> int:
        """Paragraphs claimed by two different clients (released ones aside)."""
        released = {p for s in self.stats for p in s.released}
        owners = defaultdict(set)
        for index, s in enumerate(self.stats):
            for paragraph in s.claims:
                owners[paragraph].add(index)
        return sum(1 for p, who in owners.items() if len(who) > 1 and p not in released)


def run_load(base: str, tokens: list[str], campaign: int, seconds: float) -> LoadResult:
    stats = [ClientStats() for _ in tokens]
    deadline_box = [0.0]
    started_box = [0.0]

    def start_clock():
        started_box[0] = time.perf_counter()
        deadline_box[0] = started_box[0] + seconds

    barrier = threading.Barrier(len(tokens) + 1, action=start_clock, timeout=60)
    threads = [
        threading.Thread(
            target=client_loop,
            args=(base, token, campaign, deadline_box, barrier, stats[i]),
            daemon=True,
        )
        for i, token in enumerate(tokens)
    ]
    for thread in threads:
        thread.start()
    barrier.wait()
    for thread in threads:
        thread.join(timeout=seconds + 90)
    return LoadResult(elapsed=time.perf_counter() - started_box[0], stats=stats)


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile of sorted values (0 when empty)."""
    if not values:
        return 0.0
    rank = max(1, -(-len(values) * q // 100))
    return values[int(rank) - 1]


def database_check(database_url: str, campaign: int) -> dict:
    conn_url = urlunsplit(urlsplit(database_url)._replace(scheme="postgresql"))
    with psycopg.connect(conn_url) as conn:
        doubled = conn.execute(
            "SELECT count(*) FROM (SELECT paragraph_id FROM annotation_lease "
            "WHERE campaign_id = %s AND status = 'submitted' "
            "GROUP BY paragraph_id HAVING count(*) > 1) AS d",
            [campaign],
        ).fetchone()[0]
        statuses = dict(
            conn.execute(
                "SELECT status, count(*) FROM annotation_lease WHERE campaign_id = %s "
                "GROUP BY status",
                [campaign],
            ).fetchall()
        )
        questions = conn.execute(
            "SELECT count(*) FROM annotation_question WHERE campaign_id = %s", [campaign]
        ).fetchone()[0]
    return {"doubled": doubled, "statuses": statuses, "questions": questions}


# ---------------------------------------------------------------------------------------------
# The annotation page's weight


class AssetParser(HTMLParser):
    def __init__(self):
        super().__init__()
        self.assets: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "script" and attrs.get("src"):
            self.assets.append(attrs["src"])
        rel = (attrs.get("rel") or "").lower().split()
        if tag == "link" and "stylesheet" in rel and attrs.get("href"):
            self.assets.append(attrs["href"])


def _wire_bytes(client: httpx.Client, url: str, encoding: str) -> tuple[int, str]:
    with client.stream("GET", url, headers={"Accept-Encoding": encoding}) as response:
        response.raise_for_status()
        size = sum(len(chunk) for chunk in response.iter_raw())
        return size, response.headers.get("Content-Encoding", "identity")


def page_weight(base: str, campaign: int, username: str, password: str) -> dict:
    """Sign in through the form, claim through the page, weigh the lease page and its assets."""
    with httpx.Client(base_url=base, timeout=30, follow_redirects=False) as client:
        login = client.get("/accounts/login/")
        login.raise_for_status()
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', login.text)
        if token is None:
            raise RuntimeError("no CSRF token on the login form")
        signed_in = client.post(
            "/accounts/login/",
            data={"username": username, "password": password, "csrfmiddlewaretoken": token[1]},
        )
        if signed_in.status_code != 302:
            raise RuntimeError(f"sign-in answered {signed_in.status_code}")
        claimed = client.post(
            f"/annotate/campaigns/{campaign}/next/",
            headers={"X-CSRFToken": client.cookies["csrftoken"]},
        )
        location = claimed.headers.get("Location", "")
        if claimed.status_code != 302 or "/annotate/leases/" not in location:
            raise RuntimeError(f"claim through the page answered {claimed.status_code} {location}")
        page = client.get(location)
        page.raise_for_status()
        html_bytes = len(page.content)
        parser = AssetParser()
        parser.feed(page.text)
        assets = []
        for url in dict.fromkeys(parser.assets):
            raw, _ = _wire_bytes(client, url, "identity")
            packed, encoding = _wire_bytes(client, url, "gzip")
            assets.append({"url": url, "raw": raw, "gzip": packed, "encoding": encoding})
    return {
        "html": html_bytes,
        "html_gzip": len(gzip.compress(page.content, compresslevel=6)),
        "html_encoding": page.headers.get("Content-Encoding", "identity"),
        "assets": assets,
    }


# ---------------------------------------------------------------------------------------------
# Report


def verdict(ok: bool) -> str:
    return "met" if ok else "NOT met"


def report(args, setup, load: LoadResult, check: dict, cpu: dict, page: dict | None) -> None:
    lat = load.latencies
    p50, p95, p99 = (percentile(lat, q) * 1000 for q in (50, 95, 99))
    claims_per_s = load.claims / load.elapsed if load.elapsed else 0.0
    submits_per_s = load.submits / load.elapsed if load.elapsed else 0.0
    duplicates = load.duplicates()
    errors = load.errors
    held = sum(s.held for s in load.stats)
    none_left = sum(s.none_left for s in load.stats)
    print()
    print(
        f"gunicorn: {args.workers} workers x {args.threads} thread(s) "
        f"({'gthread' if args.threads > 1 else 'sync'}), {os.cpu_count()} cores"
    )
    print(f"paragraphs in the pool: {setup['paragraphs']} ({setup['articles']} articles)")
    print(f"clients: {args.clients}   seconds: {load.elapsed:.1f} (asked {args.seconds:g})")
    print(
        f"claims: {load.claims} ({held} returned an already-held lease)   "
        f"submits: {load.submits}   204 (nothing left): {none_left}"
    )
    print(
        f"claims/s: {claims_per_s:8.1f}   target >= {TARGET_CLAIMS_PER_S}: "
        f"{verdict(claims_per_s >= TARGET_CLAIMS_PER_S)}"
    )
    print(f"submits/s: {submits_per_s:7.1f}")
    print(
        f"claim latency p50 {p50:.1f} ms   p95 {p95:.1f} ms   p99 {p99:.1f} ms   "
        f"max {lat[-1] * 1000 if lat else 0:.1f} ms"
    )
    print(
        f"claim p95: {p95:.1f} ms   target <= {TARGET_P95_MS} ms: {verdict(p95 <= TARGET_P95_MS)}"
    )
    print(
        "errors by status: " + (", ".join(f"{k}: {v}" for k, v in sorted(errors.items())) or "none")
    )
    print(f"duplicates (responses): {duplicates}   target 0: {verdict(duplicates == 0)}")
    print(
        f"paragraphs with two submitted leases (database): {check['doubled']}   target 0: "
        f"{verdict(check['doubled'] == 0)}"
    )
    statuses = ", ".join(f"{k} {v}" for k, v in sorted(check["statuses"].items()))
    print(f"leases in the database (warm-up included): {statuses}; questions: {check['questions']}")
    if cpu:
        print(
            f"CPU seconds during the run: bench clients {cpu['clients']:.1f}, gunicorn workers "
            f"{cpu['gunicorn']:.1f}, PostgreSQL backends {cpu['postgres']:.1f} "
            f"(of {cpu['available']:.1f} available)"
        )
    if page is None:
        print("page weight: not measured (see the error above)   target <= 100 kB: NOT met")
        return
    raw = page["html"] + sum(a["raw"] for a in page["assets"])
    packed = page["html_gzip"] + sum(a["gzip"] for a in page["assets"])
    print(
        f"annotation page: HTML {page['html']} B as served ({page['html_encoding']}; "
        f"{page['html_gzip']} B gzipped)"
    )
    for asset in page["assets"]:
        print(f"  {asset['url']}: {asset['raw']} B, {asset['gzip']} B {asset['encoding']}")
    print(
        f"page weight: {raw / 1000:.1f} kB uncompressed, {packed / 1000:.1f} kB gzip   "
        f"target <= {TARGET_PAGE_BYTES // 1000} kB (uncompressed): "
        f"{verdict(raw <= TARGET_PAGE_BYTES)}"
    )


# ---------------------------------------------------------------------------------------------


def main(argv=None) -> int:
    args = parse_args(argv)
    if not PIAF.exists():
        raise SystemExit(f"missing {PIAF}")
    base = f"http://{HOST}:{args.port}"
    var_dir = Path(tempfile.mkdtemp(prefix="claim_load_"))
    env = bench_env(args.database_url, var_dir)
    password = secrets.token_urlsafe(18)
    server = None
    created = False
    try:
        print(f"setting up {urlsplit(args.database_url).path.strip('/')} ...", flush=True)
        recreate_database(args.database_url)
        created = True
        manage = [str(PYTHON), "manage.py"]
        run_step("migrate", [*manage, "migrate", "--noinput"], env, 600)
        run_step("collectstatic", [*manage, "collectstatic", "--noinput"], env, 300)
        need = int(args.clients * (args.seconds + args.warmup) * PARAGRAPHS_PER_CLIENT_SECOND)
        setup_file = var_dir / "setup.json"
        run_step(
            "data",
            [
                str(PYTHON),
                "-c",
                SETUP_SCRIPT,
                str(setup_file),
                str(args.clients),
                str(need),
                str(PIAF),
            ],
            env | {"BENCH_PAGE_PASSWORD": password},
            900,
        )
        setup = json.loads(setup_file.read_text())
        analyze_database(args.database_url)
        log = var_dir / "gunicorn.log"
        server = start_gunicorn(args, env, var_dir)
        wait_healthy(base, server, log)
        print(
            f"  gunicorn up on {base}; {args.clients} clients for {args.seconds:g} s ...",
            flush=True,
        )
        if args.warmup:
            warm = run_load(base, setup["tokens"], setup["campaign"], args.warmup)
            print(
                f"  warm-up: {warm.claims} claims in {warm.elapsed:.1f} s (not counted)", flush=True
            )
        workers = _children(server.pid)
        before = {pid: _cpu_seconds(pid) for pid in workers}
        self_before = time.process_time()
        load = run_load(base, setup["tokens"], setup["campaign"], args.seconds)
        cpu = {
            "clients": time.process_time() - self_before,
            "gunicorn": sum(_cpu_seconds(p) - before.get(p, 0.0) for p in _children(server.pid)),
            "postgres": sum(_cpu_seconds(p) for p in backend_pids(args.database_url)),
            "available": load.elapsed * (os.cpu_count() or 1),
        }
        check = database_check(args.database_url, setup["campaign"])
        try:
            page = page_weight(base, setup["campaign"], setup["page_user"], password)
        except (httpx.HTTPError, RuntimeError, KeyError) as error:
            print(f"page weight failed: {error}", file=sys.stderr)
            page = None
        report(args, setup, load, check, cpu, page)
    finally:
        stop_gunicorn(server)
        if created and not args.keep:
            drop_database(args.database_url)
        elif created:
            print(f"kept the database {args.database_url}")
        shutil.rmtree(var_dir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
