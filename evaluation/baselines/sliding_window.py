"""The SQuAD paper's sliding-window baseline, as its authors describe it.

Rajpurkar et al. ("SQuAD: 100,000+ Questions for Machine Comprehension of Text", EMNLP 2016,
section 5, "Sliding Window Baseline") report 13.3 % EM and 20.2 % F1 on SQuAD v1.1's English
development set (20.0 F1 with the distance-based variant). No training, no model: the floor
that baseline runs of kind `lexical` report. (`lexical.py` is the quicker model that answers
annotators in the loop; docs/baselines.md says how the two differ.) The recipe, and what we
do at each step:

1. Candidates. SQuAD took the constituents of a CoreNLP parse (77.3 % of its dev answers are
   one). We have no parser for every language, so a candidate is a run of 1 to `max_tokens`
   tokens inside one sentence that crosses no comma, colon, semicolon, bracket, quote or
   dash (constituents seldom do), neither starts nor ends with a stop word, and is not made
   only of question words. With 4 tokens, 78.7 % of XQuAD's English answers and 61.4 % of
   PIAF's are a candidate (normalized texts equal), near the paper's ceiling for English.
2. Overlap. "For each candidate answer, we compute the unigram/bigram overlap between the
   sentence containing it (excluding the candidate itself) and the question. We keep all the
   candidates that have the maximal overlap." The overlap is the number of distinct question
   unigrams plus distinct question bigrams (lower-cased, stop words included: the paper
   leaves none out) found in the sentence once the candidate is cut out of it (the words
   left and right of the cut do not make a bigram).
3. The sliding window of Richardson et al. ("MCTest: A Challenge Dataset for the Open-Domain
   Machine Comprehension of Text", EMNLP 2013, Algorithm 1) picks among those: S is the set
   of the question's and the candidate's words, and windows of |S| tokens slide over the
   candidate's sentence (SQuAD used the sentence, not the passage, "for efficiency"); a
   window scores the sum, over its tokens that are in S, of the inverse count
   log(1 + 1/C(w)), C(w) being the count of w in the whole context. The best window is the
   window score.
4. The distance-based variant (Richardson's Algorithm 2), which SQuAD ran too, subtracts
   d = the fewest tokens between a question word and a candidate word in the sentence
   (neither a stop word; the candidate's words less the question's), divided by the
   sentence's length less one; d = 1 when either side has no such word.

The highest window score less d wins; ties go to the shorter span, then the earlier one.

Stop words are the language's (French or English lists); a context whose language is not
given is taken as French or English by which list's own words it holds more of, and as
neither (no stop words) when it holds none of them.

On a SQuAD v2.0 release a run may say "no answer": `predict_all_scored` gives each span the
weight of the question's words in its best window (the span's own words left out), and the
run answers "" where it is below a bar learnt on dev (`evaluation.baselines.no_answer`,
docs/baselines-v2.md); an off-topic question scores 0.
"""

from __future__ import annotations

import bisect
import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from evaluation.baselines import lexical
from evaluation.baselines.lexical import _SENTENCE_END, _TOKEN

MAX_TOKENS = 4


# Between two tokens of a candidate: no comma, colon, semicolon, bracket, quote or dash.
_BREAK = re.compile(r"[,;:()\[\]{}«»\"“”]|\s[-–—]\s")

FRENCH_STOP_WORDS = lexical.STOP_WORDS
ENGLISH_STOP_WORDS = frozenset(
    """
    a about after all also an and any are as at be been before being between both but by can
    could did do does during each for from had has have he her his how i if in into is it its
    may me might more most my no not of on one or other our out over she should so some such
    than that the their them then there these they this those through to under up us was we
    were what when where which while who whom whose why will with would you your
    """.split()  # noqa: SIM905
)
STOP_WORDS = {"fr": FRENCH_STOP_WORDS, "en": ENGLISH_STOP_WORDS}
# The words that tell the two languages apart ("a", "on", "as" are in both lists).
_FRENCH_ONLY = FRENCH_STOP_WORDS - ENGLISH_STOP_WORDS
_ENGLISH_ONLY = ENGLISH_STOP_WORDS - FRENCH_STOP_WORDS


