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

``word`` (version 1), for languages written without spaces (on XQuAD zh and hi it gives MLQA's
official figures; it is not M2QA's F1, which counts jieba's words: docs/metrics.md):
    lower-case; delete every character whose Unicode category is P* (symbols such as $ or + stay);
    no article list. Each character of the scripts in ``CHARACTER_SCRIPTS`` (CJK ideographs,
    Hiragana, Katakana, Hangul, Thai) is a token by itself; any other run of characters between
    spaces or such characters is one token. The normalized text is the tokens joined by single
    spaces ("東京タワー" → "東 京 タ ワ ー"), so exact match ignores spaces between such
    characters, as F1 does.

In every mode ``normalize(text) == " ".join(tokens(text))``: exact match compares the normalized
strings, F1 the token multisets, and EM is 1 only where the token sequences are equal.

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
"""

import re
import string
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

HUMAN_ANSWERS = 3  # FQuAD's human performance needs exactly three answers per question


@dataclass(frozen=True)
class Normalization:
    """A named, versioned way to normalize answers and cut them into tokens.

    clean turns raw text into lower-case text without punctuation or articles; segment cuts
    that into tokens. Two normalizations are equal when their name and version are.
    """

    name: str
    version: str
    clean: Callable[[str], str] = field(repr=False, compare=False)
    segment: Callable[[str], list[str]] = field(default=str.split, repr=False, compare=False)

    def normalize(self, text: str) -> str:
        """Return the text as exact match compares it: its tokens joined by single spaces."""
        return " ".join(self.tokens(text))

    def tokens(self, text: str) -> list[str]:
        """Return the tokens F1 counts, in order."""
        return self.segment(self.clean(text))


# squad-en

_ASCII_PUNCTUATION = str.maketrans("", "", string.punctuation)
_EN_ARTICLES = re.compile(r"\b(?:a|an|the)\b")


def _clean_squad_en(text: str) -> str:
    """Lower-case, drop ASCII punctuation, then the English articles (the official order)."""
    return _EN_ARTICLES.sub(" ", text.lower().translate(_ASCII_PUNCTUATION))


# fquad-fr

_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'"})
_ELIDED_ARTICLE = re.compile(r"\bl'")
_FR_PUNCTUATION = str.maketrans("", "", string.punctuation + "«»‹›“”„…–—")
_FR_ARTICLES = re.compile(r"\b(?:le|la|les|du|des|au|aux|un|une)\b")


def _clean_fquad_fr(text: str) -> str:
    """Lower-case, fold apostrophes, drop "l'", punctuation, then the French articles."""
    text = _ELIDED_ARTICLE.sub(" ", text.lower().translate(_APOSTROPHES))
    return _FR_ARTICLES.sub(" ", text.translate(_FR_PUNCTUATION))


# word

CHARACTER_SCRIPTS = (
    ("Thai", "\u0e00", "\u0e7f"),
    ("Hangul Jamo", "\u1100", "\u11ff"),
    ("Hiragana", "\u3040", "\u309f"),
    ("Katakana", "\u30a0", "\u30ff"),
    ("Hangul Compatibility Jamo", "\u3130", "\u318f"),
    ("Katakana Phonetic Extensions", "\u31f0", "\u31ff"),
    ("CJK Unified Ideographs Extension A", "\u3400", "\u4dbf"),
    ("CJK Unified Ideographs", "\u4e00", "\u9fff"),
    ("Hangul Syllables", "\uac00", "\ud7af"),
    ("CJK Compatibility Ideographs", "\uf900", "\ufaff"),
    ("Halfwidth Katakana", "\uff66", "\uff9f"),
    ("CJK Unified Ideographs Extensions B to F and supplement", "\U00020000", "\U0002fa1f"),
)
_SCRIPT_CLASS = "".join(f"{start}-{end}" for _, start, end in CHARACTER_SCRIPTS)
_WORD_TOKEN = re.compile(rf"[{_SCRIPT_CLASS}]|[^{_SCRIPT_CLASS}\s]+")


class _UnicodePunctuation(dict):
    """A str.translate table deleting Unicode punctuation, filled as characters are seen.

    Building the full table up front would walk all 1.1 million code points (a fifth of a
    second) at import; this way each character's category is looked up once, when first met.
    """

    def __missing__(self, codepoint: int) -> int | None:
        kept = None if unicodedata.category(chr(codepoint)).startswith("P") else codepoint
        self[codepoint] = kept
        return kept


_UNICODE_PUNCTUATION = _UnicodePunctuation()


def _clean_word(text: str) -> str:
    """Lower-case and drop every Unicode punctuation character (category P*)."""
    return text.lower().translate(_UNICODE_PUNCTUATION)


def _segment_word(text: str) -> list[str]:
    """Cut into single characters of the CHARACTER_SCRIPTS and space-separated runs of others."""
    return _WORD_TOKEN.findall(text)


SQUAD_EN = Normalization("squad-en", "1", clean=_clean_squad_en)
FQUAD_FR = Normalization("fquad-fr", "1", clean=_clean_fquad_fr)
WORD = Normalization("word", "1", clean=_clean_word, segment=_segment_word)
NORMALIZATIONS = {norm.name: norm for norm in (SQUAD_EN, FQUAD_FR, WORD)}
# A language's normalization: French is FQuAD's, English the official SQuAD script's.
LANGUAGE_NORMALIZATIONS = {"fr": FQUAD_FR, "en": SQUAD_EN}


def language_normalization(language: str) -> Normalization:
    """Return the normalization of a language code: a regional code counts as its language
    (fr-ca is French), any other language gets `word`."""
    return LANGUAGE_NORMALIZATIONS.get((language or "").split("-")[0].lower(), WORD)


def normalization(name: str) -> Normalization:
    """Return the normalization called name, or raise ValueError listing the known ones."""
    try:
        return NORMALIZATIONS[name]
    except KeyError:
        known = ", ".join(sorted(NORMALIZATIONS))
        raise ValueError(f"unknown normalization {name!r}; known: {known}") from None


# Metrics

Metric = Callable[[str, str, Normalization], float]


def exact_match(prediction: str, truth: str, norm: Normalization = SQUAD_EN) -> float:
    """Return 1.0 when both answers normalize to the same text, else 0.0."""
    return float(norm.normalize(prediction) == norm.normalize(truth))


def f1(prediction: str, truth: str, norm: Normalization = SQUAD_EN) -> float:
    """Return the F1 of the token multisets (0.0 when no token is shared, even both empty)."""
    return _tokens_f1(norm.tokens(prediction), norm.tokens(truth))


def best_over(
    metric: Metric, prediction: str, truths: Sequence[str], norm: Normalization = SQUAD_EN
) -> float:
    """Return the metric's best value over the ground truths; ValueError when there are none."""
    if not truths:
        raise ValueError("no ground-truth answer to compare the prediction with")
    return max(metric(prediction, truth, norm) for truth in truths)


