"""Tokens kept between MRQA exports (exports.services.tokens): the same tokens, tokenized once."""

import hashlib

import pytest

from exports.formats.mrqa import simple_tokenizer
from exports.models import TokenCache
from exports.services.tokens import CachedTokenizer, cache_key, pack, unpack

pytestmark = pytest.mark.django_db

TEXTS = [
    "La Loire est le plus long fleuve de France, avec 1 006 km.",
    "Où le Gerbier-de-Jonc 🌋 se trouve-t-il ?",
    "",
    "La Loire est le plus long fleuve de France, avec 1 006 km.",
]


class Counting:
    """simple_tokenizer, counting the texts it is given."""

    def __init__(self):
        self.texts = []

    def __call__(self, text):
        self.texts.append(text)
        return simple_tokenizer(text)


def test_packed_spans_give_the_tokens_back_with_code_point_offsets():
    for text in TEXTS:
        tokens = simple_tokenizer(text)
        assert unpack(text, pack(tokens)) == tokens
    assert pack([("Où", 0), ("🌋", 3)]) == bytes([0, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 1, 0, 0, 0])


def test_a_text_is_tokenized_once_then_read_from_the_cache():
    inner = Counting()
    cached = CachedTokenizer(inner, "simple 1")
    first = cached.many(TEXTS)
    assert first == [simple_tokenizer(text) for text in TEXTS]
    assert inner.texts == TEXTS[:3]  # the repeated text is tokenized once
    assert TokenCache.objects.count() == 3
    again = CachedTokenizer(Counting(), "simple 1")
    assert again.many(TEXTS) == first
    assert again.tokenize.texts == []
    assert cached("Un autre texte.") == [("Un", 0), ("autre", 3), ("texte", 9), (".", 14)]
    assert TokenCache.objects.count() == 4
    key = hashlib.sha256(b"simple 1\0Un autre texte.").hexdigest()
    assert cache_key("simple 1", "Un autre texte.") == key
    assert TokenCache.objects.filter(pk=key).exists()


def test_another_tokenizer_or_version_has_its_own_entries():
    CachedTokenizer(Counting(), "simple 1").many(TEXTS[:2])
    other = Counting()
    CachedTokenizer(other, "simple 2").many(TEXTS[:2])
    assert other.texts == TEXTS[:2]
    assert TokenCache.objects.count() == 4
