"""Issue 26's measures of app code: lines, functions over 40 and 80 lines, modules over 400.

App code is accounts, annotation, core, corpus, evaluation, exports and config, without
migrations; a function's length counts its docstring. Run from the project root:
`.venv/bin/python bench/code_shape.py [-v] [--duplicates]` (`-v` lists each long function
and module).

`--duplicates` also counts the duplicate pairs of app code with the `duplicates` tool (where
it is installed): the same .py files, tests and migrations left out, are copied to a scratch
folder, paths kept, and `duplicates --seconds 120 --most 200` runs there; its first line is
printed, and with `-v` its rows. By hand, the same:

    D=$(mktemp -d); for f in $(find accounts annotation core corpus evaluation exports config \
      -name '*.py' -not -path '*/migrations/*' -not -path '*/tests/*' -not -name 'test_*.py'); do
      mkdir -p "$D/$(dirname $f)"; cp "$f" "$D/$f"; done; (cd "$D" && duplicates --seconds 120 \
      --most 200); rm -rf "$D"

Each pair is then sorted by what its first place holds (`pair_kind`): model, serializer, form
or dataclass declarations; route tables; calls and signatures written one keyword a line; data
and message tables; or other code. The tally is printed after the tool's first line; with `-v`
each row ends with its kind. docs/architecture.md ("Deliberately apart") says which pairs stay,
and why.
"""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
APPS = ["accounts", "annotation", "core", "corpus", "evaluation", "exports", "config"]
FUNCTION_LINES, LONGEST_LINES, MODULE_LINES = 40, 80, 400


def measure(root: Path) -> dict:
    """Return the app code's line count and its long functions and modules."""
    total, functions, modules = 0, [], []
    for app in APPS:
        for path in sorted((root / app).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            source = path.read_text(encoding="utf-8")
            lines = len(source.splitlines())
            total += lines
            name = str(path.relative_to(root))
            if lines > MODULE_LINES:
                modules.append((lines, name))
            for node in ast.walk(ast.parse(source)):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    length = node.end_lineno - node.lineno + 1
                    if length > FUNCTION_LINES:
                        functions.append((length, f"{name}:{node.lineno} {node.name}"))
    return {"lines": total, "functions": functions, "modules": modules}


def app_files(root: Path) -> list[Path]:
    """The app code's .py files: no migrations, no tests."""
    found = []
    for app in APPS:
        for path in sorted((root / app).rglob("*.py")):
            parts = path.relative_to(root).parts
            if "migrations" in parts or "tests" in parts or path.name.startswith("test_"):
                continue
            found.append(path)
    return found


def duplicates(root: Path) -> list[str]:
    """The `duplicates` tool's lines on a copy of the app code (its first line counts pairs)."""
    with tempfile.TemporaryDirectory() as scratch:
        for path in app_files(root):
            copy = Path(scratch) / path.relative_to(root)
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, copy)
        command = ["duplicates", "--seconds", "120", "--most", "200"]
        done = subprocess.run(command, cwd=scratch, capture_output=True, text=True, check=False)
    return done.stdout.splitlines()


# What a line of each kind looks like, white space stripped. A run is of a kind when most of its
# lines are; the first kind that holds wins, in this order.
KINDS = {
    "declarations": [
        r"\w+ = (models|serializers|forms)\.\w+\(",  # a field
        r"\w+ = \S+, _\(",  # a choice
        r"\w+: [\w\[\]|., ]+ = ",  # a dataclass field and its default
        r"class \w+(\(.*\))?:",
        r"(verbose_name|verbose_name_plural|ordering|constraints|indexes|db_table|name) = ",
        r"(fields|read_only_fields|exclude) = ",
        r"models\.(UniqueConstraint|CheckConstraint|Index|Q)\(",
        r"(fields|name|condition|check)=",
        r"(required|allow_null|help_text|label|default)=",
        r"def __str__\(self\)",
        r"return f?\"",
        r'"""',
    ],
    "routes": [r"path\(", r"app_name = ", r"urlpatterns = \[", r'"[^"]*/",', r'name="[^"]*"'],
    "keyword rows": [
        r"\*{0,2}\w+=[^=(]+(\(.*\))?,?\)?$",  # name=value,
        r"\*{0,2}\w+(: [^=]+)?( = [^=]+)?,$",  # a parameter
        r"([\w.]+ = |return )?[\w.]+\($",  # a call or signature opens
        r"(def \w+\(|\) -> .*:$)",
    ],
    "data tables": [r"\(?\"[^\"]*\"(, .*)?\)?,?$", r'"\w+": ', r"\(.*\),$"],
}
_THIN = re.compile(r"^[\s()\[\]{},:]*$")


def pair_kind(lines: list[str]) -> str:
    """The kind of a run of lines (the first place of a pair): one of KINDS' keys, or
    "other" when no kind holds most of its lines. Blank, comment and punctuation lines do
    not count, as in the tool."""
    kept = [line.strip() for line in lines]
    kept = [line for line in kept if line and not line.startswith("#") and not _THIN.match(line)]
    for kind, patterns in KINDS.items():
        matched = sum(any(re.match(p, line) for p in patterns) for line in kept)
        if kept and matched * 2 > len(kept):
            return kind
    return "other"


_ROW = re.compile(r"^D\d+ (\S+):(\d+)-(\d+) ~ ")


def tally(rows: list[str], root: Path = ROOT) -> tuple[dict[str, int], list[str]]:
    """Return ({kind: pairs}, the rows each with its kind at the end)."""
    counts = dict.fromkeys([*KINDS, "other"], 0)
    marked = []
    for row in rows:
        found = _ROW.match(row)
        if not found:
            continue
        path, first, last = found.group(1), int(found.group(2)), int(found.group(3))
        lines = (root / path).read_text(encoding="utf-8").splitlines()[first - 1 : last]
        kind = pair_kind(lines)
        counts[kind] += 1
        marked.append(f"{row}  [{kind}]")
    return counts, marked


def main() -> None:
    found = measure(ROOT)
    longest = [f for f in found["functions"] if f[0] > LONGEST_LINES]
    print(
        f"app lines {found['lines']}, functions over {FUNCTION_LINES} lines "
        f"{len(found['functions'])}, over {LONGEST_LINES} {len(longest)}, modules over "
        f"{MODULE_LINES} lines {len(found['modules'])}"
    )
    if "-v" in sys.argv:
        for length, where in sorted(found["functions"], reverse=True):
            print(f"  function {length:4} {where}")
        for length, where in sorted(found["modules"], reverse=True):
            print(f"  module   {length:4} {where}")
    if "--duplicates" in sys.argv:
        if shutil.which("duplicates") is None:
            print("duplicates: the tool is not installed here")
            return
        lines = duplicates(ROOT)
        counts, marked = tally(lines)
        print("\n".join(lines[:1]))
        print("by kind: " + ", ".join(f"{kind} {n}" for kind, n in counts.items()))
        if "-v" in sys.argv:
            print("\n".join(marked + [line for line in lines[1:] if not _ROW.match(line)]))


if __name__ == "__main__":
    main()
