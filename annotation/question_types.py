"""Classify French questions by their question word, the way the FQuAD paper analysed them.

The rules are French: they run only on the questions of a language whose registry entry
names them (`classify_in`); another language's questions are typed UNAVAILABLE, and every
page that shows question types says "not available" for it.

Pure module (standard library only) so the classifier runs anywhere: in a service, a
management command, a notebook, or over a whole data set.

Approach
--------
1. Normalise the text: Unicode NFC, case folded, typographic apostrophes and hyphens turned
   into ASCII ones, accents removed *except* on "où" (so that "où", where, stays apart from
   "ou", or), surrounding spaces and quotes stripped.
2. Match an ordered table of regular expressions, one per rule. The winner is the rule whose
   match starts *first in the question*; when two rules match at the same place, the one
   higher in the table wins. All rules are joined into one alternation, so the regex engine
   does exactly that in a single pass (it tries the positions left to right and, at each
   position, the alternatives in order).
3. Question words come in two strengths. Strong words are interrogative wherever they stand
   (quel, quoi, combien, pourquoi, comment, depuis quand): they match anywhere, which covers
   questions asked in place ("Le château a été construit en quelle année ?"). Weak words are
   also relative pronouns or conjunctions (qui, que, où, quand, lequel): they count only at
   the start of the question or of a clause after a comma or colon, possibly behind
   prepositions ("Avec qui", "D'où", "Jusqu'où"), or as the last word ("Il est né où ?").

Decisions (the FQuAD table groups questions by the question word; where a reader would
answer differently, the meaning of the whole phrase wins):

- "combien" anywhere makes a question how_many, whatever comes before ("Qui a marqué
  combien de buts ?"): the answer is a quantity.
- "combien de temps" is how_many, not when: it asks for a duration, a quantity.
- Temporal quel-phrases ("en quelle année", "à quel moment", "à quelle date", "quel jour",
  "à quelle époque"...) are when: they ask what "quand" asks.
- A locative preposition before quel and a place noun ("dans quel pays", "dans quelle
  ville", "sur quel continent", "de quelle région", "dans quel lieu") is where. Without the
  preposition ("Quel pays a gagné ?") the place is the thing chosen: which.
- "pour quelle raison", "dans quel but", "pour quel motif" are why; "de quelle manière",
  "de quelle façon", "par quel moyen", "dans quelle mesure" are how.
- "pour quoi" written apart is what ("Pour quoi est-il connu ?"), like "de quoi" and
  "à quoi"; "pourquoi" is why.
- "Est-ce que..." at the start is a yes/no question: other (unless it holds "combien").
  "Qu'est-ce que/qui" is what, "Où est-ce que" where, "Quand est-ce que" when.
- An unaccented "ou" means "or" and is not where, except as the first word of the question
  ("Ou se trouve... ?", a common way of typing "Où" without its accent; "Ou bien" excepted),
  and in "d'ou", "par ou" and "jusqu'ou", which cannot mean "or".
- "Qu'elle est/sont..." at the start is read as the frequent misspelling of "Quelle est":
  which, not what.

Known limits
------------
- No parsing: "Quand il pleut, que fait-il ?" is when; a relative "qui" after a comma
  ("Louis XIV, qui régnait..., est mort de quoi ?") is taken for who.
- "Quelle est la date de..." or "Quel âge..." stay which: only quel + time noun is when.
- Place nouns and time nouns are closed lists; "dans quel livre" stays which, as it should,
  but so does "dans quelle gare" until "gare" is added, and "dans quel état" (a US state or
  a condition?) stays which. "De quel pays..." opening a question is where, even in "De quel
  pays est-il le président ?".
- Misspelt question words ("qaund", "comien", "pouruqoi") fall into other.
- A weak word in the middle of a question asked in place ("Il est né où en 1950 ?",
  "Napoléon a épousé qui en 1796 ?") gives other: there, qui/où are usually relatives.
"""

import re
import unicodedata

from core.languages import find

TYPES = ("who", "what", "which", "where", "when", "why", "how", "how_many", "other")

# Typographic apostrophes and hyphens typed by annotators, mapped to their ASCII form.
_PUNCTUATION = dict.fromkeys("\u2019\u2018\u02bc\u00b4\u0060\u2032", "'") | dict.fromkeys(
    "\u2010\u2011\u2012\u2013", "-"
)
_QUOTES_AND_SPACES = " \t\r\n\u00a0\u202f\"'«»“”„‹›`"


