"""Helpers on tokens the rules share: part of speech, syntactic head, entity tags."""

from __future__ import annotations

import re
from typing import Any

from evaluation.services.analysis.answer_types.dates import _is_year
from evaluation.services.analysis.answer_types.kinds import (
    FUNCTION_POS,
    PARTITIVES,
    SUPERLATIVES,
    TYPED_POS,
)


def _pos(token: Any) -> str:
    """Return a token's part of speech, a proper noun without a capital read as a noun, and
    a capitalised "verb" inside a sentence read as a proper noun ("Guru Dev", "Toyota
    TS050": French verbs take no capital there)."""
    if token.pos_ == "PROPN" and not _has_capital(token):
        return "NOUN"
    if token.pos_ in ("VERB", "AUX") and token.text[:1].isupper() and not token.is_sent_start:
        return "PROPN"
    return token.pos_


def _head_pos(span: Any, head: Any) -> str:
    """Return the head's part of speech for rule 10: an adjective with an article of its own
    is used as a noun ("le second massif forestier…", the tagger reading "massif" and
    "forestier" as adjectives)."""
    pos = _pos(head)
    children = [child for child in head.children if span.start <= child.i < span.end]
    determined = any(child.dep_ == "det" and child.pos_ == "DET" for child in children)
    superlative = any(child.lower_ in SUPERLATIVES for child in children)  # "la plus grande"
    if pos == "ADJ" and determined and (not superlative or _of_a_group(span, head)):
        return "NOUN"
    if pos == "NOUN" and not determined and span.end - span.start == 1 and _graded(head):
        return "ADJ"
    if pos == "NOUN" and not determined and _parser_adjective(span, head):
        return "ADJ"
    if pos == "VERB" and _graded_participle(span, head):
        return "ADJ"
    return pos


def _parser_adjective(span: Any, head: Any) -> bool:
    """Return whether the head opens the answer, the parser hung it as an adjective ("amod")
    where the tagger read a noun, and it ends as adjectives do ("prêt, remboursable en tout
    état de cause"): an unknown word the parser hangs so ("neushoorn") stays a noun."""
    return (
        head.dep_ == "amod"
        and head.i == span.start
        and bool(_ADJECTIVE_ENDING.fullmatch(head.lower_))
    )


# Endings of adjectives that nouns rarely have: "-able", "-ible", "-if", "-ive", "-eux".
_ADJECTIVE_ENDING = re.compile(
    r"[^\W\d_]{2,}(?:ables?|ibles?|ifs?|ives?|eux|euses?|ques?|aux|ales?)"
)


def _graded_participle(span: Any, head: Any) -> bool:
    """Return whether the answer is a participle and the adverbs of degree that grade it,
    nothing else ("fortement opposé", "très qualifiée"): an adjective, as a verb is not
    graded; "assassiné en 1975" keeps its complement and stays a verb."""
    others = [token for token in span if token.i != head.i and not token.is_punct]
    return (
        "Part" in head.morph.get("VerbForm")
        and bool(others)
        and all(token.lower_ in DEGREE_ADVERBS and token.head.i == head.i for token in others)
    )


# Adverbs of degree: they grade adjectives, never nouns ("complètement impatient").
DEGREE_ADVERBS = frozenset(
    """très trop si assez complètement totalement tout fort extrêmement particulièrement
    vraiment tellement peu bien fortement profondément""".split()  # noqa: SIM905
)


def _graded(head: Any) -> bool:
    """Return whether a lone word is graded by an adverb of degree just before it, as an
    adjective is ("j'étais complètement impatient", the tagger reading a noun)."""
    before = head.doc[head.i - 1] if head.i > 0 else None
    return (
        before is not None
        and before.lower_ in DEGREE_ADVERBS
        and before.pos_ == "ADV"
        and before.head.i == head.i
    )


def _of_a_group(span: Any, head: Any) -> bool:
    """Return whether a superlative picks one of a group named after "des"/"de" ("le plus
    expérimenté des touristes"): it is then used as a noun, "the most experienced one"."""
    return any(
        child.pos_ == "NOUN"
        and span.start <= child.i < span.end
        and any(case.lower_ in PARTITIVES for case in child.children if case.dep_ == "case")
        for child in head.children
    )


def _below(token: Any, head: Any) -> bool:
    """Return whether head is among token's ancestors (or token itself)."""
    return token.i == head.i or any(ancestor.i == head.i for ancestor in token.ancestors)


def _is_letter(token: Any) -> bool:
    """Return whether a token is a single capital letter ("X" of "rayons X")."""
    return len(token.text) == 1 and token.text.isupper()


def _is_year_token(token: Any) -> bool:
    """Return whether a token is a year of 1000 to 2099 ("le traité de 1814")."""
    return token.text.isdigit() and _is_year(token.text, "")


