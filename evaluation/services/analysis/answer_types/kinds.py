"""The answer types and the word lists the rules of several kinds share."""

from __future__ import annotations

import enum


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
    actrice chanteur chanteuse joueur joueuse entraîneur pilote couple dieu déesse
    directeur directrice secrétaire gouverneur maire député sénateur ambassadeur consul
    chancelier vice-président fondateur fondatrice auteur autrice sculpteur musicien
    musicienne philosophe historien historienne savant mathématicien physicien chimiste
    médecin chirurgien avocat journaliste réalisateur réalisatrice producteur dramaturge
    romancier romancière guitariste pianiste violoniste sergent officier moine prêtre pasteur
    rabbin imam prophète apôtre disciple héros héroïne personnage épouse époux mari veuve
    oncle tante neveu nièce cousin cousine grand-père grand-mère successeur héritier
    héritière champion championne athlète nageur nageuse cycliste footballeur boxeur skieur
    coureur coureuse patineur patineuse tennisman attaquant défenseur gardien
    préfet sélectionneur vizir pharaon shah khan chevalier marquis marquise vicomte
    vicomtesse infant infante dauphin régent régente""".split()  # noqa: SIM905
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
    observatoire continent""".split()  # noqa: SIM905
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
    campagne révolution conférence congrès paix capitulaire charte bulle ordonnance pacte
    concordat convention protocole armistice derby""".split()  # noqa: SIM905
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
    syllabe synonyme synonymes""".split()  # noqa: SIM905
)
NAME_OF = frozenset({"de", "d'", "d’", "du", "des"})
# The same in the Italian names French quotes ("le derby della Madonnina").
FOREIGN_OF = frozenset({"della", "delle", "dello", "del", "dei", "degli", "di"})
# Works, brands and products named after their class noun, in the answer or before it in the
# paragraph ("la bière Pelforth", "le single Kuro Neko", "la méthode Gundersen"): other
# proper nouns. Only directly before the name ("le film de Truffaut" names a person).
WORK_NOUNS = frozenset(
    """film films roman romans album albums chanson chansons single poème poèmes opéra
    opéras ballet symphonie tableau tableaux œuvre livre livres recueil série séries
    feuilleton émission magazine journal journaux revue quotidien hebdomadaire mensuel
    bimensuel périodique logiciel jeu jeux console marque marques bière bières vin vins
    cépage fromage modèle voiture moteur avion fusée satellite sonde label groupe méthode
    épreuve opération plan projet programme doctrine""".split()  # noqa: SIM905
)
# Place nouns whose name, met elsewhere in the paragraph, says a place ("la ville de Sion"):
# the geographic ones. Streets, squares, buildings and schools are named after persons ("la
# rue Victor Hugo", "le lycée Henri-IV"): their names tell nothing.
GEOGRAPHIC_NOUNS = frozenset(
    """ville villes village villages cité république royaume empire île îles région
    province département commune comté duché principauté émirat pays mont monts massif lac
    vallée fleuve rivière baie golfe désert archipel plaine plateau forêt colline montagne
    volcan mer océan étang marais glacier oasis bassin delta estuaire péninsule isthme atoll
    lagune ruisseau torrent cordillère steppe territoire colonie canton arrondissement
    district paroisse hameau bourg oblast capitale continent""".split()  # noqa: SIM905
)


SUPERLATIVES = frozenset({"plus", "moins", "mieux"})


PARTITIVES = frozenset({"de", "d'", "d’", "des"})
