"""Round 5 (issue 25): four causes of misses met in two hand-labelled samples or more, each
decided by the answer's own words: a race named by its length and its place, a colour, a
school's name, nouns listed."""

from __future__ import annotations

import re
from typing import Any

from evaluation.services.analysis.answer_types.kinds import AnswerType

# A race named by its length and its place, after a definite article ("les 1 000 kilomètres
# de Paris", "aux 1 000 kilomètres du Nürburgring", "les 24 Heures du Mans"): an event, not a
# quantity. Without the article it is a distance ("à 30 kilomètres de Paris").
_RACE = re.compile(
    r"(?:les|aux|des)\s+\d{1,3}(?:[ \u00a0\u202f]\d{3})*\s+"
    r"(?i:kilomètres|km|miles|milles|heures)\s+(?:de|du|d['’])\s*[A-ZÀ-Ý]"
)


def is_race(text: str) -> bool:
    """Return whether the answer opens with a race named by its length and its place."""
    return bool(_RACE.match(text.strip()))


# Colours and their shades ("jaune vif", "bleu foncé, vert et jaune"): adjectives, the parse
# reading "foncé" as a participle or "jaune" as a noun notwithstanding.
COLOURS = frozenset(
    """jaune jaunes rouge rouges vert verte verts vertes bleu bleue bleus bleues blanc
    blanche blancs blanches noir noire noirs noires gris grise grises brun brune bruns
    brunes rose roses violet violette violets violettes orange pourpre beige marron doré
    dorée argenté argentée écarlate ocre""".split()  # noqa: SIM905
)
SHADES = frozenset(
    """vif vive vifs vives foncé foncée foncés foncées clair claire clairs claires pâle
    pâles sombre sombres""".split()  # noqa: SIM905
)
COORDINATORS = frozenset({"et", "ou"})


def is_colour(tokens: list[Any]) -> bool:
    """Return whether the answer holds colours and shades alone, joined by "et", "ou" or
    commas, with a colour among them."""
    words = [token.lower_ for token in tokens if token.lower_ not in COORDINATORS]
    return any(word in COLOURS for word in words) and all(
        word in COLOURS or word in SHADES for word in words
    )


# A school named after its class noun ("l'université d'Europe centrale", "Lycée
# Louis-le-Grand") is an institution, an other proper noun; after "à", "dans" or "en" it is
# where something happens, a place ("à l'Université de Lagos"), as the labels read.
SCHOOL_NOUNS = frozenset(
    """université universités lycée lycées collège collèges école écoles""".split()  # noqa: SIM905
)
ARTICLES = frozenset({"le", "la", "les", "l'", "l’"})


def _school_name(tokens: list[Any]) -> AnswerType | None:
    """Return other proper noun for a school's class noun first in the answer (maybe after
    an article) and a capitalised word after it."""
    at = 0
    while at < len(tokens) and tokens[at].lower_ in ARTICLES:
        at += 1
    if at == len(tokens) or tokens[at].lower_ not in SCHOOL_NOUNS:
        return None
    if any(token.text[:1].isupper() for token in tokens[at + 1 :]):
        return AnswerType.OTHER_ENTITY
    return None


def _listed_nouns(span: Any, tokens: list[Any], head: Any) -> AnswerType | None:
    """Return common noun for a list of three words or more joined by commas, none
    capitalised, whose head the tagger reads as an adjective while another is a noun
    ("chrétiens, protestantisme, orthodoxie"): things listed, not qualities."""
    commas = sum(token.text == "," for token in span)
    if commas < 2 or head.pos_ != "ADJ" or any(token.text[:1].isupper() for token in tokens):
        return None
    return AnswerType.COMMON_NOUN if any(token.pos_ == "NOUN" for token in tokens) else None


def is_foreign_in_brackets(span: Any, tokens: list[Any]) -> bool:
    """Return whether the answer is one lower-case word that closes brackets and that the
    pipeline's French word vectors lack ("422 communes (kommuner)", "rhinocéros blanc (witte
    neushoorn)"): a foreign word glossed, typed other. Without word vectors (a small
    pipeline), never."""
    doc = span.doc
    if len(tokens) != 1 or not doc.vocab.vectors.shape[0] or span.end >= len(doc):
        return False
    word = tokens[0]
    return (
        word.text.isalpha()
        and word.text.islower()
        and not word.has_vector
        and (doc[span.end].text == ")")
    )
