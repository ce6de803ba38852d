"""Every row lock of the annotation app, and the claim: one SQL statement on PostgreSQL.

A claim answers, in this order: the lease the person already holds here (200); else their own
expired lease with a draft, brought back to life when its place is still free; else a new lease
on the first item with a place (201); else nothing (204). On PostgreSQL it is a single
statement (`claim`): data-modifying CTEs take the place (`places - 1`) and insert the lease,
and the first item is found through the partial index of items with a place
(`annotation_item_open`), so its cost does not grow with the campaign: the items already
written have no place and are not in the index. `FOR UPDATE … SKIP LOCKED` lets concurrent
claims walk past each other. The lock alone is not the guarantee: the partial unique
constraints on live leases refuse a second live lease on one item (the caller retries).

The rules, once for both databases (SQL fragments below):
- writing (`write`): the paragraph's item has a place, and this person never held a lease on
  it in this campaign (they are not given a paragraph twice, even one they skipped);
- answering (`answer`): the question's item has a place, the question is not theirs, not
  rejected, and they never held an answer lease on it nor answered it (in any campaign);
- reviewing (`review`, no items: the sampled questions waiting are their own queue, through
  the partial index `annotation_q_review_queue`): a question of the campaign sampled for
  review, still pending, not theirs, with no live review lease, never leased to them before.

On SQLite (the embedded mode), which has no row locks nor data-modifying CTEs, the same
fragments run as a few statements; its transactions start IMMEDIATE (settings), so claims run
one at a time.
"""

from __future__ import annotations

from datetime import datetime
from functools import cache

from django.db import connection

from annotation.models import Campaign, Lease, Question
from core.rows import columns, param, prepared_cursor, split_row
from corpus.models import Article, Paragraph

LEASE_COLUMNS = (
    "id",
    "campaign_id",
    "kind",
    "paragraph_id",
    "question_id",
    "annotator_id",
    "status",
    "expires_at",
    "draft",
    "draft_saved_at",
    "release_reason",
    "release_note",
    "created_at",
    "finished_at",
)

# The item (write, answer) or question (review) a person may take, beyond having a place.
MAY_TAKE = {
    "write": """
        NOT EXISTS (SELECT 1 FROM annotation_lease s
                    WHERE s.annotator_id = %(me)s AND s.paragraph_id = w.paragraph_id
                      AND s.campaign_id = %(campaign)s AND s.kind = 'write')""",
    "answer": """
        q.author_id <> %(me)s AND q.status <> 'rejected'
        AND NOT EXISTS (SELECT 1 FROM annotation_lease s
                        WHERE s.question_id = w.question_id AND s.annotator_id = %(me)s
                          AND s.kind = 'answer')
        AND NOT EXISTS (SELECT 1 FROM annotation_answer x
                        WHERE x.question_id = w.question_id AND x.author_id = %(me)s)""",
    "review": """
        q.author_id <> %(me)s
        AND NOT EXISTS (SELECT 1 FROM annotation_lease r
                        WHERE r.question_id = q.id AND r.kind = 'review'
                          AND (r.status IN ('active', 'submitted') OR r.annotator_id = %(me)s))""",
}
# Where the candidates come from, and what makes one a candidate at all.
QUEUE = {
    "write": """
        FROM annotation_workitem w
        WHERE w.campaign_id = %(campaign)s AND w.kind = 'write' AND w.places > 0""",
    "answer": """
        FROM annotation_workitem w JOIN annotation_question q ON q.id = w.question_id
        WHERE w.campaign_id = %(campaign)s AND w.kind = 'answer' AND w.places > 0""",
    "review": """
        FROM annotation_question q
        WHERE q.campaign_id = %(campaign)s AND q.sampled_for_review AND q.status = 'pending'""",
}
PICKED = {
    "write": "w.id AS item_id, w.paragraph_id, CAST(NULL AS BIGINT) AS question_id",
    "answer": "w.id AS item_id, w.paragraph_id, w.question_id",
    "review": "CAST(NULL AS BIGINT) AS item_id, q.paragraph_id, q.id AS question_id",
}
ORDER = {"write": "w.rank", "answer": "w.rank", "review": "q.created_at, q.id"}
LOCKED = {"write": "w", "answer": "w", "review": "q"}
# The item an expired lease of this person held, if its place is still free.
REVIVABLE = {
    "write": """
        JOIN annotation_workitem w ON w.campaign_id = l.campaign_id AND w.kind = 'write'
             AND w.paragraph_id = l.paragraph_id AND w.places > 0""",
    "answer": """
        JOIN annotation_workitem w ON w.campaign_id = l.campaign_id AND w.kind = 'answer'
             AND w.question_id = l.question_id AND w.places > 0""",
    "review": """
        JOIN annotation_question q ON q.id = l.question_id AND q.status = 'pending'
             AND NOT EXISTS (SELECT 1 FROM annotation_lease r
                             WHERE r.question_id = q.id AND r.kind = 'review'
                               AND r.status IN ('active', 'submitted'))""",
}
REVIVED_ITEM = {"write": "w.id", "answer": "w.id", "review": "CAST(NULL AS BIGINT)"}
REVIVE_LOCKED = {"write": "l, w", "answer": "l, w", "review": "l"}
# A new item only when nothing is held nor revived, and the person may take new work.
NOTHING_HELD = """
        AND %(take_new)s AND NOT EXISTS (SELECT 1 FROM mine)
        AND NOT EXISTS (SELECT 1 FROM revivable)"""


