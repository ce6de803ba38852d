"""Fill a PostgreSQL database at 10× FQuAD 2.0 scale, for the page benchmarks (issue 13).

Run from the project root: `.venv/bin/python bench/scale_data.py` (see bench/README.md, "Pages
at scale"). Other benchmarks import it: `ensure(database_url, scale)` fills the database once
and returns what it holds; `django_env` and `setup_django` point Django at it.

At `--scale 1` (the default) the database holds, like a platform ten times FQuAD 2.0's size:

- 1,000,000 paragraphs: the real PIAF paragraphs copied over and over (a paragraph's text is
  PIAF context number (article id × 5 + position) mod 761), five per article, the articles
  split about 83/9/8 train/dev/test, fetched by two scrape runs (waves 1.0 and 1.1) with one
  log entry per article;
- 200 annotators (10 of them without a question yet, 3 paused), 20 reviewers, 2 admins;
- three campaigns: a closed pilot (questions, a year ago), the open questions campaign and the
  open additional-answers campaign (dev and test);
- 800,000 questions (PIAF's questions of the paragraph's context, 3 to 5 a paragraph: 96 % in
  the open campaign, written in paragraph order over the last 26 weeks, 4 % in the pilot), each
  with its original answer, its version 1 and a submitted writing lease;
- a quarter of them sampled for review, all but the last few days' reviewed (80 % approved,
  10 % corrected with a version 2, 10 % rejected), each review with its submitted review lease;
- two additional answers (one in the last days, none in the last day) on every dev and test
  question of the open campaign that is not rejected, each with its answer lease (1 % "no
  answer");
- leases in the other states: active (40 annotators hold a paragraph, 5 reviewers a question,
  10 annotators a question to answer), expired with a draft, given back (skipped, and 0.3 % of
  the paragraphs reported unsuitable with a note);
- the review counters, and the campaigns' work items with their places computed by
  `annotation.services.items.items_sync` (the campaigns are opened last);
- releases with their file rows (no file on disk), lexical baseline runs and leaderboard
  submissions, for the exports and evaluation pages.

Every row is written by set-based SQL (`INSERT … SELECT` over `generate_series` and the tables
already filled), never by a Python loop over rows; the pseudo-random choices are hashes of ids
(`hashint8`), so a given scale always gives the same data, whenever it is built. The last step
is `VACUUM ANALYZE` (autovacuum would run soon after such a load). A table `bench_scale`
records the scale and the generator's version once everything is written: run again at the same
scale, the script finds it and keeps the database (`--force` builds it again).

Extend it with a function per app (`FILLERS`): each takes the `Plan` and the Django connection's
cursor and fills its app's tables from what the earlier ones wrote.
"""

# ruff: noqa: S608 (SQL assembled from constant fragments; every value is a parameter)
from __future__ import annotations

import argparse
import json
import os
import secrets
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
PYTHON = ROOT / ".venv" / "bin" / "python"
PIAF = ROOT.parent / "shared" / "data" / "piaf" / "piaf-v1.0.json"
DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/qaplatform_scale"
# Bump when the data changes shape: a database filled by another version is built again.
VERSION = 2
FULL_PARAGRAPHS = 1_000_000  # 10× FQuAD 2.0 (about 100,000 paragraphs)
FULL_QUESTIONS = 800_000
# Who wrote on a paragraph: a few annotators write much more than the others (the share of the
# k-th most productive falls like a power law), and productivity has nothing to do with the
# username: rank r is annotator (11 + 37 r) mod writers, so ann011 wrote the most.
WRITER = "mod(11 + 37 * floor(%(writers)s * power({u}, 1.6))::int, %(writers)s)"
TOP_ANNOTATOR = "ann011"


