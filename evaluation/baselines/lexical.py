"""A sliding-window baseline: pick the context span whose surroundings best match the question.

The sliding window is Richardson et al.'s ("MCTest: A Challenge Dataset for the Open-Domain
Machine Comprehension of Text", EMNLP 2013, Algorithm 1), used for span selection the way
Rajpurkar et al. did for SQuAD ("SQuAD: 100,000+ Questions for Machine Comprehension of Text",
EMNLP 2016, section 5, "Sliding Window Baseline"), whose figures were about 13 % EM and 20 % F1
on English. No training, no model: a floor every learned baseline must clear.

Candidates are spans of 1 to `max_tokens` context tokens that stay inside one sentence, neither
start nor end with a stop word, and are not made only of question words. The stop-word edges
are stricter than "not only stop words": annotators select the smallest span, and FQuAD's
normalization drops the articles anyway; on PIAF v1.0 the rule raises EM from 2.7 to 3.6 and
halves the time, for a tenth of a point of F1.

Each candidate is scored with Richardson's sliding window adapted to a span: S is the set of
question content words and candidate words, and windows of |S| tokens that contain the
candidate are slid over it; a window scores the sum, over its tokens outside the candidate
that are question content words, of the inverse-count weight log(1 + 1/C(w)), C(w) being the
count of w in the context. Richardson's S counts answer words too; we leave the candidate's own
tokens out of the sum, as SQuAD's baseline compared the question with a candidate's sentence
"excluding the candidate itself", else a span would score by repeating the question. The best
window is the score.

Ties, frequent between nested spans, go to Richardson's distance-based variant (Algorithm 2:
the fewer tokens between the candidate and the nearest question word, the better), then to the
shorter span, then to the earlier one.

On a SQuAD v2.0 release the baseline may say "no answer": `predict_all_scored` gives each
span its window score, and a run answers "" where the score is below a bar learnt on dev
(`evaluation.baselines.no_answer`, docs/baselines-v2.md); an off-topic question scores 0.

Tokens are lower-cased words and numbers from a regular expression; the French stop words are
the small fixed list below. Nothing is rescanned: a context's tokens, sentences, weights and
candidates are computed once for all its questions; per question, the window sums of each
width come from one prefix sum, and a candidate costs a max over a slice of them.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

MAX_TOKENS = 5

_TOKEN = re.compile(r"\d+(?:[.,]\d+)*|[^\W\d_]+")
# Between two tokens, a sentence ends at . ! ? or … followed (maybe after quotes or brackets)
# by a space, or at a line break; "J.-C." and "14,2" do not end one, "M. Dupont" does.
_SENTENCE_END = re.compile(r"[.!?…]\W*\s|\n")

STOP_WORDS = frozenset(
    """
    a à afin ai ait alors après as au aux avait avant avec c ce ceci cela celle celles celui ces
    cet cette ceux chaque combien comme comment d dans de des donc dont du elle elles en est et
    été être eu fut il ils j je l la le les leur leurs lors lui m ma mais me même mes moi mon n
    ne ni nous on ont ou où par pas pendant peut plus pour pourquoi qu quand que quel quelle
    quelles quels qui quoi s sa sans se ses si son sont sous sur t ta te tes toi ton tous tout
    toute toutes tu un une vers vos votre vous y
    """.split()  # noqa: SIM905 (a word list reads better as text than as quoted literals)
)


@dataclass(frozen=True, slots=True)
class Candidate:
    """A span of tokens [first, stop) and the distinct words it holds."""

    first: int
    stop: int
    words: frozenset[str]


class Passage:
    """A context cut into tokens once, with what every question on it reuses."""

    def __init__(self, context: str, max_tokens: int = MAX_TOKENS) -> None:
        matches = list(_TOKEN.finditer(context))
        self.context = context
        self.words = [match.group().lower() for match in matches]
        self.starts = [match.start() for match in matches]
        self.ends = [match.end() for match in matches]
        counts = Counter(self.words)
        # Richardson's inverse count: a word seen once weighs log 2, a frequent one little.
        self.weights = [math.log(1 + 1 / counts[word]) for word in self.words]
        self.candidates = self._candidates(self._sentence_ids(), max_tokens)

    def _sentence_ids(self) -> list[int]:
        """Number each token by its sentence, from the text between consecutive tokens."""
        ids, current = [], 0
        for index, start in enumerate(self.starts):
            if index and _SENTENCE_END.search(self.context, self.ends[index - 1], start):
                current += 1
            ids.append(current)
        return ids

    def _candidates(self, sentences: list[int], max_tokens: int) -> list[Candidate]:
        """List the spans of 1 to max_tokens tokens inside a sentence, with no stop word edge."""
        candidates = []
        for first, word in enumerate(self.words):
            if word in STOP_WORDS:
                continue
            for stop in range(first + 1, min(first + max_tokens, len(self.words)) + 1):
                if sentences[stop - 1] != sentences[first]:
                    break
                if self.words[stop - 1] not in STOP_WORDS:
                    candidates.append(Candidate(first, stop, frozenset(self.words[first:stop])))
        return candidates

    def text(self, candidate: Candidate) -> str:
        """Return the candidate's exact text in the context, from its first to its last token."""
        return self.context[self.starts[candidate.first] : self.ends[candidate.stop - 1]]


