"""Round 5 of the answer-type rules (issue 25, item 19): one case per rule, and a case each
rule must leave alone, checked against fr_core_news_md 3.8.0 (docs/answer-types.md, "Round 5").
The sentences are made up for these tests; none is a labelled sample's."""

import pytest

from evaluation.services.analysis.answer_types import classify_answer, load_french
from evaluation.services.analysis.answer_types.recurring import is_race


@pytest.fixture(scope="module")
def nlp():
    return load_french()


def classify(nlp, context: str, answer: str) -> str:
    start = context.index(answer)
    return classify_answer(nlp(context), start, start + len(answer)).value


ROUND_5 = [
    # a race named by its length and its place, after a definite article
    (
        "Il remporte en 1962 les 1 000 kilomètres de Montlhéry avec son frère.",
        "les 1 000 kilomètres de Montlhéry",
        "other_entity",
    ),
    ("Le village est situé à 30 kilomètres de Lyon.", "à 30 kilomètres de Lyon", "number"),
    # colours and their shades
    ("Le plumage du mâle est gris clair.", "gris clair", "adjective"),
    ("Le peintre broie un rouge de cochenille.", "un rouge de cochenille", "common_noun"),
    # a school's name after its class noun; after "à" it is a place
    (
        "Elle enseigne à présent à l'université de médecine de Varsovie.",
        "l'université de médecine de Varsovie",
        "other_entity",
    ),
    (
        "Il obtient son diplôme à l'Université de Dakar en 1975.",
        "à l'Université de Dakar",
        "place",
    ),
    ("Les lycées de la région ferment en juillet.", "Les lycées", "common_noun"),
    # a list joined by commas, its head read as an adjective, a noun among its words
    (
        "D'autres cultes chrétiens, judaïsme, islam y sont représentés.",
        "chrétiens, judaïsme, islam",
        "common_noun",
    ),
    ("Les chiens sont grands, lourds, lents.", "grands, lourds, lents", "adjective"),
    # a word the French vectors lack, closing brackets: a foreign word glossed
    ("Le pays compte 19 comtés (fylker) depuis 2020.", "fylker", "other"),
    ("Le pays compte 19 comtés (provinces) depuis 2020.", "provinces", "common_noun"),
]


@pytest.mark.parametrize(("context", "answer", "expected"), ROUND_5)
def test_round_5_rules_type_their_answers(nlp, context, answer, expected):
    assert classify(nlp, context, answer) == expected


def test_a_race_needs_its_article_its_length_and_a_capitalised_place():
    assert is_race("les 24 Heures du Mans")
    assert is_race("aux 1 000 kilomètres du Nürburgring")
    assert not is_race("à 30 kilomètres de Lyon")
    assert not is_race("les 30 kilomètres de la frontière")
    assert not is_race("les 24 heures suivantes")