@dataclass
class Plan:
    """What to write; every count follows from the scale."""

    scale: float
    annotators: int = 200
    idle_annotators: int = 10  # hold an annotator account, wrote nothing yet
    reviewers: int = 20
    weeks: int = 26  # the open campaign's questions span the last 26 weeks
    releases: int = 12
    baseline_runs: int = 24
    submissions: int = 0  # 0: 5,000 × scale, at least 50
    filled_at: str = ""  # ISO time of the fill: "now" for every time written
    apps: list[str] = field(default_factory=list)

    @property
    def paragraphs(self) -> int:
        return max(50, round(FULL_PARAGRAPHS * self.scale))

    @property
    def articles(self) -> int:
        return -(-self.paragraphs // 5)

    @property
    def questions(self) -> int:
        return max(40, round(FULL_QUESTIONS * self.scale))

    @property
    def pilot_questions(self) -> int:
        return self.questions * 4 // 100

    @property
    def writers(self) -> int:
        return self.annotators - self.idle_annotators


# ---------------------------------------------------------------------------------------------
# The database and Django


def _conn_url(database_url: str, path: str | None = None) -> str:
    parts = urlsplit(database_url)._replace(scheme="postgresql")
    return urlunsplit(parts._replace(path=path) if path else parts)


def _name(database_url: str) -> str:
    return urlsplit(database_url).path.strip("/")


def recreate_database(database_url: str) -> None:
    import psycopg
    from psycopg import sql

    name = _name(database_url)
    with psycopg.connect(_conn_url(database_url, "/postgres"), autocommit=True) as conn:
        conn.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def filled(database_url: str) -> dict | None:
    """Return what an earlier complete fill recorded, or None (no database, or unfinished)."""
    import psycopg

    try:
        with psycopg.connect(_conn_url(database_url), autocommit=True) as conn:
            if conn.execute("SELECT to_regclass('bench_scale')").fetchone()[0] is None:
                return None
            row = conn.execute("SELECT value FROM bench_scale WHERE key = 'plan'").fetchone()
    except psycopg.OperationalError:  # no such database
        return None
    return row[0] if row else None


def django_env(database_url: str, var_dir: Path | None = None) -> dict[str, str]:
    """The environment of a production-like Django on the bench database (DEBUG off)."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DEBUG", "REDIS_URL", "CSRF_TRUSTED_ORIGINS", "BEHIND_PROXY", "SITE_URL"}
    }
    var_dir = var_dir or Path(tempfile.mkdtemp(prefix="qa-scale-"))
    env.update(
        DATABASE_URL=database_url,
        HTTPS="false",
        ALLOWED_HOSTS="127.0.0.1,localhost,testserver",
        SECRET_KEY=secrets.token_urlsafe(48),  # 64 characters, new for every run
        VAR_DIR=str(var_dir),
        STATIC_MANIFEST="false",
        DJANGO_SETTINGS_MODULE="config.settings",
        LOG_LEVEL="WARNING",
        PYTHONUNBUFFERED="1",
    )
    return env


def migrate(env: dict[str, str]) -> None:
    subprocess.run(
        [str(PYTHON), "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True
    )


def setup_django(env: dict[str, str]) -> None:
    """Set Django up in this process on the bench database (once)."""
    import django
    from django.conf import settings

    if settings.configured:
        return
    os.environ.update(env)
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    django.setup()


# ---------------------------------------------------------------------------------------------
# SQL helpers


def h(expr: str, salt: int) -> str:
    """SQL: a pseudo-random integer in [0, 2^31) from an integer expression and a salt."""
    return f"(hashint8(({expr})::bigint * 1000003 + {salt}) & 2147483647)"


def u(expr: str, salt: int) -> str:
    """SQL: a pseudo-random number in [0, 1) from an integer expression and a salt."""
    return f"({h(expr, salt)}::float8 / 2147483648.0)"


class Steps:
    """Run SQL statements, printing how long each took."""

    def __init__(self, cursor, quiet: bool = False):
        self.cursor, self.quiet = cursor, quiet

    def __call__(self, label: str, sql: str, params: dict | None = None) -> int:
        started = time.perf_counter()
        self.cursor.execute(sql, params or {})
        rows = self.cursor.rowcount
        if not self.quiet:
            print(f"    {label}: {rows:,} rows, {time.perf_counter() - started:.1f} s", flush=True)
        return rows

    def value(self, sql: str, params: dict | None = None):
        self.cursor.execute(sql, params or {})
        return self.cursor.fetchone()[0]


# ---------------------------------------------------------------------------------------------
# Fillers, one per app, in order


def piaf() -> tuple[list[tuple], list[tuple]]:
    """PIAF's contexts (index, article title, text) and questions (context, position, text,
    question type, answer start, answer text); at most 5 questions a context."""
    from annotation.question_types import classify

    data = json.loads(PIAF.read_text(encoding="utf-8"))["data"]
    contexts, questions = [], []
    for article in data:
        for paragraph in article["paragraphs"]:
            index = len(contexts)
            contexts.append((index, article["title"], paragraph["context"]))
            for position, qa in enumerate(paragraph["qas"][:5]):
                text = " ".join(qa["question"].split())
                answer = qa["answers"][0]
                questions.append(
                    (index, position, text, classify(text), answer["answer_start"], answer["text"])
                )
    return contexts, questions


def fill_sources(plan: Plan, run: Steps) -> None:
    """Load PIAF into two work tables (`bench_ctx`, `bench_qa`), dropped at the end."""
    contexts, questions = piaf()
    run.cursor.execute(
        "CREATE UNLOGGED TABLE bench_ctx (idx int PRIMARY KEY, title text, text text)"
    )
    run.cursor.execute(
        "CREATE UNLOGGED TABLE bench_qa (ctx int, pos int, text text, qtype text,"
        " answer_start int, answer_text text, PRIMARY KEY (ctx, pos))"
    )
    run.cursor.executemany("INSERT INTO bench_ctx VALUES (%s, %s, %s)", contexts)
    run.cursor.executemany("INSERT INTO bench_qa VALUES (%s, %s, %s, %s, %s, %s)", questions)
    run.cursor.execute("ANALYZE bench_ctx; ANALYZE bench_qa")


def fill_accounts(plan: Plan, run: Steps) -> None:
    """Annotators ann000…, reviewers rev00…, admins admin0 and admin1 (no usable password:
    benchmarks sign in with `force_login` or a session they make)."""
    from django.contrib.auth.models import Group

    from accounts.models import User
    from accounts.services import roles_sync
    from core.roles import Role

    roles_sync()
    people = (
        [(f"ann{i:03d}", Role.ANNOTATOR) for i in range(plan.annotators)]
        + [(f"rev{i:02d}", Role.REVIEWER) for i in range(plan.reviewers)]
        + [(f"admin{i}", Role.ADMIN) for i in range(2)]
    )
    users = User.objects.bulk_create(
        [
            User(
                username=name,
                password="!bench",  # noqa: S106 (unusable: no password signs in)
                email=f"{name}@example.org",
                is_staff=role == Role.ADMIN,
            )
            for name, role in people
        ]
    )
    groups = {g.name: g for g in Group.objects.all()}
    through = User.groups.through
    through.objects.bulk_create(
        [
            through(user_id=user.pk, group_id=groups[role].pk)
            for user, (_n, role) in zip(users, people, strict=True)
        ]
    )
    # Three paused annotators (among those who wrote).
    run(
        "paused annotators",
        "UPDATE accounts_user SET paused_at = now() - interval '2 days',"
        " pause_note = 'Trop de questions copiées : à revoir avec vous.'"
        " WHERE username IN ('ann007', 'ann042', 'ann113')",
    )
    # Work tables: annotator number → user id (writers first), reviewer number → user id.
    run.cursor.execute(
        "CREATE UNLOGGED TABLE bench_ann AS SELECT substr(username, 4)::int AS n, id"
        " FROM accounts_user WHERE username LIKE 'ann%%'"
    )
    run.cursor.execute(
        "CREATE UNLOGGED TABLE bench_rev AS SELECT substr(username, 4)::int AS n, id"
        " FROM accounts_user WHERE username LIKE 'rev%%'"
    )
    run.cursor.execute(
        "CREATE UNIQUE INDEX ON bench_ann (n); CREATE UNIQUE INDEX ON bench_rev (n);"
        " ANALYZE bench_ann; ANALYZE bench_rev"
    )


def fill_corpus(plan: Plan, run: Steps) -> None:
    """Two scrape runs, the articles (five paragraphs each) and one log entry per article."""
    params = {"articles": plan.articles, "paragraphs": plan.paragraphs, "now": plan.filled_at}
    wave_two = plan.articles * 6 // 10  # articles after this one came with wave 1.1
    params["wave_two"] = wave_two
    run(
        "scrape runs",
        """
        INSERT INTO corpus_scraperun (status, progress, message, message_params, error, attempts,
            created_at, started_at, finished_at, heartbeat_at, created_by_id, category, language,
            sample_size, seed, wave, ratios, min_chars, max_chars, plan, articles_total,
            articles_done, articles_failed, paragraphs_kept)
        SELECT 'succeeded', 100,
            '%%(done)d of %%(total)d articles in the corpus, %%(failed)d failed, '
            || '%%(kept)d paragraphs kept.',
            jsonb_build_object('done', n, 'total', n, 'failed', 0, 'kept', n * 5), '', 1,
            t, t, t + interval '20 hours', t + interval '20 hours',
            (SELECT min(id) FROM accounts_user WHERE username = 'admin0'),
            'Article de qualité', 'fr', n, 2020 + w, w_name,
            '{"train": 83, "dev": 9, "test": 8}', 500, NULL, '[]', n, n, 0, n * 5
        FROM (VALUES (0, '1.0', %(wave_two)s, %(now)s::timestamptz - interval '400 days'),
                     (1, '1.1', %(articles)s - %(wave_two)s,
                      %(now)s::timestamptz - interval '250 days')) AS v(w, w_name, n, t)
        ORDER BY w
        """,
        params,
    )
    run(
        "articles",
        """
        INSERT INTO corpus_article (language, title, source_title, page_id, revision_id, url,
            wave, split, split_fixed, source, scrape_run_id, fetched_at, text_sha256, created_at)
        SELECT 'fr', c.title || ' (' || g || ')', c.title || ' (' || g || ')', 1000000 + g,
            200000000 + g, 'https://fr.wikipedia.org/wiki/Article_' || g,
            CASE WHEN g <= %(wave_two)s THEN '1.0' ELSE '1.1' END,
            CASE WHEN mod(g, 100) < 83 THEN 'train' WHEN mod(g, 100) < 92 THEN 'dev'
                 ELSE 'test' END,
            false, 'wikipedia', r.id, r.started_at + (g * interval '0.3 second'),
            md5(g::text) || md5((g + 1)::text), r.started_at + (g * interval '0.3 second')
        FROM generate_series(1, %(articles)s) AS g
        JOIN bench_ctx c ON c.idx = mod(g * 5, (SELECT count(*) FROM bench_ctx))
        JOIN corpus_scraperun r ON r.wave = CASE WHEN g <= %(wave_two)s THEN '1.0' ELSE '1.1' END
        ORDER BY g
        """,
        params,
    )
    run(
        "paragraphs",
        """
        INSERT INTO corpus_paragraph (article_id, position, text)
        SELECT a.id, p.position, c.text
        FROM corpus_article a CROSS JOIN generate_series(0, 4) AS p(position)
        JOIN bench_ctx c ON c.idx = mod(a.id * 5 + p.position, (SELECT count(*) FROM bench_ctx))
        ORDER BY a.id, p.position
        LIMIT %(paragraphs)s
        """,
        params,
    )
    run(
        "scrape log",
        """
        INSERT INTO corpus_scrapelogentry (run_id, created_at, level, title, message,
            message_params, dropped)
        SELECT a.scrape_run_id, a.created_at, 'info', a.title,
            'Kept %%(kept)d paragraphs, dropped %%(dropped)d blocks.',
            jsonb_build_object('kept', (SELECT count(*) FROM corpus_paragraph p
                                        WHERE p.article_id = a.id), 'dropped', 3),
            '[{"reason": "too_short", "section": "Histoire", "excerpt": "Voir aussi", "chars": 10}]'
        FROM corpus_article a ORDER BY a.id
        """,
    )


def _campaigns(plan: Plan) -> dict[str, int]:
    """The three campaigns, closed while they are filled (no items until they open)."""
    from annotation.services.campaigns import campaign_create

    made = {
        "pilot": campaign_create(name="Pilote 2025", splits=["train", "dev", "test"], active=False),
        "questions": campaign_create(
            name="FQuAD 2026 · questions",
            splits=["train", "dev", "test"],
            question_type_targets={"what": 25, "who": 12, "when": 10, "where": 8, "how": 8},
            active=False,
        ),
        "answers": campaign_create(
            name="FQuAD 2026 · réponses supplémentaires",
            kind="additional_answers",
            splits=["dev", "test"],
            active=False,
        ),
    }
    return {key: campaign.pk for key, campaign in made.items()}


def fill_annotation(plan: Plan, run: Steps) -> None:
    """Campaigns, leases of every kind and state, questions, answers, versions, reviews,
    review counters; then the campaigns open and their work items are made."""
    from annotation.models import Campaign
    from annotation.services.campaigns import campaign_update

    ids = _campaigns(plan)
    n_ctx = run.value("SELECT count(*) FROM bench_ctx")
    last = run.value("SELECT max(id) FROM corpus_paragraph")
    first = run.value("SELECT min(id) FROM corpus_paragraph")
    pilot_paragraphs = -(-plan.pilot_questions // 4) + 1
    params = {
        "now": plan.filled_at,
        "n_ctx": n_ctx,
        "writers": plan.writers,
        "reviewers": plan.reviewers,
        "main_q": plan.questions - plan.pilot_questions,
        "pilot_q": plan.pilot_questions,
        "pilot_from": last - pilot_paragraphs * 5 // 4,
        "first": first,
        "span": f"{plan.weeks * 7} days",
        **{f"c_{key}": pk for key, pk in ids.items()},
    }
    run.cursor.execute(
        "UPDATE annotation_campaign SET created_at = %(now)s::timestamptz - interval '400 days'"
        " WHERE id = %(c_pilot)s;"
        " UPDATE annotation_campaign SET created_at = %(now)s::timestamptz - %(span)s::interval"
        " - interval '1 day' WHERE id IN (%(c_questions)s, %(c_answers)s)",
        params,
    )
    # The paragraphs written on: the open campaign from the first paragraph on, in id order,
    # 3 to 5 questions each, skipping the 0.3 % reported unsuitable; the pilot on the last ones.
    # nq: questions on it; k: its rank in its campaign; before: questions of earlier paragraphs.
    writer = WRITER.format(u=u("p.id", 1))
    run(
        "paragraphs to write on",
        f"""
        CREATE UNLOGGED TABLE bench_written AS
        WITH candidates AS (
            SELECT p.id, p.article_id, p.position,
                CASE WHEN p.id >= %(pilot_from)s THEN %(c_pilot)s ELSE %(c_questions)s END
                    AS campaign_id,
                3 + mod(p.id, 3) AS nq,
                mod(p.article_id * 5 + p.position, %(n_ctx)s) AS src,
                {writer} AS writer
            FROM corpus_paragraph p
            WHERE mod({h("p.id", 7)}, 1000) >= 3
        ), ranked AS (
            SELECT *, sum(nq) OVER (PARTITION BY campaign_id ORDER BY id) - nq AS before,
                row_number() OVER (PARTITION BY campaign_id ORDER BY id) - 1 AS k
            FROM candidates
        )
        SELECT * FROM ranked
        WHERE before < CASE WHEN campaign_id = %(c_pilot)s THEN %(pilot_q)s ELSE %(main_q)s END
        """,
        params,
    )
    run.cursor.execute("CREATE UNIQUE INDEX ON bench_written (id); ANALYZE bench_written")
    params["k_main"] = run.value(
        "SELECT count(*) FROM bench_written WHERE campaign_id = %(c_questions)s", params
    )
    params["k_pilot"] = run.value(
        "SELECT count(*) FROM bench_written WHERE campaign_id = %(c_pilot)s", params
    )
    params["last_written"] = run.value(
        "SELECT max(id) FROM bench_written WHERE campaign_id = %(c_questions)s", params
    )
    # When the paragraph was claimed: the open campaign's span ends an hour ago, in id order;
    # the pilot ran from 400 to 300 days ago. Most leases take 2 to 17 minutes; 3 % were left
    # open for 45 minutes to 2 hours (their time is capped at the lease's 30 minutes).
    run(
        "claim times",
        f"""
        ALTER TABLE bench_written ADD COLUMN claimed timestamptz, ADD COLUMN sent timestamptz;
        UPDATE bench_written SET claimed = CASE WHEN campaign_id = %(c_pilot)s
            THEN %(now)s::timestamptz - interval '400 days'
                 + (k::float8 / %(k_pilot)s) * interval '100 days'
            ELSE %(now)s::timestamptz - %(span)s::interval
                 + (k::float8 / %(k_main)s) * (%(span)s::interval - interval '1 hour') END;
        UPDATE bench_written SET sent = claimed + CASE WHEN mod({h("id", 11)}, 100) < 3
            THEN interval '45 minutes' + mod({h("id", 12)}, 4500) * interval '1 second'
            ELSE interval '2 minutes' + mod({h("id", 13)}, 900) * interval '1 second' END
        """,
        params,
    )
    run(
        "write leases (submitted)",
        """
        INSERT INTO annotation_lease (campaign_id, kind, paragraph_id, question_id, annotator_id,
            status, expires_at, draft, draft_saved_at, release_reason, release_note, created_at,
            finished_at)
        SELECT w.campaign_id, 'write', w.id, NULL, a.id, 'submitted',
            w.claimed + interval '30 minutes', '{}', NULL, '', '', w.claimed, w.sent
        FROM bench_written w JOIN bench_ann a ON a.n = w.writer
        ORDER BY w.claimed
        """,
        params,
    )
    run(
        "questions",
        f"""
        INSERT INTO annotation_question (uuid, campaign_id, paragraph_id, lease_id, author_id,
            position, text, question_type, seconds_spent, status, sampled_for_review, source_id,
            created_at)
        SELECT gen_random_uuid(), w.campaign_id, w.id, l.id, l.annotator_id, qa.pos, qa.text,
            qa.qtype,
            CASE WHEN mod({h("w.id * 8 + qa.pos", 21)}, 50) = 0
                 THEN 200 + mod({h("w.id * 8 + qa.pos", 22)}, 400)
                 ELSE 20 + mod({h("w.id * 8 + qa.pos", 23)}, 110) END,
            'pending', mod({h("w.id * 8 + qa.pos", 24)}, 4) = 0, '', w.sent
        FROM bench_written w
        JOIN annotation_lease l ON l.campaign_id = w.campaign_id AND l.kind = 'write'
            AND l.paragraph_id = w.id AND l.status = 'submitted'
        JOIN bench_qa qa ON qa.ctx = w.src AND qa.pos < w.nq
        WHERE w.before + qa.pos < CASE WHEN w.campaign_id = %(c_pilot)s THEN %(pilot_q)s
                                       ELSE %(main_q)s END
        ORDER BY w.sent, qa.pos
        """,
        params,
    )
    run(
        "original answers",
        """
        INSERT INTO annotation_answer (question_id, author_id, answer_start, text, kind,
            no_answer, misaligned, seconds_spent, created_at)
        SELECT q.id, q.author_id, qa.answer_start, qa.answer_text, 'original', false, false,
            q.seconds_spent, q.created_at
        FROM annotation_question q JOIN bench_written w ON w.id = q.paragraph_id
        JOIN bench_qa qa ON qa.ctx = w.src AND qa.pos = q.position
        ORDER BY q.id
        """,
    )
    run(
        "versions 1",
        """
        INSERT INTO annotation_questionrevision (question_id, number, origin, editor_id, text,
            answer_start, answer_text, created_at)
        SELECT q.id, 1, 'written', q.author_id, q.text, a.answer_start, a.text, q.created_at
        FROM annotation_question q JOIN annotation_answer a ON a.question_id = q.id
            AND a.kind = 'original'
        ORDER BY q.id
        """,
    )
    _reviews(plan, run, params)
    _additional_answers(plan, run, params)
    _other_leases(plan, run, params)
    run(
        "review counters",
        """
        INSERT INTO annotation_reviewcounter (campaign_id, annotator_id, epoch, rate, warmup,
            warmup_rate, seen, sampled, decided_before)
        SELECT campaign_id, author_id, 0, 0.25, 0, 1.00, count(*),
            count(*) FILTER (WHERE sampled_for_review), 0
        FROM annotation_question GROUP BY campaign_id, author_id
        """,
    )
    started = time.perf_counter()
    for key in ("questions", "answers"):
        campaign_update(campaign=Campaign.objects.get(pk=ids[key]), active=True)
    print(f"    campaigns opened, items made: {time.perf_counter() - started:.1f} s", flush=True)


def _reviews(plan: Plan, run: Steps, params: dict) -> None:
    """Reviews of the sampled questions older than 4 days, with their leases and versions 2."""
    reviewer = f"mod({h('q.id', 31)}, %(reviewers)s)"
    run(
        "reviewed questions",
        f"""
        CREATE UNLOGGED TABLE bench_reviewed AS
        SELECT q.id AS question_id, q.paragraph_id, r.id AS reviewer_id,
            LEAST(q.created_at + interval '1 day' + mod({h("q.id", 32)}, 172800)
                  * interval '1 second', %(now)s::timestamptz - interval '1 hour') AS claimed,
            CASE WHEN mod({h("q.id", 33)}, 10) < 8 THEN 'approve'
                 WHEN mod({h("q.id", 33)}, 10) = 8 THEN 'correct' ELSE 'reject' END AS verdict,
            (ARRAY['not_a_question', 'wrong_answer', 'not_answered', 'copied', 'ambiguous',
                   'outside_knowledge', 'language', 'other'])[1 + mod({h("q.id", 34)}, 8)]
                AS reason,
            15 + mod({h("q.id", 35)}, 90) AS seconds
        FROM annotation_question q JOIN bench_rev r ON r.n = {reviewer}
        WHERE q.sampled_for_review AND q.created_at < %(now)s::timestamptz - interval '4 days'
        """,
        params,
    )
    run(
        "review leases (submitted)",
        """
        INSERT INTO annotation_lease (campaign_id, kind, paragraph_id, question_id, annotator_id,
            status, expires_at, draft, draft_saved_at, release_reason, release_note, created_at,
            finished_at)
        SELECT q.campaign_id, 'review', b.paragraph_id, b.question_id, b.reviewer_id,
            'submitted', b.claimed + interval '30 minutes', '{}', NULL, '', '', b.claimed,
            b.claimed + b.seconds * interval '1 second'
        FROM bench_reviewed b JOIN annotation_question q ON q.id = b.question_id
        ORDER BY b.claimed
        """,
    )
    run(
        "versions 2 (corrections)",
        """
        INSERT INTO annotation_questionrevision (question_id, number, origin, editor_id, text,
            answer_start, answer_text, created_at)
        SELECT q.id, 2, 'corrected', b.reviewer_id,
            rtrim(q.text, ' ?') || ' (précisée) ?', a.answer_start, a.text,
            b.claimed + b.seconds * interval '1 second'
        FROM bench_reviewed b JOIN annotation_question q ON q.id = b.question_id
        JOIN annotation_answer a ON a.question_id = q.id AND a.kind = 'original'
        WHERE b.verdict = 'correct'
        ORDER BY b.claimed
        """,
    )
    run(
        "reviews",
        """
        INSERT INTO annotation_review (question_id, reviewer_id, lease_id, verdict, reason,
            comment, revision_id, seconds_spent, created_at)
        SELECT b.question_id, b.reviewer_id, l.id, b.verdict,
            CASE WHEN b.verdict = 'reject' THEN b.reason ELSE '' END,
            CASE WHEN b.verdict = 'approve' THEN ''
                 WHEN b.verdict = 'correct' THEN 'Question précisée : elle était ambiguë.'
                 ELSE 'Voir les consignes : la réponse doit être la plus courte possible.' END,
            v.id, b.seconds, l.finished_at
        FROM bench_reviewed b
        JOIN annotation_lease l ON l.kind = 'review' AND l.question_id = b.question_id
        LEFT JOIN annotation_questionrevision v ON v.question_id = b.question_id AND v.number = 2
        ORDER BY l.finished_at
        """,
    )
    run(
        "question statuses",
        """
        UPDATE annotation_question q SET status = CASE b.verdict WHEN 'approve' THEN 'approved'
                WHEN 'correct' THEN 'corrected' ELSE 'rejected' END,
            text = CASE WHEN b.verdict = 'correct' THEN rtrim(q.text, ' ?') || ' (précisée) ?'
                        ELSE q.text END
        FROM bench_reviewed b WHERE b.question_id = q.id
        """,
    )


def _additional_answers(plan: Plan, run: Steps, params: dict) -> None:
    """Two more answers on the open campaign's dev and test questions (fewer on recent ones)."""
    run(
        "questions to answer again",
        f"""
        CREATE UNLOGGED TABLE bench_answered AS
        SELECT q.id AS question_id, q.paragraph_id, q.created_at, x.nth,
            CASE x.nth WHEN 1 THEN mod(au.n + 1 + mod({h("q.id", 41)}, 97), %(writers)s)
                 ELSE mod(au.n + 98 + mod({h("q.id", 42)}, 90), %(writers)s) END AS answerer,
            q.created_at + CASE x.nth WHEN 1 THEN interval '18 hours' ELSE interval '40 hours' END
                + mod({h("q.id * 2 + x.nth", 43)}, 18000) * interval '1 second' AS claimed,
            mod({h("q.id * 2 + x.nth", 44)}, 100) = 0 AS no_answer
        FROM annotation_question q
        JOIN corpus_paragraph p ON p.id = q.paragraph_id
        JOIN corpus_article ar ON ar.id = p.article_id
        JOIN bench_ann au ON au.id = q.author_id
        CROSS JOIN (VALUES (1), (2)) AS x(nth)
        WHERE q.campaign_id = %(c_questions)s AND ar.split IN ('dev', 'test')
          AND q.status <> 'rejected'
          AND q.created_at < %(now)s::timestamptz - CASE x.nth WHEN 1 THEN interval '1 day'
                                                     ELSE interval '3 days' END
        """,
        params,
    )
    run(
        "answer leases (submitted)",
        """
        INSERT INTO annotation_lease (campaign_id, kind, paragraph_id, question_id, annotator_id,
            status, expires_at, draft, draft_saved_at, release_reason, release_note, created_at,
            finished_at)
        SELECT %(c_answers)s, 'answer', b.paragraph_id, b.question_id, a.id, 'submitted',
            b.claimed + interval '30 minutes', '{}', NULL, '', '', b.claimed,
            b.claimed + interval '40 seconds'
        FROM bench_answered b JOIN bench_ann a ON a.n = b.answerer
        ORDER BY b.claimed
        """,
        params,
    )
    run(
        "additional answers",
        """
        INSERT INTO annotation_answer (question_id, author_id, answer_start, text, kind,
            no_answer, misaligned, seconds_spent, created_at)
        SELECT b.question_id, a.id, CASE WHEN b.no_answer THEN 0 ELSE o.answer_start END,
            CASE WHEN b.no_answer THEN '' ELSE o.text END, 'additional', b.no_answer, false, 30,
            b.claimed + interval '40 seconds'
        FROM bench_answered b JOIN bench_ann a ON a.n = b.answerer
        JOIN annotation_answer o ON o.question_id = b.question_id AND o.kind = 'original'
        ORDER BY b.claimed
        """,
    )


