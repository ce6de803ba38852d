"""Tokens kept between exports: the MRQA writer's tokenizer, with a memory in the database.

spaCy's tokenizer is most of an MRQA export's work (about 0.6 s for the 7,000 contexts and
questions of FQuAD's dev split). Paragraphs and most questions do not change from one release
to the next, so `CachedTokenizer` looks each text up in `TokenCache` first (one query per
batch of texts, by key) and tokenizes only the texts it has not seen, storing theirs. The
tokens read back are exactly the tokenizer's (its tokens are slices of the text: spaCy never
changes the text), so a release's bytes do not depend on the cache.

`tokens_ahead` keeps them ahead of the exports: a periodic job (`exports.tasks`, every
`MRQA_TOKENS_AHEAD_SECONDS` by Celery beat) tokenizes the paragraphs and questions written
since its last pass (`TokenSweep`, by id), so that even a corpus's first MRQA export finds its
tokens kept. It loads spaCy only when there is something new.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Callable

from annotation.models import Question
from core.languages import find
from corpus.models import Article, Paragraph
from exports.formats.mrqa import TokensUnavailable, language_tokenizer, language_tokenizer_name
from exports.models import TokenCache, TokenSweep

Token = tuple[str, int]


def cache_key(name: str, text: str) -> str:
    return hashlib.sha256(f"{name}\0{text}".encode()).hexdigest()


def pack(tokens: list[Token]) -> bytes:
    values = [value for token, start in tokens for value in (start, len(token))]
    return struct.pack(f"<{len(values)}I", *values)


def unpack(text: str, spans: bytes) -> list[Token]:
    values = struct.unpack(f"<{len(spans) // 4}I", spans)
    starts, lengths = values[0::2], values[1::2]
    return [
        (text[start : start + length], start) for start, length in zip(starts, lengths, strict=True)
    ]


class CachedTokenizer:
    """`tokenize` (with its `name`) behind the cache: `many(texts)` and `__call__(text)`."""

    def __init__(self, tokenize: Callable[[str], list[Token]], name: str) -> None:
        self.tokenize, self.name = tokenize, name
        self._many = getattr(tokenize, "many", None) or (lambda texts: list(map(tokenize, texts)))

    def __call__(self, text: str) -> list[Token]:
        return self.many([text])[0]

    def many(self, texts: list[str]) -> list[list[Token]]:
        keys = [cache_key(self.name, text) for text in texts]
        found = {
            key: bytes(spans)
            for key, spans in TokenCache.objects.filter(key__in=set(keys)).values_list(
                "key", "spans"
            )
        }
        missing = {key: text for key, text in zip(keys, texts, strict=True) if key not in found}
        made: dict[str, list[Token]] = {}
        if missing:
            made = dict(zip(missing, self._many(list(missing.values())), strict=True))
            TokenCache.objects.bulk_create(
                [TokenCache(key=key, spans=pack(tokens)) for key, tokens in made.items()],
                ignore_conflicts=True,  # another export stored them meanwhile: the same tokens
            )
        return [
            made[key] if key in missing else unpack(text, found[key])
            for key, text in zip(keys, texts, strict=True)
        ]


SWEEP_BATCH = 2_000


def tokens_ahead(*, tokenize=None) -> dict[str, int]:
    """Keep the tokens of every paragraph and question written since the last pass; return
    how many of each were read. Safe to run twice at once (the same tokens, stored once).

    Each language's texts get its own tokenizer (core.languages, `Language.mrqa_tokens`) and
    its own sweep; a language without one, or whose install is missing, is left for the
    export to report. `tokenize` given: that tokenizer, on every text.
    """
    if tokenize is not None:
        return _sweep(tokenize.name, lambda: tokenize, Paragraph.objects, Question.objects)
    done = {"paragraphs": 0, "questions": 0}
    spoken = Article.objects.order_by().values_list("language", flat=True).distinct()
    variants: dict[str, list[str]] = {}
    for code in spoken:
        entry = find(code)
        if entry is not None and entry.mrqa_tokens is not None:
            variants.setdefault(entry.code, []).append(code)
    for base, codes in sorted(variants.items()):
        try:
            name = language_tokenizer_name(base)
        except TokensUnavailable:
            continue
        counts = _sweep(
            name,
            lambda base=base: language_tokenizer(base),  # imports spaCy
            Paragraph.objects.filter(article__language__in=codes),
            Question.objects.filter(paragraph__article__language__in=codes),
        )
        done = {key: done[key] + counts[key] for key in done}
    return done


def _sweep(name: str, load, paragraphs, questions) -> dict[str, int]:
    """Tokenize the texts of `paragraphs` and `questions` past the sweep of tokenizer `name`,
    loading it (`load()`) only when there is something new."""
    sweep, _created = TokenSweep.objects.get_or_create(tokenizer=name)
    done = {"paragraphs": 0, "questions": 0}
    cached = None
    for rows_of, field, key in (
        (paragraphs, "paragraph_id", "paragraphs"),
        (questions, "question_id", "questions"),
    ):
        while rows := list(
            rows_of.filter(pk__gt=getattr(sweep, field))
            .order_by("pk")
            .values_list("pk", "text")[:SWEEP_BATCH]
        ):
            if cached is None:
                try:
                    cached = CachedTokenizer(load(), name)
                except TokensUnavailable:
                    return done
            cached.many([text for _pk, text in rows])
            setattr(sweep, field, rows[-1][0])
            sweep.save(update_fields=[field, "updated_at"])
            done[key] += len(rows)
    return done