def score(
    dataset: Mapping[str, Sequence[str]],
    predictions: Mapping[str, str],
    norm: Normalization = SQUAD_EN,
) -> dict:
    """Score predictions {question id: answer} against dataset {question id: [answers]}.

    Return {"exact_match", "f1"} in percent (100 × the mean over the dataset's questions, as the
    official script prints them), "total" questions and "missing" predictions, which score 0.
    Raise ValueError for an empty dataset or a question without any answer.
    """
    if not dataset:
        raise ValueError("the dataset has no questions to score")
    exact_total = f1_total = 0.0
    missing = 0
    for question_id, truths in dataset.items():
        if not truths:
            raise ValueError(f"question {question_id!r} has no ground-truth answer")
        if question_id not in predictions:
            missing += 1
            continue
        exact, overlap = _best_scores(
            norm.tokens(predictions[question_id]), [norm.tokens(truth) for truth in truths]
        )
        exact_total += exact
        f1_total += overlap
    total = len(dataset)
    return {
        "exact_match": 100.0 * exact_total / total,
        "f1": 100.0 * f1_total / total,
        "total": total,
        "missing": missing,
    }


def human_performance(answer_sets: Sequence[Sequence[str]], norm: Normalization = FQUAD_FR) -> dict:
    """Return FQuAD's human performance over questions with exactly three answers.

    Each answer in turn is the prediction and the two others the ground truth (best over
    them); a question scores the mean of its three runs, the result the mean over questions:
    {"exact_match", "f1"} in percent, "questions" scored, and "skipped", the questions with any
    other number of answers (more than three too: the paper's figure is defined on three).
    With no question to score, exact_match and f1 are None rather than a misleading 0.
    """
    exact_total = f1_total = 0.0
    questions = skipped = 0
    for answers in answer_sets:
        if len(answers) != HUMAN_ANSWERS:
            skipped += 1
            continue
        exact, overlap = _leave_one_out([norm.tokens(answer) for answer in answers])
        exact_total += exact
        f1_total += overlap
        questions += 1
    if questions == 0:
        return {"exact_match": None, "f1": None, "questions": 0, "skipped": skipped}
    return {
        "exact_match": 100.0 * exact_total / questions,
        "f1": 100.0 * f1_total / questions,
        "questions": questions,
        "skipped": skipped,
    }


