"""Many answers at once: the sentences that hold answers are parsed once, in batches,
in one or several processes, and each answer is typed in its paragraph."""

from __future__ import annotations

import bisect
import multiprocessing
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from evaluation.services.analysis.answer_types.classify import classify_answer
from evaluation.services.analysis.answer_types.kinds import AnswerType
from evaluation.services.analysis.answer_types.loading import BATCH_SIZE, load_french
from evaluation.services.analysis.answer_types.paragraph import CONTEXT
from evaluation.services.analysis.answer_types.tokens import NO_ENTITIES, EntitiesNeeded


@dataclass
class _Piece:
    """The sentences of one context that hold answers: parsed instead of the whole context.

    `offset` is where the text starts in the context, `context` the whole paragraph (the
    rules read the class nouns written before a name there: `doc.user_data[CONTEXT]`);
    `answers` are (item index, start, end)
    with offsets in the context; `capitalised` says whether an answer holds a capital letter
    (only then do the rules read entities).
    """

    text: str
    offset: int
    context: str = ""
    answers: list[tuple[int, int, int]] = field(default_factory=list)
    capitalised: bool = False


# A sentence ends at ".", "!", "?" or "…" (closing quotes or brackets may follow), then space,
# then a capital letter, a digit or an opening quote; not after an initial ("J. Verne") or
# one of these abbreviations.
_SENTENCE_END = re.compile(r"[.!?…](?:\s*[»\"”’)\]])*\s+(?=[«\"“(\[\-–—]?\s*[^\W_a-zà-ÿ])")
ABBREVIATIONS = frozenset(
    """av apr env cf p pp vol no n° st ste mgr dr mme mlle mm m op éd ed fig chap art
    t c ca""".split()  # noqa: SIM905
)


def sentence_starts(text: str) -> list[int]:
    """Return where each sentence of text starts (0 first), by cheap rules, not a parser.

    Good enough to choose what to parse: an answer's sentences are taken whole, and an
    answer across a wrong boundary takes both sides.
    """
    starts = [0]
    for match in _SENTENCE_END.finditer(text):
        before = text[: match.start()].rsplit(None, 1)
        word = before[-1].lower().lstrip('(«"“') if before else ""
        if len(word) == 1 and word.isalpha() or word in ABBREVIATIONS:
            continue
        starts.append(match.end())
    return starts


def _pieces(items: list[tuple[str, int, str]]) -> list[_Piece]:
    """Return the pieces to parse: per context, its sentences that hold answers, an answer's
    sentences (several when it crosses a boundary) joined, and pieces that share a sentence
    joined, in the order the contexts first come."""
    by_context: dict[str, list[int]] = {}
    for index, (context, _start, _text) in enumerate(items):
        by_context.setdefault(context, []).append(index)
    pieces = []
    for context, indexes in by_context.items():
        starts = sentence_starts(context)
        spans = []  # (first sentence, last sentence, index)
        for index in indexes:
            _, start, text = items[index]
            end = start + len(text)
            first = bisect.bisect_right(starts, start) - 1
            last = bisect.bisect_left(starts, end) - 1
            spans.append((first, last, index))
        spans.sort()
        groups: list[list] = []  # [first, last, indexes]
        for first, last, index in spans:
            if groups and first <= groups[-1][1]:
                groups[-1][1] = max(groups[-1][1], last)
                groups[-1][2].append(index)
            else:
                groups.append([first, last, [index]])
        for first, last, group in groups:
            begin = starts[first]
            stop = starts[last + 1] if last + 1 < len(starts) else len(context)
            piece = _Piece(context[begin:stop], begin, context)
            for index in sorted(group):
                _, start, text = items[index]
                piece.answers.append((index, start, start + len(text)))
                piece.capitalised |= _has_capital_text(text)
            pieces.append(piece)
    return pieces


def answer_types(
    items: Iterable[tuple[str, int, str]],
    nlp: Any = None,
    batch_size: int = BATCH_SIZE,
    n_process: int = 1,
) -> list[AnswerType]:
    """Return the type of each (context, answer_start, answer_text), in order.

    Only the sentences of a context that hold answers are parsed (`sentence_starts`: about
    four fifths of PIAF's text), each once, with nlp.pipe (the French pipeline by default);
    the entity recogniser runs only on those holding an answer with a capital letter (about
    half). Each parse is dropped once its answers are typed. With n_process > 1 the pieces
    are shared between forked processes that each parse and type their share and send back
    the types alone. Raise MisalignedAnswer (a ValueError naming the answer) when an
    answer's text is not at its offset; `answer_types_checked` refuses that answer alone.
    """
    items = list(items)
    for index, (context, start, text) in enumerate(items):
        _check_offset(context, start, text, index)
    nlp = load_french() if nlp is None else nlp
    pieces = _pieces(items)
    types: list[AnswerType] = [AnswerType.OTHER] * len(items)
    if n_process > 1 and len(pieces) > 1:
        shares = _shares(pieces, n_process)
        context = multiprocessing.get_context("fork")
        with context.Pool(len(shares), initializer=_worker_init, initargs=(nlp,)) as pool:
            typed = pool.starmap(_typed_share, [(share, batch_size) for share in shares])
        for share in typed:
            for index, kind in share:
                types[index] = AnswerType(kind)
        return types
    for index, kind in _typed(nlp, pieces, batch_size):
        types[index] = kind
    return types


