"""The metric modes by name: what each one is, and which one each language is scored with.

Plain data, so that every floor can read it: `evaluation.metrics` implements the modes under
these names (a test checks that the two agree), the release's datasheet (exports, which may not
import evaluation) names its language's metric, and a language registry can point each language
at one of these names. The names are stored with every score: they never change meaning.
docs/metrics.md has the table and the reasons.
"""

from __future__ import annotations

from core.languages import find

# name → (version, what it is, in the datasheet's words)
MODES: dict[str, tuple[str, str]] = {
    "squad-en": ("1", "SQuAD v1.1's official evaluation (evaluate-v1.1.py): whitespace tokens, "
                 "ASCII punctuation and the English articles removed"),
    "fquad-fr": ("1", "FQuAD's rules: SQuAD's, with French punctuation, apostrophes and "
                 "articles (le, la, les, l', du, des, au, aux, un, une)"),
    **{
        f"mlqa-{language}": (
            "1",
            f"MLQA's official evaluation (mlqa_evaluation_v1.py), answer language {language}: "
            "every Unicode punctuation mark and the language's articles removed, "
            + ("each CJK character a token" if language == "zh" else "whitespace tokens"),
        )
        for language in ("en", "es", "de", "vi", "ar", "hi", "zh")
    },
    "korquad-chars": ("1", "KorQuAD v1.0's official evaluation (evaluate-v1.0.py): F1 over "
                      "characters, spaces, quotes, brackets and ASCII punctuation removed"),
    "m2qa-zh": ("1", "M2QA's word-tokenized F1: SQuAD v2.0's normalization, words cut by "
                "jieba 0.42.1"),
    "m2qa-th": ("1", "M2QA's word-tokenized F1 for Thai: SQuAD v2.0's normalization, words "
                "cut by PyThaiNLP 5.4.0 (newmm)"),
    "chars": ("1", "characters for scripts without spaces: Unicode punctuation removed, no "
              "article list, each CJK, kana, Hangul or Thai character a token, other words "
              "split on whitespace"),
}  # fmt: skip
# Names stored before issue 27 → the mode they name now (same rules, same version).
ALIASES = {"word": "chars"}

DEFAULT_MODE = "chars"  # a language the registry of languages lacks


def language_mode(language: str | None) -> str:
    """Return the mode name of a language code: the one its entry in the registry of languages
    names (`core.languages`, `Language.metric`: each language the way its community scores,
    docs/metrics.md); a regional code counts as its language, a language the registry lacks
    (a training file with no language) gets `DEFAULT_MODE`."""
    entry = find(language or "")
    return entry.metric if entry is not None else DEFAULT_MODE


def mode_description(name: str) -> str:
    """Return what the mode called name is (an old name of ALIASES too); KeyError if none."""
    return MODES[ALIASES.get(name, name)][1]
