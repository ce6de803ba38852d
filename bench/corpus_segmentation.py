"""Time the segmentation and split assignment of 2,000 synthetic French articles.

The timed run is what a scrape of a whole category (FQuAD's had 1,769 quality articles) costs
one worker once the text is fetched: ``segment`` on every article, then
``corpus.splits.assign_splits`` on their titles in two waves (the first half, then the second
half with ``existing`` = the first wave's splits, as a later FQuAD wave would), seed fixed.
Target: the whole run under 2 s for 2,000 articles on one core.

Each synthetic article is built from real PIAF paragraphs (French Wikipedia, grouped by title):
an introduction, sections with ``== ... ==`` headings, captions and short list lines that must
be dropped, and an end-matter section, varied deterministically so every run times the same
text. Run it alone: ``.venv/bin/python bench/corpus_segmentation.py``.
"""

import argparse
import json
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from figures import beside_floor, print_machine  # noqa: E402

from corpus.segmentation import segment  # noqa: E402  (needs ROOT on sys.path)
from corpus.splits import SPLITS, assign_splits  # noqa: E402  (needs ROOT on sys.path)

PIAF_PATH = ROOT.parent / "shared" / "data" / "piaf" / "piaf-v1.0.json"
TARGET_ARTICLES = 2000
TARGET_SECONDS = 2.0
REPEATS = 3
SEED = 2020

SECTION_TITLES = (
    "Histoire",
    "Géographie",
    "Économie",
    "Culture",
    "Politique",
    "Biographie",
    "Œuvre",
    "Architecture",
    "Démographie",
    "Postérité",
)
SUBSECTION_TITLES = ("Origines", "Contexte", "Développement", "Réception", "Description")
END_MATTER_SECTIONS = ("Notes et références", "Voir aussi", "Bibliographie", "Liens externes")
SHORT_LINES = (
    "Vue générale du site en 2010",
    "Les principales étapes sont les suivantes :",
    "La population est estimée à 3\u00a0000 habitants.",
)
LIST_LINES = ("Agriculture", "Commerce ;", "Tourisme (saisonnier)", "Artisanat local")
REFERENCES = (
    "Jean Dupont, Histoire de la région, Paris, Gallimard, 1950, 320 p.",
    "« Rapport annuel », sur insee.fr (consulté le 3 mars 2019).",
    "Site officiel",
)


def load_contexts_by_title() -> dict[str, list[str]]:
    """Return the PIAF paragraphs grouped by article title, or exit saying what is missing."""
    if not PIAF_PATH.exists():
        sys.exit(f"PIAF data is missing: expected {PIAF_PATH} (see shared/data/README.md)")
    data = json.loads(PIAF_PATH.read_text(encoding="utf-8"))["data"]
    groups = defaultdict(list)
    for article in data:
        groups[article["title"]].extend(p["context"] for p in article["paragraphs"])
    return dict(groups)


def build_articles(n: int) -> list[tuple[str, str]]:
    """Return ``n`` (title, extract) pairs of 10 to 30 paragraphs each, the same every run."""
    groups = list(load_contexts_by_title().items())
    pool = [context for _title, contexts in groups for context in contexts]
    articles = []
    for index in range(n):
        title, own = groups[index % len(groups)]
        count = 10 + (index * 7) % 21
        start = (index * 13) % len(pool)
        extra = [pool[(start + offset) % len(pool)] for offset in range(count - len(own))]
        paragraphs = (own + extra)[:count]
        articles.append((f"{title} ({index})", build_extract(index, paragraphs)))
    return articles


def build_extract(index: int, paragraphs: list[str]) -> str:
    """Return a plain-text extract: introduction, sections, short lines, end matter."""
    lines = [paragraphs[0], ""]
    for number, paragraph in enumerate(paragraphs[1:], start=1):
        if number % 3 == 1:
            title = SECTION_TITLES[(index + number) % len(SECTION_TITLES)]
            lines += ["", f"== {title} ==", ""]
        elif number % 5 == 0:
            lines.append(f"=== {SUBSECTION_TITLES[(index + number) % len(SUBSECTION_TITLES)]} ===")
        lines.append(paragraph)
        if (index + number) % 4 == 0:
            lines.append(SHORT_LINES[(index + number) % len(SHORT_LINES)])
        if (index + number) % 9 == 0:
            lines += [*LIST_LINES, ""]
    end_title = END_MATTER_SECTIONS[index % len(END_MATTER_SECTIONS)]
    lines += ["", "", f"== {end_title} ==", "", *REFERENCES]
    return "\n".join(lines)


