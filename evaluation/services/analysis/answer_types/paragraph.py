"""The class noun the paragraph writes before a bare name, anywhere in it ("la famille
Black" for a later "Black")."""

from __future__ import annotations

import re
from typing import Any

from evaluation.services.analysis.answer_types.kinds import (
    GEOGRAPHIC_NOUNS,
    GROUP_NOUNS,
    PERSON_NOUNS,
    SHIP_NOUNS,
    WORK_NOUNS,
    AnswerType,
)
from evaluation.services.analysis.answer_types.names import _GROUP_NAME
from evaluation.services.analysis.answer_types.tokens import _ent_type

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
    if not of and _people_before(match["noun"]):
        return AnswerType.PERSON
    if noun in GEOGRAPHIC_NOUNS:
        return AnswerType.PLACE
    if of:
        return AnswerType.OTHER_ENTITY if noun in GROUP_NOUNS and "des" in of else None
    if noun in PERSON_NOUNS and noun not in ("saint", "sainte"):
        return AnswerType.PERSON
    if noun in GROUP_NOUNS | SHIP_NOUNS | WORK_NOUNS | FIRM_NOUNS:
        return AnswerType.OTHER_ENTITY
    return None


def _people_before(noun: str) -> bool:
    """Return whether a class noun is a people's, capitalised ("le Néerlandais Peter Post",
    "l'Américain Henry Longfellow"): a person's name follows it."""
    return noun[:1].isupper() and bool(_GROUP_NAME.fullmatch(noun))


# Words of team sports: a paragraph that holds one reads "face à Helsinborg" as a team.
_SPORT = re.compile(
    r"\b(?:match|matchs|finale|finales|demi-finale|championnat|ligue|tournoi|club|équipe)\b",
    re.I,
)
# What announces an opponent: "face à", "contre".
OPPONENT_WORDS = frozenset({"contre", "face"})


def _team_by_its_town(span: Any, head: Any) -> AnswerType | None:
    """Return other_entity for a capitalised name right after "face à" or "contre" (an
    article, quotes and a capitalised adjective between allowed: "face à la « Grande
    Torino »") in a paragraph about team sports: a team named by its town or country
    ("la finale contre les États-Unis"), as the labelling rules type it. Only a name the
    recogniser calls a place (LOC): a person faced is a player."""
    if not head.text[:1].isupper():
        return None
    doc, at = span.doc, span.start - 1
    while at >= 0 and (
        doc[at].is_punct or doc[at].pos_ == "DET" or (doc[at].pos_ == "ADJ" and doc[at].is_title)
    ):
        at -= 1
    if at >= 1 and doc[at].lower_ == "à" and doc[at - 1].lower_ == "face":
        at -= 1
    if at < 0 or doc[at].lower_ not in OPPONENT_WORDS or _ent_type(head) != "LOC":
        return None  # "perd contre Hašek" (PER): a player
    paragraph, _offset = doc.user_data.get(CONTEXT, (doc.text, 0))
    return AnswerType.OTHER_ENTITY if _SPORT.search(paragraph) else None