def _is_name(token: Any) -> bool:
    """Return whether a token opens a name: capitalised, and a noun, adjective or unknown."""
    return token.text[:1].isupper() and token.pos_ in ("PROPN", "NOUN", "ADJ", "X")


def _attached_to(name: Any, head: Any) -> bool:
    """Return whether the name, or the entity it opens, hangs on the head, or beside it on
    the head's own head (the parser hung "Boer" of "la république Boer de Natalia" on the
    verb, as it did "république")."""
    doc, end = name.doc, name.i + 1
    if _ent_iob(name) == "B":
        while end < len(doc) and doc[end].ent_iob_ == "I":
            end += 1
    return any(token.head.i in (head.i, head.head.i) for token in doc[name.i : end])


def _counts_a_noun(tokens: list[Any]) -> bool:
    """Return whether a lone number counts the noun after it ("1500 habitants"), not a year."""
    if len(tokens) != 1:
        return False
    number = tokens[0]
    head = number.head
    return number.dep_ == "nummod" and head.i > number.i and head.pos_ == "NOUN"


def _past_compound_preposition(tokens: list[Any]) -> list[Any]:
    """Return the tokens without the verb of a compound preposition opening the answer, "à
    partir de/du/des" ("à partir des négatifs originaux": its object is the head)."""
    if len(tokens) > 3 and [t.lower_ for t in tokens[:2]] == ["à", "partir"]:
        return tokens[2:] if tokens[2].lower_ in PARTITIVES | {"du", "d’"} else tokens
    return tokens


def _is_content(token: Any) -> bool:
    """Return whether a token carries meaning: not a function word, unless it holds a digit."""
    return token.pos_ not in FUNCTION_POS or any(char.isdigit() for char in token.text)


def _syntactic_head(span: Any, content: list[Any]) -> Any:
    """Return the answer's head: a sentence's root inside the answer, else its first content
    token whose head is outside the answer.

    When there is none (a parse may cycle), the token nearest the sentence's root (the first
    one on a tie). A head that is neither noun, verb, adjective,
    number nor name ("afin" in "afin de redonner…") hands over to its first such dependent
    inside the answer.
    """
    roots = [token for token in content if not span.start <= token.head.i < span.end]
    roots = [token for token in content if token.head.i == token.i] or roots
    head = roots[0] if roots else min(content, key=lambda token: (_depth(token), token.i))
    if _pos(head) in TYPED_POS:
        return head
    inside = [
        child
        for child in head.children
        if span.start <= child.i < span.end and _pos(child) in TYPED_POS
    ]
    return inside[0] if inside else head


def _depth(token: Any) -> int:
    """Return how many arcs separate a token from its sentence's root."""
    depth = 0
    while token.head.i != token.i and depth < len(token.doc):  # a bound, in case of a cycle
        token = token.head
        depth += 1
    return depth


class EntitiesNeeded(Exception):
    """Raised by the rules when they read the entities of a parse made without them."""


NO_ENTITIES = "answer_types.no_entities"  # in doc.user_data: parsed without the recogniser


def _ent_type(token: Any) -> str:
    """Return a token's entity label; raise EntitiesNeeded on a parse without entities."""
    if NO_ENTITIES in token.doc.user_data:
        raise EntitiesNeeded
    return token.ent_type_


def _ent_iob(token: Any) -> str:
    """Return a token's entity IOB tag; raise EntitiesNeeded on a parse without entities."""
    if NO_ENTITIES in token.doc.user_data:
        raise EntitiesNeeded
    return token.ent_iob_


def _entities(span: Any) -> list[tuple[Any, str]]:
    """Return (entity, label) for the entities wholly inside the span, from the tokens' tags.

    Read from each token's IOB tag: `span.ents` and `doc.ents` walk the whole paragraph, a
    cost paid for every answer that took a fifth of the typing time.
    """
    doc, found, opened = span.doc, [], None
    if NO_ENTITIES in doc.user_data:
        raise EntitiesNeeded
    for i in range(span.start, span.end + 1):
        iob = doc[i].ent_iob_ if i < len(doc) else "O"
        if opened is not None and iob != "I":  # an entity still open at the end runs past it
            found.append((doc[opened:i], doc[opened].ent_type_))
            opened = None
        if iob == "B" and i < span.end:
            opened = i
    return found


def _has_capital(entity: Any) -> bool:
    """Return whether an entity holds an upper-case letter, as French proper nouns do."""
    return any(char.isupper() for char in entity.text)


def _is_proper_noun(token: Any) -> bool:
    """Return whether a token is tagged PROPN, or X (unknown) and capitalised."""
    return _pos(token) == "PROPN" or (token.pos_ == "X" and token.text[:1].isupper())
