"""Verbs and clauses: a subject with its verb, imperatives, participles, cited words."""

from __future__ import annotations

import re
from typing import Any

from evaluation.services.analysis.answer_types.dates import is_date_text
from evaluation.services.analysis.answer_types.kinds import (
    CITATION_NOUNS,
    FUNCTION_POS,
    NAME_OF,
    PARTITIVES,
    SUBJECTS,
)
from evaluation.services.analysis.answer_types.numbers import is_number_token
from evaluation.services.analysis.answer_types.tokens import _pos

_SUMMER = re.compile(r"\bété\b", re.I)


def _is_summer(text: str, tokens: list[Any]) -> bool:
    """Return whether the answer is a date with "été" the season ("en été", "l'été 1976"):
    the word tagged as no verb, the rest date words."""
    return any(
        token.lower_ == "été" and token.pos_ not in ("AUX", "VERB") for token in tokens
    ) and (is_date_text(_SUMMER.sub("hiver", text)))


CITATION_DETERMINERS = frozenset(
    """le la l' l’ les du au aux des ce cette ces un une son sa ses leur comme""".split()  # noqa: SIM905
)


def _is_cited_word(span: Any) -> bool:
    """Return whether the answer is a word cited as a word: it follows "le préfixe", "le
    suffixe", "le mot", "le terme"… (quotes between allowed: "du suffixe "ACCI"")."""
    doc, at = span.doc, span.start - 1
    while at >= 0 and (doc[at].is_punct or doc[at].is_space):
        at -= 1
    at = _past_language(doc, at)
    return (
        at > 0
        and doc[at].lower_ in CITATION_NOUNS
        and doc[at - 1].lower_ in CITATION_DETERMINERS  # "en d'autres termes, …": no citation
        and span.end - span.start <= 3
        and doc[span.start].pos_ not in FUNCTION_POS  # "au terme du contrat": no citation
    )


def _past_language(doc: Any, at: int) -> int:
    """Return where the citation noun is when an adjective (a language's) parts it from the
    word cited ("le mot néerlandais wijde"), else `at` unchanged."""
    if at > 1 and doc[at].pos_ == "ADJ" and doc[at - 1].lower_ in CITATION_NOUNS:
        return at - 1
    return at


# Words ending in "-ez" that are no verb in the second person plural.
NOT_VERBS_EZ = frozenset({"chez", "assez", "nez", "rez"})


def _is_imperative(tokens: list[Any]) -> bool:
    """Return whether the answer is a sentence in the imperative ("Épurez sévèrement vos
    écrits"): a capitalised verb in "-ez" (or one tagged imperative) opening two or more
    words, all others in lower case (the tagger reads such a verb as a noun or a name;
    "Pérez Galdós", "Suez" are names: their other words, if any, are capitalised)."""
    if len(tokens) < 2 or not tokens[0].text[:1].isupper():
        return False
    first = tokens[0]
    before = first.doc[first.i - 1] if first.i > 0 else None
    if before is not None and not (first.is_sent_start or before.is_punct):
        return False  # a sentence quoted, or one that opens: "« Épurez…", ": Épurez…"
    verb = "Imp" in first.morph.get("Mood") or (
        first.lower_.endswith("ez")
        and first.lower_ not in NOT_VERBS_EZ
        and len(first) > 4
        and first.pos_ != "PROPN"  # "Gonzalez", "Rodez": names
    )
    rest = [token for token in tokens[1:] if token.is_alpha]
    return verb and bool(rest) and all(token.text.islower() for token in rest)


# Forms of "avoir": a past participle after them is a verb ("d'avoir sevré").
AVOIR_FORMS = frozenset(
    """avoir ai as a avons avez ont avait avais avaient avions aviez eut eurent aura auront
    aurait auraient ayant eu""".split()  # noqa: SIM905
)
_PARTICIPLE = re.compile(r"[^\W\d_]{2,}(?:ée?s?|ie?s?|ue?s?|ite?s?|ise?s?|erte?s?|ointe?s?)")