class _Scorer:
    """Score the candidates of one passage against one question."""

    def __init__(self, passage: Passage, question: str) -> None:
        self.question_words = {match.group().lower() for match in _TOKEN.finditer(question)}
        self.content = self.question_words - STOP_WORDS
        weights = [
            weight if word in self.content else 0.0
            for word, weight in zip(passage.words, passage.weights, strict=True)
        ]
        self.prefix = [0.0]
        for weight in weights:
            self.prefix.append(self.prefix[-1] + weight)
        self.size = len(weights)
        self.windows: dict[int, list[float]] = {}
        self.previous, self.following = _nearest_matches(weights)

    def key(self, candidate: Candidate) -> tuple[float, int, int] | None:
        """Return the candidate's rank key (higher is better), or None if it only repeats Q."""
        if candidate.words <= self.question_words:
            return None
        length = candidate.stop - candidate.first
        return (self.window_score(candidate), -self.distance(candidate), -length)

    def window_score(self, candidate: Candidate) -> float:
        """Return the best sliding-window weight around the candidate, outside it."""
        first, stop = candidate.first, candidate.stop
        width = len(self.content) + len(candidate.words - self.content)  # |Q ∪ A|
        inside = self.prefix[stop] - self.prefix[first]
        if width >= self.size:
            best = self.prefix[self.size]
        elif width <= stop - first:
            best = inside  # no window of |S| tokens holds more than the candidate itself
        else:
            sums = self._window_sums(width)
            best = max(sums[max(0, stop - width) : min(first, self.size - width) + 1])
        # Rounded so that equal sums reached by different float additions tie exactly.
        return round(best - inside, 9)

    def _window_sums(self, width: int) -> list[float]:
        """Return the weight of every window of `width` tokens, by its first token (cached)."""
        sums = self.windows.get(width)
        if sums is None:
            prefix = self.prefix
            sums = [prefix[i + width] - prefix[i] for i in range(self.size - width + 1)]
            self.windows[width] = sums
        return sums

    def distance(self, candidate: Candidate) -> int:
        """Return the tokens from the candidate to the nearest question word outside it."""
        before = self.previous[candidate.first]
        after = self.following[candidate.stop]
        nearest = self.size + 1  # no question word at all: farther than any real distance
        if before is not None:
            nearest = candidate.first - before
        if after is not None:
            nearest = min(nearest, after - candidate.stop + 1)
        return nearest


def _nearest_matches(weights: list[float]) -> tuple[list[int | None], list[int | None]]:
    """Return, for each position i, the last match before i and the first at or after i.

    A match is a token with a weight (a question content word); both lists have one more
    entry than tokens, so that a span's stop can index them.
    """
    previous: list[int | None] = [None] * (len(weights) + 1)
    following: list[int | None] = [None] * (len(weights) + 1)
    for index in range(1, len(weights) + 1):
        previous[index] = index - 1 if weights[index - 1] else previous[index - 1]
    for index in range(len(weights) - 1, -1, -1):
        following[index] = index if weights[index] else following[index + 1]
    return previous, following


def predict_passage(passage: Passage, question: str) -> str:
    """Return the best candidate of an analysed passage for the question ("" if none)."""
    return predict_passage_scored(passage, question)[0]


def predict_passage_scored(passage: Passage, question: str) -> tuple[str, float]:
    """Return the best candidate of an analysed passage and its window score ("", 0.0 if none).

    The score (the best window's weight of question words around the span, outside it) is
    what a SQuAD v2.0 run compares with its no-answer threshold: a span whose surroundings
    hold few of the question's words is more likely not the answer.
    """
    best, best_key = _best_candidate(passage, question)
    if best is None:
        return "", 0.0
    return passage.text(best), best_key[0]


def predict_passage_span(passage: Passage, question: str) -> tuple[str, int | None]:
    """Return the best candidate of an analysed passage and where it starts ("", None if none).

    The text is `predict_passage`'s; the start is its first character's offset in the context
    (a Python string index), so that the page can highlight this very occurrence of it.
    """
    best, _key = _best_candidate(passage, question)
    return candidate_span(passage, best)


def candidate_span(passage, best) -> tuple[str, int | None]:
    """Return a chosen candidate's text and its first character's offset ("", None for none).

    Shared with `sliding_window`, whose passages and candidates have the same `text`,
    `starts` and `first`."""
    if best is None:
        return "", None
    return passage.text(best), passage.starts[best.first]


def _best_candidate(
    passage: Passage, question: str
) -> tuple[Candidate | None, tuple[float, int, int] | None]:
    """Return the passage's best candidate for the question and its rank key (None, None)."""
    scorer = _Scorer(passage, question)
    best, best_key = None, None
    for candidate in passage.candidates:
        key = scorer.key(candidate)
        if key is not None and (best_key is None or key > best_key):
            best, best_key = candidate, key  # strictly better only: the earlier span wins ties
    return best, best_key


def predict(context: str, question: str, *, max_tokens: int = MAX_TOKENS) -> str:
    """Return the span of the context that the sliding window picks for the question.

    The result is an exact substring of the context (from its first token's first character
    to its last token's last), or "" when the context has no candidate at all.
    """
    return predict_passage(Passage(context, max_tokens), question)


def predict_all(
    examples: Iterable[Mapping[str, str]], *, max_tokens: int = MAX_TOKENS
) -> dict[str, str]:
    """Return {id: predicted answer} for HF-style examples with id, context and question.

    A context is analysed once for the run of consecutive examples that share it, as the
    SQuAD, HF and MRQA exports order them.
    """
    scored = predict_all_scored(examples, max_tokens=max_tokens)
    return {qid: text for qid, (text, _score) in scored.items()}


def predict_all_scored(
    examples: Iterable[Mapping[str, str]], *, max_tokens: int = MAX_TOKENS
) -> dict[str, tuple[str, float]]:
    """Return {id: (predicted answer, window score)} for HF-style examples (see predict_all)."""
    predictions: dict[str, tuple[str, float]] = {}
    passage: Passage | None = None
    for example in examples:
        if passage is None or passage.context != example["context"]:
            passage = Passage(example["context"], max_tokens)
        predictions[example["id"]] = predict_passage_scored(passage, example["question"])
    return predictions
