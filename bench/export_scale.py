"""Time the release export at FQuAD 1.1 and 2.0 scale: SQuAD JSON and HF JSONL of every split.

Run from the project root: `.venv/bin/python bench/export_scale.py` (see bench/README.md).

It builds a throw-away PostgreSQL database (dropped at the end unless --keep) shaped like FQuAD
1.1: copies of the PIAF articles under new titles ("Title (copie 7)") until there are about
15,000 paragraphs holding exactly 62,003 questions (PIAF's questions and answers, cycled), the
articles split about 83/9/8 by questions like FQuAD's 50,741 / 5,668 / 5,594, and two extra
answers by two other people on every dev and test question; then, as FQuAD 2.0 added them, 17,000
unanswerable questions (`--unanswerable`) on the same paragraphs, each with its plausible span,
and on dev and test two more judgments each ("no answer", and a span). Then, in a fresh child
process per run (so its peak RSS is the export's alone), it times
`exports.build.build_release_files` with formats squad + hf, all splits, test answers included,
as a SQuAD v1.1 release (answerable questions only) and as a v2.0 one (the unanswerable ones
too), runs of the two interleaved, and reports for each the best time and the peak RSS beside
its targets (v1.1: issue 13, <= 3 s, <= 150 MB; v2.0: issue 14, <= 10 s, <= 300 MB), with the
CPU the child and its PostgreSQL backend used and the child's RSS right after `django.setup()`.
Last, in another child, it times the MRQA export (spaCy's tokenizer) of one split beside its
target (>= 3,000 paragraphs/s).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from figures import beside_floor, figure, print_machine

ROOT = Path(__file__).resolve().parent.parent
PYTHON = ROOT / ".venv" / "bin" / "python"
PIAF = ROOT.parent / "shared" / "data" / "piaf" / "piaf-v1.0.json"

TARGET_SECONDS = 3.0  # issue 13
TARGET_PEAK_MB = 150  # MB = 1,000,000 bytes
TARGET_MRQA_PARAGRAPHS_PER_S = 3000
TARGET_V2_SECONDS = 10.0  # issue 14: an FQuAD 2.0-size release in v2.0
TARGET_V2_PEAK_MB = 300
FQUAD_QUESTIONS = 62_003
FQUAD2_UNANSWERABLE = 17_000  # FQuAD 2.0: 17,000+ unanswerable questions
FQUAD_PARAGRAPHS = 15_000  # about; FQuAD 1.1 does not publish the exact figure per split
FQUAD_SPLITS = {"train": 50_741, "dev": 5_668, "test": 5_594}
EXPORT_FORMATS = ["squad", "hf"]
SPLITS = ["train", "dev", "test"]
BATCH = 5000  # rows per INSERT of bulk_create


# ---------------------------------------------------------------------------------------------
# Set-up and tear-down (parent process)


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--questions",
        type=int,
        default=FQUAD_QUESTIONS,
        help="questions in the database (62003, FQuAD 1.1); paragraphs scale with it",
    )
    parser.add_argument(
        "--unanswerable",
        type=int,
        default=FQUAD2_UNANSWERABLE,
        help="unanswerable questions added on the same paragraphs (17000, FQuAD 2.0)",
    )
    parser.add_argument(
        "--database-url",
        default="postgres://postgres@127.0.0.1:5432/qaplatform_bench_export",
        help="the bench database; it is DROPPED and recreated",
    )
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    parser.add_argument(
        "--reuse",
        action="store_true",
        help="time the exports on the database an earlier --keep run left (not rebuilt, kept)",
    )
    parser.add_argument("--skip-mrqa", action="store_true", help="do not time the MRQA export")
    parser.add_argument(
        "--repeat", type=int, default=3, help="timed export runs, each in a fresh child (3)"
    )
    parser.add_argument(
        "--mrqa-split", default="dev", choices=SPLITS, help="the split MRQA is timed on (dev)"
    )
    parser.add_argument(
        "--mrqa-paragraphs",
        type=int,
        default=0,
        help="time MRQA on the split's first N paragraphs only (0 = the whole split)",
    )
    parser.add_argument(
        "--profile",
        action="store_true",
        help="after the timed runs, run the export once more under cProfile and print the "
        "functions that take the time (not counted in the figures)",
    )
    args = parser.parse_args(argv)
    if args.questions < 100 or args.repeat < 1 or args.mrqa_paragraphs < 0:
        parser.error("--questions must be >= 100, --repeat >= 1, --mrqa-paragraphs >= 0")
    if args.unanswerable < 0:
        parser.error("--unanswerable must be >= 0")
    parts = urlsplit(args.database_url)
    if parts.scheme not in ("postgres", "postgresql") or not parts.path.strip("/"):
        parser.error("--database-url must be postgres://user@host:port/name")
    if parts.hostname not in ("127.0.0.1", "localhost"):
        parser.error("the bench only runs against a local database (127.0.0.1)")
    return args


def _conn_url(database_url: str, path: str | None = None) -> str:
    parts = urlsplit(database_url)._replace(scheme="postgresql")
    return urlunsplit(parts._replace(path=path) if path else parts)


def recreate_database(database_url: str) -> None:
    import psycopg
    from psycopg import sql

    name = urlsplit(database_url).path.strip("/")
    with psycopg.connect(_conn_url(database_url, "/postgres"), autocommit=True) as conn:
        conn.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def drop_database(database_url: str) -> None:
    import psycopg
    from psycopg import sql

    name = urlsplit(database_url).path.strip("/")
    with psycopg.connect(_conn_url(database_url, "/postgres"), autocommit=True) as conn:
        conn.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )


def analyze_database(database_url: str) -> dict[str, int]:
    """VACUUM ANALYZE (autovacuum would, soon after a load); return the table sizes in bytes."""
    import psycopg

    with psycopg.connect(_conn_url(database_url), autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE")
        rows = conn.execute(
            "SELECT relname, pg_total_relation_size(oid) FROM pg_class WHERE relname = ANY(%s)",
            [["corpus_paragraph", "annotation_question", "annotation_answer"]],
        ).fetchall()
    return dict(rows)


def bench_env(database_url: str, var_dir: Path) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DEBUG", "REDIS_URL", "CSRF_TRUSTED_ORIGINS", "BEHIND_PROXY", "SITE_URL"}
    }
    env.update(
        DATABASE_URL=database_url,
        HTTPS="false",
        SECRET_KEY=secrets.token_urlsafe(48),  # 64 characters, new for every run
        VAR_DIR=str(var_dir),
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


def run_child(label: str, mode: str, args: list[str], env, var_dir: Path, timeout: float) -> dict:
    """Run this file as a child in `mode`; return the JSON it wrote."""
    out = var_dir / f"{mode}.json"
    out.unlink(missing_ok=True)
    command = [str(PYTHON), str(Path(__file__).resolve()), "--child", mode, str(out), *args]
    stdout = run_step(label, command, env, timeout)
    if stdout.strip():
        print(stdout.rstrip(), flush=True)
    return json.loads(out.read_text())


# ---------------------------------------------------------------------------------------------
# Children (each one its own process, Django set up from the bench environment)


def _django():
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def _rss_kb() -> int:
    """Current resident set size of this process, kB (Linux /proc)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def _peak_kb() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # kB on Linux


