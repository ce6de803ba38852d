"""Time the word bounds the annotation page gets for Chinese and Thai (corpus/words.py).

The page of a paragraph in a language written without spaces between words needs the places
where the language's tokenizer ends a word inside a run of letters (jieba for Chinese,
PyThaiNLP for Thai). They are cut once per paragraph and kept in the shared cache
(`corpus.selectors.paragraph_words`); this measures what a cache miss costs: loading the
tokenizer's dictionary (once per process) and cutting XQuAD's 240 paragraphs of each language.

Floors, in the same run: reading the XQuAD file (json.load) for the load, and one regular
expression pass over the same paragraphs' runs of letters for the cut. Needs the `languages`
extra and ../shared/data/xquad/. Run it alone: ``.venv/bin/python bench/word_bounds.py``.
"""

import json
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from figures import beside_floor, best_of, print_machine  # noqa: E402

from corpus.words import inner_bounds  # noqa: E402  (needs ROOT on sys.path)

XQUAD = ROOT.parent / "shared" / "data" / "xquad"
REPEATS = 3
LETTERS = re.compile(r"[^\W_]+")


def paragraphs(code: str) -> list[str]:
    data = json.loads((XQUAD / f"xquad.{code}.json").read_text(encoding="utf-8"))["data"]
    return [paragraph["context"] for article in data for paragraph in article["paragraphs"]]


def main() -> None:
    print_machine()
    for code in ("zh", "th"):
        started = time.perf_counter()
        texts = paragraphs(code)
        read = time.perf_counter() - started
        started = time.perf_counter()
        inner_bounds(texts[0], code)  # the first cut loads the dictionary
        load = time.perf_counter() - started
        beside_floor(
            f"words.{code}.load",
            load,
            read,
            "s",
            what=f"{code}: the tokenizer's first cut (import and dictionary), once per process",
            floor_what="reading XQuAD's file of the language",
        )
        cut = best_of(lambda: [inner_bounds(text, code) for text in texts], REPEATS)  # noqa: B023
        scan = best_of(lambda: [LETTERS.findall(text) for text in texts], REPEATS)  # noqa: B023
        count = sum(len(inner_bounds(text, code)) for text in texts)
        chars = sum(len(text) for text in texts)
        print(f"{code}: {len(texts)} paragraphs, {chars:,} characters, {count:,} bounds")
        beside_floor(
            f"words.{code}.cut_240",
            cut * 1000 / len(texts),
            scan * 1000 / len(texts),
            "ms",
            what=f"{code}: the bounds of one paragraph (mean over XQuAD's {len(texts)})",
            floor_what="one regular-expression pass over its runs of letters",
        )


if __name__ == "__main__":
    main()
