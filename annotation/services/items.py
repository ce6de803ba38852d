"""The work items a campaign offers (`WorkItem`): made, kept true, and their places moved.

The places of an item follow from the leases and the corpus, and these functions keep them so:

- a questions campaign's write item has 1 place while its paragraph is in the campaign's splits
  and language and nobody holds it, wrote on it, or reported it unsuitable in the campaign;
  else 0;
- an unanswerable-questions campaign's write item follows the same rule, and its paragraph
  must also have an answerable question that is not rejected (written in another campaign or
  imported): unanswerable questions are written beside existing ones (FQuAD 2.0);
- an additional-answers campaign's answer item has as many places as answers its question still
  needs: the campaign's extra answers, less the additional answers the question has (given in
  any campaign, or imported) and the campaign's own answer leases still active; 0 for a
  rejected question, a gold one (issue 28), or one outside the campaign's splits and language.

Only active campaigns get items (a closed campaign gives no work; opening it makes them).
`items_sync` computes a campaign's items from that rule when the campaign is saved, and for
some articles when the corpus changes; the other functions move places one lease at a time,
inside the transaction that moves the lease. Rows are written with SQL that SQLite and
PostgreSQL both run: a million paragraphs are never loaded into Python.
"""

from __future__ import annotations

from django.db import connection
from django.db.models import F

from annotation.models import Campaign, GoldQuestion, Lease, WorkItem
from annotation.selectors.campaigns import item_campaigns, unanswerable_campaigns


def _in(name: str, values) -> tuple[str, dict]:
    """Return an `IN (…)` list of named placeholders and its values (never empty)."""
    values = list(values) or [""]
    names = [f"{name}{index}" for index in range(len(values))]
    return "(" + ", ".join(f"%({n})s" for n in names) + ")", dict(zip(names, values, strict=True))


def _greatest() -> str:
    # PostgreSQL's GREATEST is SQLite's two-argument MAX.
    return "GREATEST" if connection.vendor == "postgresql" else "MAX"


def _run(sql: str, params: dict) -> None:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def _places(campaign: Campaign, splits: str) -> str:
    """SQL for the places the item of paragraph `p` (article `a`, question `q`) should have."""
    if campaign.writes_questions:
        answered = ""
        if campaign.kind == Campaign.Kind.UNANSWERABLE:
            answered = """ AND EXISTS (
                SELECT 1 FROM annotation_question e
                WHERE e.paragraph_id = p.id AND NOT e.is_impossible AND e.status <> 'rejected')"""
        return f"""
            CASE WHEN a.split IN {splits} AND a.language = %(language)s{answered} AND NOT EXISTS (
                SELECT 1 FROM annotation_lease l
                WHERE l.campaign_id = %(campaign)s AND l.kind = 'write' AND l.paragraph_id = p.id
                  AND (l.status IN ('active', 'submitted') OR l.release_reason = 'unsuitable')
            ) THEN 1 ELSE 0 END"""
    return f"""
        CASE WHEN a.split IN {splits} AND a.language = %(language)s AND q.status <> 'rejected'
            AND NOT EXISTS (SELECT 1 FROM annotation_goldquestion g WHERE g.question_id = q.id)
        THEN {_greatest()}(0, %(extra)s
            - (SELECT COUNT(*) FROM annotation_answer s
               WHERE s.question_id = q.id AND s.kind = 'additional')
            - (SELECT COUNT(*) FROM annotation_lease l
               WHERE l.campaign_id = %(campaign)s AND l.kind = 'answer'
                 AND l.question_id = q.id AND l.status = 'active'))
        ELSE 0 END"""


# The rows an item stands for: paragraphs (write) or questions (answer), with their article.
SOURCE = {
    Campaign.Kind.QUESTIONS: """
        FROM corpus_paragraph p JOIN corpus_article a ON a.id = p.article_id""",
    Campaign.Kind.ADDITIONAL_ANSWERS: """
        FROM annotation_question q JOIN corpus_paragraph p ON p.id = q.paragraph_id
        JOIN corpus_article a ON a.id = p.article_id""",
}
SOURCE[Campaign.Kind.UNANSWERABLE] = SOURCE[Campaign.Kind.QUESTIONS]
KIND = {
    Campaign.Kind.QUESTIONS: "write",
    Campaign.Kind.UNANSWERABLE: "write",
    Campaign.Kind.ADDITIONAL_ANSWERS: "answer",
}
# How an item row names its paragraph or question, and the same in SOURCE.
ITEM_KEY = {
    Campaign.Kind.QUESTIONS: "paragraph_id",
    Campaign.Kind.UNANSWERABLE: "paragraph_id",
    Campaign.Kind.ADDITIONAL_ANSWERS: "question_id",
}
SOURCE_KEY = {
    Campaign.Kind.QUESTIONS: "p.id",
    Campaign.Kind.UNANSWERABLE: "p.id",
    Campaign.Kind.ADDITIONAL_ANSWERS: "q.id",
}
MADE = {  # paragraph_id, question_id, rank
    Campaign.Kind.QUESTIONS: "p.id, NULL, p.id",
    Campaign.Kind.UNANSWERABLE: "p.id, NULL, p.id",
    Campaign.Kind.ADDITIONAL_ANSWERS: "q.paragraph_id, q.id, q.id",
}


