"""Class nouns before a name inside the answer: "le général Michel Jorant", "île
Saint-Jean", "le traité de Verdun", "le continent sud-américain"."""

from __future__ import annotations

import re
from typing import Any

from evaluation.services.analysis.answer_types.kinds import (
    DIRECTIONS,
    ENTITY_TYPES,
    EVENT_NOUNS,
    FOREIGN_OF,
    GEOGRAPHIC_NOUNS,
    GROUP_NOUNS,
    NAME_OF,
    ORGANISATION_NOUNS,
    PERSON_NOUNS,
    PLACE_NOUNS,
    SHIP_NOUNS,
    WORK_NOUNS,
    AnswerType,
)
from evaluation.services.analysis.answer_types.tokens import (
    _attached_to,
    _below,
    _ent_type,
    _entities,
    _has_capital,
    _is_letter,
    _is_name,
    _is_year_token,
    _pos,
)


def _named_type(span: Any, head: Any) -> AnswerType | None:
    """Return the type of a class noun followed by a name, or None (rule 6 above).

    The name follows the head directly (adjectives between allowed: "couple divin
    Dumuzi-Inanna"), or after "de", "du" or "des" and an article for a class of PLACE_NOUNS
    or EVENT_NOUNS ("république de Moldavie", "traité de Verdun", "la colline de la
    Vierge", "le temple de l'Ésagil"), or after "des" for a class of GROUP_NOUNS ("la
    dynastie des Capétiens"); a title of PERSON_NOUNS may be parted from the name ("le
    chef de l'armée Zia-ul-Haq"). An event dated by its year is named too ("le traité
    anglo-néerlandais de 1814"); a compass point is a place ("à l'est jusqu'au Rhin").
    """
    lower = head.lower_
    if _pos(head) != "NOUN" or _has_capital(head):
        return None
    if lower in DIRECTIONS:
        return AnswerType.PLACE
    name = _name_after(span, head)
    if name is not None and lower in EVENT_NOUNS and _is_year_token(name):
        return AnswerType.OTHER_ENTITY
    if lower in ORGANISATION_NOUNS and _names_an_organisation(span, head):
        return AnswerType.OTHER_ENTITY
    if name is not None and _is_letter(name):
        return None  # "rayons X", "vitamine C": a letter, no name
    if name is not None and _is_name(name) and _attached_to(name, head):
        return _class_of_name(lower, name)
    if lower in PERSON_NOUNS and any(
        label == "PER" and ent.start > head.i and _has_capital(ent)
        for ent, label in _entities(span)
    ):
        return AnswerType.PERSON
    return None


def _name_after(span: Any, head: Any) -> Any:
    """Return the token where the class noun's name would start, or None past the span:
    after its lower-case adjectives, and "de" (with an article) or "des" for the classes
    that take them."""
    doc, lower = span.doc, head.lower_
    after = head.i + 1
    while after < span.end and doc[after].pos_ == "ADJ" and not _has_capital(doc[after]):
        after += 1
    of = after < span.end and doc[after].lower_ in NAME_OF
    if lower in EVENT_NOUNS and after < span.end and doc[after].lower_ in FOREIGN_OF:
        of = True  # "le derby della Madonnina"
    if of and lower in PLACE_NOUNS | EVENT_NOUNS:
        after += 1
        if after + 1 < span.end and doc[after].pos_ == "DET":  # "de la", "de l'"
            after += 1
    elif of and lower in GROUP_NOUNS and doc[after].lower_ == "des":
        after += 1
    return doc[after] if after < span.end else None


def _class_of_name(lower: str, name: Any) -> AnswerType:
    """Return the type of a name after its class noun `lower`: the class's, else the name's
    entity."""
    if lower in PLACE_NOUNS:
        return AnswerType.PLACE
    if lower in EVENT_NOUNS or lower in GROUP_NOUNS or lower in SHIP_NOUNS | WORK_NOUNS:
        return AnswerType.OTHER_ENTITY
    if lower in PERSON_NOUNS and _ent_type(name) in ("", "PER"):
        return AnswerType.PERSON
    return ENTITY_TYPES.get(_ent_type(name), AnswerType.OTHER_ENTITY)


def _names_an_organisation(span: Any, head: Any) -> bool:
    """Return whether an organisation's or competition's class noun is followed, through
    lower-case nouns and adjectives and "de", "du", "des", by a capitalised word hung below
    it: "armée de résistance du Seigneur", "championnat de France amateur", "la coupe de
    France", "le parti Baas". An article, a verb, another preposition or a comma on the way
    ends the name ("l'équipe de la ville de Paris", "l'armée qui envahit la Pologne")."""
    doc = span.doc
    for token in doc[head.i + 1 : span.end]:
        if token.text[:1].isupper():
            return not _is_letter(token) and _below(token, head)
        if not (token.lower_ in NAME_OF or token.pos_ in ("NOUN", "ADJ", "PROPN")):
            return False
    return False


# Adjectives that make a geographic noun a place's name ("le continent sud-américain", "la
# péninsule ibérique", "le golfe Persique" written in lower case).
_PLACE_ADJECTIVE = re.compile(
    r"[a-zà-ÿ-]{3,}(?:ain|aine|ais|aise|ois|oise|ien|ienne|éen|éenne|ique|an|ane)"
)


def _geographic_name(span: Any, head: Any) -> AnswerType | None:
    """Return place for a geographic noun named by an adjective of a people or a region and
    nothing else ("le continent sud-américain", "la péninsule ibérique"); "la ville voisine"
    stays a common noun."""
    if head.lower_ not in GEOGRAPHIC_NOUNS or _has_capital(head):
        return None
    after = [token for token in span[head.i - span.start + 1 :] if not token.is_punct]
    return (
        AnswerType.PLACE
        if len(after) == 1
        and after[0].pos_ == "ADJ"
        and after[0].head.i == head.i
        and _PLACE_ADJECTIVE.fullmatch(after[0].text)
        else None
    )