def guess_language(words: Iterable[str]) -> str:
    """Return "fr" or "en" by which list's own stop words the words hold more of ("" if none).

    A tie goes to French, the platform's first language.
    """
    french = english = 0
    for word in words:
        french += word in _FRENCH_ONLY
        english += word in _ENGLISH_ONLY
    if not french and not english:
        return ""
    return "en" if english > french else "fr"


@dataclass(frozen=True, slots=True)
class Candidate:
    """A span of tokens [first, stop) in the sentence `sentence`, and its distinct words."""

    first: int
    stop: int
    sentence: int
    words: frozenset[str]


class Passage:
    """A context cut into tokens and sentences once, with what every question on it reuses."""

    def __init__(
        self, context: str, max_tokens: int = MAX_TOKENS, language: str | None = None
    ) -> None:
        matches = list(_TOKEN.finditer(context))
        self.context = context
        self.words = [match.group().lower() for match in matches]
        self.starts = [match.start() for match in matches]
        self.ends = [match.end() for match in matches]
        if language is None:
            language = guess_language(self.words)
        self.language = language
        self.stop_words = STOP_WORDS.get(language.split("-")[0].lower(), frozenset())
        counts = Counter(self.words)
        # Richardson's inverse count: a word seen once weighs log 2, a frequent one little.
        self.weights = [math.log(1 + 1 / counts[word]) for word in self.words]
        self.positions: dict[str, list[int]] = {}
        for index, word in enumerate(self.words):
            self.positions.setdefault(word, []).append(index)
        self.sentences = self._sentences()
        self.candidates = self._candidates(max_tokens)

    def _sentences(self) -> list[tuple[int, int]]:
        """Return each sentence's tokens [first, stop), from the text between two tokens."""
        bounds, first = [], 0
        for index in range(1, len(self.words)):
            if _SENTENCE_END.search(self.context, self.ends[index - 1], self.starts[index]):
                bounds.append((first, index))
                first = index
        if self.words:
            bounds.append((first, len(self.words)))
        return bounds

    def _candidates(self, max_tokens: int) -> list[Candidate]:
        """List the spans of 1 to max_tokens tokens inside a sentence, with no stop word edge."""
        candidates, stop_words = [], self.stop_words
        for number, (begin, end) in enumerate(self.sentences):
            for first in range(begin, end):
                if self.words[first] in stop_words:
                    continue
                for stop in range(first + 1, min(first + max_tokens, end) + 1):
                    if stop - 1 > first and _BREAK.search(
                        self.context, self.ends[stop - 2], self.starts[stop - 1]
                    ):
                        break
                    if self.words[stop - 1] not in stop_words:
                        words = frozenset(self.words[first:stop])
                        candidates.append(Candidate(first, stop, number, words))
        return candidates

    def text(self, candidate: Candidate) -> str:
        """Return the candidate's exact text in the context, from its first to its last token."""
        return self.context[self.starts[candidate.first] : self.ends[candidate.stop - 1]]


