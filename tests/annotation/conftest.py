from datetime import timedelta

import pytest
from django.utils import timezone

from annotation.locks import leases_expire
from annotation.models import Lease
from annotation.services.campaigns import campaign_create
from core.roles import Role
from corpus.readers import SourceArticle
from corpus.services.articles import article_store
from tests.factories import UserFactory

TEXTS = [
    "La Loire est le plus long fleuve de France, avec 1 006 km. Elle prend sa source au mont "
    "Gerbier-de-Jonc 🌋 en Ardèche et se jette dans l'océan Atlantique à Saint-Nazaire.",
    "Le canal du Midi relie Toulouse à la mer Méditerranée. Pierre-Paul Riquet en dirigea les "
    "travaux à partir de 1666 ; il fut inauguré en 1681.",
    "Gutenberg mit au point à Mayence, vers 1450, une presse à caractères mobiles qui permit "
    "d'imprimer la Bible à environ 180 exemplaires.",
]


@pytest.fixture
def paragraphs(db):
    """Three paragraphs in dev, one per article, in id order."""
    made = []
    for i, text in enumerate(TEXTS):
        article = article_store(
            language="fr",
            source=SourceArticle(title=f"A{i}", source_title=f"A{i}"),
            paragraphs=[text],
            wave="1.0",
            split="dev",
            kind="file",
        )
        made.append(article.paragraphs.get())
    return made


@pytest.fixture
def campaign(db):
    return campaign_create(name="Questions", splits=["dev"], lease_minutes=30)


@pytest.fixture
def annotators(db):
    return [UserFactory(username=f"ann{i}", roles=[Role.ANNOTATOR]) for i in range(3)]


def good_questions(paragraph, count=3):
    """Valid questions on a paragraph: each answer is a word found in its text."""
    words = [w for w in paragraph.text.split() if len(w) > 4 and w.isalpha()][:count]
    return [
        {
            "text": f"Question {i} sur « {w} » ?",
            "answer_start": paragraph.text.index(w),
            "answer_text": w,
            "seconds_spent": 40 + i,
        }
        for i, w in enumerate(words)
    ]


def expire(lease, *, ago=timedelta(minutes=5)) -> Lease:
    """Let a lease run out as time does: overdue, then ended by its campaign's next claim."""
    Lease.objects.filter(pk=lease.pk).update(expires_at=timezone.now() - ago)
    leases_expire(campaign=lease.campaign, now=timezone.now())
    return Lease.objects.get(pk=lease.pk)
