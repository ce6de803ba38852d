"""Question types: the FQuAD question words, rule by rule, and their counts on PIAF."""

import json
import time
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from annotation import question_types
from annotation.models import QuestionType
from annotation.question_types import TYPES, classify
from tests.needs import PIAF, require_file

# The counts observed on PIAF v1.0 (3,835 questions); samples of each type were read by hand.
PIAF_COUNTS = {
    "who": 544,
    "what": 357,
    "which": 1623,
    "where": 255,
    "when": 351,
    "why": 121,
    "how": 219,
    "how_many": 233,
    "other": 132,
}

CASES = [
    # who: "qui" first, after prepositions, at the end, after an opening clause
    ("Qui a fondé la ville de Montréal ?", "who"),
    ("Qui était le premier président de la Ve République ?", "who"),
    ("Qui est-ce qui a peint La Joconde ?", "who"),
    ("Avec qui Louis XIV s'est-il marié en 1660 ?", "who"),
    ("À qui appartient le château de Chambord ?", "who"),
    ("Par qui la Bastille fut-elle prise ?", "who"),
    ("Selon qui la Terre tourne-t-elle autour du Soleil ?", "who"),
    ("De qui Louis XVI est-il l'allié ?", "who"),
    ("Contre qui les Gaulois se battent-ils à Alésia ?", "who"),
    ("Avec l'aide de qui les frères Barberousse repoussent-ils les Espagnols ?", "who"),
    ("Par rapport à qui Hans Herrmann est-il moins favorisé ?", "who"),
    ("Sous Hugues Capet, qui possède les pouvoirs dans les provinces ?", "who"),
    ("En 1339 qui établit la dynastie du Chah Mir ?", "who"),
    ("Napoléon a épousé qui en 1796 ?", "other"),  # a weak word in the middle: a known limit
    ("Joséphine a épousé qui ?", "who"),
    # what: que, qu', qu'est-ce que/qui, quoi anywhere, "pour quoi" written apart
    ("Que fait-il après la bataille ?", "what"),
    ("Que signifie étymologiquement le mot rex ?", "what"),
    ("Qu'est-ce que la photosynthèse ?", "what"),
    ("Qu'est-ce qui a causé la mort du Rais Hamidou ?", "what"),
    ("Qu'a-t-il découvert en 1895 ?", "what"),
    ("Qu’est-il arrivé au meneur de la révolte ?", "what"),
    ("Qu'est ce qu'Elizabeth décide de cacher ?", "what"),
    ("De quoi sont accusés les Acadiens ?", "what"),
    ("À quoi sert la corne du rhinocéros blanc ?", "what"),
    ("En quoi consiste la sélection massale ?", "what"),
    ("Il a inventé quoi ?", "what"),
    ("La NBA Development League, c'est quoi ?", "what"),
    ("Pour quoi faire ?", "what"),
    ("Pour quoi Marie Curie est-elle connue ?", "what"),
    # which: quel and lequel families, a choice among things
    ("Quel est le plus long fleuve de France ?", "which"),
    ("Quelle est la capitale de l'Australie ?", "which"),
    ("Quels légumes farcis sont préparés à partir de ces ingrédients ?", "which"),
    ("Quelles sont les couleurs du drapeau italien ?", "which"),
    ("Quel pays a remporté la Coupe du monde en 1998 ?", "which"),
    ("Avec quel modèle de Porsche Hans Herrmann remporte-t-il la course ?", "which"),
    ("Dans quelle langue est écrite la Vulgate ?", "which"),
    ("Lequel des deux frères est l'aîné ?", "which"),
    ("Laquelle de ces villes est la plus peuplée ?", "which"),
    ("Auquel des rois doit-on ce palais ?", "which"),
    ("Parmi les huit premiers plats proposés, lequel est végétarien ?", "which"),
    ("Qu'elle est la nationalité de Peter Post ?", "which"),
    # where: où first or last, d'où, par où, jusqu'où, place quel-phrases
    ("Où se trouve la tour Choukhov ?", "where"),
    ("Où est-ce que poussent les Elaphomyces ?", "where"),
    ("D'où vient le mot grec meros ?", "where"),
    ("D’où vient le nom de la ville ?", "where"),
    ("Par où passe l'équateur ?", "where"),
    ("Jusqu'où les frontières avancent-elles après le traité ?", "where"),
    ("Il est né où ?", "where"),
    ("Selon Tacite, où se situe le pomérium de Rome ?", "where"),
    ("Dans quel pays se trouve Tombouctou ?", "where"),
    ("Dans quelle ville se situe la basilique ?", "where"),
    ("Dans quelle région les hommes de Rochambeau se sont-ils enfuis ?", "where"),
    ("Dans quel lieu rentre Jim à sa sortie d'hôpital ?", "where"),
    ("La vie sur terre a commencé sur quel continent ?", "where"),
    ("De quel pays vient le thé Darjeeling ?", "where"),
    ("Ou se trouve la Guyane ?", "where"),
    # when: quand, depuis quand, temporal quel-phrases wherever they stand
    ("Quand est-il né ?", "when"),
    ("Quand a eu lieu la partition des Indes ?", "when"),
    ("Quand est-ce que le roi des Francs est devenu roi de France ?", "when"),
    ("Depuis quand la Norvège est-elle indépendante ?", "when"),
    ("Jusqu'à quand le traité reste-t-il en vigueur ?", "when"),
    ("En quelle année le film 2012 est-il sorti ?", "when"),
    ("À quel moment Bond rend-il visite à Corinne ?", "when"),
    ("À quelle date Tokyo s'empara-t-il de Singapour ?", "when"),
    ("Quel jour de décembre 1941 eut lieu l'attaque de Pearl Harbor ?", "when"),
    ("À quelle époque se déroule cette histoire ?", "when"),
    ("Le château a été construit en quelle année ?", "when"),
    ("L'espèce Sahelanthropus a été découverte quand ?", "when"),
    # why: pourquoi, and the quel-phrases that ask for a reason
    ("Pourquoi la succession de Charlemagne fut-elle compliquée ?", "why"),
    ("Pourquoi les colons ont-ils refusé de payer les taxes ?", "why"),
    ("Pour quelle raison la réhabilitation a-t-elle été décidée ?", "why"),
    ("Pour quel motif Edward Baker est-il surnommé Gray Eagle ?", "why"),
    ("Dans quel but les grandes infrastructures étaient-elles construites ?", "why"),
    # how: comment, and the quel-phrases that ask for a manner
    ("Comment les membres de la Chambre des députés sont-ils élus ?", "how"),
    ("Comment s’appelle le couvercle de l’arche d’alliance ?", "how"),
    ("Après 1969, comment les surréalistes ont-ils réagi ?", "how"),
    ("De quelle manière le club a-t-il gagné la finale ?", "how"),
    ("Par quel moyen les messages étaient-ils transmis ?", "how"),
    # how_many: combien anywhere, before everything; "combien de temps" is a quantity
    ("Combien de pays autorisent le mariage homosexuel en 2019 ?", "how_many"),
    ("Combien coûte le journal ?", "how_many"),
    ("Combien de temps vit une abeille en hiver ?", "how_many"),
    ("Depuis combien de temps le territoire est-il habité ?", "how_many"),
    ("En 2005, dans combien de pays a-t-on fêté l'Aïd el-Fitr ?", "how_many"),
    ("De combien de tribus était composée la Gaule ?", "how_many"),
    ("L'église a combien d'étages ?", "how_many"),
    ("Qui a marqué combien de buts en finale ?", "how_many"),
    # other: yes/no questions, "ou" meaning "or", orders, fragments
    ("Est-ce que les ventes de la Nintendo 3DS ont été un succès ?", "other"),
    ("Est-ce qu'il y a de la forêt près de la côte des Blancs ?", "other"),
    ("Les DOM-TOM sont-ils soumis au droit européen ?", "other"),
    ("Stablinski était-il sportif ?", "other"),
    ("Le haut fourneau est polluant ou pas ?", "other"),
    ("Est-il né à Paris ou à Lyon ?", "other"),
    ("Ou bien Paris, ou bien Lyon ?", "other"),
    ("Le livre que Victor Hugo a écrit en exil est-il connu ?", "other"),
    ("Citer la première désignation mentionnée de la Chelidonium majus", "other"),
    ("", "other"),
]


