"""A trigram index on the article titles, for the articles page's title search (PostgreSQL).

`title__icontains` is `UPPER(title::text) LIKE UPPER('%…%')` on PostgreSQL: a GIN index of
that expression's trigrams (pg_trgm) finds the titles holding a word among 200,000 without
reading them all. Without the pg_trgm extension (a server without PostgreSQL's contrib
modules) the search works the same, reading every title. SQLite (the zero-setup default) has
no such index: nothing is done there, and its search reads the titles, which is fast at the
sizes SQLite serves.
"""

import warnings

from django.db import DatabaseError, migrations, transaction

INDEX = "corpus_article_title_trgm"


def create(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    try:
        with transaction.atomic(using=schema_editor.connection.alias):
            schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    except DatabaseError as error:
        # pg_trgm is a trusted extension (the database owner may create it); a server without
        # the contrib modules still works, its title search reading every title.
        warnings.warn(f"No trigram index on the article titles: {error}", stacklevel=1)
        return
    schema_editor.execute(
        f"CREATE INDEX IF NOT EXISTS {INDEX} ON corpus_article "
        "USING gin ((UPPER(title::text)) gin_trgm_ops)"
    )
    # The statistics of the indexed expression, so that the planner sees how rare a searched
    # word is (and walks the trigrams, not every title, for a rare one) from the first search.
    schema_editor.execute("ANALYZE corpus_article")


def drop(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(f"DROP INDEX IF EXISTS {INDEX}")


class Migration(migrations.Migration):
    dependencies = [("corpus", "0005_page_indexes")]

    operations = [migrations.RunPython(create, drop, elidable=False)]