def leave_one_out(
    answers: Sequence[str], norm: Normalization = FQUAD_FR
) -> list[tuple[float, float]]:
    """Return, for each answer in turn, its (EM, F1) as the prediction against all the others.

    Values are 0 or 1 for EM and in [0, 1] for F1 (not percent): the per-answer figures that
    human performance averages, kept apart so they can be grouped by annotator.
    """
    if len(answers) < 2:
        raise ValueError("leave-one-out needs at least two answers")
    tokens = [norm.tokens(answer) for answer in answers]
    return [
        _best_scores(predicted, [*tokens[:i], *tokens[i + 1 :]])
        for i, predicted in enumerate(tokens)
    ]


def _leave_one_out(answers: Sequence[list[str]]) -> tuple[float, float]:
    """Return the mean best EM and F1 of each tokenized answer against all the others."""
    exact_total = f1_total = 0.0
    for i, predicted in enumerate(answers):
        exact, overlap = _best_scores(predicted, [*answers[:i], *answers[i + 1 :]])
        exact_total += exact
        f1_total += overlap
    return exact_total / len(answers), f1_total / len(answers)


def _best_scores(predicted: list[str], truths: Sequence[list[str]]) -> tuple[float, float]:
    """Return the best exact match and the best F1 of tokenized answers.

    What best_over(exact_match, …) and best_over(f1, …) give, with each answer normalized once
    instead of once per pair and metric: equal token lists are equal normalized texts, since
    the normalized text is the tokens joined by spaces and no token holds a space.
    """
    exact = overlap = 0.0
    for expected in truths:
        if predicted == expected:
            exact = 1.0
        value = _tokens_f1(predicted, expected)
        if value > overlap:
            overlap = value
    return exact, overlap


def _tokens_f1(predicted: list[str], expected: list[str]) -> float:
    """Return the F1 of two token lists, with the official script's arithmetic.

    The shared tokens are counted as the official script's ``Counter(...) & Counter(...)``
    does (the size of the multiset intersection), with a plain dict: building three Counters
    per pair was half the time of ``score``. Equal non-empty lists give exactly 1.0, as the
    formula does (P = R = 1.0, 2·1·1 / 2).
    """
    if not predicted or not expected:
        return 0.0
    if predicted == expected:
        return 1.0
    remaining: dict[str, int] = {}
    for token in predicted:
        remaining[token] = remaining.get(token, 0) + 1
    common = 0
    for token in expected:
        left = remaining.get(token)
        if left:
            remaining[token] = left - 1
            common += 1
    if common == 0:
        return 0.0
    # Kept step by step so results agree with the official script to the last binary digit
    # (2 * common / (len(predicted) + len(expected)) is equal in theory, not always in floats).
    precision = common / len(predicted)
    recall = common / len(expected)
    return (2 * precision * recall) / (precision + recall)


# SQuAD v2.0