def _is_participle(tokens: list[Any], head: Any) -> bool:
    """Return whether the answer is a past participle after "avoir", alone or heading its
    complements ("sevré" of "d'avoir sevré les Beatles", which the tagger read as a noun):
    French puts a participle, never a noun, right after the auxiliary."""
    first = tokens[0]
    if first.i != head.i or first.i == 0 or not first.text.islower():
        return False
    if first.pos_ not in ("NOUN", "ADJ", "VERB"):
        return False  # "a plus de…": an adverb
    before = first.doc[first.i - 1]
    return before.lower_ in AVOIR_FORMS and bool(_PARTICIPLE.fullmatch(first.text))


def _is_clause(span: Any, head: Any) -> bool:
    """Return whether the answer is a clause: its head has its subject inside the answer, or
    the answer opens with a noun phrase and the finite verb it is the subject of.

    "L'expérience est un succès" is headed by "succès" (the copula is no head in Universal
    Dependencies), whose subject "expérience" is in the answer: a clause, typed as a verb
    because the paper's table has no row for clauses. A subject the parser hung on the
    copula ("ce ne sont que protestations…") counts too, and so does a noun phrase followed
    by a finite verb when the parse lost the link ("Neuf hebdomadaires sont fondés avant
    1912" cut in two sentences, "une structure vestigiale n'est pas…").
    """
    inside = [child for child in head.children if span.start <= child.i < span.end]
    copulas = [child for child in inside if child.dep_ == "cop"]
    verbal = _pos(head) in ("VERB", "AUX") or bool(copulas)
    candidates = inside + [
        child for cop in copulas for child in cop.children if span.start <= child.i < span.end
    ]
    if verbal and any(child.dep_ in SUBJECTS for child in candidates):
        return True
    return _opens_with_subject(span)


SUBJECT_PRONOUNS = frozenset(
    """il elle ils elles on ce c' c’ je j' j’ tu nous vous""".split()  # noqa: SIM905
)
# Clitics between a subject and its verb: "elle en est", "ce ne sont", "la ville se trouve".
CLITICS = frozenset(
    """ne n' n’ se s' s’ en y le la les l' l’ lui leur me m' m’ te t' t’""".split()  # noqa: SIM905
)


def _opens_with_subject(span: Any) -> bool:
    """Return whether the span opens, or goes on after its first comma, with a subject and
    then its finite verb: "[det, number or de] [adjectives] noun or name [adjectives]
    [clitics] verb" ("Neuf hebdomadaires sont fondés…", "d'incessantes campagnes furent
    menées…"), or a subject pronoun, clitics and the verb ("En ce qui concerne les
    services, elle en est le 4e exportateur…").

    French puts nothing else between a subject and its verb but "ne" and clitics; a noun
    followed by a finite verb is the verb's subject (a relative clause starts with "qui").
    """
    tokens = [token for token in span if not token.is_space]
    comma = next((i for i, token in enumerate(tokens) if token.text == ","), None)
    starts = [0] if comma is None else [0, comma + 1]
    for start in starts:
        words = [token for token in tokens[start:] if not token.is_punct]
        if words and _subject_then_verb(words):
            return True
    return False


def _subject_then_verb(words: list[Any]) -> bool:
    """Return whether the words open with a subject and its finite verb (see above)."""
    at = 0
    if words[0].pos_ == "PRON" and words[0].lower_ in SUBJECT_PRONOUNS:
        at = 1
    else:
        if len(words) > 1 and words[0].lower_ in PARTITIVES and words[1].pos_ == "ADJ":
            at = 1  # "d'incessantes campagnes", "de nombreux courts métrages"
        while at < len(words) and (words[at].pos_ == "DET" or is_number_token(words[at])):
            at += 1
        opened = at > 0
        while at < len(words) and words[at].pos_ == "ADJ":
            at += 1
        nouns = at
        while at < len(words) and words[at].pos_ in ("NOUN", "PROPN"):
            at += 1
        # a bare common noun is no subject ("parti attrape-tout"): an article, a number or a name
        if at == nouns or not (opened or words[nouns].pos_ == "PROPN"):
            return False
        while at < len(words) and words[at].pos_ == "ADJ":
            at += 1
        at = _complements(words, at)
    while at < len(words) and words[at].lower_ in CLITICS:
        at += 1
    verb = words[at] if at < len(words) else None
    return (
        verb is not None
        and verb.pos_ in ("VERB", "AUX")
        and verb.text.isalpha()
        and verb.text.islower()  # not a model's name read as a verb ("Toyota TS050")
        and (
            "Fin" in verb.morph.get("VerbForm")
            or verb.lower_ in ABSOLUTE_PARTICIPLES
            or bool(_PAST_HISTORIC.fullmatch(verb.lower_))
        )
    )


