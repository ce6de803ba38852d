"""Score answers the SQuAD v1.1 and v2.0 ways: exact match and F1, per language, human performance.

Written for this project from the public description of the official SQuAD v1.1 evaluation; the
figures mean what that script's do. Pure and fast (stdlib only, no Django, no I/O), so the
review pages, the ``evaluate`` command, the leaderboard and the baselines all score alike.

An answer is compared only after a ``Normalization``, a named, versioned recipe; the version is
stored with every score, so a score is never compared with one made under other rules.

``squad-en`` (version 1), exactly the official script's ``normalize_answer``:
    lower-case; delete every character of ``string.punctuation`` (ASCII only); replace the whole
    words a, an, the by a space; collapse whitespace. The order matters and is the official one:
    punctuation goes before the articles, so "the-cat" becomes "thecat" and keeps its "the".

``fquad-fr`` (version 1), FQuAD's rules: the same steps with French articles, in this order:
    1. lower-case;
    2. fold the typographic apostrophes U+2019 (’), U+2018 (‘) and U+02BC (ʼ) into "'", so that
       "L’empereur" and "L'empereur", "aujourd’hui" and "aujourd'hui" normalize alike;
    3. replace the elided article "l'" by a space when it starts a word ("l'empereur" →
       "empereur"). This must come before step 4, which would glue it on ("lempereur");
    4. delete ``string.punctuation`` and the French typographic marks « » ‹ › “ ” „ … – —
       (a model that keeps a closing » is not penalised more than one that keeps a closing ");
       the hyphen is punctuation, so "Pays-Bas" becomes "paysbas" on both sides;
    5. replace the whole words le, la, les, du, des, au, aux, un, une by a space (FQuAD's list,
       nothing more: d', qu', de, en… stay, so "d'Artagnan" becomes "dartagnan"; "un" is dropped
       even when it is the numeral);
    6. collapse whitespace (``str.split`` also splits on no-break and narrow no-break spaces).

``chars`` (version 1; stored as ``word`` before issue 27, a name still read), for any script:
    lower-case; delete every character whose Unicode category is P* (symbols such as $ or + stay);
    no article list. Each character of the scripts in ``CHARACTER_SCRIPTS`` (CJK ideographs,
    Hiragana, Katakana, Hangul, Thai) is a token by itself; any other run of characters between
    spaces or such characters is one token. The normalized text is the tokens joined by single
    spaces ("東京タワー" → "東 京 タ ワ ー"), so exact match ignores spaces between such
    characters, as F1 does. It is MLQA-style characters, not M2QA's words (on XQuAD zh and hi
    it gives MLQA's figures, yet MLQA's own modes are ``mlqa-zh`` and ``mlqa-hi``).

The community modes, each equal to its official script to every digit (`community`):
``mlqa-{en,es,de,vi,ar,hi,zh}`` (MLQA's evaluation), ``korquad-chars`` (KorQuAD v1.0's
character F1), ``m2qa-zh`` and ``m2qa-th`` (M2QA's word-tokenized F1 with jieba and PyThaiNLP,
optional pinned packages: without them the mode refuses with ``MissingTokenizer``). Each
language's mode and the stable names: `registry` and docs/metrics.md.

In every mode ``normalize(text) == " ".join(words(text))``: exact match compares the normalized
strings, F1 the multisets of ``tokens(text)``: the words themselves, except in korquad-chars
(their characters) and m2qa-* (a word tokenizer's words), whose tokens are ``Units`` that are
equal when their words are. EM is 1 only where the word sequences are equal.

Edge cases reproduced from the official script:
- both answers normalize to "" (e.g. "the" and "a."): EM is 1.0 (equal strings) but F1 is 0.0
  (no common token); the only case where EM > F1. SQuAD 2.0's script changed this; v1.1's did not.
- F1 is 0.0 as soon as no token is shared, whatever the lengths; it is computed with the
  official arithmetic (precision, recall, then 2PR / (P + R)), to the last binary digit.
- a question without a prediction scores 0 and still counts in the total; predictions for
  questions outside the dataset are ignored.

SQuAD v2.0 (``score_v2``, ``no_answer_classification``): the official ``evaluate-v2.0.py``'s
algorithm with each normalization's tokens (see ``score_v2`` and docs/metrics.md). An empty
prediction means "no answer"; a question whose gold list is empty is unanswerable.

The package: `normalizations` (what a normalization is; squad-en, fquad-fr, chars),
`community` (MLQA, KorQuAD, M2QA), `registry` (names, aliases, each language's mode), `squad`
(v1.1's metrics), `squad_v2` (v2.0's); every public name is importable from
`evaluation.metrics`.
"""

from evaluation.metrics.community import KORQUAD_CHARS, M2QA_TH, M2QA_ZH, MLQA, MLQA_LANGUAGES
from evaluation.metrics.normalizations import (
    CHARACTER_SCRIPTS,
    CHARS,
    FQUAD_FR,
    HUMAN_ANSWERS,
    SQUAD_EN,
    WORD,
    MissingTokenizer,
    Normalization,
    Units,
)
from evaluation.metrics.registry import (
    ALIASES,
    DEFAULT_NORMALIZATION,
    LANGUAGE_NORMALIZATIONS,
    NORMALIZATIONS,
    canonical_name,
    language_normalization,
    normalization,
)
from evaluation.metrics.squad import (
    Metric,
    best_over,
    exact_match,
    f1,
    human_performance,
    leave_one_out,
    score,
)
from evaluation.metrics.squad_v2 import f1_v2, leave_one_out_v2, no_answer_classification, score_v2

__all__ = [
    "ALIASES",
    "CHARACTER_SCRIPTS",
    "CHARS",
    "DEFAULT_NORMALIZATION",
    "FQUAD_FR",
    "HUMAN_ANSWERS",
    "KORQUAD_CHARS",
    "LANGUAGE_NORMALIZATIONS",
    "M2QA_TH",
    "M2QA_ZH",
    "MLQA",
    "MLQA_LANGUAGES",
    "Metric",
    "MissingTokenizer",
    "NORMALIZATIONS",
    "Normalization",
    "SQUAD_EN",
    "Units",
    "WORD",
    "canonical_name",
    "best_over",
    "exact_match",
    "f1",
    "f1_v2",
    "human_performance",
    "language_normalization",
    "leave_one_out",
    "leave_one_out_v2",
    "no_answer_classification",
    "normalization",
    "score",
    "score_v2",
]
