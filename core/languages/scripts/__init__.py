"""The entries of the registry by script family, and what several entries share.

Each module of this package holds the entries of one family of scripts (`latin`,
`cyrillic_greek_arabic`, `indic_thai_cjk`); `core.languages.catalogue` lists them all, in the
registry's order. What several entries share is here: the paragraph rule measured on XQuAD,
the sentence ends of Latin script, the metric mode of a language without one of its own, and
spaCy's blank pipelines.

Paragraph length rule: FQuAD kept French paragraphs of 500 characters or more. Characters
carry very different amounts of text from one script to another (XQuAD's Chinese paragraphs
have a median of 225 characters where the same paragraphs in English have 694.5), so the
bound is scaled by each language's length ratio to English on the same 240 XQuAD paragraphs
(`xquad`): the bound then keeps the same share of the same content in every language.
Medians from ../shared/data/xquad (tests/core/test_languages.py measures them again).
"""

from __future__ import annotations

from core.languages.entry import ParagraphRule, Pipeline

XQUAD_ENGLISH_MEDIAN = 694.5
LATIN_SENTENCE_ENDS = ".!?…"
# The metric mode of a language without a community mode of its own (core.metric_modes,
# docs/metrics.md): every Unicode punctuation mark dropped, CJK, kana, Hangul and Thai
# characters one token each, other words split on spaces.
CHARS = "chars"


def xquad(median: float) -> ParagraphRule:
    """The rule of a language whose XQuAD paragraphs have this median length."""
    return ParagraphRule(
        ratio=median / XQUAD_ENGLISH_MEDIAN,
        basis=f"measured: XQuAD median {median:g} characters, English {XQUAD_ENGLISH_MEDIAN:g}",
    )


def blank(code: str, *config: tuple[str, str], install: str = "") -> Pipeline:
    """spaCy's rule-based pipeline of a language (`blank:<code>`), with its config changes."""
    return Pipeline(f"blank:{code}", config=tuple(config), install=install)
