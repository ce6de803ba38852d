"""Run one benchmark on two commits side by side and print each figure and the ratio B/A.

Run from the project root: `.venv/bin/python bench/compare.py A B BENCH [bench args...]`, e.g.

    .venv/bin/python bench/compare.py bd874e1 HEAD export_scale.py --skip-mrqa --repeat 1

Each commit is checked out in a git worktree in a temporary folder (beside it, `shared` points
at this checkout's `../shared`, and each worktree's `.venv` at the environment running this
script), so both run against the same database server, Redis and data. The runs alternate,
A B A B … (`--runs`, 3), so a change in the machine's load falls on both sides alike.

The figures are the benchmark's `FIGURE name value unit` lines (bench/figures.py). A commit
older than those lines prints other text: for a benchmark that prints no FIGURE line on either
side, the total wall time of the command is compared instead, and the report says so;
`--legacy NAME=REGEX` reads a figure from the old text as well (the regex's first group, the
value), e.g. `--legacy 'export.v1.1.seconds=export time \\(best of \\d+\\): ([0-9.]+) s'`.
`--args-a`/`--args-b` add arguments on one side only (an option the other commit lacks).
Each run's output is kept in `--logs` (a folder) when given.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from figures import PREFIX, machine  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
WALL = "command.wall"


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", help="commit A (the reference)")
    parser.add_argument("b", help="commit B (compared with A)")
    parser.add_argument("bench", help="the benchmark's file in bench/, e.g. export_scale.py")
    parser.add_argument("bench_args", nargs=argparse.REMAINDER, help="its arguments")
    parser.add_argument("--runs", type=int, default=3, help="runs of each side (3)")
    parser.add_argument("--timeout", type=float, default=1800, help="seconds per run (1800)")
    parser.add_argument("--args-a", default="", help="more arguments for A only (one string)")
    parser.add_argument("--args-b", default="", help="more arguments for B only (one string)")
    parser.add_argument(
        "--legacy",
        action="append",
        default=[],
        metavar="NAME=REGEX",
        help="read figure NAME from a side's text with REGEX when it prints no such FIGURE",
    )
    parser.add_argument("--logs", type=Path, help="keep each run's output in this folder")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be >= 1")
    legacy = []
    for item in args.legacy:
        name, sep, regex = item.partition("=")
        if not sep or not name or " " in name:
            parser.error(f"--legacy {item!r}: expected NAME=REGEX")
        legacy.append((name, re.compile(regex)))
    args.legacy = legacy
    return args


def git(*args: str, cwd: Path = ROOT) -> str:
    done = subprocess.run(
        ["git", *args], cwd=cwd, capture_output=True, text=True, check=False, timeout=300
    )
    if done.returncode != 0:
        raise SystemExit(f"git {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout.strip()


def checkout(commit: str, folder: Path) -> str:
    """A detached worktree of `commit` in `folder`; return the commit's short id and title."""
    sha = git("rev-parse", "--verify", f"{commit}^{{commit}}")
    git("worktree", "add", "--detach", "--force", str(folder), sha)
    venv = Path(sys.prefix)  # the environment running this script
    (folder / ".venv").symlink_to(venv, target_is_directory=True)
    return git("log", "-1", "--format=%h %s", sha)[:100]


def parse_figures(text: str, legacy) -> dict[str, tuple[float, str]]:
    found = {}
    for line in text.splitlines():
        if line.startswith(PREFIX):
            parts = line[len(PREFIX) :].split()
            if len(parts) == 3:
                try:
                    found[parts[0]] = (float(parts[1]), parts[2])
                except ValueError:
                    continue
    for name, regex in legacy:
        if name not in found and (match := regex.search(text)):
            found[name] = (float(match.group(1)), "legacy")
    return found


def run_once(folder: Path, bench: str, bench_args: list[str], timeout: float):
    command = [str(folder / ".venv" / "bin" / "python"), f"bench/{bench}", *bench_args]
    started = time.perf_counter()
    load = os.getloadavg()[0]
    try:
        done = subprocess.run(
            command,
            cwd=folder,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
            env={k: v for k, v in os.environ.items() if k != "VIRTUAL_ENV"},
        )
        output, code = done.stdout + done.stderr, done.returncode
    except subprocess.TimeoutExpired as expired:
        output = f"{expired.stdout or ''}{expired.stderr or ''}\n(timed out after {timeout} s)"
        code = -1
    wall = time.perf_counter() - started
    return output, code, wall, (load, os.getloadavg()[0])