def _mine_sql() -> str:
    return """
        SELECT id FROM annotation_lease
        WHERE campaign_id = %(campaign)s AND annotator_id = %(me)s AND kind = %(kind)s
          AND status = 'active'"""


def _revivable_sql(kind: str) -> str:
    return f"""
        SELECT l.id, {REVIVED_ITEM[kind]} AS item_id FROM annotation_lease l {REVIVABLE[kind]}
        WHERE l.campaign_id = %(campaign)s AND l.annotator_id = %(me)s AND l.kind = %(kind)s
          AND l.status = 'expired' AND CAST(l.draft AS TEXT) <> '{{}}'"""


def _pick_sql(kind: str, also: str = "") -> str:
    return (
        f"SELECT {PICKED[kind]} {QUEUE[kind]} AND {MAY_TAKE[kind]}{also} "
        f"ORDER BY {ORDER[kind]} LIMIT 1"
    )


def _params(kind, campaign, user, *, now, expires, may_take_new) -> dict:
    # Times go as the ORM sends them (core.rows.param): on SQLite, naive text in UTC.
    return {
        "campaign": campaign.pk,
        "me": user.pk,
        "kind": kind,
        "now": param(Lease, "created_at", now),
        "expires": param(Lease, "expires_at", expires),
        "take_new": may_take_new,
    }


def _held(row) -> tuple[Lease, bool]:
    """The lease with its paragraph, article and question, from one row holding their columns
    in that order and then `created`."""
    lease, paragraph, article, question = split_row(row[:-1], (Lease, Paragraph, Article, Question))
    paragraph.article = article
    lease.paragraph, lease.question = paragraph, question
    if question is not None:
        question.paragraph = paragraph
    return lease, row[-1]


def _claim_postgresql(kind: str, params: dict) -> tuple[Lease, bool] | None:
    with prepared_cursor() as cursor:
        cursor.execute(_claim_statement(kind), params)
        row = cursor.fetchone()
    return None if row is None else _held(row)


@cache
def _claim_statement(kind: str) -> str:
    """The claim's one statement on PostgreSQL, made once per kind (its text depends on the
    models only)."""
    skip = " SKIP LOCKED"
    lease_columns = columns(Lease)
    return f"""
        WITH mine AS ({_mine_sql()} LIMIT 1),
        revivable AS (
            {_revivable_sql(kind)} AND NOT EXISTS (SELECT 1 FROM mine)
            ORDER BY l.created_at DESC LIMIT 1 FOR UPDATE OF {REVIVE_LOCKED[kind]}{skip}),
        picked AS (
            {_pick_sql(kind, also=NOTHING_HELD)} FOR UPDATE OF {LOCKED[kind]}{skip}),
        taken AS (
            UPDATE annotation_workitem SET places = places - 1
            WHERE id IN (SELECT item_id FROM picked UNION ALL SELECT item_id FROM revivable)
            RETURNING id),
        revived AS (
            UPDATE annotation_lease SET status = 'active', finished_at = NULL,
                expires_at = %(expires)s
            WHERE id IN (SELECT id FROM revivable) RETURNING {lease_columns}),
        made AS (
            INSERT INTO annotation_lease (campaign_id, kind, paragraph_id, question_id,
                annotator_id, status, expires_at, draft, release_reason, release_note,
                created_at)
            SELECT %(campaign)s, %(kind)s, paragraph_id, question_id, %(me)s, 'active',
                %(expires)s, '{{}}', '', '', %(now)s
            FROM picked RETURNING {lease_columns}),
        held AS (
            SELECT {lease_columns}, false AS created FROM annotation_lease
            WHERE id IN (SELECT id FROM mine)
            UNION ALL SELECT {lease_columns}, false FROM revived
            UNION ALL SELECT {lease_columns}, true FROM made)
        SELECT {columns(Lease, "h")}, {columns(Paragraph, "p")}, {columns(Article, "a")},
            {columns(Question, "q")}, h.created
        FROM held h JOIN corpus_paragraph p ON p.id = h.paragraph_id
        JOIN corpus_article a ON a.id = p.article_id
        LEFT JOIN annotation_question q ON q.id = h.question_id"""


