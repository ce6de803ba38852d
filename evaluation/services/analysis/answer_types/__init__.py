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

The third round added: a title in another language (two function words French lacks) →
other_entity and a gloss or a word cited after its language → other, both before 2; "à
l'horizon 2024" and years with a minus sign in 2; a negated verb after its subject and a
whole sentence with its full stop in 3; in 6 to 9, a sentence's first word coordinated with
an adjective → adjective, a geographic noun with a region's adjective → place, trades, acts,
works and brands as class nouns, the class noun met before the same name in the paragraph
(`_context_class`: the paragraph is in `doc.user_data[CONTEXT]`), a name "en" a place →
place, a nickname → person. docs/answer-types.md ("Round 3") has which samples each rule was
written on and the leave-one-sample-out figures.

The fourth round added: a phrase headed by a noun of time ("sous le règne de", "au moment
de", "à l'époque de") and a bare year by its neighbours (an era after it, "de 221 à 206 av.
J.-C."; "en" before it and nothing counted after) in 2; a past historic the morphologizer
reads as a participle ("le royaume contrôla…") in 3; "tiers", "moitié", "un ou plusieurs",
"une place" in 5; "à partir de" as a preposition (its object is the head); a building's
capitalised class noun in a name ("le Petit Palais") → place and a people's noun before a
person's name, in the answer or the paragraph ("l'Américain Henry Longfellow") → person,
before 6 and in it; a participle graded by adverbs of degree only ("fortement opposé") and
a noun the parser hangs as an adjective with an adjective's ending ("remboursable en…") →
adjective in 10; "synonyme" as a citation noun. docs/answer-types.md ("Round 4").

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

The package holds the rules by concept: `kinds` (the types and shared word lists), `dates`,
`numbers`, `clauses`, the names by their own words and entities in `names`, the class nouns
before a name in `classnouns` and in the answer's paragraph in `paragraph`, the token helpers
in `tokens`, their precedence in `classify`,
the batched pipeline in `pipeline` and the model's loading in `loading`.
"""

from evaluation.services.analysis.answer_types.classify import classify_answer
from evaluation.services.analysis.answer_types.dates import is_date_text
from evaluation.services.analysis.answer_types.kinds import AnswerType
from evaluation.services.analysis.answer_types.loading import (
    SPACY_MODEL,
    load_french,
    pipeline_name,
)
from evaluation.services.analysis.answer_types.pipeline import (
    MisalignedAnswer,
    answer_types,
    answer_types_checked,
    sentence_starts,
)

__all__ = [
    "SPACY_MODEL",
    "AnswerType",
    "MisalignedAnswer",
    "answer_types",
    "answer_types_checked",
    "classify_answer",
    "is_date_text",
    "load_french",
    "pipeline_name",
    "sentence_starts",
]