def _backend_cpu(pid: int) -> float:
    """CPU seconds used so far by a PostgreSQL backend (same machine; 0 if unreadable)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def load_piaf(path: Path) -> list[tuple[str, str, list[tuple[str, list[tuple]]]]]:
    """Return PIAF as (title, source title, [(context, [(question, text, start, ok)])])."""
    from corpus.readers import display_title
    from exports.formats.offsets import Alignment, check_answer

    data = json.loads(path.read_text(encoding="utf-8"))["data"]
    articles, seen = [], set()
    for raw in data:
        title = display_title(raw["title"])
        if title in seen:  # not the case in v1.0; keep titles unique anyway
            title = f"{title} ({len(seen)})"
        seen.add(title)
        paragraphs = []
        for paragraph in raw["paragraphs"]:
            context, qas = paragraph["context"], []
            for qa in paragraph["qas"]:
                answer = qa["answers"][0]
                check = check_answer(context, answer["text"], answer["answer_start"])
                ok = check.alignment != Alignment.MISALIGNED
                qas.append((qa["question"], answer["text"], check.answer_start, ok))
            if qas:
                paragraphs.append((context, qas))
        if paragraphs:
            articles.append((title[:280], raw["title"][:1000], paragraphs))
    return articles


NEXT_WORD = re.compile(r"\s*[^\W_]+")


def nearby_answer(context: str, text: str, start: int) -> str:
    """A plausible other answer: the same span extended by the next word (or as is)."""
    match = NEXT_WORD.match(context, start + len(text))
    if match is None or match.end() - start > len(text) + 30:
        return text
    return context[start : match.end()]


def child_build(out: Path, questions: int, piaf: Path, unanswerable: int = 0) -> None:
    """Fill the bench database: articles, paragraphs, questions, answers, versions, and the
    unanswerable questions with their plausible spans and, on dev and test, judgments."""
    import random
    import uuid

    _django()
    from django.contrib.auth import get_user_model
    from django.db import transaction

    from annotation.models import Answer, Campaign, Question, QuestionRevision
    from annotation.question_types import classify
    from corpus.models import Article, Paragraph
    from corpus.services.articles import paragraphs_sha256

    started = time.perf_counter()
    originals = load_piaf(piaf)
    want_paragraphs = max(1, round(questions * FQUAD_PARAGRAPHS / FQUAD_QUESTIONS))
    # Copies of the PIAF articles, whole, until there are enough paragraphs.
    plan, total, copy = [], 0, 0  # plan: (title, source_title, paragraphs)
    while total < want_paragraphs:
        copy += 1
        for title, source_title, paragraphs in originals:
            if total >= want_paragraphs:
                break
            plan.append((f"{title} (copie {copy})", f"{source_title} (copie {copy})", paragraphs))
            total += len(paragraphs)
    # Questions per paragraph: Q / P spread evenly (Bresenham), each paragraph cycling
    # through its own PIAF questions.
    quotas = [((i + 1) * questions) // total - (i * questions) // total for i in range(total)]
    # Splits by article, greedily towards FQuAD's proportions of questions.
    share = {s: n / FQUAD_QUESTIONS for s, n in FQUAD_SPLITS.items()}
    per_split = dict.fromkeys(SPLITS, 0)
    splits, at = [], 0
    for _title, _source, paragraphs in plan:
        count = sum(quotas[at : at + len(paragraphs)])
        at += len(paragraphs)
        done = sum(per_split.values()) + count
        split = max(SPLITS, key=lambda s: share[s] * done - per_split[s])
        per_split[split] += count
        splits.append(split)
    types = {}
    rng = random.Random(2020)  # noqa: S311 (deterministic uuids, not secrets)

    User = get_user_model()
    with transaction.atomic():
        people = []
        for name in ("bench-author", "bench-answer-2", "bench-answer-3"):
            user = User(username=name)
            user.set_unusable_password()
            user.save()
            people.append(user)
        author, second, third = people
        campaign = Campaign.objects.create(
            name="Bench export scale", splits=SPLITS, active=False, extra_answers=2
        )
        articles = Article.objects.bulk_create(
            [
                Article(
                    language="fr",
                    title=title,
                    source_title=source_title,
                    wave="1.1",
                    split=split,
                    source=Article.Source.FILE,
                    text_sha256=paragraphs_sha256([c for c, _qas in paragraphs]),
                )
                for (title, source_title, paragraphs), split in zip(plan, splits, strict=True)
            ],
            batch_size=BATCH,
        )
        rows = Paragraph.objects.bulk_create(
            [
                Paragraph(article=article, position=position, text=context)
                for article, (_t, _s, paragraphs) in zip(articles, plan, strict=True)
                for position, (context, _qas) in enumerate(paragraphs)
            ],
            batch_size=BATCH,
        )
        sources = [qas for _t, _s, paragraphs in plan for _c, qas in paragraphs]
        split_of = [
            split
            for (_t, _s, paragraphs), split in zip(plan, splits, strict=True)
            for _p in paragraphs
        ]
        made, spans = [], []  # spans: (paragraph text, answer text, start, aligned, split)
        for paragraph, qas, quota, split in zip(rows, sources, quotas, split_of, strict=True):
            for position in range(quota):
                text, answer, start, ok = qas[position % len(qas)]
                if text not in types:
                    types[text] = classify(text)
                sampled = len(made) % 4 == 0
                made.append(
                    Question(
                        uuid=uuid.UUID(int=rng.getrandbits(128), version=4),
                        campaign=campaign,
                        paragraph=paragraph,
                        author=author,
                        position=position,
                        text=text,
                        question_type=types[text],
                        seconds_spent=40,
                        status=Question.Status.APPROVED if sampled else Question.Status.PENDING,
                        sampled_for_review=sampled,
                    )
                )
                spans.append((paragraph.text, answer, start, ok, split))
        made = Question.objects.bulk_create(made, batch_size=BATCH)
        answers, versions = [], []

        def written(question, start, text, ok, *, impossible=False):
            """The author's span (the answer, or an unanswerable question's plausible one)
            and version 1."""
            kind = Answer.Kind.PLAUSIBLE if impossible else Answer.Kind.ORIGINAL
            answers.append(
                Answer(
                    question=question,
                    author=author,
                    answer_start=start,
                    text=text,
                    kind=kind,
                    misaligned=not ok,
                )
            )
            versions.append(
                QuestionRevision(
                    question=question,
                    number=1,
                    origin=QuestionRevision.Origin.WRITTEN,
                    editor=author,
                    text=question.text,
                    is_impossible=impossible,
                    answer_start=start,
                    answer_text=text,
                )
            )

        for question, (context, text, start, ok, split) in zip(made, spans, strict=True):
            written(question, start, text, ok)
            if split != "train":  # FQuAD: three answers on dev and test questions
                other = nearby_answer(context, text, start) if ok else text
                for person, value in ((second, text), (third, other)):
                    answers.append(
                        Answer(
                            question=question,
                            author=person,
                            answer_start=start,
                            text=value,
                            kind=Answer.Kind.ADDITIONAL,
                            misaligned=not ok,
                            seconds_spent=20,
                        )
                    )
        impossible = _unanswerable_questions(
            unanswerable, rows, sources, split_of, quotas, campaign, author, types, rng
        )
        for question, (_context, text, start, ok, split) in impossible:
            # The author's plausible span: a span of the paragraph that answers another
            # question (a careless reader's answer); misaligned where the PIAF one is.
            written(question, start, text, ok, impossible=True)
            if split != "train":  # FQuAD 2.0: two more judgments on dev and test
                answers.append(
                    Answer(
                        question=question,
                        author=second,
                        answer_start=0,
                        text="",
                        kind=Answer.Kind.ADDITIONAL,
                        no_answer=True,
                        seconds_spent=20,
                    )
                )
                answers.append(
                    Answer(
                        question=question,
                        author=third,
                        answer_start=start,
                        text=text,
                        kind=Answer.Kind.ADDITIONAL,
                        misaligned=not ok,
                        seconds_spent=20,
                    )
                )
        Answer.objects.bulk_create(answers, batch_size=BATCH)
        QuestionRevision.objects.bulk_create(versions, batch_size=BATCH)
    result = {
        "seconds": time.perf_counter() - started,
        "articles": len(articles),
        "paragraphs": len(rows),
        "questions": len(made),
        "answers": len(answers),
        "misaligned_questions": sum(1 for span in spans if not span[3]),
        "unanswerable": len(impossible),
        "unanswerable_per_split": {
            split: sum(1 for _q, span in impossible if span[4] == split) for split in SPLITS
        },
        "copies": copy,
        "per_split": {
            split: {
                "articles": splits.count(split),
                "paragraphs": split_of.count(split),
                "questions": per_split[split],
            }
            for split in SPLITS
        },
    }
    out.write_text(json.dumps(result))


def _unanswerable_questions(
    count, paragraphs, sources, split_of, answerable, campaign, author, types, rng
):
    """Store `count` unanswerable questions spread evenly over the paragraphs, after their
    answerable ones; return [(question, (context, plausible text, start, aligned, split))].

    Each is a PIAF question of its paragraph turned into one the paragraph does not answer
    (" en 1850 ?" instead of " ?"), its plausible span the answer of another PIAF question of
    the paragraph (the next one, cycling), as an annotator of FQuAD 2.0 would pick it."""
    import uuid

    from annotation.models import Question
    from annotation.question_types import classify

    total = len(paragraphs)
    quotas = [((i + 1) * count) // total - (i * count) // total for i in range(total)]
    made, spans = [], []
    rows = zip(paragraphs, sources, quotas, split_of, answerable, strict=True)
    for paragraph, qas, quota, split, first in rows:
        for n in range(quota):
            text, _answer, _start, _ok = qas[n % len(qas)]
            _other, answer, start, ok = qas[(n + 1) % len(qas)]
            text = text.rstrip(" ?") + " en 1850 ?"
            if text not in types:
                types[text] = classify(text)
            sampled = (len(made) + 1) % 4 == 0
            made.append(
                Question(
                    uuid=uuid.UUID(int=rng.getrandbits(128), version=4),
                    campaign=campaign,
                    paragraph=paragraph,
                    author=author,
                    position=first + n,
                    text=text,
                    question_type=types[text],
                    seconds_spent=50,
                    is_impossible=True,
                    status=Question.Status.APPROVED if sampled else Question.Status.PENDING,
                    sampled_for_review=sampled,
                )
            )
            spans.append((paragraph.text, answer, start, ok, split))
    made = Question.objects.bulk_create(made, batch_size=BATCH)
    return list(zip(made, spans, strict=True))


def _capped(articles, limit: int):
    """The first `limit` paragraphs of an article stream, still as articles."""
    from exports.formats.records import ExportArticle

    left = [limit]

    def paragraphs(source):
        for paragraph in source:
            if left[0] <= 0:
                return
            left[0] -= 1
            yield paragraph

    for article in articles:
        if left[0] <= 0:
            return
        yield ExportArticle(title=article.title, paragraphs=paragraphs(article.paragraphs))


def child_export(
    out: Path,
    directory: Path,
    formats: str,
    splits: str,
    limit: int,
    profile: int,
    squad_version: str = "1.1",
):
    """Time one export in this fresh process; write its figures as JSON."""
    _django()
    from dataclasses import asdict

    from django.db import connection

    from exports.build import build_release_files
    from exports.formats import FORMATS
    from exports.options import ReleaseOptions

    connection.ensure_connection()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        backend = cursor.fetchone()[0]
    formats_list, splits_list = formats.split(","), splits.split(",")
    result = {"baseline_rss_kb": _rss_kb(), "baseline_peak_kb": _peak_kb()}
    if "mrqa" in formats_list:  # load spaCy before the clock, and say what it costs
        from exports.formats.mrqa import spacy_tokenizer

        started = time.perf_counter()
        spacy_tokenizer()
        result["spacy_load_s"] = time.perf_counter() - started
        result["after_spacy_rss_kb"] = _rss_kb()
    steps = []

    def report(_progress, message=""):
        steps.append((message, time.perf_counter()))

    options = ReleaseOptions(
        formats=formats_list,
        splits=splits_list,
        include_test_answers=True,
        squad_version=squad_version,
    )
    profiler = None
    if profile:
        import cProfile

        profiler = cProfile.Profile()
    db_before, cpu_before = _backend_cpu(backend), time.process_time()
    started = time.perf_counter()
    if profiler:
        profiler.enable()
    if limit:  # the writer alone on the first `limit` paragraphs of one split
        from exports.build import _Hashing
        from exports.dataset import Selection, export_articles

        split, fmt = splits_list[0], formats_list[0]
        kwargs = {"dataset": "bench", "split": split} if fmt == "mrqa" else {}
        writer = FORMATS[fmt](**kwargs)
        path = directory / f"{fmt}-{split}-first-{limit}"
        with path.open("wb") as raw:
            sink = _Hashing(raw)
            counts = writer.write(_capped(export_articles(Selection(split=split)), limit), sink)
        digest = sink.digest.hexdigest()
        files = [
            {"name": path.name, "bytes": sink.size, "sha256": digest, "counts": asdict(counts)}
        ]
    else:
        built = build_release_files(
            options=options, name="bench", version="0", directory=directory, report=report
        )
        files = [
            {"name": f.name, "bytes": f.bytes, "sha256": f.sha256, "counts": f.counts}
            for f in built.files
        ]
    elapsed = time.perf_counter() - started
    if profiler:
        profiler.disable()
    result |= {
        "seconds": elapsed,
        "cpu_s": time.process_time() - cpu_before,
        "db_cpu_s": _backend_cpu(backend) - db_before,
        "peak_kb": _peak_kb(),
        "end_rss_kb": _rss_kb(),
        "files": files,
        "steps": [
            (message, end - start)
            for (message, start), end in zip(
                steps, [at for _m, at in steps[1:]] + [started + elapsed], strict=False
            )
        ],
    }
    if profiler:
        import io
        import pstats

        text = io.StringIO()
        stats = pstats.Stats(profiler, stream=text)
        stats.sort_stats("tottime").print_stats(25)
        stats.sort_stats("cumulative").print_stats(40)
        result["profile"] = text.getvalue()
    out.write_text(json.dumps(result))


def child_ahead(out: Path) -> None:
    """The background pass that keeps MRQA tokens ahead (exports.services.tokens.tokens_ahead), as
    the
    worker runs it when beat sends it; spaCy's load is timed apart."""
    _django()
    from exports.formats.mrqa import spacy_tokenizer
    from exports.services.tokens import tokens_ahead

    started = time.perf_counter()
    tokenize = spacy_tokenizer()
    load = time.perf_counter() - started
    started = time.perf_counter()
    done = tokens_ahead(tokenize=tokenize)
    seconds = time.perf_counter() - started
    out.write_text(json.dumps({"spacy_load_s": load, "seconds": seconds, **done}))