def _other_leases(plan: Plan, run: Steps, params: dict) -> None:
    """Leases that are not submitted: held now, expired with a draft, given back."""
    draft = json.dumps(
        {"questions": [{"text": "Quand le traité fut-il signé ?", "answer_start": 0}]}
    )
    params = params | {"draft": draft}
    run(
        "held paragraphs (active)",
        """
        INSERT INTO annotation_lease (campaign_id, kind, paragraph_id, question_id, annotator_id,
            status, expires_at, draft, draft_saved_at, release_reason, release_note, created_at,
            finished_at)
        SELECT %(c_questions)s, 'write', p.id, NULL, a.id, 'active',
            %(now)s::timestamptz + interval '20 minutes', %(draft)s::jsonb,
            %(now)s::timestamptz - interval '1 minute', '', '',
            %(now)s::timestamptz - interval '10 minutes', NULL
        FROM (SELECT id, row_number() OVER (ORDER BY id) - 1 AS i FROM corpus_paragraph
              WHERE id > %(last_written)s ORDER BY id LIMIT 40) p
        JOIN bench_ann a ON a.n = mod(11 + p.i * 4, %(writers)s)
        """,
        params,
    )
    run(
        "lapsed paragraphs (expired, with a draft)",
        """
        INSERT INTO annotation_lease (campaign_id, kind, paragraph_id, question_id, annotator_id,
            status, expires_at, draft, draft_saved_at, release_reason, release_note, created_at,
            finished_at)
        SELECT %(c_questions)s, 'write', p.id, NULL, a.id, 'expired',
            %(now)s::timestamptz - interval '2 days', %(draft)s::jsonb,
            %(now)s::timestamptz - interval '2 days 10 minutes', '', '',
            %(now)s::timestamptz - interval '2 days 30 minutes', NULL
        FROM (SELECT id, row_number() OVER (ORDER BY id) - 1 AS i FROM corpus_paragraph
              WHERE id > %(last_written)s ORDER BY id OFFSET 40 LIMIT 20) p
        JOIN bench_ann a ON a.n = 1 + mod(p.i * 4, %(writers)s - 1)
        """,
        params,
    )
    run(
        "skipped paragraphs (released)",
        f"""
        INSERT INTO annotation_lease (campaign_id, kind, paragraph_id, question_id, annotator_id,
            status, expires_at, draft, draft_saved_at, release_reason, release_note, created_at,
            finished_at)
        SELECT w.campaign_id, 'write', w.id, NULL, a.id, 'released',
            w.claimed - interval '20 minutes', '{{}}', NULL, 'skip', '',
            w.claimed - interval '50 minutes', w.claimed - interval '48 minutes'
        FROM bench_written w JOIN bench_ann a ON a.n = mod(w.writer + 1, %(writers)s)
        WHERE mod({h("w.id", 51)}, 100) = 0
        """,
        params,
    )
    run(
        "paragraphs reported unsuitable (released)",
        f"""
        INSERT INTO annotation_lease (campaign_id, kind, paragraph_id, question_id, annotator_id,
            status, expires_at, draft, draft_saved_at, release_reason, release_note, created_at,
            finished_at)
        SELECT CASE WHEN p.id >= %(pilot_from)s THEN %(c_pilot)s ELSE %(c_questions)s END,
            'write', p.id, NULL, a.id, 'released', t + interval '30 minutes', '{{}}', NULL,
            'unsuitable',
            (ARRAY['', 'Une liste de dates, pas de phrases.', 'Texte tronqué au milieu.',
                   'Contenu <b>offensant</b> ?'])[1 + mod({h("p.id", 52)}, 4)],
            t, t + interval '3 minutes'
        FROM (SELECT p.id, (SELECT w.claimed FROM bench_written w WHERE w.id < p.id
                              ORDER BY w.id DESC LIMIT 1) AS t
              FROM corpus_paragraph p
              WHERE mod({h("p.id", 7)}, 1000) < 3
                AND (p.id <= %(last_written)s OR p.id >= %(pilot_from)s)) p
        JOIN bench_ann a ON a.n = {WRITER.format(u=u("p.id", 1))}
        WHERE p.t IS NOT NULL
        """,
        params,
    )
    run(
        "held reviews (active)",
        """
        INSERT INTO annotation_lease (campaign_id, kind, paragraph_id, question_id, annotator_id,
            status, expires_at, draft, draft_saved_at, release_reason, release_note, created_at,
            finished_at)
        SELECT q.campaign_id, 'review', q.paragraph_id, q.id, r.id, 'active',
            %(now)s::timestamptz + interval '25 minutes', '{}', NULL, '', '',
            %(now)s::timestamptz - interval '5 minutes', NULL
        FROM (SELECT id, campaign_id, paragraph_id, row_number() OVER (ORDER BY created_at, id)
                  - 1 AS i
              FROM annotation_question
              WHERE campaign_id = %(c_questions)s AND sampled_for_review AND status = 'pending'
              ORDER BY created_at, id LIMIT 5) q
        JOIN bench_rev r ON r.n = q.i
        """,
        params,
    )
    run(
        "held questions to answer (active)",
        """
        INSERT INTO annotation_lease (campaign_id, kind, paragraph_id, question_id, annotator_id,
            status, expires_at, draft, draft_saved_at, release_reason, release_note, created_at,
            finished_at)
        SELECT %(c_answers)s, 'answer', q.paragraph_id, q.id, a.id, 'active',
            %(now)s::timestamptz + interval '25 minutes', '{}', NULL, '', '',
            %(now)s::timestamptz - interval '5 minutes', NULL
        FROM (SELECT q.id, q.paragraph_id, au.n AS author,
                  row_number() OVER (ORDER BY q.id) - 1 AS i
              FROM annotation_question q JOIN corpus_paragraph p ON p.id = q.paragraph_id
              JOIN corpus_article ar ON ar.id = p.article_id
              JOIN bench_ann au ON au.id = q.author_id
              WHERE q.campaign_id = %(c_questions)s AND ar.split IN ('dev', 'test')
                AND q.status <> 'rejected' AND au.n < %(writers)s - 10
                AND q.created_at >= %(now)s::timestamptz - interval '1 day'
              ORDER BY q.id LIMIT 10) q
        JOIN bench_ann a ON a.n = %(writers)s - 1 - q.i
        """,
        params,
    )