def score_v2(
    dataset: Mapping[str, Sequence[str]],
    predictions: Mapping[str, str],
    na_probs: Mapping[str, float] | None = None,
    norm: Normalization = SQUAD_EN,
    na_prob_thresh: float = 1.0,
) -> dict:
    """Score predictions the SQuAD v2.0 way, as the official ``evaluate-v2.0.py`` computes it.

    dataset: {question id: gold answer texts}; [] (or only answers that normalize to "") is a
    question whose only right answer is "" (no answer). predictions: {id: text}, "" = no answer.
    na_probs: {id: probability that the question has no answer}, optional.

    Returns, in percent, "exact", "f1", "total", then "HasAns_exact", "HasAns_f1",
    "HasAns_total" and "NoAns_exact", "NoAns_f1", "NoAns_total" (each group only when it has
    questions; HasAns = a non-empty gold list, as the official make_qid_to_has_ans), and with
    na_probs "best_exact", "best_exact_thresh", "best_f1", "best_f1_thresh"; plus our
    "missing", the questions without a prediction.

    The official rules: the gold answers are those whose normalized text is not empty, else
    [""]; EM is the equality of the normalized texts; F1 is 1 when both sides have no token,
    0 when only one has none, else the v1.1 F1; a question whose na_prob is above
    na_prob_thresh is taken as answered "" (scores 1 when unanswerable, else 0);
    best_* sweep the thresholds in the order of the sorted na_probs (official
    find_best_thresh). Where we differ, the official script crashing or miscounting: a missing
    prediction scores 0 everywhere and counts in every total (the official drops it from the
    total, then fails on HasAns/NoAns). Raise ValueError for an empty dataset, or na_probs
    without a question that has a prediction.
    """
    if not dataset:
        raise ValueError("the dataset has no questions to score")
    exact_raw: dict[str, float] = {}
    f1_raw: dict[str, float] = {}
    has_ans: dict[str, bool] = {}
    for question_id, truths in dataset.items():
        has_ans[question_id] = bool(truths)
        prediction = predictions.get(question_id)
        if prediction is None:
            continue
        gold = _gold_tokens_v2(truths, norm)
        exact_raw[question_id], f1_raw[question_id] = _best_scores_v2(norm.tokens(prediction), gold)
    if na_probs is not None:
        absent = [question_id for question_id in exact_raw if question_id not in na_probs]
        if absent:
            raise ValueError(
                f"na_probs has no probability for {len(absent)} question(s) with a "
                f"prediction, e.g. {absent[0]!r}"
            )
    exact_final, f1_final = exact_raw, f1_raw
    if na_probs is not None or na_prob_thresh < 0.0:
        # The official script gives every question the na_prob 0.0 without an na_prob file
        exact_final, f1_final = {}, {}
        for question_id, exact in exact_raw.items():
            probability = na_probs[question_id] if na_probs is not None else 0.0
            if probability > na_prob_thresh:
                exact_final[question_id] = f1_final[question_id] = float(not has_ans[question_id])
            else:
                exact_final[question_id] = exact
                f1_final[question_id] = f1_raw[question_id]
    result = _eval_dict(dataset, exact_final, f1_final, "")
    answerable = [question_id for question_id, has in has_ans.items() if has]
    unanswerable = [question_id for question_id, has in has_ans.items() if not has]
    if answerable:
        result |= _eval_dict(answerable, exact_final, f1_final, "HasAns_")
    if unanswerable:
        result |= _eval_dict(unanswerable, exact_final, f1_final, "NoAns_")
    if na_probs is not None:
        total = len(dataset)
        result["best_exact"], result["best_exact_thresh"] = _best_threshold(
            predictions, exact_raw, na_probs, has_ans, total
        )
        result["best_f1"], result["best_f1_thresh"] = _best_threshold(
            predictions, f1_raw, na_probs, has_ans, total
        )
    result["missing"] = len(dataset) - len(exact_raw)
    return result


def _eval_dict(question_ids, exact: dict, overlap: dict, prefix: str) -> dict:
    """Return {prefix+exact, prefix+f1, prefix+total}: the official make_eval_dict.

    sum() over the questions in dataset order, as the official script sums, so that the
    figures are the official ones to the last bit; a missing question adds 0.
    """
    total = len(question_ids)
    return {
        f"{prefix}exact": 100.0 * sum(exact.get(key, 0.0) for key in question_ids) / total,
        f"{prefix}f1": 100.0 * sum(overlap.get(key, 0.0) for key in question_ids) / total,
        f"{prefix}total": total,
    }


def _best_threshold(
    predictions: Mapping[str, str],
    scores: Mapping[str, float],
    na_probs: Mapping[str, float],
    has_ans: Mapping[str, bool],
    total: int,
) -> tuple[float, float]:
    """Return the best score over the no-answer thresholds and the threshold giving it.

    The official find_best_thresh: start with every question answered "" (the unanswerable
    ones right), then take the questions by increasing na_prob (ties in na_probs' order, as a
    stable sort leaves them) and answer each: an answerable one gains its score, an
    unanswerable one loses 1 if its prediction is not the empty string (the raw string, as
    the official script tests it). The first strictly best running score wins; 0.0 is the
    threshold when answering nothing is best. Questions without a prediction are not swept
    and score 0 (the official script counts its unanswerable ones right at the start).
    """
    current = sum(1 for key in scores if not has_ans[key])
    best, best_thresh = current, 0.0
    for key in sorted((key for key in na_probs if key in scores), key=na_probs.__getitem__):
        if has_ans[key]:
            current += scores[key]
        elif predictions[key]:
            current += -1
        if current > best:
            best, best_thresh = current, na_probs[key]
    return 100.0 * best / total, best_thresh