def child_main(argv: list[str]) -> int:
    mode, out = argv[0], Path(argv[1])
    if mode == "build":
        child_build(out, int(argv[2]), Path(argv[3]), int(argv[4]))
    elif mode == "ahead":
        child_ahead(out)
    elif mode == "export":
        version = argv[7] if len(argv) > 7 else "1.1"
        child_export(out, Path(argv[2]), argv[3], argv[4], int(argv[5]), int(argv[6]), version)
    else:
        raise SystemExit(f"unknown child mode {mode}")
    return 0


# ---------------------------------------------------------------------------------------------
# The floor: reading the same rows with one SQL query and writing the same bytes (parent)

FLOOR_QUERY = """
SELECT a.title, q.uuid::text, q.text,
       CASE WHEN q.paragraph_id IS DISTINCT FROM lag(q.paragraph_id) OVER w THEN p.text END,
       shown.texts, shown.starts
FROM annotation_question q
JOIN corpus_paragraph p ON p.id = q.paragraph_id
JOIN corpus_article a ON a.id = p.article_id
CROSS JOIN LATERAL (
    SELECT array_agg(x.text ORDER BY x.id) AS texts, array_agg(x.answer_start ORDER BY x.id)
        AS starts
    FROM annotation_answer x
    WHERE x.question_id = q.id AND NOT x.misaligned AND (
        (x.kind IN ('original', 'additional') AND NOT x.no_answer)
        OR (%(v2)s AND x.kind = 'plausible'))
) AS shown
WHERE q.status <> 'rejected' AND (%(v2)s OR NOT q.is_impossible)
  AND (%(split)s::text IS NULL OR a.split = %(split)s::text)
WINDOW w AS (ORDER BY a.split, a.title, a.id, p.position, p.id, q.position, q.id)
ORDER BY a.split, a.title, a.id, p.position, p.id, q.position, q.id
"""