def fill_exports(plan: Plan, run: Steps) -> None:
    """Finished releases with their file rows (the files are not on disk)."""
    params = {"releases": plan.releases, "now": plan.filled_at}
    params["counts"] = json.dumps(
        {"articles": plan.articles, "paragraphs": plan.paragraphs, "questions": plan.questions}
    )
    run(
        "releases",
        """
        INSERT INTO exports_release (status, progress, message, message_params, error, attempts,
            created_at, started_at, finished_at, heartbeat_at, created_by_id, name, version,
            description, options, manifest)
        SELECT 'succeeded', 100, '', '{}', '', 1, t, t, t + interval '40 seconds',
            t + interval '40 seconds',
            (SELECT min(id) FROM accounts_user WHERE username = 'admin0'),
            'fquad-' || g, '1.' || g, 'Release ' || g || ' : toutes les questions revues.',
            '{"formats": ["squad", "hf", "mrqa"], "splits": ["train", "dev", "test"],
              "approved_only": false, "include_test_answers": false, "include_history": true}',
            jsonb_build_object('name', 'fquad-' || g, 'version', '1.' || g,
                               'counts', %(counts)s::jsonb)
        FROM generate_series(1, %(releases)s) AS g,
            LATERAL (SELECT %(now)s::timestamptz - (%(releases)s - g) * interval '7 days') AS x(t)
        ORDER BY g
        """,
        params,
    )
    run(
        "release files",
        """
        INSERT INTO exports_releasefile (release_id, name, storage_name, bytes, sha256, counts,
            media_type, internal)
        SELECT r.id, f.name, 'releases/' || r.id || '/' || f.name, f.bytes,
            md5(r.id || f.name) || md5(f.name || r.id), '{"questions": 1000}', f.media, f.internal
        FROM exports_release r CROSS JOIN (VALUES
            ('squad-train.json', 600000000, 'application/json', false),
            ('squad-dev.json', 70000000, 'application/json', false),
            ('squad-test.json', 60000000, 'application/json', false),
            ('hf-train.jsonl', 650000000, 'application/jsonl', false),
            ('hf-dev.jsonl', 75000000, 'application/jsonl', false),
            ('hf-test.jsonl', 65000000, 'application/jsonl', false),
            ('mrqa-train.jsonl.gz', 200000000, 'application/gzip', false),
            ('mrqa-dev.jsonl.gz', 25000000, 'application/gzip', false),
            ('mrqa-test.jsonl.gz', 20000000, 'application/gzip', false),
            ('history.jsonl', 300000000, 'application/jsonl', false),
            ('README.md', 20000, 'text/markdown', false),
            ('manifest.json', 4000, 'application/json', false),
            ('gold-train.json', 90000000, 'application/json', true),
            ('gold-dev.json', 10000000, 'application/json', true),
            ('gold-test.json', 9000000, 'application/json', true)
        ) AS f(name, bytes, media, internal)
        ORDER BY r.id, f.name
        """,
    )