def _bare_letters() -> dict[str, str]:
    """Return accented Latin letters mapped to bare ones, "ù" kept (it tells "où" from "ou")."""
    letters = {}
    for code in range(0xC0, 0x180):
        char = chr(code)
        bare = unicodedata.normalize("NFD", char)[0]
        if char != "ù" and bare != char and bare.isascii():
            letters[char] = bare
    return letters


_REPLACEMENTS = _PUNCTUATION | _bare_letters()
# str.translate is slow on non-ASCII text; a regex visiting only the characters to replace
# is several times faster (a question holds a handful of them).
_TO_REPLACE = re.compile("[" + re.escape("".join(_REPLACEMENTS)) + "]")


# A preposition (or the elided "d'" and "jusqu'") that may stand before a question word:
# "À qui", "Avec qui", "D'où", "Jusqu'où", "Selon qui", "D'après qui", with the nouns of a few
# prepositional phrases ("Avec l'aide de qui", "Par rapport à qui", "En l'honneur de qui"),
# a number ("En 1339, qui"), and "d où" typed without its apostrophe.
_PREP = (
    r"(?:\b(?:a|au|aux|apres|avant|avec|chez|contre|dans|de|des|du|depuis|durant|en|entre|"
    r"envers|hormis|jusque|lors|malgre|outre|par|parmi|pendant|pour|pres|sans|selon|sous|sur|"
    r"vers|grace|face|suite|partir|cause|aupres|autour|travers|rapport|la|l'aide|l'honneur|"
    r"l'initiative|l'origine|nom|profit|demande|service|\d[\d.,]*)\s+|\b(?:d|jusqu)'\s*|\bd\s+)"
)
# Where a weak question word counts: at the start of the question or of a clause.
# (A single negative lookbehind, true at position 0 and after , ; : — cheaper than "^|(?<=...)".)
_START = r"(?<![^,;:])\s*"
# After a weak word used as the last word of the question, only end punctuation may follow.
_END = r"\s*[?!.…]*$"
# Prepositions that turn "quel + place noun" into a question about a place.
_LOCATIVE = (
    r"(?:^de\s+|\b(?:dans|en|a|au|aux|sur|sous|vers|depuis|par|jusqu'(?:a|au|aux|en)|"
    r"pres\s+d[e']|hors\s+d[e']|a\s+travers|aupres\s+d[e'])\s*)"
)
_QUEL = r"\bquel(?:le)?s?\b"
_PLACE_NOUNS = (
    r"(?:pays|ville|region|lieu|endroit|continent|departement|province|commune|village|"
    r"quartier|zone|territoire|contree|ile|localite|capitale|ocean|mer|rue|cite|site|"
    r"emplacement|hopital|theatre|musee|batiment|edifice|eglise|chateau|stade|prison|"
    r"salle|ecole|universite|port|parc|monument)(?:s|x)?\b"
)
_TIME_NOUNS = (
    r"(?:annee|an|date|jour|moment|epoque|siecle|heure|mois|periode|decennie|saison|"
    r"millenaire|semaine|ere)s?\b"
)
_TO_BE = r"(?:est|sont|etai(?:t|ent)|fu(?:t|rent)|serai(?:t|ent))\b"
_LEQUEL = r"(?:lequel|laquelle|lesquel(?:le)?s|duquel|desquel(?:le)?s|auquel|auxquel(?:le)?s)"


def _weak(word: str, *, prepositions: bool = True, last: bool = True) -> str:
    """Return a pattern for a weak question word: at a clause start, or as the last word."""
    before = f"{_PREP}*" if prepositions else ""
    pattern = rf"{_START}{before}{word}\b"
    if last:
        pattern += rf"|\b{word}{_END}"
    return f"(?:{pattern})"