def fmt(value: float) -> str:
    return f"{value:.4g}"


def main(argv=None) -> int:
    args = parse_args(argv)
    bench_args = [a for a in args.bench_args if a != "--"]
    extra = {"A": shlex.split(args.args_a), "B": shlex.split(args.args_b)}
    temp = Path(tempfile.mkdtemp(prefix="bench_compare_"))
    shared = ROOT.parent / "shared"
    if shared.exists():
        (temp / "shared").symlink_to(shared, target_is_directory=True)
    folders = {"A": temp / "a", "B": temp / "b"}
    if args.logs:
        args.logs.mkdir(parents=True, exist_ok=True)
    results = {"A": [], "B": []}
    try:
        titles = {
            side: checkout(commit, folders[side]) for side, commit in (("A", args.a), ("B", args.b))
        }
        for side, folder in folders.items():
            if not (folder / "bench" / args.bench).exists():
                raise SystemExit(f"{side} ({titles[side]}) has no bench/{args.bench}")
        print(machine(), flush=True)
        print(f"A: {titles['A']}\nB: {titles['B']}")
        print(f"bench/{args.bench} {shlex.join(bench_args)}; {args.runs} runs each, A B A B …")
        for number in range(1, args.runs + 1):
            for side in ("A", "B"):
                output, code, wall, load = run_once(
                    folders[side], args.bench, bench_args + extra[side], args.timeout
                )
                if args.logs:
                    (args.logs / f"{side}-{number}.txt").write_text(output)
                figures = parse_figures(output, args.legacy)
                print(
                    f"  run {number} {side}: {wall:.1f} s wall, exit {code}, "
                    f"{len(figures)} figures, load {load[0]:.2f} before, {load[1]:.2f} after",
                    flush=True,
                )
                if code != 0:
                    sys.stderr.write(output[-3000:])
                    raise SystemExit(f"the benchmark failed on {side} (exit {code})")
                results[side].append((figures, wall))
    finally:
        for folder in folders.values():
            if folder.exists():
                subprocess.run(
                    ["git", "worktree", "remove", "--force", str(folder)],
                    cwd=ROOT,
                    capture_output=True,
                    check=False,
                )
        git("worktree", "prune")
        shutil.rmtree(temp, ignore_errors=True)
    report(results, args.runs)
    return 0


def report(results: dict, runs: int) -> None:
    names = {
        side: set.intersection(*(set(figures) for figures, _wall in results[side]))
        for side in results
    }
    common = sorted(names["A"] & names["B"])
    if not common:
        print(
            "\nNo FIGURE printed by both sides (an older benchmark prints other text): "
            "comparing the total wall time of the command instead."
        )
    else:
        only = sorted((names["A"] | names["B"]) - set(common))
        if only:
            print(f"\nFigures printed by one side only (not compared): {', '.join(only)}")
    rows = [
        (
            name,
            [f[name][0] for f, _w in results["A"]],
            [f[name][0] for f, _w in results["B"]],
            results["B"][0][0][name][1],
        )
        for name in common
    ]
    rows.append((WALL, [w for _f, w in results["A"]], [w for _f, w in results["B"]], "s"))
    width = max(len(name) for name, *_rest in rows)
    print(
        f"\n{'figure':{width}}  {'unit':6} {'A runs':24} {'B runs':24} "
        f"{'A med':>8} {'B med':>8} B/A"
    )
    for name, a_values, b_values, unit in rows:
        a_med, b_med = statistics.median(a_values), statistics.median(b_values)
        ratio = f"{b_med / a_med:.2f}x" if a_med else "-"
        print(
            f"{name:{width}}  {unit:6} {' '.join(map(fmt, a_values)):24} "
            f"{' '.join(map(fmt, b_values)):24} {fmt(a_med):>8} {fmt(b_med):>8} {ratio}"
        )
    print(f"(medians of {runs} runs a side; the wall time includes each run's set-up)")
    print(machine())


if __name__ == "__main__":
    sys.exit(main())