class _Scorer:
    """Score the candidates of one passage against one question."""

    def __init__(self, passage: Passage, question: str) -> None:
        self.passage = passage
        tokens = [match.group().lower() for match in _TOKEN.finditer(question)]
        self.question_words = frozenset(tokens)
        self.bigrams = frozenset(zip(tokens, tokens[1:], strict=False))
        words = passage.words
        # Question words, by position; the distance variant's leave the stop words out.
        self.matches = [word in self.question_words for word in words]
        self.content = [
            match and word not in passage.stop_words
            for word, match in zip(words, self.matches, strict=True)
        ]
        self.prefix = [0.0]
        for weight, match in zip(passage.weights, self.matches, strict=True):
            self.prefix.append(self.prefix[-1] + (weight if match else 0.0))
        self.hits: dict[int, frozenset[int]] = {}
        self.sums: dict[tuple[int, int], list[float]] = {}

    def overlap(self, candidate: Candidate) -> int:
        """Return the distinct question unigrams and bigrams of the sentence, candidate cut out."""
        words, first, stop = self.passage.words, candidate.first, candidate.stop
        hits = self._hits(candidate.sentence)
        unigrams = {words[i] for i in hits if not first <= i < stop}
        # a bigram lies left of the cut (i + 1 < first) or right of it (i >= stop)
        bigrams = {
            (words[i], words[i + 1]) for i in hits if (i + 1 < first or i >= stop) and i + 1 in hits
        } & self.bigrams
        return len(unigrams) + len(bigrams)

    def _hits(self, sentence: int) -> frozenset[int]:
        """Return the positions of the sentence's question words (computed once a sentence)."""
        hits = self.hits.get(sentence)
        if hits is None:
            begin, end = self.passage.sentences[sentence]
            hits = frozenset(i for i in range(begin, end) if self.matches[i])
            self.hits[sentence] = hits
        return hits

    def window_score(self, candidate: Candidate) -> tuple[float, float]:
        """Return the best window of |Q ∪ A| tokens in the candidate's sentence (Algorithm 1):
        its weight, and the part of it that its question words make (the first best window).

        The answer's own words are few: between the starts where a window takes one in or
        lets one go, the answer's part is constant, and the best window there is the one
        with the most question weight (a max over the cached question sums of that width).
        """
        passage = self.passage
        begin, end = passage.sentences[candidate.sentence]
        answer_only = candidate.words - self.question_words
        width = len(self.question_words | candidate.words)
        sums = self._window_sums(candidate.sentence, width)
        count = len(sums)
        at = self._positions(answer_only, begin, end)
        cuts = {0, count}
        for position, _weight in at:
            cuts.add(min(count, max(0, position - width + 1 - begin)))
            cuts.add(min(count, max(0, position + 1 - begin)))
        best = question_part = 0.0
        edges = sorted(cuts)
        for low, high in zip(edges, edges[1:], strict=False):
            first = begin + low
            answer = sum(weight for position, weight in at if first <= position < first + width)
            question = max(sums[low:high])
            if question + answer > best + 1e-9:
                best, question_part = question + answer, question
        # Rounded so that equal sums reached by different float additions tie exactly.
        return round(best, 9), round(question_part, 9)

    def _window_sums(self, sentence: int, width: int) -> list[float]:
        """Return the question weight of each window of `width` tokens of the sentence, by its
        first token (one window, the sentence, when it is shorter); cached."""
        sums = self.sums.get((sentence, width))
        if sums is None:
            begin, end = self.passage.sentences[sentence]
            prefix = self.prefix
            if width >= end - begin:
                sums = [prefix[end] - prefix[begin]]
            else:
                sums = [prefix[i + width] - prefix[i] for i in range(begin, end - width + 1)]
            self.sums[(sentence, width)] = sums
        return sums

    def _positions(self, words: frozenset[str], begin: int, end: int) -> list[tuple[int, float]]:
        """Return (position, weight) of the words' occurrences in [begin, end), in order."""
        passage, found = self.passage, []
        for word in words:
            positions = passage.positions.get(word, ())
            low = bisect.bisect_left(positions, begin)
            high = bisect.bisect_left(positions, end)
            found.extend((i, passage.weights[i]) for i in positions[low:high])
        return sorted(found)

    def distance(self, candidate: Candidate) -> float:
        """Return Richardson's d (Algorithm 2) in the candidate's sentence, from 0 to 1."""
        passage = self.passage
        begin, end = passage.sentences[candidate.sentence]
        if end - begin < 2:
            return 1.0
        answer_words = candidate.words - self.question_words - passage.stop_words
        answer_at = [i for i, _weight in self._positions(answer_words, begin, end)]
        question_at = [
            i
            for i in self._hits(candidate.sentence)
            if self.content[i] and not candidate.first <= i < candidate.stop
        ]
        if not question_at or not answer_at:
            return 1.0
        nearest = min(abs(q - a) for q in question_at for a in answer_at)
        return nearest / (end - begin - 1)


