"""Issue 26's measures of app code: lines, functions over 40 and 80 lines, modules over 400.

App code is accounts, annotation, core, corpus, evaluation, exports and config, without
migrations; a function's length counts its docstring. Run from the project root:
`.venv/bin/python bench/code_shape.py [-v]` (`-v` lists each long function and module).
Duplicate pairs are counted apart, with the `duplicates` tool on a copy of those folders.
"""

from __future__ import annotations

import ast
import sys
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


if __name__ == "__main__":
    main()
