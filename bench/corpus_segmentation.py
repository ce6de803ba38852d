"""Time the segmentation of 2,000 synthetic French articles of realistic length.

Target: under 2 s for 2,000 articles on one core. A scrape of a whole category (FQuAD's had
1,769 quality articles) is segmented in one worker, so this is the cost of that step.

Each synthetic article is built from real PIAF paragraphs (French Wikipedia, grouped by title):
an introduction, sections with ``== ... ==`` headings, captions and short list lines that must
be dropped, and an end-matter section, varied deterministically so every run times the same
text. Run it alone: ``.venv/bin/python bench/corpus_segmentation.py``.
"""

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from corpus.segmentation import segment  # noqa: E402  (needs ROOT on sys.path)

PIAF_PATH = ROOT.parent / "shared" / "data" / "piaf" / "piaf-v1.0.json"
TARGET_ARTICLES = 2000
TARGET_SECONDS = 2.0
REPEATS = 3

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


def time_segmentation(articles: list[tuple[str, str]]) -> tuple[float, int]:
    """Return the best of REPEATS timings of segmenting every article, and paragraphs kept."""
    best = float("inf")
    kept = 0
    for _ in range(REPEATS):
        started = time.perf_counter()
        kept = sum(len(segment(extract).paragraphs) for _title, extract in articles)
        best = min(best, time.perf_counter() - started)
    return best, kept


def main(argv: list[str] | None = None) -> int:
    """Build the articles, time their segmentation and print the figures against the target."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--articles", type=int, default=TARGET_ARTICLES)
    options = parser.parse_args(argv)
    articles = build_articles(options.articles)
    seconds, kept = time_segmentation(articles)
    target = TARGET_SECONDS * options.articles / TARGET_ARTICLES
    print(f"segmentation: {len(articles)} articles, {kept} paragraphs kept")
    print(f"  {seconds:.3f} s (best of {REPEATS}), {len(articles) / seconds:,.0f} articles/s")
    print(f"  target: < {TARGET_SECONDS:g} s for {TARGET_ARTICLES:,} articles on one core")
    print(f"  target met: {'yes' if seconds < target else 'NO'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