@pytest.mark.parametrize(("question", "expected"), CASES)
def test_a_question_gets_its_type(question, expected):
    assert classify(question) == expected


def test_the_types_are_the_campaign_question_types():
    assert tuple(QuestionType.values) == TYPES


@pytest.mark.parametrize(
    ("variants", "expected"),
    [
        (
            [
                "Où est né Victor Hugo ?",
                "OÙ EST NÉ VICTOR HUGO ?",
                "où est né victor hugo",
                "Où est ne Victor Hugo ?",
                "Ou\u0300 est né Victor Hugo ?",
            ],
            "where",
        ),
        (
            [
                "Qu'est-ce que la photosynthèse ?",
                "Qu’est-ce que la photosynthèse ?",
                "QU'EST-CE QUE LA PHOTOSYNTHÈSE ?",
                "qu'est ce que la photosynthese",
                "Qu\u2018est\u2011ce que la photosynthèse ?",
            ],
            "what",
        ),
        (
            [
                "À quelle époque vivait-il ?",
                "A quelle epoque vivait-il ?",
                "À QUELLE ÉPOQUE VIVAIT-IL ?",
                "à quelle époque vivait-il",
            ],
            "when",
        ),
        (
            [
                "Qui était le roi ?",
                "QUI ÉTAIT LE ROI ?",
                "qui etait le roi",
                '  "Qui était le roi ?"  ',
                "« Qui était le roi ? »",
                "\tQui  était\u00a0le roi ?\n",
            ],
            "who",
        ),
        (["Pourquoi est-il parti ?", "POURQUOI EST-IL PARTI ?", "pourquoi est il parti"], "why"),
        (
            [
                "D'où vient-il ?",
                "D’où vient-il ?",
                "D\u02bcoù vient-il ?",
                "D'OÙ VIENT-IL ?",
                "D'ou vient-il ?",
                "d où vient-il",
            ],
            "where",
        ),
    ],
)
def test_case_accents_and_apostrophes_do_not_change_the_type(variants, expected):
    assert [classify(variant) for variant in variants] == [expected] * len(variants)


