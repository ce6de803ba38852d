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

docs/architecture.md ("Deliberately apart") says which pairs stay, and why.
"""

from __future__ import annotations

import ast
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
        print("\n".join(lines if "-v" in sys.argv else lines[:1]))


if __name__ == "__main__":
    main()
