"""Proper nouns: class nouns before a name, titles, groups, addresses, entities."""

from __future__ import annotations

import re
from typing import Any

from evaluation.services.analysis.answer_types.kinds import (
    CLUB_WORDS,
    COMPANY_WORDS,
    ENTITY_TYPES,
    EVENT_NOUNS,
    GEOLOGICAL_PERIODS,
    NAME_OF,
    STREET_NOUNS,
    AnswerType,
)
from evaluation.services.analysis.answer_types.tokens import (
    _ent_iob,
    _ent_type,
    _entities,
    _has_capital,
    _is_proper_noun,
    _pos,
)

# A town's adjective in lower case, as clubs are named ("héninois", "rennais", "toulousain",
# "briochin", "lavallois").
_DEMONYM = re.compile(r"[a-zà-ÿ]{3,}(?:ais|aise|ois|oise|ain|aine|ien|ienne|in|ine)")


def _proper_class(tokens: list[Any], head: Any) -> AnswerType | None:
    """Return other_entity for names whose own words tell their class, else None: a sports
    club ("le Stade héninois", "Racing Club de France", "Olympique de Marseille"), a company
    ("Corsica Linea", "Stena Line"), a geological epoch or period ("l'Éocène", "le
    Jurassique"). The recogniser calls most of them places."""
    words = [token for token in tokens if token.pos_ != "DET"]
    if not words or not words[0].text[:1].isupper():
        return None
    first, last = words[0], words[-1]
    if first.lower_ in CLUB_WORDS and (first.text.isupper() or first.text.istitle()):
        return AnswerType.OTHER_ENTITY if len(words) > 1 or first.lower_ != "as" else None
    if first.lower_ == "stade" and len(words) > 1 and _DEMONYM.fullmatch(words[1].text):
        return AnswerType.OTHER_ENTITY  # "le Stade rennais"; "le Stade olympique" is a place
    if len(words) > 1 and last.text[:1].isupper() and last.lower_ in COMPANY_WORDS:
        return AnswerType.OTHER_ENTITY
    if head.text[:1].isupper() and (
        head.lower_.endswith("ocène") or head.lower_ in GEOLOGICAL_PERIODS
    ):
        return AnswerType.OTHER_ENTITY
    if (
        head.text == "État"
        and all(token.text.islower() for token in words[1:])
        and _ent_type(head) in ("", "LOC")  # "l'État islamique" is an organisation (ORG)
    ):
        return AnswerType.COMMON_NOUN  # the State, an institution: "l'État fédéral"
    return None


# Words that announce a work's title: what follows is its name ("un poème intitulé Jaya").
TITLE_WORDS = frozenset({"intitulé", "intitulée", "intitulés", "intitulées", "titre", "titré"})


def _titled_work(span: Any, head: Any) -> AnswerType | None:
    """Return other_entity for a capitalised name right after "intitulé" or "titre" (quotes
    between allowed): a work's title, whatever the recogniser makes of it."""
    doc, at = span.doc, span.start - 1
    while at >= 0 and (doc[at].is_punct or doc[at].is_space):
        at -= 1
    if at >= 0 and doc[at].lower_ in TITLE_WORDS and doc[span.start].text[:1].isupper():
        return AnswerType.OTHER_ENTITY
    return None


# Endings of the names of peoples and dynasties ("les Britanniques", "le Galicien", "les
# Capétiens", "les Abbassides", "des Omeyyades"): singular, or plural only where a singular
# ending is also a place's ("la Lorraine", "l'Amérique", "le Liban").
_GROUP_NAME = re.compile(
    r"(?:[^\W\d_]{3,})(?:iens?|éens?|ains?|ais|ois|iennes|éennes|aines|aises|oises|ands|ols"
    r"|ins|ans|ons|ites|ides|ades|iques)",
)


def _group_name(head: Any) -> AnswerType | None:
    """Return other_entity when the head names a people or a dynasty, else None.

    French writes these nouns with a capital ("les Portugais", "le Galicien", "les
    Capétiens"), and the tagger reads them as common nouns (NOUN) where it reads a place
    as a proper noun (PROPN); the entity recogniser calls most of them places. A
    capitalised NOUN with a people's or a dynasty's ending, not first in its sentence
    (there a capital says nothing), is a proper noun of the "other" kind; so is a PROPN
    with such an ending after a plural article ("les Ottomans": a plural name, where
    "Orléans" or "Calais" is a town). A person's name ("Sylvain") is left to rule 8.
    """
    if not head.text[:1].isupper() or head.is_sent_start or not _GROUP_NAME.fullmatch(head.text):
        return None
    before = head.doc[head.i - 1].lower_ if head.i > 0 else ""
    if head.pos_ == "NOUN" or (head.pos_ == "PROPN" and before in PLURAL_ARTICLES):
        return AnswerType.OTHER_ENTITY if _ent_type(head) != "PER" else None
    return None