@given(st.text())
def test_any_text_gets_one_of_the_types(text):
    assert classify(text) in TYPES


# Words that make the rules meet, for the test below: question words, prepositions,
# elisions, clause breaks and the words around them.
WORDS = [
    "qui",
    "que",
    "qu'",
    "quoi",
    "quel",
    "quelle",
    "quels",
    "lequel",
    "où",
    "ou",
    "d'où",
    "jusqu'où",
    "quand",
    "depuis",
    "comment",
    "pourquoi",
    "pour",
    "combien",
    "est-ce",
    "de",
    "à",
    "a",
    "dans",
    "en",
    "par",
    "avec",
    "année",
    "pays",
    "raison",
    "manière",
    "tel",
    "n'importe",
    "elle",
    "est",
    "bien",
    "la",
    "ville",
    "1990",
    ",",
    ":",
    "?",
    "Où",
    "QUEL",
]


def rules_one_by_one(question: str) -> str:
    """Return the type of the rule matching first in the question, ties by table order."""
    text = question_types.normalize(question)
    found = [
        (match.start(), index)
        for index, (_, pattern) in enumerate(question_types._RULES)
        if (match := pattern.search(text))
    ]
    return question_types._RULES[min(found)[1]][0] if found else "other"


@given(st.lists(st.sampled_from(WORDS), max_size=12).map(" ".join))
def test_the_single_regex_agrees_with_the_rules_tried_one_by_one(question):
    assert classify(question) == rules_one_by_one(question)


@pytest.mark.parametrize(("question", "expected"), CASES)
def test_the_cases_agree_with_the_rules_tried_one_by_one(question, expected):
    assert rules_one_by_one(question) == expected


def test_every_rule_names_a_type_and_has_no_capturing_group():
    # classify reads the matching rule from the match's last group: a capturing group inside
    # a rule would make it name the wrong rule.
    assert all(kind in TYPES and pattern.groups == 0 for kind, pattern in question_types._RULES)


@pytest.mark.parametrize("text", ["1 " * 5000, ", a " * 2500, "a " * 5000, "qui " * 2500])
def test_a_long_pathological_text_is_classified_at_once(text):
    started = time.perf_counter()
    classify(text)
    assert time.perf_counter() - started < 1


def piaf_questions() -> list[str]:
    """Return the PIAF v1.0 questions; fail in CI, skip elsewhere, when the file is missing."""
    require_file(PIAF)
    data = json.loads(PIAF.read_text(encoding="utf-8"))["data"]
    return [
        qa["question"]
        for article in data
        for paragraph in article["paragraphs"]
        for qa in paragraph["qas"]
    ]


def test_piaf_questions_get_the_observed_types():
    questions = piaf_questions()

    counts = Counter(classify(question) for question in questions)

    print({kind: counts[kind] for kind in TYPES})
    assert len(questions) == 3835
    assert dict(counts) == PIAF_COUNTS
    assert counts["other"] / len(questions) < 0.15


def test_the_french_rules_run_only_on_languages_whose_entry_names_them():
    from annotation.question_types import UNAVAILABLE, classify_in

    assert classify_in("fr", "Pourquoi le château fut-il construit ?") == "why"
    assert classify_in("fr-CA", "Combien de tours a-t-il ?") == "how_many"
    # "Quand" is French for when: an English, Thai or Chinese question is not read as French.
    assert classify_in("en", "Quand was the castle built?") == UNAVAILABLE == ""
    assert classify_in("th", "ปราสาทสร้างขึ้นเมื่อไร") == ""
    assert classify_in("zh", "城堡是什么时候建造的？") == ""
    assert classify_in("pt", "Quando foi construído?") == ""
    assert UNAVAILABLE not in QuestionType.values