def floor_read(
    database_url: str, squad_version: str, split: str | None = None
) -> tuple[float, int]:
    """Seconds to read every question the export reads, with its paragraph's text (once per
    paragraph), its article's title and its shown answers, in release order (one split, or
    all), with one query
    through a server-side cursor (2,000 rows a fetch, as the export's chunks); and the rows."""
    import psycopg

    with psycopg.connect(_conn_url(database_url)) as conn:
        started = time.perf_counter()
        with conn.cursor(name="floor") as cursor:
            cursor.itersize = 2000
            cursor.execute(FLOOR_QUERY, {"v2": squad_version == "2.0", "split": split})
            rows = sum(1 for _row in cursor)
        return time.perf_counter() - started, rows


def floor_write(directory: Path, scratch: Path) -> float:
    """Seconds to write the export's files' bytes again, hashed (SHA-256) as the export hashes
    them, 1 MB at a time, with the standard library alone. The bytes are read back 1 MB at a
    time from the page cache (timed, a copy in memory): holding the files in this process
    would grow it, and a child started afterwards inherits its peak RSS (ru_maxrss survives
    exec), which would then show in the export's figure."""
    import hashlib

    scratch.mkdir(exist_ok=True)
    started = time.perf_counter()
    for source in sorted(directory.iterdir()):
        if not source.is_file():
            continue
        digest = hashlib.sha256()
        with source.open("rb") as data, (scratch / source.name).open("wb") as out:
            while block := data.read(1 << 20):
                digest.update(block)
                out.write(block)
        digest.hexdigest()
    seconds = time.perf_counter() - started
    shutil.rmtree(scratch)
    return seconds