PLURAL_ARTICLES = frozenset({"les", "des", "aux"})

# Buildings whose name opens with their class noun, capitalised ("le Petit Palais", "le
# Musée d'Orsay", "la Gare de l'Est"); "Église", "Tour", "Théâtre" and schools are left out:
# as often an institution, an event or a company ("l'Église catholique", "le Tour de France").
BUILDING_WORDS = frozenset(
    """palais château musée cathédrale basilique abbaye gare mosquée chapelle""".split()  # noqa: SIM905
)


def _building_name(tokens: list[Any]) -> AnswerType | None:
    """Return place for a name whose first or second word (after "Petit", "Grand"…) is a
    building's class noun, capitalised: the recogniser calls many of them organisations."""
    words = [token for token in tokens if token.pos_ != "DET"]
    if len(words) < 2 or not words[0].text[:1].isupper():
        return None
    return (
        AnswerType.PLACE
        if any(token.lower_ in BUILDING_WORDS and token.text[:1].isupper() for token in words[:2])
        else None
    )


def _demonym_and_name(span: Any, head: Any) -> AnswerType | None:
    """Return person for a people's noun followed by a person's name, one to three
    capitalised words the recogniser calls PER or the parser joins by "flat:name"
    ("l'Américain Henry Longfellow", "le Néerlandais Peter Post"): the recogniser calls the
    people's noun a place."""
    if not head.text[:1].isupper() or not _GROUP_NAME.fullmatch(head.text):
        return None
    after = [token for token in span if token.i > head.i and not token.is_punct]
    if not 1 <= len(after) <= 3 or not all(token.text[:1].isupper() for token in after):
        return None
    first = after[0]
    named = _ent_type(first) == "PER" or any(token.dep_ == "flat:name" for token in after[1:])
    return AnswerType.PERSON if named and _ent_type(first) in ("", "PER") else None


def _is_address(tokens: list[Any]) -> bool:
    """Return whether the answer is an address: a number, a street noun, a name ("12, square
    Grimmaurd", "5 rue de Rivoli")."""
    words = [token for token in tokens if token.lower_ not in NAME_OF]
    return (
        len(words) >= 3
        and words[0].text.isdigit()
        and words[1].lower_ in STREET_NOUNS
        and words[2].text[:1].isupper()
    )


# Countries French writes as acronyms; any other acronym the recogniser calls a place is an
# organisation, a network or a line ("le RER B", "la SNCF").
COUNTRY_ACRONYMS = frozenset({"USA", "URSS", "RDA", "RFA", "RDC", "RCA", "EAU", "UK"})


def _entity_type(span: Any, head: Any) -> AnswerType | None:
    """Return the entity type of rules 8 and 9, or None when the head is no proper noun."""
    kind = _named_entity_type(span, head)
    if kind is not None and kind is not AnswerType.PERSON and _named_after(span, head):
        return AnswerType.PLACE
    if kind is AnswerType.PLACE and _is_acronym(head) and head.text not in COUNTRY_ACRONYMS:
        return AnswerType.OTHER_ENTITY
    return kind


def _named_after(span: Any, head: Any) -> bool:
    """Return whether the answer is the name an event is named after, the recogniser's entity
    opening before it with the event's class noun: "Bennington" of "la bataille de
    Bennington", "Verdun" of "le traité de Verdun", a place (the entity's label is the
    event's)."""
    if _ent_iob(head) != "I":
        return False
    doc, at = span.doc, head.i
    while at > 0 and doc[at].ent_iob_ == "I":
        at -= 1
    return at < span.start and doc[at].lower_ in EVENT_NOUNS and doc[at + 1].lower_ in NAME_OF


def _full_name(span: Any, head: Any) -> bool:
    """Return whether the head opens a person's full name the recogniser missed: a
    capitalised proper noun and, hung on it as "flat:name", one or two more, nothing else
    in the answer ("Nymphadora Tonks"; "Michele Ongaro")."""
    words = [token for token in span if not token.is_punct]
    rest = [token for token in words if token.i != head.i]
    return (
        head.pos_ == "PROPN"
        and 1 <= len(rest) <= 2
        and all(
            token.dep_ == "flat:name"
            and token.head.i == head.i
            and token.pos_ == "PROPN"
            and token.text[:1].isupper()
            and token.text[1:].islower()
            for token in rest
        )
    )