# Endings of the past historic that no participle has ("contrôla", "fondèrent", "prirent"):
# the morphologizer reads some as participles ("le royaume contrôla l'Angleterre").
_PAST_HISTORIC = re.compile(r"[^\W\d_]{3,}a|[^\W\d_]+(?:èrent|irent|urent|inrent)")


# "la garnison ottomane étant supérieure…": a subject and "étant" make an absolute
# participle clause ("ayant" is left out: "les soldats ayant survécu" is as often a noun
# phrase).
ABSOLUTE_PARTICIPLES = frozenset({"étant"})


def _complements(words: list[Any], at: int) -> int:
    """Return where the subject's noun complements end: "de", "du", "des", an optional
    article, adjectives and nouns, again and again ("le système de camps du Stutthof
    devint…")."""
    while at < len(words) and words[at].lower_ in NAME_OF:
        after = at + 1
        while after < len(words) and words[after].pos_ == "DET":
            after += 1
        while after < len(words) and words[after].pos_ == "ADJ":
            after += 1
        nouns = after
        while after < len(words) and words[after].pos_ in ("NOUN", "PROPN"):
            after += 1
        if after == nouns:
            return at
        while after < len(words) and words[after].pos_ == "ADJ":
            after += 1
        at = after
    return at


# A gloss: a word given with its translation ("wijde (« large » en français", "seven », «
# sept » en anglais"): a word cited as a word.
_GLOSS = re.compile(
    r"«[^»]*»\s*(?:en|in)\s+(?:français|anglais|latin|grec|allemand|italien|espagnol|arabe"
    r"|néerlandais|portugais|russe|hébreu|breton|occitan|basque|corse|japonais|chinois)\b",
    re.I,
)


def _is_gloss(text: str) -> bool:
    """Return whether the answer holds a word's translation in quotes ("« large » en
    français"): the answer cites words."""
    return _GLOSS.search(text) is not None


NEGATIONS = frozenset({"ne", "n'", "n’"})


def _is_negated(tokens: list[Any]) -> bool:
    """Return whether the answer holds a subject and its negated verb ("Sully ne rétablit la
    situation qu'au moyen de…"): "ne" comes only before a verb, so a noun, name or pronoun,
    "ne" and a verb within two words make a clause, whatever the tagger made of the verb."""
    for at in range(1, len(tokens) - 1):
        if tokens[at].lower_ not in NEGATIONS:
            continue
        subject = tokens[at - 1].pos_ in ("NOUN", "PROPN", "PRON") and (
            tokens[at - 1].i == tokens[at].i - 1  # "végétaux (n'appartenant": no subject
        )
        verb = any(
            token.pos_ in ("VERB", "AUX") and not token.lower_.endswith("ant")
            for token in tokens[at + 1 : at + 3]
        )
        if subject and verb and len(tokens) >= 4:
            return True
    return False


# Relative pronouns: a finite verb after one is a relative clause's, in a noun phrase.
RELATIVES = frozenset(
    """qui que qu' qu’ où dont lequel laquelle lesquels lesquelles auquel duquel""".split()  # noqa: SIM905
)


def _is_sentence(span: Any, tokens: list[Any]) -> bool:
    """Return whether the answer is a whole sentence: four words or more, closed by its full
    stop, with a finite verb and no relative pronoun ("La pratique d'utiliser de l'huile … se
    développe parallèlement."; "la maison où il est né." is a noun phrase)."""
    last = span.doc[span.end - 1]
    return (
        last.text in (".", "!", "?", "…")
        and len(tokens) >= 4
        and not any(token.lower_ in RELATIVES for token in tokens)
        and any(
            token.pos_ in ("VERB", "AUX")
            and "Fin" in token.morph.get("VerbForm")
            and token.text.islower()
            for token in tokens
        )
    )
