"""Weight of the annotation page in Chromium: bytes over the wire, cold and warm.

Run from the project root: `.venv/bin/python bench/page_weight.py` (see bench/README.md).

For each serving mode it builds a throw-away embedded install (SQLite, no Redis: DATABASE_URL
and REDIS_URL unset, VAR_DIR in a temporary folder), migrates it, collects the static files,
creates one paragraph, a questions campaign (its default guidelines) and an annotator holding a
write lease, and serves it:

- `make-run`: what `make run` starts: `manage.py runserver`, DEBUG=true, STATIC_MANIFEST=true
  (hashed files, cached for a year, gzipped);
- `production`: gunicorn, DEBUG=false (the same static files);
- `source`: runserver, DEBUG=true, STATIC_MANIFEST=false (source files, never cached: the
  editing loop, and how `make run` served every page before issue 12).

Debian's Chromium (Playwright) signs in through the login form's POST (no page is loaded, so the
cache stays empty), then opens the annotation page (`annotation:lease`) in a new tab twice:
cold (empty cache) and warm (the same browser cache, as for the next paragraph). Bytes are
Chromium's own count of what came over the wire for each request (`Network.loadingFinished`
encodedDataLength: headers and body, compressed as sent). kB = 1,000 bytes.

Targets (issue 12): cold ≤ 60 kB, warm ≤ 15 kB, in the `make-run` and `production` modes.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from figures import beside_floor, print_machine

ROOT = Path(__file__).resolve().parent.parent
PYTHON = ROOT / ".venv" / "bin" / "python"
GUNICORN = ROOT / ".venv" / "bin" / "gunicorn"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
HOST = "127.0.0.1"
TARGET_COLD = 60_000
TARGET_WARM = 15_000
MODES = {
    "make-run": {"DEBUG": "true", "STATIC_MANIFEST": "true"},
    "production": {"DEBUG": "false", "STATIC_MANIFEST": "true"},
    "source": {"DEBUG": "true", "STATIC_MANIFEST": "false"},
}
PARAGRAPH = (
    "Le canal du Midi relie Toulouse à la mer Méditerranée. Pierre-Paul Riquet en dirigea les "
    "travaux à partir de 1666 ; il mourut quelques mois avant l'inauguration du canal, en 1681. "
    "Long de 241 kilomètres, l'ouvrage compte 63 écluses, franchit le seuil de Naurouze grâce "
    "à un système d'alimentation en eau venu de la Montagne Noire, et fut inscrit au patrimoine "
    "mondial de l'UNESCO en 1996. Il servit au transport des céréales, du vin et des voyageurs "
    "jusqu'à l'arrivée du chemin de fer, puis devint une voie de plaisance très fréquentée."
)

# Run in a child process of the bench environment: one paragraph, one campaign with its
# default guidelines, one annotator holding a write lease. Prints the ids as JSON.
SETUP_SCRIPT = r"""
import json, os, sys
import django

django.setup()
from accounts.services import user_grant_role
from annotation.services.campaigns import campaign_create
from annotation.services.work import lease_claim_next
from core.roles import Role
from corpus.readers import SourceArticle
from corpus.services.articles import article_store
from django.contrib.auth import get_user_model