@dataclass(frozen=True)
class Timing:
    """The figures of one timed run: seconds per part, paragraphs kept, articles per split."""

    segmentation: float
    splitting: float
    kept: int
    splits: dict[str, int]

    @property
    def total(self) -> float:
        """Seconds for the whole run: segmentation, then split assignment."""
        return self.segmentation + self.splitting


def assign_in_waves(titles: list[str], *, seed: int = SEED) -> dict[str, str]:
    """Assign splits in two waves: the first half (seed), then the rest on top of it (seed + 1)."""
    half = len(titles) // 2
    first = assign_splits(titles[:half], existing={}, seed=seed)
    second = assign_splits(titles[half:], existing=first, seed=seed + 1)
    return first | second


def time_once(articles: list[tuple[str, str]]) -> Timing:
    """Segment every article, then assign the titles' splits in two waves; time both parts."""
    started = time.perf_counter()
    kept = sum(len(segment(extract).paragraphs) for _title, extract in articles)
    segmented = time.perf_counter()
    splits = assign_in_waves([title for title, _extract in articles])
    finished = time.perf_counter()
    return Timing(segmented - started, finished - segmented, kept, Counter(splits.values()))


def time_run(articles: list[tuple[str, str]]) -> Timing:
    """Return the run with the best total among REPEATS runs."""
    return min((time_once(articles) for _ in range(REPEATS)), key=lambda timing: timing.total)


def floor_once(articles: list[tuple[str, str]]) -> float:
    """The floor: the same text read line by line with the standard library alone (each
    extract split into its lines, the long ones kept, as any segmenter must at least do)."""
    started = time.perf_counter()
    sum(1 for _title, extract in articles for line in extract.splitlines() if len(line) >= 500)
    return time.perf_counter() - started


def rate(count: int, seconds: float) -> str:
    """Say how many articles per second ``count`` articles in ``seconds`` make."""
    return f"{count / seconds:,.0f} articles/s" if seconds > 0 else "too fast to measure"


def main(argv: list[str] | None = None) -> int:
    """Build the articles, time segmentation and splitting, print the figures and the target."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--articles", type=int, default=TARGET_ARTICLES)
    options = parser.parse_args(argv)
    if options.articles < 2:
        parser.error("--articles must be 2 or more (two waves of at least one article)")
    articles = build_articles(options.articles)
    timing = time_run(articles)
    n = len(articles)
    half = n // 2
    target = TARGET_SECONDS * n / TARGET_ARTICLES
    split_counts = "/".join(str(timing.splits[split]) for split in SPLITS)
    print(f"corpus pipeline: {n:,} articles, best of {REPEATS} runs (time.perf_counter)")
    print(
        f"  segmentation:    {timing.segmentation:.3f} s, {rate(n, timing.segmentation)}"
        f" ({timing.kept:,} paragraphs kept)"
    )
    print(
        f"  split waves:     {timing.splitting:.3f} s, {rate(n, timing.splitting)}"
        f" ({half:,} + {n - half:,} titles, seeds {SEED} and {SEED + 1};"
        f" {'/'.join(SPLITS)} = {split_counts})"
    )
    print(f"  total:           {timing.total:.3f} s, {rate(n, timing.total)}")
    print(f"  target: whole run < {target:g} s for {n:,} articles on one core")
    print(f"  target met: {'yes' if timing.total < target else 'NO'}")
    floor = min(floor_once(articles) for _ in range(REPEATS))
    beside_floor(
        "segmentation.total",
        timing.total,
        floor,
        "s",
        what="  whole run",
        floor_what=f"the same text split into lines, the long ones kept, best of {REPEATS}",
    )
    print_machine("  ")
    return 0


if __name__ == "__main__":
    sys.exit(main())