def _claim_sqlite(kind: str, params: dict) -> tuple[int, bool] | None:
    """The same rules in a few statements (transactions run one at a time here)."""
    with connection.cursor() as cursor:
        cursor.execute(_mine_sql() + " LIMIT 1", params)
        if row := cursor.fetchone():
            return row[0], False
        revived = _revive_sqlite(cursor, kind, params)
        if revived is not None:
            return revived, False
        if not params["take_new"]:
            return None
        made = _take_new_sqlite(cursor, kind, params)
        return None if made is None else (made, True)


def _revive_sqlite(cursor, kind: str, params: dict) -> int | None:
    """Bring back the person's latest expired lease with a draft whose place is still free
    (taking the place); return its id, None when there is none."""
    cursor.execute(_revivable_sql(kind) + " ORDER BY l.created_at DESC LIMIT 1", params)
    revivable = cursor.fetchone()
    if revivable is None:
        return None
    _take_place(cursor, revivable[1])
    cursor.execute(
        "UPDATE annotation_lease SET status = 'active', finished_at = NULL, "
        "expires_at = %s WHERE id = %s",
        [params["expires"], revivable[0]],
    )
    return revivable[0]


def _take_new_sqlite(cursor, kind: str, params: dict) -> int | None:
    """Take the next free item's place and make the person's lease on it; return its id,
    None when nothing is left for them."""
    cursor.execute(_pick_sql(kind), params)
    picked = cursor.fetchone()
    if picked is None:
        return None
    _take_place(cursor, picked[0])
    cursor.execute(
        """
            INSERT INTO annotation_lease (campaign_id, kind, paragraph_id, question_id,
                annotator_id, status, expires_at, draft, release_reason, release_note,
                created_at)
            VALUES (%(campaign)s, %(kind)s, %(paragraph)s, %(question)s, %(me)s, 'active',
                %(expires)s, '{}', '', '', %(now)s)
            RETURNING id
            """,
        params | {"paragraph": picked[1], "question": picked[2]},
    )
    return cursor.fetchone()[0]


def _take_place(cursor, item_id: int | None) -> None:
    """Take one of the work item's places for a lease (a lease of no item takes none)."""
    if item_id is not None:
        cursor.execute(
            "UPDATE annotation_workitem SET places = places - 1 WHERE id = %s", [item_id]
        )


def claim(
    kind: str, *, campaign, user, now: datetime, expires: datetime, may_take_new: bool
) -> tuple[Lease, bool] | None:
    """Return (lease, created) of the person's lease, as the module docstring says; the lease
    comes with its paragraph, article and question (on PostgreSQL, from the same statement).

    Must run inside the caller's transaction. Raises IntegrityError when another claim won
    the same item or the person claimed twice at once (the caller retries).
    """
    params = _params(kind, campaign, user, now=now, expires=expires, may_take_new=may_take_new)
    if connection.vendor != "postgresql":
        found = _claim_sqlite(kind, params)
        if found is None:
            return None
        leases = Lease.objects.select_related("paragraph__article", "question")
        return leases.get(pk=found[0]), found[1]
    found = _claim_postgresql(kind, params)
    if found is None and kind == Lease.Kind.ANSWER and may_take_new:
        # A question has several places: one another claim holds locked may still have one
        # for this person. Before saying nothing is left, wait for the first such item's lock
        # (one lock only, so two claims never wait on each other), then look again.
        with prepared_cursor() as cursor:
            cursor.execute(_pick_sql(kind), params)
            first = cursor.fetchone()
            if first is None:
                return None
            cursor.execute(
                "SELECT id FROM annotation_workitem WHERE id = %s FOR UPDATE", [first[0]]
            )
        found = _claim_postgresql(kind, params)
    return found


