"""Classify answers by type, as the FQuAD paper's answer-type table does, with spaCy French.

FQuAD (d'Hoffschmidt et al., "FQuAD: French Question Answering Dataset", Findings of EMNLP
2020) reports the share of each answer type: Date, Other numeric, Person, Location, Other
proper nouns, Common noun, Verb, Adjective, Other. The table follows SQuAD's (Rajpurkar et al.,
"SQuAD: 100,000+ Questions for Machine Comprehension of Text", EMNLP 2016, Table 2), whose
method is: set numerical answers apart first (dates, then other numbers), split proper nouns
by their named-entity tag, and type the rest by the part of speech of the answer's syntactic
head. We do the same with `fr_core_news_sm`, which tags entities PER, LOC, ORG and MISC only
(no DATE), so dates are recognised by rules on the answer's text.

Precedence, first match wins (`classify_answer`):
    1. nothing but punctuation or spaces                       → other
    2. a date by the rules of `is_date_text` (month or weekday names, "XVIIe siècle",
       years such as "1624" or "en 732", "av. J.-C.", "14/07/1789"), except a bare number
       that counts the noun after it in the context ("1500 habitants")  → date
    3. the first content token or the head is a number ("14,2 milliards", "Trois",
       "six kilomètres")                                         → number
    4. an entity covers the head, and the head is a proper noun or capitalised:
       PER → person, LOC → place, ORG or MISC → other_entity
    5. the head is a proper noun (PROPN, or an X token with a capital): the label of the
       largest entity in the span as in 4, else                  → other_entity
    6. the head's part of speech: NOUN → common_noun, VERB or AUX → verb, ADJ → adjective
    7. anything else (adverb, pronoun, preposition…)             → other

Dates come before numbers because a year is a number too (SQuAD splits "Date" out of the
numerical answers the same way); numbers before entities, as in SQuAD, so "3 000 Parisiens"
is a quantity. Steps 4 and 5 ask for a capital letter because French writes proper nouns
with one, and the small model's entities often swallow a common-noun head: "la capture de
Lalla Fatma N'Soumer" is a capture (common_noun), not a person.

The head is the content token of the span nearest the sentence's root in the dependency tree
(content: not punctuation, determiner, preposition or conjunction, unless it holds a digit).
The small model's tags are noisy; the figures are a profile of a dataset, not a gold standard.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable
from functools import cache
from typing import Any

SPACY_MODEL = "fr_core_news_sm"
BATCH_SIZE = 32


class AnswerType(enum.StrEnum):
    """The answer types of FQuAD's table; the values are what pages and exports show."""

    DATE = "date"
    NUMBER = "number"
    PERSON = "person"
    PLACE = "place"
    OTHER_ENTITY = "other_entity"
    COMMON_NOUN = "common_noun"
    VERB = "verb"
    ADJECTIVE = "adjective"
    OTHER = "other"


ENTITY_TYPES = {
    "PER": AnswerType.PERSON,
    "LOC": AnswerType.PLACE,
    "ORG": AnswerType.OTHER_ENTITY,
    "MISC": AnswerType.OTHER_ENTITY,
}
POS_TYPES = {
    "NOUN": AnswerType.COMMON_NOUN,
    "VERB": AnswerType.VERB,
    "AUX": AnswerType.VERB,
    "ADJ": AnswerType.ADJECTIVE,
}
FUNCTION_POS = frozenset({"PUNCT", "SPACE", "DET", "ADP", "CCONJ", "SCONJ", "PART", "SYM"})


# ---------------------------------------------------------------------------------------------
# Dates, by rules on the answer's text

# The word lists read better as text than as literals of quoted words (hence the noqa).
MONTHS = frozenset(
    """janvier février fevrier mars avril mai juin juillet août aout septembre octobre novembre
    décembre decembre""".split()  # noqa: SIM905
)
WEEKDAYS = frozenset({"lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"})
PERIODS = frozenset({"siècle", "siècles", "millénaire", "millénaires"})
# Words that may sit in a date without making one: "au début du XIXe siècle", "de 1994 à
# 2003", "l'été 1976", "vers la fin de l'an 1000".
DATE_FILLERS = frozenset(
    """le la l les en de d du des à au aux vers dès depuis entre et ou jusqu jusque avant après
    début fin milieu mi courant cours partir premier première dernier dernière moitié environ
    autour an année années printemps été automne hiver matin soir nuit""".split()  # noqa: SIM905
)
# A bare number is a year after these ("en 732", "l'an 1000"), whatever its length.
YEAR_MARKERS = frozenset({"en", "an", "vers", "depuis", "dès"})