def fill_evaluation(plan: Plan, run: Steps) -> None:
    """Lexical baseline runs and leaderboard submissions on the releases."""
    submissions = plan.submissions or max(50, round(5000 * plan.scale))
    params = {"runs": plan.baseline_runs, "submissions": submissions, "now": plan.filled_at}
    run(
        "baseline runs",
        f"""
        INSERT INTO evaluation_baselinerun (status, progress, message, message_params, error,
            attempts, created_at, started_at, finished_at, heartbeat_at, created_by_id,
            release_id, kind, model, hyperparameters, device, metrics, breakdown, log,
            checkpoint, normalization, normalization_version)
        SELECT 'succeeded', 100, '', '{{}}', '', 1, r.finished_at, r.finished_at,
            r.finished_at + interval '2 minutes', r.finished_at + interval '2 minutes',
            r.created_by_id, r.id, 'lexical', '', '{{}}', 'cpu',
            jsonb_build_object(
                'dev', jsonb_build_object('exact_match', 3 + m, 'f1', 7 + m, 'total', 5000,
                                          'missing', 0),
                'test', jsonb_build_object('exact_match', 3.5 + m, 'f1', 7.5 + m, 'total', 4800,
                                           'missing', 0)),
            '{{}}', '', '', 'fquad-fr', '1'
        FROM generate_series(1, %(runs)s) AS g
        JOIN (SELECT *, row_number() OVER (ORDER BY id) AS i FROM exports_release) r
            ON r.i = 1 + mod(g, (SELECT count(*) FROM exports_release)),
            LATERAL (SELECT mod({h("g", 61)}, 100)::float8 / 50) AS x(m)
        ORDER BY g
        """,
        params,
    )
    run(
        "leaderboard submissions",
        f"""
        INSERT INTO evaluation_submission (release_id, split, submitted_by_id, label, exact_match,
            f1, total, normalization, normalization_version, created_at)
        SELECT r.id, CASE WHEN mod(g, 3) = 0 THEN 'test' ELSE 'dev' END, a.id,
            'camembert-' || mod(g, 97) || ' (équipe ' || mod(g, 13) || ')', 40 + m * 0.6,
            60 + m * 0.35, 5000, 'fquad-fr', '1',
            r.finished_at + mod({h("g", 63)}, 600000) * interval '1 second'
        FROM generate_series(1, %(submissions)s) AS g
        JOIN (SELECT *, row_number() OVER (ORDER BY id) AS i FROM exports_release) r
            ON r.i = 1 + mod({h("g", 64)}, (SELECT count(*) FROM exports_release))
        JOIN bench_ann a ON a.n = mod(g, 150),
            LATERAL (SELECT mod({h("g", 62)}, 1000)::float8 / 20) AS x(m)
        ORDER BY g
        """,
        params,
    )


