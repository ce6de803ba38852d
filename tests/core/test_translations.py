"""The French catalogue is complete, and the compiled .mo matches the .po."""

import gettext
from pathlib import Path

import polib
from django.conf import settings

CATALOGUE = Path(settings.BASE_DIR) / "locale" / "fr" / "LC_MESSAGES"


def test_every_message_has_a_french_translation():
    po = polib.pofile(str(CATALOGUE / "django.po"))
    assert po.untranslated_entries() == []
    assert po.fuzzy_entries() == []
    assert len(po.translated_entries()) >= 100


def test_the_compiled_catalogue_is_up_to_date():
    po = polib.pofile(str(CATALOGUE / "django.po"))
    with open(CATALOGUE / "django.mo", "rb") as handle:
        mo = gettext.GNUTranslations(handle)
    for entry in po.translated_entries():
        if entry.msgctxt and entry.msgid_plural:  # a count's words, in one sense
            for n, form in ((1, 0), (2, 1)):
                found = mo.npgettext(entry.msgctxt, entry.msgid, entry.msgid_plural, n)
                assert found == entry.msgstr_plural[form], entry.msgid
        elif entry.msgctxt:  # the same words in another sense
            assert mo.pgettext(entry.msgctxt, entry.msgid) == entry.msgstr, entry.msgid
        elif entry.msgid_plural:
            assert mo.ngettext(entry.msgid, entry.msgid_plural, 1) == entry.msgstr_plural[0]
        else:
            assert mo.gettext(entry.msgid) == entry.msgstr, entry.msgid
