"""A number's percent sign as each language writes it: "25%" in English (Chicago, AP and
Microsoft style), "25 %" in French, always with the narrow no-break space (a line never
breaks before the sign)."""

import re
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.template import Context, Template
from django.test import Client
from django.utils import translation

from core.roles import Role
from exports.models import Release
from exports.services.releases import release_create
from tests.factories import UserFactory

NNBSP, NBSP = "\u202f", "\u00a0"
CATALOGUE = Path(settings.BASE_DIR) / "locale" / "fr" / "LC_MESSAGES" / "django.po"


def render(source, language, **context):
    with translation.override(language):
        return Template("{% load numbers %}" + source).render(Context(context))


def test_the_percent_filter_joins_the_sign_in_english_and_spaces_it_in_french():
    assert render("{{ x|percent }}", "en", x=25) == "25%"
    assert render("{{ x|floatformat:1|percent }}", "en", x=33.333) == "33.3%"
    assert render("{{ x|percent }}", "fr", x=25) == f"25{NNBSP}%"
    assert render("{{ x|floatformat:1|percent }}", "fr", x=33.333) == f"33,3{NNBSP}%"
    assert render("{{ x|percent }}", "en", x="<b>") == "&lt;b&gt;%"  # escaped, never raw


@pytest.mark.parametrize("language", ["en", "fr"])
def test_no_value_is_a_dash_without_a_percent_sign(language):
    assert render('{{ x|floatformat:1|default:"—"|percent }}', language, x=None) == "—"
    assert render("{{ x|percent }}", language, x="") == ""


# A number (not part of a name such as F1) or a placeholder, a space, then its percent sign.
SPACED_PERCENT = re.compile(r"((?<![\w.])\d+(?:\.\d+)?|%\(\w+\)[.\d]*[sdf]) (%%|%)(?![(\w])")


def test_no_english_message_puts_a_space_before_a_numbers_percent_sign():
    po = polib.pofile(str(CATALOGUE))
    spaced = [entry.msgid for entry in po if SPACED_PERCENT.search(entry.msgid)]
    assert spaced == []
    # Their French keeps its narrow no-break space.
    french = {entry.msgid: entry.msgstr for entry in po}
    assert french["rate %(rate)s%%"] == f"taux de %(rate)s{NNBSP}%%"
    assert french["90%%: %(low)s–%(high)s"] == f"90{NNBSP}%%{NBSP}: %(low)s–%(high)s"


def test_a_translated_percent_reads_25_percent_in_english_and_keeps_its_space_in_french():
    values = {"rate": 25}
    with translation.override("en"):
        assert translation.gettext("rate %(rate)s%%") % values == "rate 25%"
    with translation.override("fr"):
        assert translation.gettext("rate %(rate)s%%") % values == f"taux de 25{NNBSP}%"


@pytest.mark.django_db
def test_the_release_pages_show_25_percent_in_english_and_25_space_percent_in_french():
    admin = UserFactory(username="boss", roles=[Role.ADMIN])
    release = release_create(created_by=admin, name="fquad-25", formats=["squad"], version="1.0")
    Release.objects.filter(pk=release.pk).update(status="running", progress=25)
    client = Client()
    client.force_login(admin)
    shown = {}
    for language in ("en", "fr"):
        client.cookies["django_language"] = language
        listed = client.get("/manage/releases/").content.decode()
        page = client.get(f"/manage/releases/{release.pk}/").content.decode()
        cell = listed.split('<span class="badge badge-running">', 1)[1].split("</td>", 1)[0]
        status = page.split('<span class="job-percent">', 1)[1].split("</span>", 1)[0]
        shown[language] = (cell.split("</span> ", 1)[1], status)
    # French: the narrow no-break space in both places (the list's cell had a plain one).
    assert shown == {"en": ("25%", "25%"), "fr": (f"25{NNBSP}%", f"25{NNBSP}%")}