FILLERS = [
    ("sources", fill_sources),
    ("accounts", fill_accounts),
    ("corpus", fill_corpus),
    ("annotation", fill_annotation),
    ("exports", fill_exports),
    ("evaluation", fill_evaluation),
]
APPS = [name for name, _f in FILLERS if name != "sources"]


# ---------------------------------------------------------------------------------------------
# The whole fill


def _model_defaults(cursor) -> None:
    """Give every NOT NULL column its model field's default in this throw-away database, so
    that the fill's INSERTs, which name the columns there were when they were written, stay
    valid as fields with a default are added (is_impossible, answer types, …)."""
    from django.apps import apps
    from django.db import connection
    from psycopg import sql
    from psycopg.types.json import Jsonb

    for model in apps.get_models():
        for column in model._meta.concrete_fields:
            if column.null or column.primary_key:
                continue
            if not (column.has_default() or column.empty_strings_allowed):
                continue
            value = column.get_db_prep_save(column.get_default(), connection)
            if value is None:
                continue
            if isinstance(value, (dict, list)) or type(value).__name__ == "Json":
                value = Jsonb(getattr(value, "obj", value))
            cursor.execute(
                sql.SQL("ALTER TABLE {} ALTER COLUMN {} SET DEFAULT {}").format(
                    sql.Identifier(model._meta.db_table),
                    sql.Identifier(column.column),
                    sql.Literal(value),
                )
            )


