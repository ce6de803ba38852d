"""Vacuum the work items often; make those of the campaigns already there (frozen: the rule
of 0007's day).

A write item per paragraph of an active questions campaign's splits and language, with a place
unless the paragraph is held, written on or reported unsuitable in the campaign; an answer item
per question of an active additional-answers campaign's splits and language, with the answers
it still needs.
"""

from django.db import migrations

WRITE = """
    INSERT INTO annotation_workitem (campaign_id, kind, paragraph_id, question_id, rank, places)
    SELECT %(campaign)s, 'write', p.id, NULL, p.id,
        CASE WHEN NOT EXISTS (
            SELECT 1 FROM annotation_lease l
            WHERE l.campaign_id = %(campaign)s AND l.kind = 'write' AND l.paragraph_id = p.id
              AND (l.status IN ('active', 'submitted') OR l.release_reason = 'unsuitable')
        ) THEN 1 ELSE 0 END
    FROM corpus_paragraph p JOIN corpus_article a ON a.id = p.article_id
    WHERE a.split IN {splits} AND a.language = %(language)s
    ORDER BY p.id
"""
ANSWER = """
    INSERT INTO annotation_workitem (campaign_id, kind, paragraph_id, question_id, rank, places)
    SELECT %(campaign)s, 'answer', q.paragraph_id, q.id, q.id,
        CASE WHEN q.status <> 'rejected' THEN {greatest}(0, %(extra)s
            - (SELECT COUNT(*) FROM annotation_answer s
               WHERE s.question_id = q.id AND s.kind = 'additional')
            - (SELECT COUNT(*) FROM annotation_lease l
               WHERE l.campaign_id = %(campaign)s AND l.kind = 'answer'
                 AND l.question_id = q.id AND l.status = 'active'))
        ELSE 0 END
    FROM annotation_question q JOIN corpus_paragraph p ON p.id = q.paragraph_id
    JOIN corpus_article a ON a.id = p.article_id
    WHERE a.split IN {splits} AND a.language = %(language)s
    ORDER BY q.id
"""


def vacuum_often(apps, schema_editor):
    """The queue's partial index keeps an entry for each item taken until VACUUM removes it,
    and a claim walks past those: vacuum the table after every 1,000 changed rows, not after
    a fifth of it (PostgreSQL's default), so claims stay flat at a million items too."""
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            "ALTER TABLE annotation_workitem SET (autovacuum_vacuum_scale_factor = 0, "
            "autovacuum_vacuum_threshold = 1000, autovacuum_analyze_scale_factor = 0.02)"
        )


def fill(apps, schema_editor):
    Campaign = apps.get_model("annotation", "Campaign")
    connection = schema_editor.connection
    greatest = "GREATEST" if connection.vendor == "postgresql" else "MAX"
    for campaign in Campaign.objects.filter(active=True).order_by("pk"):
        names = {f"split{i}": split for i, split in enumerate(campaign.splits or [""])}
        splits = "(" + ", ".join(f"%({name})s" for name in names) + ")"
        params = names | {
            "campaign": campaign.pk,
            "language": campaign.language,
            "extra": campaign.extra_answers,
        }
        sql = WRITE if campaign.kind == "questions" else ANSWER
        with connection.cursor() as cursor:
            cursor.execute(sql.format(splits=splits, greatest=greatest), params)


class Migration(migrations.Migration):
    dependencies = [("annotation", "0007_work_items")]

    operations = [
        migrations.RunPython(vacuum_often, migrations.RunPython.noop),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