article_store(
    language="fr",
    source=SourceArticle(title="Canal du Midi", source_title="Canal du Midi"),
    paragraphs=[os.environ["BENCH_PARAGRAPH"]],
    wave="1.0",
    split="train",
    kind="file",
)
campaign = campaign_create(name="Questions", splits=["train"])
user = get_user_model().objects.create_user("weigher", password=os.environ["BENCH_PASSWORD"])
user_grant_role(user=user, role=Role.ANNOTATOR)
lease = lease_claim_next(campaign=campaign, annotator=user).lease
print(json.dumps({"lease": lease.pk, "username": user.username}))
"""


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--modes", default="make-run,production,source", help="comma-separated")
    parser.add_argument("--port", type=int, default=8791)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    args.modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    unknown = set(args.modes) - set(MODES)
    if unknown:
        parser.error(f"unknown modes {sorted(unknown)}; choose from {sorted(MODES)}")
    return args


def bench_env(mode: str, var_dir: Path, password: str) -> dict[str, str]:
    skip = {"DATABASE_URL", "REDIS_URL", "DJANGO_ALLOW_ASYNC_UNSAFE", "CSRF_TRUSTED_ORIGINS"}
    env = {k: v for k, v in os.environ.items() if k not in skip}
    env.update(
        MODES[mode],
        HTTPS="false",
        ALLOWED_HOSTS=HOST,
        SECRET_KEY=secrets.token_urlsafe(48),
        VAR_DIR=str(var_dir),
        DJANGO_SETTINGS_MODULE="config.settings",
        LOG_LEVEL="WARNING",
        PYTHONUNBUFFERED="1",
        BENCH_PARAGRAPH=PARAGRAPH,
        BENCH_PASSWORD=password,
    )
    return env


def run_step(label: str, command: list[str], env: dict[str, str]) -> str:
    done = subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, check=False
    )
    if done.returncode != 0:
        sys.stderr.write(done.stdout[-4000:] + done.stderr[-4000:])
        raise SystemExit(f"{label} failed (exit {done.returncode})")
    return done.stdout


def start_server(mode: str, port: int, env: dict[str, str], log: Path) -> subprocess.Popen:
    if mode == "production":
        command = [str(GUNICORN), "config.wsgi", "--bind", f"{HOST}:{port}", "--workers", "2"]
    else:
        command = [str(PYTHON), "manage.py", "runserver", f"{HOST}:{port}", "--noreload"]
    with log.open("w") as out:
        return subprocess.Popen(  # noqa: S603 (fixed command)
            command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT
        )


def wait_healthy(base: str, server: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + 60
    with httpx.Client(base_url=base, timeout=2) as client:
        while time.monotonic() < deadline and server.poll() is None:
            try:
                if client.get("/healthz").status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.2)
    sys.stderr.write(log.read_text()[-4000:] if log.exists() else "")
    raise SystemExit("the server did not answer /healthz")


def stop_server(server: subprocess.Popen | None) -> None:
    if server is None or server.poll() is not None:
        return
    server.send_signal(signal.SIGTERM)
    try:
        server.wait(timeout=15)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait(timeout=10)


def sign_in(context, base: str, username: str, password: str) -> None:
    """Sign in with the login form's POST, without loading a page (the cache stays empty)."""
    context.request.get(f"{base}/accounts/login/")
    token = next(c["value"] for c in context.cookies() if c["name"] == "csrftoken")
    response = context.request.post(
        f"{base}/accounts/login/",
        form={"username": username, "password": password, "csrfmiddlewaretoken": token},
        headers={"Referer": f"{base}/accounts/login/"},
        max_redirects=0,
    )
    if response.status != 302:
        raise SystemExit(f"sign-in refused ({response.status})")


def load(context, url: str) -> list[dict]:
    """Open `url` in a new tab; return every request: url, status, bytes, cache, headers."""
    tab = context.new_page()
    cdp = context.new_cdp_session(tab)
    cdp.send("Network.enable")
    seen: dict[str, dict] = {}

    def entry(request_id: str) -> dict:
        return seen.setdefault(request_id, {"url": "?", "bytes": 0})

    def started(event):
        entry(event["requestId"])["url"] = event["request"]["url"]

    def answered(event):
        response = event["response"]
        headers = {k.lower(): v for k, v in response["headers"].items()}
        entry(event["requestId"]).update(
            url=response["url"],
            status=response["status"],
            cached=bool(response.get("fromDiskCache") or response.get("fromMemoryCache")),
            cache_control=headers.get("cache-control", ""),
            encoding=headers.get("content-encoding", ""),
        )

    def raw(event):
        # The status on the wire: a revalidated file shows 200 (from the cache) above, 304 here.
        entry(event["requestId"])["wire_status"] = event["statusCode"]

    def finished(event):
        entry(event["requestId"])["bytes"] = int(event["encodedDataLength"])

    cdp.on("Network.requestWillBeSent", started)
    cdp.on("Network.responseReceived", answered)
    cdp.on("Network.responseReceivedExtraInfo", raw)
    cdp.on("Network.loadingFinished", finished)
    tab.goto(url, wait_until="networkidle")
    tab.wait_for_timeout(300)
    tab.close()
    return list(seen.values())