def fill(plan: Plan, quiet: bool = False) -> dict:
    """Write every app's rows (Django set up on an empty, migrated database); return the counts."""
    import psycopg
    from django.db import connection
    from django.utils import timezone

    plan.filled_at = plan.filled_at or timezone.now().isoformat()
    connection.ensure_connection()
    # A client-side cursor: the fill's SQL strings hold several commands, which statements
    # bound on the server (config/env.py) cannot.
    with psycopg.ClientCursor(connection.connection) as cursor:
        cursor.execute(
            "SET work_mem = '256MB'; SET maintenance_work_mem = '512MB';"
            " SET synchronous_commit = off"
        )
        run = Steps(cursor, quiet)
        _model_defaults(cursor)
        for name, filler in FILLERS:
            if name == "sources" or name in plan.apps or name == "accounts":
                started = time.perf_counter()
                if not quiet:
                    print(f"  {name}", flush=True)
                filler(plan, run)
                if not quiet:
                    print(f"  {name}: {time.perf_counter() - started:.1f} s", flush=True)
        for table in (
            "bench_ctx",
            "bench_qa",
            "bench_ann",
            "bench_rev",
            "bench_written",
            "bench_reviewed",
            "bench_answered",
        ):
            cursor.execute(f"DROP TABLE IF EXISTS {table}")
    return counts()