def leases_expire(*, campaign, now: datetime) -> None:
    """End the campaign's overdue leases and give their places back, in one statement."""
    now = param(Lease, "finished_at", now)
    if connection.vendor == "postgresql":
        _expire_postgresql(campaign, now)
    else:
        _expire_sqlite(campaign, now)


def _expire_postgresql(campaign, now) -> None:
    sql = """
            WITH expired AS (
                UPDATE annotation_lease SET status = 'expired', finished_at = %(now)s
                WHERE campaign_id = %(campaign)s AND status = 'active' AND expires_at < %(now)s
                RETURNING kind, paragraph_id, question_id),
            freed AS (
                SELECT kind, paragraph_id, question_id, COUNT(*) AS n FROM expired
                WHERE kind <> 'review' AND NOT EXISTS (SELECT 1 FROM annotation_goldquestion g
                                                       WHERE g.question_id = expired.question_id)
                GROUP BY kind, paragraph_id, question_id)
            UPDATE annotation_workitem w SET places = w.places + f.n FROM freed f
            WHERE w.campaign_id = %(campaign)s AND w.kind = f.kind
              AND ((f.kind = 'write' AND w.paragraph_id = f.paragraph_id)
                   OR (f.kind = 'answer' AND w.question_id = f.question_id))"""
    with prepared_cursor() as cursor:
        cursor.execute(sql, {"campaign": campaign.pk, "now": now})


def _expire_sqlite(campaign, now) -> None:
    """The same in a statement per lease ended (transactions run one at a time here)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE annotation_lease SET status = 'expired', finished_at = %s "
            "WHERE campaign_id = %s AND status = 'active' AND expires_at < %s "
            "RETURNING kind, paragraph_id, question_id",
            [now, campaign.pk, now],
        )
        for kind, paragraph_id, question_id in cursor.fetchall():
            if kind == "write":
                cursor.execute(
                    "UPDATE annotation_workitem SET places = places + 1 WHERE campaign_id = %s "
                    "AND kind = 'write' AND paragraph_id = %s",
                    [campaign.pk, paragraph_id],
                )
            elif kind == "answer":
                cursor.execute(
                    "UPDATE annotation_workitem SET places = places + 1 WHERE campaign_id = %s "
                    "AND kind = 'answer' AND question_id = %s AND NOT EXISTS (SELECT 1 FROM "
                    "annotation_goldquestion g "
                    "WHERE g.question_id = annotation_workitem.question_id)",
                    [campaign.pk, question_id],
                )


def lease_lock(*, lease_pk: int) -> Lease | None:
    """Lock one lease row for the rest of the transaction; read with its campaign, paragraph,
    article and question (not locked) in the same statement, and whether it is a gold item
    (`is_gold`, what `services.gold.gold_marked` reads: its question marked gold before the
    lease was made), so that an answer's submission asks no second query for it."""
    with prepared_cursor() as cursor:
        cursor.execute(_lease_lock_statement(connection.vendor), [lease_pk])
        row = cursor.fetchone()
    if row is None:
        return None
    lease, campaign, paragraph, article, question = split_row(
        row[:-1], (Lease, Campaign, Paragraph, Article, Question)
    )
    lease.is_gold = bool(row[-1])  # PostgreSQL gives a bool, SQLite 0 or 1
    paragraph.article = article
    lease.campaign, lease.paragraph, lease.question = campaign, paragraph, question
    if question is not None:
        question.paragraph = paragraph
    return lease


@cache
def _lease_lock_statement(vendor: str) -> str:
    """`lease_lock`'s statement, made once per backend."""
    lock = " FOR UPDATE OF l" if vendor == "postgresql" else ""
    return f"""
        SELECT {columns(Lease, "l")}, {columns(Campaign, "c")}, {columns(Paragraph, "p")},
            {columns(Article, "a")}, {columns(Question, "q")},
            EXISTS (SELECT 1 FROM annotation_goldquestion g WHERE g.question_id = l.question_id
                AND g.marked_at <= l.created_at)
        FROM annotation_lease l JOIN annotation_campaign c ON c.id = l.campaign_id
        JOIN corpus_paragraph p ON p.id = l.paragraph_id
        JOIN corpus_article a ON a.id = p.article_id
        LEFT JOIN annotation_question q ON q.id = l.question_id
        WHERE l.id = %s{lock}"""


def question_lock(*, question_pk: int) -> Question | None:
    """Lock one question row for the rest of the transaction."""
    return Question.objects.select_for_update().filter(pk=question_pk).first()
