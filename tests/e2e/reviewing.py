"""Questions waiting for a reviewer, and the reviewer's way to the next one, in the browser.

`written_for_review` stores one dev article of one paragraph, a campaign that samples every
question (review rate 1), the author e2e-author and the reviewer e2e-rev (who can sign in with
`PASSWORD`), and e2e-author's questions on the paragraph. `open_next_review` is the reviewer's
click on a campaign's "next question" in the review home's queue.
"""

from __future__ import annotations

import re
from decimal import Decimal

from playwright.sync_api import expect

from annotation.services.campaigns import campaign_create
from annotation.services.work import lease_claim_next, questions_submit
from core.roles import Role
from tests.e2e.articles import one_article
from tests.factories import UserFactory

PASSWORD = "a long e2e password"


def written_for_review(text: str, asked: list[tuple[str, str]], *, title: str = "Canal du Midi"):
    """Return (campaign, questions): `asked` is [(question, answer)], each answer's first
    occurrence in `text` its span; every question is sampled for review."""
    one_article(title, text)
    campaign = campaign_create(name="Questions", splits=["dev"], review_rate=Decimal("1"))
    author = UserFactory(username="e2e-author", roles=[Role.ANNOTATOR])
    UserFactory(username="e2e-rev", roles=[Role.REVIEWER], password=PASSWORD)
    lease = lease_claim_next(campaign=campaign, annotator=author).lease
    questions = questions_submit(
        lease=lease,
        questions=[
            {"text": question, "answer_start": text.index(answer), "answer_text": answer}
            for question, answer in asked
        ],
    )
    assert all(question.sampled_for_review for question in questions)
    return campaign, questions


def open_next_review(page, campaign) -> None:
    """On the review home, open the campaign's next question to review, its scripts run.

    The review page's scripts are deferred: they run before DOMContentLoaded, and a key pressed
    earlier (a test's "r" right after the question shows) would reach no handler.
    """
    page.locator(
        f"#review-queue form[action='/review/campaigns/{campaign.pk}/next/'] button"
    ).click()
    expect(page).to_have_url(re.compile(r"/review/leases/\d+/$"))
    page.wait_for_load_state("domcontentloaded")