# ---------------------------------------------------------------------------------------------
# Report


def verdict(ok: bool) -> str:
    return "met" if ok else "NOT met"


def mb(kb: int) -> float:
    return kb * 1024 / 1_000_000


def report_build(setup: dict, sizes: dict[str, int]) -> None:
    print()
    print(
        f"database: {setup['articles']:,} articles ({setup['copies']} rounds of PIAF copies), "
        f"{setup['paragraphs']:,} paragraphs, {setup['questions']:,} questions, "
        f"{setup['answers']:,} answers ({setup['misaligned_questions']} questions with a "
        f"misaligned PIAF answer, left out of the files' answers)"
    )
    for split, row in setup["per_split"].items():
        print(
            f"  {split:5}: {row['articles']:6,} articles {row['paragraphs']:7,} paragraphs "
            f"{row['questions']:7,} questions (FQuAD 1.1: {FQUAD_SPLITS[split]:,})"
        )
    if setup.get("unanswerable"):
        per_split = ", ".join(f"{k} {v:,}" for k, v in setup["unanswerable_per_split"].items())
        print(
            f"  + {setup['unanswerable']:,} unanswerable questions ({per_split}), each with "
            'its plausible span; on dev and test, a "no answer" and a span from two others'
        )
    print(
        "  table sizes: "
        + ", ".join(f"{name} {size / 1e6:.1f} MB" for name, size in sorted(sizes.items()))
    )


