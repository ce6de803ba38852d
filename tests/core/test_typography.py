"""French typography in one place (core/typography.py): the catalogue, the `typeset` filter,
the quotes of <q>; English is left as it is."""

import re
from pathlib import Path

import polib
from django.conf import settings
from django.template import Context, Template
from django.utils import translation

from core.typography import french_spacing

NNBSP, NBSP = "\u202f", "\u00a0"
CATALOGUE = Path(settings.BASE_DIR) / "locale" / "fr" / "LC_MESSAGES" / "django.po"


def test_french_spacing_puts_no_break_spaces_before_the_high_marks_and_inside_guillemets():
    assert french_spacing("Réponse : %(x)s") == f"Réponse{NBSP}: %(x)s"
    assert french_spacing("vague ; reprise") == f"vague{NNBSP}; reprise"
    assert french_spacing("Merci !") == f"Merci{NNBSP}!"
    assert french_spacing("Merci!") == f"Merci{NNBSP}!"  # a missing space is added
    assert french_spacing("Où ?") == f"Où{NNBSP}?"
    assert french_spacing("«France pour»") == f"«{NNBSP}France pour{NNBSP}»"
    assert french_spacing("« ? »") == f"«{NNBSP}?{NNBSP}»"
    assert french_spacing(f"déjà{NBSP}: bon") == f"déjà{NBSP}: bon"  # already right: kept
    assert french_spacing("sous %(threshold)s %% de F1") == f"sous %(threshold)s{NNBSP}%% de F1"
    assert french_spacing("50 % des") == f"50{NNBSP}% des"
    assert french_spacing("%(a)s %(b)s") == "%(a)s %(b)s"  # a placeholder's % is not a sign


def test_french_spacing_leaves_what_is_not_prose_alone():
    for text in ("http://fr.wikipedia.org", "12:30", "?page=2", "a &amp; b", "?!", "", "x:y"):
        assert french_spacing(text) == text


def test_every_french_message_of_the_catalogue_has_its_spaces():
    po = polib.pofile(str(CATALOGUE))
    wrong = [
        form
        for entry in po.translated_entries()
        for form in [entry.msgstr, *entry.msgstr_plural.values()]
        if form and french_spacing(form) != form
    ]
    assert wrong == []  # run `manage.py typeset_messages` after adding messages


STRAIGHT_APOSTROPHE = re.compile(r"(?<=[^\W\d_])'(?=[^\W\d_])")  # l'avis, aujourd'hui


def test_no_french_message_of_the_catalogue_has_a_straight_apostrophe():
    po = polib.pofile(str(CATALOGUE))
    wrong = [
        f"{entry.msgid!r} -> {form!r}"
        for entry in po.translated_entries()
        for form in [entry.msgstr, *entry.msgstr_plural.values()]
        if STRAIGHT_APOSTROPHE.search(form)
    ]
    assert wrong == [], "French takes \u2019 (’), not ', between letters:\n" + "\n".join(wrong)


def test_a_translated_message_wraps_with_its_colon_in_french_only():
    with translation.override("fr"):
        assert translation.gettext("Answer:") == f"Réponse{NBSP}:"
        assert translation.gettext("A question ends with “%(mark)s”.") % {"mark": "?"} == (
            f"Une question se termine par «{NNBSP}?{NNBSP}»."
        )
    with translation.override("en"):
        assert translation.gettext("Answer:") == "Answer:"


def render(source, language, **context):
    with translation.override(language):
        return Template("{% load typography %}" + source).render(Context(context))


def test_the_typeset_filter_spaces_text_put_together_in_a_template():
    source = "{% filter typeset %}Modèle dans la boucle: {{ kind }}{% endfilter %}"
    assert render(source, "fr", kind="lexical") == f"Modèle dans la boucle{NBSP}: lexical"
    assert render(source, "en", kind="lexical") == "Modèle dans la boucle: lexical"
    escaped = render(source, "fr", kind="l'<b>")  # escaped once, not twice
    assert escaped == f"Modèle dans la boucle{NBSP}: l&#x27;&lt;b&gt;"


def test_the_page_draws_french_guillemets_around_q_with_their_spaces():
    css = (Path(settings.BASE_DIR) / "static" / "css" / "app.css").read_text()
    assert ':lang(fr) q { quotes: "«\\202F" "\\202F»"' in css