def _shares(pieces: list[_Piece], n: int) -> list[list[_Piece]]:
    """Cut the pieces into at most n runs of about the same length of text."""
    total = sum(len(piece.text) for piece in pieces)
    shares: list[list[_Piece]] = [[]]
    done = 0
    for piece in pieces:
        if done >= total * len(shares) / n and len(shares) < n:
            shares.append([])
        shares[-1].append(piece)
        done += len(piece.text)
    return [share for share in shares if share]


_worker_nlp: Any = None


def _worker_init(nlp: Any) -> None:
    global _worker_nlp  # noqa: PLW0603 (one pipeline per forked worker)
    _worker_nlp = nlp


def _typed_share(pieces: list[_Piece], batch_size: int) -> list[tuple[int, str]]:
    return [(index, kind.value) for index, kind in _typed(_worker_nlp, pieces, batch_size)]


def _typed(nlp: Any, pieces: list[_Piece], batch_size: int) -> Iterator[tuple[int, AnswerType]]:
    """Parse the pieces and yield (item index, type) for each of their answers.

    The pieces are parsed without the entity recogniser (md's has its own tok2vec: as
    costly as the rest), and their answers typed; an answer whose rules read entities (a
    capitalised head, a name after a class noun) raises EntitiesNeeded, and its piece goes
    through the recogniser afterwards (on the parse already made), in batches, before its
    answers are typed again. A pipeline without "ner" (or a test double) parses every piece
    as it is.
    """
    texts = (piece.text for piece in pieces)
    if "ner" not in getattr(nlp, "pipe_names", ()):
        for piece, doc in zip(pieces, nlp.pipe(texts, batch_size=batch_size), strict=True):
            doc.user_data[CONTEXT] = (piece.context, piece.offset)
            for index, start, end in piece.answers:
                yield index, classify_answer(doc, start - piece.offset, end - piece.offset)
        return
    ner = nlp.get_pipe("ner")
    pending: list[tuple[_Piece, Any, list]] = []
    docs = nlp.pipe(texts, batch_size=batch_size, disable=["ner"])
    for piece, doc in zip(pieces, docs, strict=True):
        doc.user_data[NO_ENTITIES] = True
        doc.user_data[CONTEXT] = (piece.context, piece.offset)
        later = []
        for index, start, end in piece.answers:
            try:
                yield index, classify_answer(doc, start - piece.offset, end - piece.offset)
            except EntitiesNeeded:
                later.append((index, start, end))
        if later:
            pending.append((piece, doc, later))
        if len(pending) == batch_size:
            yield from _recognised(ner, pending, batch_size)
            pending = []
    yield from _recognised(ner, pending, batch_size)


def _recognised(ner: Any, pending: list, batch_size: int) -> Iterator[tuple[int, AnswerType]]:
    """Run the entity recogniser on the parsed pieces, then type their waiting answers."""
    for _piece, doc, _later in pending:
        del doc.user_data[NO_ENTITIES]
    docs = ner.pipe((doc for _piece, doc, _later in pending), batch_size=batch_size)
    for (piece, _doc, later), doc in zip(pending, docs, strict=True):
        for index, start, end in later:
            yield index, classify_answer(doc, start - piece.offset, end - piece.offset)


def _has_capital_text(text: str) -> bool:
    """Return whether a text holds an upper-case letter (only then do the rules read entities)."""
    return any(char.isupper() for char in text)


class MisalignedAnswer(ValueError):
    """An answer whose text is not at its offset in its context: it cannot be typed.

    `index` is its place in the batch; the message names it, its text, its offset and what
    the context holds there, so that the one answer can be found and repaired.
    """

    def __init__(self, index: int, context: str, start: int, text: str) -> None:
        self.index, self.start, self.text = index, start, text
        self.found = context[start : start + len(text)] if start >= 0 else ""
        super().__init__(
            f"answer {index} {text!r} is not at offset {start} of its context "
            f"(the context holds {self.found!r} there)"
        )


def _check_offset(context: str, start: int, text: str, index: int = 0) -> None:
    """Raise MisalignedAnswer unless text is non-empty and found at start in context."""
    if not text or start < 0 or context[start : start + len(text)] != text:
        raise MisalignedAnswer(index, context, start, text)


def answer_types_checked(
    items: Iterable[tuple[str, int, str]],
    nlp: Any = None,
    batch_size: int = BATCH_SIZE,
    n_process: int = 1,
) -> list[AnswerType | MisalignedAnswer]:
    """Return, in order, the type of each (context, answer_start, answer_text), or, for an
    answer whose text is not at its offset, a MisalignedAnswer naming it.

    One bad answer is refused alone: the others are typed as `answer_types` types them, in
    one batch.
    """
    items = list(items)
    refused: dict[int, MisalignedAnswer] = {}
    aligned = []
    for index, (context, start, text) in enumerate(items):
        try:
            _check_offset(context, start, text, index)
        except MisalignedAnswer as error:
            refused[index] = error
        else:
            aligned.append((context, start, text))
    types = iter(answer_types(aligned, nlp, batch_size, n_process) if aligned else [])
    return [refused[index] if index in refused else next(types) for index in range(len(items))]