def report_export(
    runs: list[dict],
    squad_version: str = "1.1",
    target_seconds: float = TARGET_SECONDS,
    target_mb: float = TARGET_PEAK_MB,
) -> None:
    print()
    print(
        f"SQuAD v{squad_version} export (squad + hf, all splits, test answers included), "
        f"{len(runs)} fresh children ({os.cpu_count()} cores; other work on the machine shows "
        "in the load average):"
    )
    for index, run in enumerate(runs, 1):
        print(
            f"  run {index}: {run['seconds']:.2f} s (CPU {run['cpu_s']:.2f} s in the child, "
            f"{run['db_cpu_s']:.2f} s in its PostgreSQL backend); RSS after setup "
            f"{mb(run['baseline_rss_kb']):.1f} MB, peak {mb(run['peak_kb']):.1f} MB "
            f"(+{mb(run['peak_kb'] - run['baseline_rss_kb']):.1f} MB for the export); "
            f"load average {run['load'][0]:.1f} before, {run['load'][1]:.1f} after"
        )
    best = min(runs, key=lambda r: r["seconds"])
    print("  steps of the best run:")
    steps: dict[str, float] = {}  # a split reports after each chunk: one line per message
    for message, seconds in best["steps"]:
        label = "datasheet + manifest" if message == "README.md" else message
        steps[label] = steps.get(label, 0.0) + seconds
    for label, seconds in steps.items():
        print(f"    {label:20} {seconds:6.2f} s")
    print("  files:")
    for f in best["files"]:
        counts = ", ".join(f"{k} {v:,}" for k, v in f["counts"].items())
        print(f"    {f['name']:20} {f['bytes'] / 1e6:8.2f} MB  {counts}")
        print(f"    {'':20} sha256 {f['sha256']}")
    total = sum(f["bytes"] for f in best["files"])
    print(f"    total {total / 1e6:.1f} MB")
    peak = max(r["peak_kb"] for r in runs)
    time_ok = best["seconds"] <= target_seconds
    rss_ok = mb(peak) <= target_mb
    print(
        f"v{squad_version} export time (best of {len(runs)}): {best['seconds']:.2f} s   "
        f"target <= {target_seconds:g} s: {verdict(time_ok)}"
    )
    cpu = min(r["cpu_s"] + r["db_cpu_s"] for r in runs)
    print(
        f"  CPU of the export (least of {len(runs)}, child + PostgreSQL backend): {cpu:.2f} s, "
        "what the time is on an idle machine"
    )
    read, write = min(r["floor_read"] for r in runs), min(r["floor_write"] for r in runs)
    name = f"export.v{squad_version}"
    beside_floor(
        name,
        best["seconds"],
        read + write,
        "s",
        what=f"v{squad_version} export (best of {len(runs)})",
        floor_what=f"{best['floor_rows']:,} rows read with one query {read:.2f} s + the same "
        f"{total / 1e6:.1f} MB written and hashed {write:.2f} s, best of {len(runs)}",
    )
    figure(f"{name}.cpu", cpu, "s")
    figure(f"{name}.peak_rss", mb(peak), "MB")
    print(
        f"v{squad_version} export peak RSS (highest of {len(runs)}): {mb(peak):.1f} MB "
        f"(baseline after django.setup() {mb(best['baseline_rss_kb']):.1f} MB)   "
        f"target <= {target_mb:g} MB: {verdict(rss_ok)}"
    )


