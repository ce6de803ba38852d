"""Segmentation of plain-text Wikipedia extracts into the paragraphs annotators see."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corpus.segmentation import (
    END_MATTER,
    REASONS,
    Dropped,
    Segmentation,
    normalize,
    segment,
)
from tests.needs import PIAF, require_file


def prose(subject: str, length: int = 600) -> str:
    """Return a French paragraph of exactly ``length`` characters ending with a full stop."""
    sentence = f"{subject} est évoqué dans les chroniques de la ville et dans ses archives. "
    body = (sentence * (length // len(sentence) + 1))[: length - 1]
    return (body[:-1] + "s" if body.endswith(" ") else body) + "."


INTRO = prose("Le château", 620)
HISTORY = prose("Le bourg médiéval", 700)
ORIGINS = prose("Le prieuré", 540)


def test_headings_are_dropped_and_name_the_section_of_what_follows():
    extract = f"{INTRO}\n\n\n== Histoire ==\n{HISTORY}\n\n=== Origines ===\n\n{ORIGINS}\nCourt."

    result = segment(extract)

    assert result.paragraphs == [INTRO, HISTORY, ORIGINS]
    assert result.dropped == [
        Dropped("heading", "Histoire", "== Histoire ==", 14),
        Dropped("heading", "Origines", "=== Origines ===", 16),
        Dropped("too_short", "Origines", "Court.", 6),
    ]


@pytest.mark.parametrize("depth", [2, 3, 4, 5, 6])
def test_headings_of_every_depth_are_dropped(depth):
    marks = "=" * depth

    result = segment(f"{marks} Géographie {marks}\n{HISTORY}")

    assert result.paragraphs == [HISTORY]
    assert result.dropped == [
        Dropped("heading", "Géographie", f"{marks} Géographie {marks}", 12 + 2 * depth)
    ]


def test_end_matter_stops_the_article():
    references = "Jean Dupont, Histoire du bourg, Paris, 1950.\nSite officiel"
    extract = (
        f"{INTRO}\n\n== Histoire ==\n{HISTORY}\n\n\n== Notes et références ==\n\n"
        f"{references}\n\n== Chronologie ==\n{ORIGINS}"
    )

    result = segment(extract)

    rest = normalize(f"== Notes et références ==\n\n{references}\n\n== Chronologie ==\n{ORIGINS}")
    assert result.paragraphs == [INTRO, HISTORY]
    assert result.dropped == [
        Dropped("heading", "Histoire", "== Histoire ==", 14),
        Dropped("end_matter", "Notes et références", rest[:80], len(rest)),
    ]
    assert len(rest) == 25 + 1 + 44 + 1 + 13 + 1 + 17 + 1 + 540


@pytest.mark.parametrize(
    ("heading", "title"),
    [
        ("== Notes et références ==", "Notes et références"),
        ("== NOTES ET RÉFÉRENCES ==", "NOTES ET RÉFÉRENCES"),
        ("== Notes et\u00a0références ==", "Notes et références"),
        ("==\u00a0Notes  et\u202fréférences ==", "Notes et références"),
        ("== Re\u0301fe\u0301rences ==", "Références"),
        ("=== voir aussi ===", "voir aussi"),
        ("== Liens externes ==", "Liens externes"),
        ("== Bibliographie ==", "Bibliographie"),
        ("== Annexes ==", "Annexes"),
        ("== Articles connexes ==", "Articles connexes"),
        ("== Notes ==", "Notes"),
        ("== Sources ==", "Sources"),
    ],
)
def test_end_matter_titles_match_whatever_their_case_and_spaces(heading, title):
    result = segment(f"{INTRO}\n{heading}\n{HISTORY}")

    assert result.paragraphs == [INTRO]
    [end] = result.dropped
    assert (end.reason, end.section) == ("end_matter", title)
    assert end.chars == len(normalize(heading)) + 1 + len(HISTORY)
    assert end.excerpt == normalize(f"{heading} {HISTORY}")[:80]


@pytest.mark.parametrize(
    ("language", "heading"),
    [("en", "See also"), ("de", "Weblinks"), ("es", "Véase también"), ("it", "Voci correlate")],
)
def test_end_matter_of_other_languages(language, heading):
    result = segment(f"{INTRO}\n== {heading} ==\n{HISTORY}", language=language)

    assert result.paragraphs == [INTRO]
    assert [drop.reason for drop in result.dropped] == ["end_matter"]


def test_end_matter_titles_are_stored_lower_cased_for_each_language():
    assert set(END_MATTER) >= {"fr", "en", "de", "es", "it"}
    assert "notes et références" in END_MATTER["fr"]
    assert "further reading" in END_MATTER["en"]
    assert all(
        title == normalize(title).lower() for titles in END_MATTER.values() for title in titles
    )


def test_a_title_that_ends_matter_in_french_is_prose_in_german():
    result = segment(f"== Voir aussi ==\n{HISTORY}", language="de")

    assert result.paragraphs == [HISTORY]


def test_an_unknown_language_is_refused_with_what_to_do():
    with pytest.raises(
        ValueError,
        match=r"language 'xx'.*add the language to the registry, core/languages/catalogue.py",
    ):
        segment(INTRO, language="xx")


def test_a_regional_language_code_uses_its_base_language():
    result = segment(f"{INTRO}\n== Liens externes ==\n{HISTORY}", language="fr-CA")

    assert result.paragraphs == [INTRO]


def test_short_paragraphs_are_dropped_with_their_length():
    short = prose("Le moulin", 499)

    result = segment(f"{short}\n{INTRO}\n  La  ville\u00a0compte 3 000 habitants.  ")

    assert result.paragraphs == [INTRO]
    assert result.dropped == [
        Dropped("too_short", "", normalize(short)[:80], 499),
        Dropped("too_short", "", "La ville compte 3 000 habitants.", 32),
    ]


def test_min_chars_is_inclusive():
    exact = prose("Le moulin", 500)

    assert segment(exact).paragraphs == [exact]
    assert segment(exact, min_chars=501).dropped == [Dropped("too_short", "", exact[:80], 500)]


def test_max_chars_drops_long_paragraphs_and_is_inclusive():
    result = segment(f"{INTRO}\n{HISTORY}\n{ORIGINS}", max_chars=620)

    assert result.paragraphs == [INTRO, ORIGINS]
    assert result.dropped == [Dropped("too_long", "", HISTORY[:80], 700)]


def test_max_chars_below_min_chars_is_refused():
    with pytest.raises(ValueError, match=r"max_chars \(100\) is below min_chars \(500\)"):
        segment(INTRO, max_chars=100)


@pytest.mark.parametrize(
    "item",
    [
        "* Paris",
        "# Lyon",
        "- Marseille",
        "• Toulouse",
        "1. Nice",
        "12) Nantes",
        "** Lille",
        "– Brest",
    ],
)
def test_lines_with_a_list_marker_are_list_items(item):
    result = segment(f"{INTRO}\n{item}\n{HISTORY}")

    assert result.paragraphs == [INTRO, HISTORY]
    assert result.dropped == [Dropped("list_item", "", item, len(item))]


def test_a_long_line_with_a_list_marker_is_still_a_list_item():
    item = f"* {HISTORY}"

    result = segment(item)

    assert result.paragraphs == []
    assert result.dropped == [Dropped("list_item", "", item[:80], 702)]


def test_a_run_of_short_lines_without_final_punctuation_is_a_list():
    extract = (
        f"== Économie ==\n{INTRO}\nLes principales activités sont :\n\n"
        "Agriculture (céréales)\nViticulture ;\nTourisme, en été\nArtisanat."
    )

    result = segment(extract)

    assert result.paragraphs == [INTRO]
    assert result.dropped == [
        Dropped("heading", "Économie", "== Économie ==", 14),
        Dropped("too_short", "Économie", "Les principales activités sont :", 32),
        Dropped("list_item", "Économie", "Agriculture (céréales)", 22),
        Dropped("list_item", "Économie", "Viticulture ;", 13),
        Dropped("list_item", "Économie", "Tourisme, en été", 16),
        Dropped("too_short", "Économie", "Artisanat.", 10),
    ]


def test_marked_and_unmarked_lines_make_one_list():
    result = segment("* Paris\nLyon")

    assert [drop.reason for drop in result.dropped] == ["list_item", "list_item"]


def test_a_lone_short_line_or_a_blank_line_between_two_is_no_list():
    result = segment("Une légende\n\nUne autre légende\n\nCarte de la région")

    assert [drop.reason for drop in result.dropped] == ["too_short"] * 3


def test_a_heading_breaks_a_list_run():
    result = segment("Une légende\n== Histoire ==\nUne autre légende")

    assert [drop.reason for drop in result.dropped] == ["too_short", "heading", "too_short"]


def test_lines_longer_than_an_item_are_never_unmarked_list_items():
    line = "x" * 201

    result = segment(f"{line}\n{line}", min_chars=100)

    assert result.paragraphs == [line, line]


@pytest.mark.parametrize(
    "line",
    [
        '{| class="wikitable"',
        "|-",
        "| 1950 || 3 000",
        "|}",
        "! Année !! Population",
        "Année | Population | Densité",
    ],
)
def test_table_lines_are_dropped(line):
    result = segment(f"{INTRO}\n{line}")

    assert result.paragraphs == [INTRO]
    assert result.dropped == [Dropped("table", "", line, len(line))]


@pytest.mark.parametrize(
    "line",
    [
        "{{Infobox Commune de France",
        "}}",
        "Le château{{refnec}} domine la vallée.",
        "Voir [[Paris]] pour la suite.",
        "Une phrase sourcée.<ref>Dupont, 1950.</ref>",
        '<ref name="a"/>',
        "Une ligne<br />coupée",
        "__NOTOC__",
        "{\\displaystyle x^{2}",
        "f ( x ) = x 2 {\\displaystyle f(x)=x^{2}}",
        "x=[]<>^_",
    ],
)
def test_leftover_markup_drops_the_line(line):
    result = segment(f"{INTRO}\n{line}")

    assert result.paragraphs == [INTRO]
    assert result.dropped == [Dropped("markup", "", normalize(line)[:80], len(normalize(line)))]


def test_markup_drops_a_long_paragraph_too():
    line = f"{HISTORY}<ref>Dupont, 1950.</ref>"

    result = segment(line)

    assert result.paragraphs == []
    assert result.dropped == [Dropped("markup", "", HISTORY[:80], len(line))]


def test_inline_math_is_cut_out_of_prose_that_is_kept():
    before = prose("La fonction", 300)[:-1]
    after = prose("Cette courbe", 300)
    line = (
        f"{before} f ( x ) = x 2 {{\\displaystyle f(x)=x^{{\\frac {{1}}{{2}}}}}}, "
        f"avec x ∈ R {{\\textstyle x\\in \\mathbb {{R}} }} et {after}"
    )

    result = segment(line)

    assert result.paragraphs == [f"{before} f ( x ) = x 2, avec x ∈ R et {after}"]
    assert result.dropped == []


def test_prose_with_absolute_values_is_no_table():
    line = f"{HISTORY[:-1]}, où | x | {{\\displaystyle |x|}} est la valeur absolue de x."

    assert segment(line).paragraphs == [f"{HISTORY[:-1]}, où | x | est la valeur absolue de x."]


def test_a_stray_double_bracket_is_kept_as_in_real_paragraphs():
    line = f"{HISTORY[:-1]}, publié en [[1987]), et réédité."

    assert segment(line).paragraphs == [line]


def test_whitespace_is_collapsed_to_single_ascii_spaces():
    raw = "  Le\u00a0château\u202f: une\u2009tour\tet  un\u3000donjon.\u00a0 "

    assert normalize(raw) == "Le château : une tour et un donjon."


def test_nbsp_and_friends_are_collapsed_in_kept_paragraphs():
    spaced = INTRO.replace(" ", "\u00a0", 3).replace(" ", "\u202f", 2).replace(" ", " \u2009\t", 1)

    assert segment(f"\u00a0{spaced}\u2009").paragraphs == [INTRO]


def test_decomposed_accents_are_composed():
    decomposed = INTRO.replace("é", "e\u0301")
    assert decomposed != INTRO

    assert normalize("e\u0301te\u0301") == "été"
    assert segment(decomposed).paragraphs == [INTRO]


@pytest.mark.parametrize("extract", ["", "\n\n", " \u00a0\n\t\n"])
def test_an_empty_extract_gives_nothing(extract):
    assert segment(extract) == Segmentation(paragraphs=[], dropped=[])


def test_a_text_without_heading_is_all_introduction():
    result = segment(f"{INTRO}\n{HISTORY}\nFin.")

    assert result.paragraphs == [INTRO, HISTORY]
    assert result.dropped == [Dropped("too_short", "", "Fin.", 4)]


def test_the_excerpt_is_the_first_80_normalised_characters():
    line = "Le\u00a0 moulin " + "a" * 200

    [drop] = segment(line).dropped

    assert drop == Dropped("too_short", "", "Le moulin " + "a" * 70, 210)


def test_windows_line_endings_split_paragraphs():
    result = segment(f"{INTRO}\r\n\r\n== Histoire ==\r\n{HISTORY}\r\n")

    assert result.paragraphs == [INTRO, HISTORY]
    assert result.dropped == [Dropped("heading", "Histoire", "== Histoire ==", 14)]


def load_piaf_articles() -> list[dict]:
    return json.loads(require_file(PIAF).read_text(encoding="utf-8"))["data"]


def test_every_real_piaf_paragraph_comes_back_exactly_and_in_order():
    articles = load_piaf_articles()
    intro, *others = articles
    parts = [context["context"] for context in intro["paragraphs"]]
    for number, article in enumerate(others):
        parts.append(f"\n{'=' * (2 + number % 3)} {article['title']} {'=' * (2 + number % 3)}")
        parts.extend(context["context"] for context in article["paragraphs"])
        parts.append("Légende d'une illustration")
    parts.append(
        "\n== Notes et références ==\n* Dupont, 1950.\n== Liens externes ==\nSite officiel"
    )
    extract = "\n".join(parts)

    result = segment(extract)

    expected = [normalize(p["context"]) for article in articles for p in article["paragraphs"]]
    assert len(expected) == 761
    assert result.paragraphs == expected
    reasons = [drop.reason for drop in result.dropped]
    assert reasons.count("heading") == len(others)
    assert reasons.count("too_short") == len(others)
    assert reasons[-1] == "end_matter"
    assert len(reasons) == 2 * len(others) + 1


FRAGMENTS = [
    "\n",
    "\n\n",
    "== Notes ==",
    "== Histoire ==",
    "=== a ===",
    "{\\displaystyle x^{2}}",
    "{|",
    "|",
    "* ",
    "1. ",
    "[[Paris]]",
    "{{",
    "}}",
    "<ref>",
    "__NOTOC__",
    "\u00a0",
    "\u202f",
    "\u2009",
    "\t",
    "e\u0301",
    "é",
    ".",
    ";",
    " ",
    "\r",
    "\u2028",
    "\x1c",
    "\x85",
]


@settings(max_examples=300, deadline=None)
@given(
    text=st.lists(st.one_of(st.text(max_size=30), st.sampled_from(FRAGMENTS)), max_size=40).map(
        "".join
    ),
    min_chars=st.integers(min_value=0, max_value=30),
)
def test_kept_paragraphs_are_long_enough_normalised_and_on_one_line(text, min_chars):
    result = segment(text, min_chars=min_chars)

    for paragraph in result.paragraphs:
        assert len(paragraph) >= min_chars
        assert paragraph == normalize(paragraph)
        assert "\n" not in paragraph
    assert all(drop.reason in REASONS for drop in result.dropped)


def test_the_default_length_bound_is_the_languages_rule():
    """FQuAD's 500 French characters are 162 Chinese ones (core.languages)."""
    chinese = "长城是中国古代的军事防御工程。" * 11  # 165 characters
    assert len(chinese) == 165

    assert segment(chinese, language="zh").paragraphs == [chinese]
    assert segment(chinese[:161], language="zh").dropped[0].reason == "too_short"
    assert segment(chinese, language="zh", min_chars=500).paragraphs == []
    assert segment(chinese, language="fr").paragraphs == []


@pytest.mark.parametrize(
    ("language", "heading"),
    [("zh", "参考文献"), ("ar", "المراجع"), ("th", "อ้างอิง"), ("ko", "각주"), ("ru", "Примечания")],
)
def test_end_matter_in_other_scripts(language, heading):
    result = segment(f"{INTRO}\n== {heading} ==\n{HISTORY}", language=language, min_chars=10)

    assert result.paragraphs == [INTRO]
    assert [drop.reason for drop in result.dropped] == ["end_matter"]