def counts() -> dict:
    from django.db import connection

    tables = [
        "corpus_article",
        "corpus_paragraph",
        "annotation_question",
        "annotation_answer",
        "annotation_questionrevision",
        "annotation_review",
        "annotation_lease",
        "annotation_workitem",
        "accounts_user",
        "exports_release",
        "evaluation_submission",
    ]
    with connection.cursor() as cursor:
        found = {}
        for table in tables:
            cursor.execute(f"SELECT count(*) FROM {table}")
            found[table] = cursor.fetchone()[0]
    return found


def vacuum(database_url: str) -> None:
    import psycopg

    with psycopg.connect(_conn_url(database_url), autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE")


def record(database_url: str, plan: Plan, found: dict) -> None:
    import psycopg
    from psycopg.types.json import Jsonb

    value = asdict(plan) | {"version": VERSION, "counts": found}
    with psycopg.connect(_conn_url(database_url), autocommit=True) as conn:
        conn.execute("CREATE TABLE IF NOT EXISTS bench_scale (key text PRIMARY KEY, value jsonb)")
        conn.execute(
            "INSERT INTO bench_scale VALUES ('plan', %s) ON CONFLICT (key) DO UPDATE"
            " SET value = excluded.value",
            [Jsonb(value)],
        )


def same_plan(found: dict | None, plan: Plan) -> bool:
    if not found or found.get("version") != VERSION:
        return False
    return found.get("scale") == plan.scale and sorted(found.get("apps", [])) == sorted(plan.apps)


def ensure(
    database_url: str = DEFAULT_URL,
    scale: float = 1.0,
    *,
    apps: list[str] | None = None,
    force: bool = False,
    env: dict[str, str] | None = None,
) -> dict:
    """Make sure the database holds the data of this scale; return what it recorded.

    Builds it (drop, create, migrate, fill, VACUUM ANALYZE) unless an earlier complete fill of
    the same scale, apps and version is there. Sets Django up in this process on it.
    """
    plan = Plan(scale=scale, apps=sorted(apps or APPS))
    env = env or django_env(database_url)
    found = filled(database_url)
    if not force and same_plan(found, plan):
        print(
            f"reusing {_name(database_url)}: scale {scale:g}, filled {found['filled_at']}",
            flush=True,
        )
        migrate(env)  # a migration added since the fill (an index) is applied, not rebuilt
        setup_django(env)
        return found
    if not PIAF.exists():
        raise SystemExit(f"{PIAF} is missing")
    started = time.perf_counter()
    print(f"building {_name(database_url)} at scale {scale:g}", flush=True)
    recreate_database(database_url)
    migrate(env)
    print(f"  migrated: {time.perf_counter() - started:.1f} s", flush=True)
    setup_django(env)
    found_counts = fill(plan)
    from django.db import connections

    connections.close_all()
    step = time.perf_counter()
    vacuum(database_url)
    print(f"  VACUUM ANALYZE: {time.perf_counter() - step:.1f} s", flush=True)
    record(database_url, plan, found_counts)
    print(f"built in {time.perf_counter() - started:.0f} s", flush=True)
    return filled(database_url)


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--scale", type=float, default=1.0, help="1 = 1,000,000 paragraphs, 800,000 questions"
    )
    parser.add_argument("--database-url", default=DEFAULT_URL, help="DROPPED and recreated")
    parser.add_argument("--force", action="store_true", help="build again even if filled")
    parser.add_argument(
        "--apps", default=",".join(APPS), help=f"apps to fill (default {','.join(APPS)})"
    )
    args = parser.parse_args(argv)
    if not 0.0001 <= args.scale <= 10:
        parser.error("--scale must be between 0.0001 and 10")
    parts = urlsplit(args.database_url)
    if parts.scheme not in ("postgres", "postgresql") or not parts.path.strip("/"):
        parser.error("--database-url must be postgres://user@host:port/name")
    if parts.hostname not in ("127.0.0.1", "localhost"):
        parser.error("the bench only fills a local database (127.0.0.1)")
    args.apps = [a for a in args.apps.split(",") if a]
    unknown = set(args.apps) - set(APPS)
    if unknown:
        parser.error(f"unknown apps {sorted(unknown)}; known: {', '.join(APPS)}")
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    found = ensure(args.database_url, args.scale, apps=args.apps, force=args.force)
    print(f"filled at {found['filled_at']} (scale {found['scale']:g}, version {found['version']})")
    for table, count in found["counts"].items():
        print(f"  {table:30} {count:>12,}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