def report_versions(v1: list[dict], v2: list[dict]) -> None:
    """The v2.0 export beside the v1.1 one on the same database and machine: as a whole (the
    issue's target) and per question and per byte written (a v2.0 release holds the
    unanswerable questions too: 27 % more at FQuAD 2.0 size)."""
    best1, best2 = (min(r["seconds"] for r in runs) for runs in (v1, v2))
    cpu1, cpu2 = (min(r["cpu_s"] + r["db_cpu_s"] for r in runs) for runs in (v1, v2))
    peak1, peak2 = (mb(max(r["peak_kb"] for r in runs)) for runs in (v1, v2))
    questions1, questions2 = (_questions(runs) for runs in (v1, v2))
    bytes1, bytes2 = (sum(f["bytes"] for f in runs[0]["files"]) for runs in (v1, v2))
    more, bigger = questions2 / questions1, bytes2 / bytes1
    print()
    print(
        f"v2.0 beside v1.1: time {best2:.2f} s vs {best1:.2f} s ({best2 / best1:.2f}x), CPU "
        f"{cpu2:.2f} s vs {cpu1:.2f} s ({cpu2 / cpu1:.2f}x), peak RSS {peak2:.1f} MB vs "
        f"{peak1:.1f} MB   target <= 1.15x (issue 24): time {verdict(best2 / best1 <= 1.15)}, "
        f"CPU {verdict(cpu2 / cpu1 <= 1.15)}"
    )
    print(
        f"  v2.0 writes {questions2:,} questions against {questions1:,} ({more:.2f}x) and "
        f"{bytes2 / 1e6:.1f} MB against {bytes1 / 1e6:.1f} MB ({bigger:.2f}x): per question, "
        f"time {best2 / best1 / more:.2f}x and CPU {cpu2 / cpu1 / more:.2f}x; per byte, time "
        f"{best2 / best1 / bigger:.2f}x and CPU {cpu2 / cpu1 / bigger:.2f}x"
    )
    figure("export.v2_over_v1.ratio", best2 / best1, "x")
    figure("export.v2_over_v1.cpu.ratio", cpu2 / cpu1, "x")
    figure("export.v2_over_v1.questions.ratio", more, "x")
    figure("export.v2_over_v1.per_question.ratio", best2 / best1 / more, "x")
    figure("export.v2_over_v1.cpu_per_question.ratio", cpu2 / cpu1 / more, "x")


def _questions(runs: list[dict]) -> int:
    """The questions of a release: those its SQuAD files hold, all splits."""
    return sum(
        f["counts"].get("questions", 0) for f in runs[0]["files"] if f["name"].startswith("squad")
    )


def clear_token_cache(database_url: str) -> None:
    """Empty the MRQA tokens kept by earlier exports (a database kept with --keep has some)."""
    import psycopg

    with psycopg.connect(database_url, autocommit=True) as connection:
        connection.execute("DELETE FROM exports_tokencache")
        connection.execute("DELETE FROM exports_tokensweep")


def report_mrqa(run: dict, split: str, limit: int, name: str = "mrqa") -> None:
    counts = run["files"][0]["counts"]
    seconds, cpu = run["seconds"], run["cpu_s"] + run["db_cpu_s"]
    what = f"first {limit:,} paragraphs of {split}" if limit else f"split {split}"
    rate = counts["paragraphs"] / seconds
    print()
    print(
        f"MRQA ({what}): {counts['paragraphs']:,} paragraphs, {counts['questions']:,} questions "
        f"in {seconds:.2f} s (CPU {run['cpu_s']:.2f} s in the child, its gzip thread included, "
        f"{run['db_cpu_s']:.2f} s in PostgreSQL; spaCy load {run['spacy_load_s']:.2f} s, not "
        f"counted); load average {run['load'][0]:.1f} before, {run['load'][1]:.1f} after"
    )
    print(
        f"  {counts['paragraphs'] / cpu:,.0f} paragraphs per CPU second; "
        f"file {run['files'][0]['bytes'] / 1e6:.2f} MB gzip "
        f"(sha256 {run['files'][0]['sha256']}); "
        f"peak RSS {mb(run['peak_kb']):.1f} MB (after spaCy load "
        f"{mb(run['after_spacy_rss_kb']):.1f} MB)"
    )
    print(
        f"MRQA export: {rate:,.0f} paragraphs/s, {counts['questions'] / seconds:,.0f} "
        f"questions/s   target >= {TARGET_MRQA_PARAGRAPHS_PER_S:,} paragraphs/s: "
        f"{verdict(rate >= TARGET_MRQA_PARAGRAPHS_PER_S)}"
    )
    figure(f"{name}.paragraphs_per_s", rate, "paragraphs/s")