def items_sync(*, campaign: Campaign, articles=None, questions=None) -> None:
    """Make the active campaign's items (all; or those of some articles, or of some
    questions) follow the rule above: existing items get their places again, missing ones
    are made."""
    if campaign.pk is None or not campaign.active:
        return
    kind = campaign.kind
    splits, params = _in("split", campaign.splits)
    params |= {"campaign": campaign.pk, "language": campaign.language}
    params["extra"] = campaign.extra_answers
    only = ""
    if articles is not None:
        listed, values = _in("article", articles)
        only, params = f" AND a.id IN {listed}", params | values
    if questions is not None and kind == Campaign.Kind.ADDITIONAL_ANSWERS:
        listed, values = _in("question", questions)
        only, params = f"{only} AND q.id IN {listed}", params | values
    places, source = _places(campaign, splits), SOURCE[kind]
    key, item_key = SOURCE_KEY[kind], ITEM_KEY[kind]
    _run(
        f"""
        UPDATE annotation_workitem SET places = (
            SELECT {places} {source} WHERE {key} = annotation_workitem.{item_key})
        WHERE campaign_id = %(campaign)s AND kind = '{KIND[kind]}' AND {item_key} IN (
            SELECT {key} {source} WHERE 1 = 1{only})
        """,
        params,
    )
    _run(
        f"""
        INSERT INTO annotation_workitem (campaign_id, kind, paragraph_id, question_id, rank, places)
        SELECT %(campaign)s, '{KIND[kind]}', {MADE[kind]}, {places} {source}
        WHERE a.split IN {splits} AND a.language = %(language)s{only} AND NOT EXISTS (
            SELECT 1 FROM annotation_workitem w
            WHERE w.campaign_id = %(campaign)s AND w.kind = '{KIND[kind]}'
              AND w.{item_key} = {key})
        ORDER BY {key}
        """,
        params,
    )


def items_for_articles(article_pks) -> None:
    """Bring every active campaign's items up to date for these articles (new, or moved)."""
    article_pks = sorted(set(article_pks))
    if article_pks:
        for campaign in Campaign.objects.filter(active=True):
            items_sync(campaign=campaign, articles=article_pks)


def items_for_questions(questions) -> None:
    """Give new questions their items in every open additional-answers campaign that covers
    their split and language, and their paragraphs theirs in the open unanswerable-questions
    campaigns (the campaigns come from the cache: no query on the way)."""
    by_place: dict[tuple[str, str], list[int]] = {}
    articles: dict[tuple[str, str], set[int]] = {}
    for question in questions:
        article = question.paragraph.article
        by_place.setdefault((article.split, article.language), []).append(question.pk)
        if not question.is_impossible:
            articles.setdefault((article.split, article.language), set()).add(article.pk)
    unanswerable, answering = item_campaigns()
    for campaign in unanswerable:
        pks = {
            pk
            for (split, language), pks in articles.items()
            if split in campaign.splits and language == campaign.language
            for pk in pks
        }
        if pks:
            items_sync(campaign=campaign, articles=sorted(pks))
    for campaign in answering:
        pks = [
            pk
            for (split, language), pks in by_place.items()
            if split in campaign.splits and language == campaign.language
            for pk in pks
        ]
        if pks:
            items_sync(campaign=campaign, questions=pks)


def items_follow_review(question) -> None:
    """A review made a question answerable, or rejected one: the open unanswerable-questions
    campaigns offer its paragraph, or no longer, as the rule says (the paragraph's article is
    synced; a lease already taken keeps its paragraph)."""
    article = question.paragraph.article
    for campaign in unanswerable_campaigns():
        if article.split in campaign.splits and article.language == campaign.language:
            items_sync(campaign=campaign, articles=[article.pk])


def _item(lease: Lease):
    items = WorkItem.objects.filter(campaign_id=lease.campaign_id, kind=lease.kind)
    if lease.kind == Lease.Kind.WRITE:
        return items.filter(paragraph_id=lease.paragraph_id)
    return items.filter(question_id=lease.question_id)


def _gold(lease: Lease) -> bool:
    return (
        lease.kind == Lease.Kind.ANSWER
        and GoldQuestion.objects.filter(
            question_id=lease.question_id, marked_at__lte=lease.created_at
        ).exists()
    )


def item_give_back(lease: Lease) -> None:
    """The lease ended without the work (given back, expired): its place is free again."""
    if lease.kind != Lease.Kind.REVIEW and not _gold(lease):
        _item(lease).update(places=F("places") + 1)


def item_take_back(lease: Lease) -> bool:
    """Take the place of an ended lease coming back to life; False when none is free.

    Review leases have no items: a review lease comes back unless another review of the
    question is live (the caller checks).
    """
    if lease.kind == Lease.Kind.REVIEW or _gold(lease):
        return True  # a gold lease holds no place (annotation.services.gold)
    return bool(_item(lease).filter(places__gt=0).update(places=F("places") - 1))


def item_take(*, campaign: Campaign, paragraph) -> bool:
    """Take the place of a paragraph's write item (a lease made without a claim)."""
    taken = WorkItem.objects.filter(
        campaign=campaign, kind=Lease.Kind.WRITE, paragraph=paragraph, places__gt=0
    ).update(places=F("places") - 1)
    return bool(taken)


def item_answered(*, question_pk: int, campaign_pk: int) -> None:
    """An additional answer was stored: other campaigns need one answer fewer there."""
    WorkItem.objects.filter(kind=Lease.Kind.ANSWER, question_id=question_pk, places__gt=0).exclude(
        campaign_id=campaign_pk
    ).update(places=F("places") - 1)


def items_close_question(question_pk: int) -> None:
    """A rejected question is answered no more."""
    WorkItem.objects.filter(kind=Lease.Kind.ANSWER, question_id=question_pk).update(places=0)