_ERA = re.compile(r"\b(?:av|apr|avant|après)\.?\s*(?:J\.?\s*-?\s*C\.?|Jésus-Christ)", re.I)
_NUMERIC_DATE = re.compile(r"\b\d{1,2}[/.]\d{1,2}[/.]\d{2,4}\b|\b\d{4}-\d{2}-\d{2}\b")
_DATE_TOKEN = re.compile(
    r"(?P<ordinal>(?:\d+|[IVXLCDM]+)(?:ᵉʳ|ᵉ|ème|eme|ère|er|re|e)\b)"
    r"|(?P<big>\d+(?:[ \u00a0\u202f]\d{3})+|\d+[.,]\d+)"
    r"|(?P<digits>\d+)"
    r"|(?P<word>[^\W\d_]+)"
)


def is_date_text(text: str) -> bool:
    """Return whether text is a date or period: only date words, and at least one anchor.

    Anchors are a month or weekday name, "siècle" or "millénaire", an era ("av. J.-C."), a
    numeric date ("14/07/1789"), or a year: a number of 1000 to 2099, or any number after
    "en", "an", "vers", "depuis" or "dès". Allowed besides: day numbers, ordinals ("XVIIe",
    "1er"), and the fillers of DATE_FILLERS. A grouped or decimal number ("100 000", "14,2")
    is never a date, nor is any other word ("1500 habitants", "12 milliards").
    """
    text, anchored = _strip_date_marks(text)
    has_digit = any(char.isdigit() for char in text)
    previous = ""
    for match in _DATE_TOKEN.finditer(text):
        kind, token = match.lastgroup, match.group().lower()
        if kind == "big":
            return False
        if kind == "digits":
            anchored |= _is_year(token, previous)
        elif kind == "word":
            if _is_date_word(match.group(), has_digit):
                anchored = True
            elif token not in DATE_FILLERS:
                return False
        previous = token
    return anchored


def _is_date_word(word: str, has_digit: bool) -> bool:
    """Return whether a word anchors a date: a month, a weekday, "siècle" or "millénaire".

    French writes months in lower case; a capitalised "Mars" or "Mai" with no number beside
    it is the planet or a name, so it is no month ("Juillet 1789" at a sentence start is).
    """
    lower = word.lower()
    if lower in MONTHS:
        return word.islower() or has_digit
    return lower in WEEKDAYS or lower in PERIODS


def _strip_date_marks(text: str) -> tuple[str, bool]:
    """Replace eras and numeric dates by spaces; return the rest and whether one was found."""
    stripped = _NUMERIC_DATE.sub(" ", _ERA.sub(" ", text))
    return stripped, stripped != text


def _is_year(digits: str, previous: str) -> bool:
    """Return whether a plain number reads as a year, given the token before it."""
    return previous in YEAR_MARKERS or (len(digits) == 4 and 1000 <= int(digits) <= 2099)


# ---------------------------------------------------------------------------------------------
# Numbers

_NUMBER_WORD = (
    r"(?:un|une|et|deux|trois|quatre|cinq|six|sept|huit|neuf|dix|onze|douze|treize|quatorze"
    r"|quinze|seize|vingts?|trente|quarante|cinquante|soixante|cents?|mille|millions?"
    r"|milliards?)"
)
_SPELLED_NUMBER = re.compile(rf"{_NUMBER_WORD}(?:-{_NUMBER_WORD})*", re.I)
_ARTICLE_NUMBERS = frozenset({"un", "une", "et"})


def is_number_token(token: Any) -> bool:
    """Return whether a spaCy token is a quantity: digits, a NUM tag, or a spelled number.

    spaCy's like_num is not used alone: it holds for "une" and "premier", and the small
    model tags "100" in "100 000" as DET; "un"/"une" alone stay articles.
    """
    text = token.text
    if any(char.isdigit() for char in text):
        return True
    if _SPELLED_NUMBER.fullmatch(text):
        return text.lower() not in _ARTICLE_NUMBERS
    return token.pos_ == "NUM" and token.like_num


# ---------------------------------------------------------------------------------------------
# Classifying a span of a parsed context