def _is_acronym(token: Any) -> bool:
    """Return whether a token is an acronym: two letters or more, all capitals ("RER")."""
    return len(token.text) >= 2 and token.text.isalpha() and token.text.isupper()


def _named_entity_type(span: Any, head: Any) -> AnswerType | None:
    """Return the type the entities give rules 8 and 9, or None for no proper noun."""
    if (_is_proper_noun(head) or head.text[:1].isupper()) and _ent_type(head):
        return ENTITY_TYPES.get(head.ent_type_, AnswerType.OTHER_ENTITY)
    if not _is_proper_noun(head):
        return None
    inside = [(ent, label) for ent, label in _entities(span) if _has_capital(ent)]
    if not inside:
        return AnswerType.PERSON if _full_name(span, head) else AnswerType.OTHER_ENTITY
    _largest, label = max(inside, key=lambda pair: len(pair[0]))
    return ENTITY_TYPES.get(label, AnswerType.OTHER_ENTITY)


# Function words of English, Italian, Spanish and German that French does not use: two of
# them in an answer with a capital make it a foreign title ("The reel of Tulloch", "T'amo mia
# vita"). Particles of persons' names ("di", "da", "del", "della", "van", "von", "der", "y",
# "el", "das", "dos") are left out: "Piero della Francesca" is a person.
FOREIGN_WORDS = frozenset(
    """the of and on in is are my your our his her to for with from at it this that
    il gli nel nella alla mia mio tuo tua per con los las und mit zu""".split()  # noqa: SIM905
)


def _foreign_title(tokens: list[Any]) -> AnswerType | None:
    """Return other_entity for a title in another language: two or more of its words are
    function words French does not have, and it holds a capital ("Balmoral Castle on sale,
    … The kelt is my delight", "T'amo mia vita et La mia cara vita"). The parser reads such
    words as verbs, pronouns or unknown; French Wikipedia quotes whole foreign phrases
    mostly as the names of works, songs, bands and organisations."""
    foreign = sum(token.lower_ in FOREIGN_WORDS for token in tokens)
    if foreign >= 2 and any(token.text[:1].isupper() for token in tokens):
        return AnswerType.OTHER_ENTITY
    return None


# Prepositions that place a name in a larger place ("Cortina d'Ampezzo en Italie").
LOCATING = frozenset({"en", "au", "aux"})


def _located_in(span: Any, head: Any) -> AnswerType | None:
    """Return place for a capitalised name followed, inside the answer, by "en", "au" or
    "aux" and a place the recogniser calls LOC ("Cortina d'Ampezzo en Italie", "Tours en
    France"): a name situated in a country or a region is a place, whatever its own entity
    says (the recogniser called Cortina a person)."""
    if not head.text[:1].isupper() or _pos(head) not in ("PROPN", "NOUN", "X"):
        return None
    doc = span.doc
    for at in range(head.i + 1, span.end - 1):
        token, after = doc[at], doc[at + 1]
        if token.is_punct or (token.pos_ == "VERB" and not token.text[:1].isupper()):
            return None
        if token.lower_ in LOCATING and after.text[:1].isupper() and _ent_type(after) == "LOC":
            return AnswerType.PLACE
    return None


# Words that give a nickname ("Michele Ongaro (dit Pannonio)", "surnommée « Pompom »").
NICKNAMED = frozenset(
    """dit dite dits surnommé surnommée surnommés surnommées alias""".split()  # noqa: SIM905
)


def _nickname(span: Any, head: Any) -> AnswerType | None:
    """Return person for a short name given as someone's nickname: right after "dit",
    "surnommé" or "alias" (quotes between allowed), whatever the tagger made of it, unless
    the recogniser calls it a place."""
    doc, at = span.doc, span.start - 1
    while at >= 0 and (doc[at].is_punct or doc[at].is_space or doc[at].lower_ == "affectueusement"):
        at -= 1
    words = [token for token in span if not token.is_punct]
    if at < 0 or doc[at].lower_ not in NICKNAMED or not words or len(words) > 3:
        return None
    if not words[0].text[:1].isupper() or _ent_type(head) == "LOC":
        return None
    return AnswerType.PERSON


def _opening_adjective(span: Any, head: Any) -> AnswerType | None:
    """Return adjective for a sentence's first word, capitalised there only, coordinated with
    a lower-case adjective ("Craintif et solitaire": the tagger reads a name, the
    recogniser an entity)."""
    if not head.is_sent_start or not head.text[:1].isupper():
        return None
    return (
        AnswerType.ADJECTIVE
        if any(
            child.dep_ == "conj" and child.pos_ == "ADJ" and child.text.islower()
            for child in head.children
            if span.start <= child.i < span.end
        )
        else None
    )