def _gold_tokens_v2(truths: Sequence[str], norm: Normalization) -> list[list[str]]:
    """The truths with a token once normalized; none (unanswerable): the empty answer alone."""
    return [tokens for truth in truths if (tokens := norm.tokens(truth))] or [[]]


def f1_v2(prediction: str, truths: Sequence[str], norm: Normalization = SQUAD_EN) -> float:
    """Return the SQuAD v2.0 F1 (0 to 1) of one prediction ("" = no answer) against its truths
    ([] = unanswerable): the best over them, as `score_v2` counts it."""
    return _best_scores_v2(norm.tokens(prediction), _gold_tokens_v2(truths, norm))[1]


def _best_scores_v2(predicted: list[str], truths: Sequence[list[str]]) -> tuple[float, float]:
    """Return the best EM and the best v2.0 F1 of tokenized answers (truths never empty).

    v2.0's F1: when either side has no token, 1.0 if both have none, else 0.0.
    """
    overlap = 0.0
    for expected in truths:
        if predicted == expected:  # EM 1, and F1 1 (both empty, or the same tokens)
            return 1.0, 1.0
        if predicted and expected:
            value = _tokens_f1(predicted, expected)
            if value > overlap:
                overlap = value
    return 0.0, overlap


def leave_one_out_v2(
    answers: Sequence[str], norm: Normalization = FQUAD_FR
) -> list[tuple[float, float]]:
    """Return, for each judgment in turn, its (EM, F1) against the others with v2.0's rules.

    A judgment is an answer text, or "" for "no answer". The others are the gold: those with a
    token once normalized, else [""] (SQuAD 2.0's human performance). Values in [0, 1].
    """
    if len(answers) < 2:
        raise ValueError("leave-one-out needs at least two answers")
    tokens = [norm.tokens(answer) for answer in answers]
    return [
        _best_scores_v2(predicted, [t for t in (*tokens[:i], *tokens[i + 1 :]) if t] or [[]])
        for i, predicted in enumerate(tokens)
    ]


def no_answer_classification(
    dataset: Mapping[str, Sequence[str]],
    predictions: Mapping[str, str],
    norm: Normalization = SQUAD_EN,
) -> dict:
    """Return how well predictions tell answerable from unanswerable questions (FQuAD 2.0).

    The positive class is "unanswerable": a question is unanswerable when none of its gold
    answers has a token once normalized (an empty list included), a prediction says "no
    answer" when it has no token (""), exactly the cases v2.0's EM scores as "no answer".
    Returns "precision", "recall" and "f1" in percent (None where 0/0: no predicted, no gold
    or no positive at all), the four counts, and "missing", the questions without a
    prediction, which are left out of the counts. F1 is 2·TP / (2·TP + FP + FN), equal to
    2PR / (P + R) and 0 (not None) when there are positives but none found.
    """
    true_positives = false_positives = false_negatives = true_negatives = missing = 0
    for question_id, truths in dataset.items():
        prediction = predictions.get(question_id)
        if prediction is None:
            missing += 1
            continue
        unanswerable = not any(norm.tokens(truth) for truth in truths)
        says_no_answer = not norm.tokens(prediction)
        if unanswerable and says_no_answer:
            true_positives += 1
        elif says_no_answer:
            false_positives += 1
        elif unanswerable:
            false_negatives += 1
        else:
            true_negatives += 1
    predicted = true_positives + false_positives
    actual = true_positives + false_negatives
    both = 2 * true_positives + false_positives + false_negatives
    return {
        "precision": 100.0 * true_positives / predicted if predicted else None,
        "recall": 100.0 * true_positives / actual if actual else None,
        "f1": 100.0 * 2 * true_positives / both if both else None,
        "true_positives": true_positives,
        "false_positives": false_positives,
        "false_negatives": false_negatives,
        "true_negatives": true_negatives,
        "missing": missing,
    }
