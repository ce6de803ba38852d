"""Proper nouns: class nouns before a name, titles, groups, addresses, entities."""

from __future__ import annotations

import re
from typing import Any

from evaluation.services.analysis.answer_types.kinds import (
    CLUB_WORDS,
    COMPANY_WORDS,
    DIRECTIONS,
    ENTITY_TYPES,
    EVENT_NOUNS,
    FOREIGN_OF,
    GEOGRAPHIC_NOUNS,
    GEOLOGICAL_PERIODS,
    GROUP_NOUNS,
    NAME_OF,
    ORGANISATION_NOUNS,
    PERSON_NOUNS,
    PLACE_NOUNS,
    SHIP_NOUNS,
    STREET_NOUNS,
    WORK_NOUNS,
    AnswerType,
)
from evaluation.services.analysis.answer_types.tokens import (
    _attached_to,
    _below,
    _ent_iob,
    _ent_type,
    _entities,
    _has_capital,
    _is_letter,
    _is_name,
    _is_proper_noun,
    _is_year_token,
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


# The classes a name takes from the class noun met before it, in the answer's paragraph.
CONTEXT = "answer_types.context"  # in doc.user_data: (paragraph, offset of the doc)
_CLASS_BEFORE = re.compile(
    r"(?:^|[\s'’])(?P<det>[^\W\d_]+)[\s'’]\s*(?P<noun>[^\W\d_][\w-]*)\s+(?P<of>(?:de|du|des)\s+(?:la\s+|l['’]\s*)?|d['’]\s*)?"
    r"[«\"“]?\s*$"
)


def _context_class(span: Any, head: Any) -> AnswerType | None:
    """Return the type a name's class noun gives it where the answer is a bare name and the
    paragraph writes the class noun before it, here or elsewhere ("Elle est issue de la
    famille Black" for "Black", "le principal sponsor …, Pelforth" no; "la bière Pelforth"
    yes): a geographic noun ("la ville de Sion") → place, a person's title or trade ("le
    roi Louis") → person, a group, a ship, a work, a brand ("la famille Black", "le navire
    Finneagle", "la méthode Gundersen") → other proper noun. Several classes that disagree
    give none. Streets and buildings are left out: they are named after persons."""
    words = [token for token in span if not (token.is_punct or token.pos_ in ("DET", "ADP"))]
    if not words or not all(token.text[:1].isupper() for token in words if token.is_alpha):
        return None
    if not head.text[:1].isupper():
        return None
    paragraph, offset = span.doc.user_data.get(CONTEXT, (span.doc.text, 0))
    name = span.doc.text[words[0].idx : span.end_char]
    found = set()
    at = paragraph.find(name)
    while at >= 0:
        end = at + len(name)
        if (at == 0 or not paragraph[at - 1].isalnum()) and (
            end == len(paragraph) or not paragraph[end].isalnum()
        ):
            kind = _class_before(paragraph[max(0, at - 60) : at])
            if kind is not None:
                found.add(kind)
        at = paragraph.find(name, at + 1)
    return found.pop() if len(found) == 1 else None


# Companies, teams and their roles, before a name elsewhere in the paragraph ("la société
# Sunset", "le sponsor Pelforth"); too often common in the answer itself ("société").
FIRM_NOUNS = frozenset(
    """société sociétés entreprise entreprises firme compagnie sponsor équipementier
    constructeur fabricant éditeur distributeur studio studios club équipe parti
    association fondation banque chaîne radio""".split()  # noqa: SIM905
)
# What opens a class noun that names ("la ville de Sion", "sa fille Marie").
ARTICLES = frozenset(
    """le la l les un une des du au aux ce cet cette ces son sa ses leur leurs notre""".split()  # noqa: SIM905
)


def _class_before(before: str) -> AnswerType | None:
    """Return the type the class noun at the end of `before` gives the name after it."""
    match = _CLASS_BEFORE.search(before)
    if match is None:
        return None
    noun, of = match["noun"].lower(), match["of"]
    if match["det"].lower() not in ARTICLES:
        return None  # "le préfet de région Michel Cadot": a class noun with no article
    if noun in GEOGRAPHIC_NOUNS:
        return AnswerType.PLACE
    if of:
        return AnswerType.OTHER_ENTITY if noun in GROUP_NOUNS and "des" in of else None
    if noun in PERSON_NOUNS and noun not in ("saint", "sainte"):
        return AnswerType.PERSON
    if noun in GROUP_NOUNS | SHIP_NOUNS | WORK_NOUNS | FIRM_NOUNS:
        return AnswerType.OTHER_ENTITY
    return None


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