# The rules, in order. The first match in the question wins; at the same position the rule
# higher in the table wins. Every pattern uses non-capturing groups only (see _COMBINED).
_RULES: tuple[tuple[str, re.Pattern[str]], ...] = (
    # First of all, and anchored at position 0 so nothing can start earlier: "combien"
    # anywhere makes the answer a quantity ("En 2005, dans combien de pays...",
    # "Qui a marqué combien de buts ?"). "Combien de temps" is a duration: how_many too.
    ("how_many", re.compile(r"^(?=.*\bcombien\b)")),
    # "Est-ce que" opening the question asks yes or no; at position 0, before any later
    # question word of an embedded clause ("Est-ce que l'on sait quel...").
    ("other", re.compile(r"^est[-\s]?ce\s+qu")),
    # Before "quoi": "pourquoi" ends with "quoi" (the word boundary keeps them apart, the
    # order says which one we mean when reading the table).
    ("why", re.compile(r"\bpourquoi\b")),
    # Phrases with quel that mean why or how start with their preposition, before the
    # generic quel, which would match later in the same phrase.
    ("why", re.compile(rf"\b(?:pour|dans|a)\s+{_QUEL}\s+(?:raison|but|motif|fin|objectif)")),
    ("how", re.compile(rf"\b(?:de|par|dans)\s+{_QUEL}\s+(?:maniere|facon|moyen|mesure|sorte)")),
    # Temporal quel-phrases are when (FQuAD's "quand" group); before the generic quel, which
    # starts at the same word when there is no preposition ("Quel jour...").
    ("when", re.compile(rf"{_QUEL}\s+{_TIME_NOUNS}")),
    # A locative preposition + quel + place noun asks for a place: where, not which.
    ("where", re.compile(rf"{_LOCATIVE}{_QUEL}\s+{_PLACE_NOUNS}")),
    # "depuis quand", "jusqu'à quand" are interrogative wherever they stand.
    ("when", re.compile(r"\b(?:depuis|jusqu'\s*a)\s+quand\b")),
    # Generic quel: a choice among things. "quel que soit" and "tel quel" are not questions.
    ("which", re.compile(rf"(?<!\btel\s){_QUEL}(?!\s+qu(?:e\b|'))")),
    # "quoi" is interrogative wherever it stands ("De quoi...", "Il a inventé quoi ?"),
    # except in "quoi que" and "n'importe quoi".
    ("what", re.compile(r"(?<!n'importe\s)\bquoi\b(?!\s+qu)")),
    ("how", re.compile(r"\bcomment\b")),
    # "Qu'elle est..." is a common misspelling of "Quelle est...": which, before the "qu'"
    # rule below would read it as what.
    ("which", re.compile(_weak(rf"qu'elles?(?=\s+{_TO_BE})", prepositions=False, last=False))),
    # The weak words come last: they count only at a clause start or at the end, so a strong
    # word earlier in the question wins by position, and at the same position the more
    # specific strong rule wins by order. "qu'"/"que" only open the question: elsewhere
    # they are conjunctions or relatives ("Le livre que..."); "qu'" covers "Qu'est-ce
    # que/qui", "Qu'a-t-il".
    ("what", re.compile(_weak(r"(?:que|qu(?=['\s-]))", prepositions=False, last=False))),
    ("who", re.compile(_weak("qui"))),
    ("where", re.compile(_weak("où"))),
    # Unaccented "ou" is "or", except as the very first word (a missing accent) and after
    # "d'", "par", "jusqu'", where "or" makes no sense.
    ("where", re.compile(r"^(?:par\s+)?ou\b(?!\s+bien)|" + _weak(r"(?:d|jusqu)'\s*ou"))),
    ("when", re.compile(_weak("quand"))),
    ("which", re.compile(_weak(_LEQUEL))),
)

# One alternation of all the rules, each in a named group "r<index>": the engine returns the
# leftmost match and, at that position, the first rule in table order. With no capturing
# group inside the rules, the match's lastgroup names the rule that matched. Every rule
# starts where no letter precedes, so the "(?<!\w)" gate changes no result (the tests check it);
# it only saves the engine from trying every rule inside words (about a fifth of the time).
_COMBINED = re.compile(
    r"(?<!\w)(?:"
    + "|".join(f"(?P<r{index}>{pattern.pattern})" for index, (_, pattern) in enumerate(_RULES))
    + ")"
)
_KIND_OF_GROUP = {f"r{index}": kind for index, (kind, _) in enumerate(_RULES)}


def normalize(question: str) -> str:
    """Return the question case-folded, accents removed but on "où", quotes and spaces stripped."""
    text = unicodedata.normalize("NFC", question).casefold()
    text = _TO_REPLACE.sub(lambda match: _REPLACEMENTS[match[0]], text)
    return text.strip(_QUOTES_AND_SPACES)


def classify(question: str) -> str:
    """Return the type of a French question, one of TYPES ("other" when no rule applies)."""
    match = _COMBINED.search(normalize(question))
    if match is None:
        return "other"
    return _KIND_OF_GROUP[match.lastgroup]


# The question-word rules by name, as the registry of languages names them
# (core.languages: `Language.question_types`). A language without rules gets UNAVAILABLE:
# no type (an empty `Question.question_type`), which pages and files show as "not available".
UNAVAILABLE = ""
RULES = {"fquad-fr": classify}


def classify_in(language: str, question: str) -> str:
    """Return the type of a question in `language`: its rules' answer, or UNAVAILABLE where
    the language has none (never the French rules on another language's question)."""
    entry = find(language)
    rules = RULES.get(entry.question_types) if entry is not None and entry.question_types else None
    return UNAVAILABLE if rules is None else rules(question)