def measure(mode: str, port: int) -> dict:
    from playwright.sync_api import sync_playwright

    var_dir = Path(tempfile.mkdtemp(prefix=f"page-weight-{mode}-"))
    password = secrets.token_urlsafe(16)
    env = bench_env(mode, var_dir, password)
    server = None
    try:
        manage = [str(PYTHON), "manage.py"]
        run_step("migrate", [*manage, "migrate", "--noinput"], env)
        if MODES[mode]["STATIC_MANIFEST"] == "true":
            run_step("collectstatic", [*manage, "collectstatic", "--noinput"], env)
        setup = json.loads(run_step("setup", [str(PYTHON), "-c", SETUP_SCRIPT], env))
        base = f"http://{HOST}:{port}"
        log = var_dir / "server.log"
        server = start_server(mode, port, env, log)
        wait_healthy(base, server, log)
        url = f"{base}/annotate/leases/{setup['lease']}/"
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            context = browser.new_context()
            sign_in(context, base, setup["username"], password)
            cold = load(context, url)
            warm = load(context, url)
            browser.close()
        return {"mode": mode, "cold": cold, "warm": warm}
    finally:
        stop_server(server)
        shutil.rmtree(var_dir, ignore_errors=True)


def total(requests: list[dict]) -> int:
    return sum(r["bytes"] for r in requests)


def short(url: str) -> str:
    path = re.sub(r"^https?://[^/]+", "", url)
    return path if len(path) <= 60 else path[:57] + "…"


def report(results: list[dict]) -> None:
    for result in results:
        print(f"\n== {result['mode']} ==")
        for phase in ("cold", "warm"):
            requests = result[phase]
            revalidated = sum(1 for r in requests if r.get("wire_status") == 304)
            print(
                f"{phase}: {total(requests) / 1000:.1f} kB in {len(requests)} requests "
                f"({revalidated} revalidated with a 304)"
            )
            for r in requests:
                status = r.get("wire_status") or r.get("status", "?")
                where = "cache" if r.get("cached") else str(status)
                print(
                    f"  {r['bytes']:>7} B  {where:>5}  {r.get('encoding') or '-':>4}  "
                    f"{short(r['url']):<60}  {r.get('cache_control', '')}"
                )
    print("\nmode         cold kB   warm kB   targets: cold ≤ 60, warm ≤ 15")
    for result in results:
        cold, warm = total(result["cold"]), total(result["warm"])
        judged = result["mode"] != "source"
        verdict = (
            ("met" if cold <= TARGET_COLD and warm <= TARGET_WARM else "NOT met")
            if judged
            else "(editing mode, not judged)"
        )
        print(f"{result['mode']:<11} {cold / 1000:>8.1f}  {warm / 1000:>8.1f}   {verdict}")
    for result in results:  # the floor (issue 24): the page's HTML document alone
        for phase in ("cold", "warm"):
            requests = result[phase]
            document = next((r["bytes"] for r in requests if "/annotate/leases/" in r["url"]), 0)
            beside_floor(
                f"page_weight.{result['mode']}.{phase}",
                total(requests),
                document,
                "B",
                what=f"{result['mode']}, {phase}: the page with everything it loads",
                floor_what="its HTML document alone, as sent",
            )
    print_machine()


def main(argv=None) -> int:
    args = parse_args(argv)
    if not Path(CHROMIUM).exists():
        raise SystemExit(f"{CHROMIUM} is missing: install Debian's chromium package")
    results = [measure(mode, args.port + i) for i, mode in enumerate(args.modes)]
    if args.json:
        print(json.dumps({r["mode"]: {p: total(r[p]) for p in ("cold", "warm")} for r in results}))
    else:
        report(results)
    judged = [r for r in results if r["mode"] != "source"]
    ok = all(total(r["cold"]) <= TARGET_COLD and total(r["warm"]) <= TARGET_WARM for r in judged)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