def classify_answer(doc: Any, start_char: int, end_char: int) -> AnswerType:
    """Return the type of the answer at doc.text[start_char:end_char] (precedence above)."""
    if not 0 <= start_char < end_char <= len(doc.text):
        raise ValueError(f"answer span {start_char}..{end_char} is outside the context")
    span = doc.char_span(start_char, end_char, alignment_mode="expand")
    tokens = [token for token in span if not (token.is_punct or token.is_space)]
    if not tokens:
        return AnswerType.OTHER
    if is_date_text(doc.text[start_char:end_char]) and not _counts_a_noun(tokens):
        return AnswerType.DATE
    content = [token for token in tokens if _is_content(token)] or tokens
    head = _syntactic_head(content)
    if is_number_token(content[0]) or is_number_token(head):
        return AnswerType.NUMBER
    return _entity_type(span, head) or POS_TYPES.get(head.pos_, AnswerType.OTHER)


def _counts_a_noun(tokens: list[Any]) -> bool:
    """Return whether a lone number counts the noun after it ("1500 habitants"), not a year."""
    if len(tokens) != 1:
        return False
    number = tokens[0]
    head = number.head
    return number.dep_ == "nummod" and head.i > number.i and head.pos_ == "NOUN"


def _is_content(token: Any) -> bool:
    """Return whether a token carries meaning: not a function word, unless it holds a digit."""
    return token.pos_ not in FUNCTION_POS or any(char.isdigit() for char in token.text)


def _syntactic_head(tokens: list[Any]) -> Any:
    """Return the token nearest its sentence's root (the first one on a tie)."""
    return min(tokens, key=lambda token: (_depth(token), token.i))


def _depth(token: Any) -> int:
    """Return how many arcs separate a token from its sentence's root."""
    depth = 0
    while token.head.i != token.i and depth < len(token.doc):  # a bound, in case of a cycle
        token = token.head
        depth += 1
    return depth


def _entity_type(span: Any, head: Any) -> AnswerType | None:
    """Return the entity type of rules 4 and 5, or None when the head is no proper noun."""
    covering = [ent for ent in span.doc.ents if ent.start <= head.i < ent.end]
    if covering and (_is_proper_noun(head) or head.text[:1].isupper()):
        return ENTITY_TYPES.get(covering[0].label_, AnswerType.OTHER_ENTITY)
    if not _is_proper_noun(head):
        return None
    inside = [ent for ent in span.ents if _has_capital(ent)]
    if not inside:
        return AnswerType.OTHER_ENTITY
    largest = max(inside, key=len)
    return ENTITY_TYPES.get(largest.label_, AnswerType.OTHER_ENTITY)


def _has_capital(entity: Any) -> bool:
    """Return whether an entity holds an upper-case letter, as French proper nouns do."""
    return any(char.isupper() for char in entity.text)


def _is_proper_noun(token: Any) -> bool:
    """Return whether a token is tagged PROPN, or X (unknown) and capitalised."""
    return token.pos_ == "PROPN" or (token.pos_ == "X" and token.text[:1].isupper())


# ---------------------------------------------------------------------------------------------
# Many answers at once


def answer_types(
    items: Iterable[tuple[str, int, str]], nlp: Any = None, batch_size: int = BATCH_SIZE
) -> list[AnswerType]:
    """Return the type of each (context, answer_start, answer_text), in order.

    Each distinct context is parsed once, with nlp.pipe (the French pipeline by default), and
    its parse is dropped once its answers are typed, so memory holds one batch of parses.
    Raise ValueError when an answer's text is not at its offset in its context.
    """
    items = list(items)
    by_context: dict[str, list[int]] = {}
    for index, (context, start, text) in enumerate(items):
        _check_offset(context, start, text)
        by_context.setdefault(context, []).append(index)
    nlp = load_french() if nlp is None else nlp
    types: list[AnswerType] = [AnswerType.OTHER] * len(items)
    for doc, indexes in zip(
        nlp.pipe(by_context, batch_size=batch_size), by_context.values(), strict=True
    ):
        for index in indexes:
            _, start, text = items[index]
            types[index] = classify_answer(doc, start, start + len(text))
    return types


def _check_offset(context: str, start: int, text: str) -> None:
    """Raise ValueError unless text is non-empty and found at start in context."""
    if not text or start < 0 or context[start : start + len(text)] != text:
        raise ValueError(f"answer {text!r} is not at offset {start} of its context")


@cache
def load_french(model: str = SPACY_MODEL) -> Any:
    """Return the spaCy pipeline `model`, loaded on first use without its lemmatizer.

    Loaded lazily so that importing this module costs nothing; the lemmatizer is left out
    because no rule reads lemmas and it costs over a third of the parsing time (measured on
    300 PIAF paragraphs: 9.5 s with it, 5.8 s without).
    """
    try:
        import spacy
    except ImportError as error:
        raise ImportError(
            "answer types need spaCy and its French model: install spacy and fr-core-news-sm"
        ) from error
    return spacy.load(model, exclude=["lemmatizer"])