# ---------------------------------------------------------------------------------------------


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--child"]:
        return child_main(argv[1:])
    args = parse_args(argv)
    if not PIAF.exists():
        raise SystemExit(f"PIAF data is missing: expected {PIAF} (see shared/data/README.md)")
    print_machine()
    var_dir = Path(tempfile.mkdtemp(prefix="export_scale_"))
    env = bench_env(args.database_url, var_dir)
    created = False
    try:
        if args.reuse:  # a database an earlier --keep run left: kept, never dropped
            print(f"reusing {urlsplit(args.database_url).path.strip('/')}", flush=True)
        else:
            print(f"setting up {urlsplit(args.database_url).path.strip('/')} ...", flush=True)
            recreate_database(args.database_url)
            created = True
            run_step("migrate", [str(PYTHON), "manage.py", "migrate", "--noinput"], env, 600)
            setup = run_child(
                "data",
                "build",
                [str(args.questions), str(PIAF), str(args.unanswerable)],
                env,
                var_dir,
                timeout=1800,
            )
            started = time.perf_counter()
            sizes = analyze_database(args.database_url)
            print(f"  VACUUM ANALYZE: {time.perf_counter() - started:.1f} s", flush=True)
            report_build(setup, sizes)
        # v1.1 and v2.0 in turn, so that both see the same machine (the load changes).
        runs = {"1.1": [], "2.0": []}
        for index in range(args.repeat):
            for version, version_runs in runs.items():
                out_dir = var_dir / f"release-{version}-{index}"
                out_dir.mkdir()
                load = os.getloadavg()[0]
                run = run_child(
                    f"v{version} export run {index + 1}",
                    "export",
                    [
                        str(out_dir),
                        ",".join(EXPORT_FORMATS),
                        ",".join(SPLITS),
                        "0",
                        "0",
                        version,
                    ],
                    env,
                    var_dir,
                    timeout=900,
                )
                run["floor_read"], run["floor_rows"] = floor_read(args.database_url, version)
                run["floor_write"] = floor_write(out_dir, var_dir / "floor-scratch")
                version_runs.append(run | {"load": (load, os.getloadavg()[0])})
                if index < args.repeat - 1:
                    shutil.rmtree(out_dir)
        report_export(runs["1.1"])
        report_export(runs["2.0"], "2.0", TARGET_V2_SECONDS, TARGET_V2_PEAK_MB)
        report_versions(runs["1.1"], runs["2.0"])
        if args.profile:
            out_dir = var_dir / "release-profile"
            out_dir.mkdir()
            profiled = run_child(
                "export under cProfile",
                "export",
                [str(out_dir), ",".join(EXPORT_FORMATS), ",".join(SPLITS), "0", "1", "2.0"],
                env,
                var_dir,
                timeout=900,
            )
            print(
                f"\nprofiled run (v2.0): {profiled['seconds']:.2f} s (profiler overhead included)"
            )
            print(profiled["profile"])
        if not args.skip_mrqa:
            # Three times, each in a fresh child: with no token kept (exports.services.tokens,
            # emptied
            # first), the export tokenizes every text and keeps the tokens; after the
            # background pass that keeps tokens ahead (beat's job, run here as the worker runs
            # it); and again, reading back what the exports kept.
            attempts = [
                "first export, no token kept: every text tokenized",
                "first export after the background pass",
                "next export: tokens kept",
            ]
            for number, attempt in enumerate(attempts):
                if number < 2:
                    clear_token_cache(args.database_url)
                if number == 1:
                    ahead = run_child("background pass", "ahead", [], env, var_dir, timeout=1800)
                    print(
                        f"\nbackground pass (tokens_ahead): {ahead['paragraphs']:,} paragraphs and "
                        f"{ahead['questions']:,} questions in {ahead['seconds']:.2f} s (spaCy load "
                        f"{ahead['spacy_load_s']:.2f} s)"
                    )
                out_dir = var_dir / f"release-mrqa-{number}"
                out_dir.mkdir()
                load = os.getloadavg()[0]
                mrqa = run_child(
                    "MRQA export",
                    "export",
                    [str(out_dir), "mrqa", args.mrqa_split, str(args.mrqa_paragraphs), "0"],
                    env,
                    var_dir,
                    timeout=1800,
                )
                mrqa |= {"load": (load, os.getloadavg()[0])}
                print(f"\n{attempt}", end="")
                name = f"mrqa.{('first', 'ahead', 'next')[number]}"
                report_mrqa(mrqa, args.mrqa_split, args.mrqa_paragraphs, name)
                if not args.mrqa_paragraphs:  # the floor reads a whole split
                    read, _rows = floor_read(args.database_url, "1.1", args.mrqa_split)
                    write = floor_write(out_dir, var_dir / "floor-scratch")
                    beside_floor(
                        name,
                        mrqa["seconds"],
                        read + write,
                        "s",
                        what=f"  MRQA export of {args.mrqa_split}",
                        floor_what=f"the split's rows read with one query {read:.2f} s + the "
                        f"same gzip bytes written and hashed {write:.3f} s",
                    )
        print_machine("at the end: ")
    finally:
        if created and not args.keep:
            drop_database(args.database_url)
        elif created:
            print(f"kept the database {args.database_url}")
        shutil.rmtree(var_dir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