def predict_passage(passage: Passage, question: str) -> str:
    """Return the best candidate of an analysed passage for the question ("" if none)."""
    return predict_passage_scored(passage, question)[0]


def predict_passage_scored(passage: Passage, question: str) -> tuple[str, float]:
    """Return the best candidate of an analysed passage and the weight of the question's words
    in its best window ("", 0.0 if none).

    That weight is what a SQuAD v2.0 run compares with its no-answer threshold: a span whose
    sentence holds few of the question's words is more likely not the answer.
    """
    best, question_weight = _best_candidate(passage, question)
    if best is None:
        return "", 0.0
    return passage.text(best), question_weight


def predict_passage_span(passage: Passage, question: str) -> tuple[str, int | None]:
    """`predict_passage`'s text and where it starts in the context (`lexical.candidate_span`)."""
    best, _window = _best_candidate(passage, question)
    return lexical.candidate_span(passage, best)


def _best_candidate(passage: Passage, question: str) -> tuple[Candidate | None, float]:
    """Return the passage's best candidate for the question and the weight of the question's
    words in its best window (None, 0.0 when there is no candidate)."""
    scorer = _Scorer(passage, question)
    kept, most = [], -1
    for candidate in passage.candidates:
        if candidate.words <= scorer.question_words:
            continue  # it only repeats the question
        overlap = scorer.overlap(candidate)
        if overlap > most:
            kept, most = [candidate], overlap
        elif overlap == most:
            kept.append(candidate)
    best, best_key, best_question = None, None, 0.0
    for candidate in kept:
        window, question = scorer.window_score(candidate)
        score = round(window - scorer.distance(candidate), 9)
        key = (score, candidate.first - candidate.stop)  # then shorter
        if best_key is None or key > best_key:  # strictly better: the earlier span wins ties
            best, best_key, best_question = candidate, key, question
    return best, best_question


def predict(
    context: str, question: str, *, max_tokens: int = MAX_TOKENS, language: str | None = None
) -> str:
    """Return the span of the context that the sliding window picks for the question.

    The result is an exact substring of the context (from its first token's first character
    to its last token's last), or "" when the context has no candidate at all.
    """
    return predict_passage(Passage(context, max_tokens, language), question)


def predict_all(
    examples: Iterable[Mapping[str, str]],
    *,
    max_tokens: int = MAX_TOKENS,
    language: str | None = None,
) -> dict[str, str]:
    """Return {id: predicted answer} for HF-style examples with id, context and question.

    A context is analysed once for the run of consecutive examples that share it, as the
    SQuAD, HF and MRQA exports order them.
    """
    scored = predict_all_scored(examples, max_tokens=max_tokens, language=language)
    return {qid: text for qid, (text, _score) in scored.items()}


def predict_all_scored(
    examples: Iterable[Mapping[str, str]],
    *,
    max_tokens: int = MAX_TOKENS,
    language: str | None = None,
) -> dict[str, tuple[str, float]]:
    """Return {id: (predicted answer, its question weight)} for HF-style examples (see
    predict_all and predict_passage_scored)."""
    predictions: dict[str, tuple[str, float]] = {}
    passage: Passage | None = None
    for example in examples:
        if passage is None or passage.context != example["context"]:
            passage = Passage(example["context"], max_tokens, language)
        predictions[example["id"]] = predict_passage_scored(passage, example["question"])
    return predictions
