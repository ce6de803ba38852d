"""50 annotators claim at the same moment. Run in-process (PostgreSQL) or as a script (SQLite).

As a script: `python -m tests.annotation.race` with the environment of the database to use;
it migrates nothing and prints one JSON object.
"""

import json
import threading

ANNOTATORS = 50
PARAGRAPHS = 60


def prepare():
    """Create a campaign, PARAGRAPHS paragraphs and ANNOTATORS annotators; return them."""
    from django.contrib.auth import get_user_model

    from accounts.services import user_grant_role
    from annotation.services.campaigns import campaign_create
    from corpus.readers import SourceArticle
    from corpus.services.articles import article_store

    article_store(
        language="fr",
        source=SourceArticle(title="Course", source_title="Course"),
        paragraphs=[f"Paragraphe numéro {i}, assez long." for i in range(PARAGRAPHS)],
        wave="1.0",
        split="train",
        kind="file",
    )
    campaign = campaign_create(name="Course", splits=["train"])
    users = []
    for i in range(ANNOTATORS):
        user = get_user_model().objects.create(username=f"racer{i}")
        user_grant_role(user=user, role="annotator")
        users.append(user)
    return campaign, users


def claim_all(campaign, users) -> dict:
    """Start one thread per annotator behind a barrier; return what each one got."""
    from django.db import connection

    from annotation.services.work import lease_claim_next

    barrier = threading.Barrier(len(users))
    results, errors = {}, []

    def claim(user):
        try:
            barrier.wait()
            results[user.username] = lease_claim_next(
                campaign=campaign, annotator=user
            ).lease.paragraph_id
        except Exception as error:  # reported, so the test shows what went wrong
            errors.append(f"{type(error).__name__}: {error}")
        finally:
            connection.close()

    threads = [threading.Thread(target=claim, args=(user,)) for user in users]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return {"paragraphs": sorted(results.values()), "errors": errors}


if __name__ == "__main__":
    import django

    django.setup()
    print(json.dumps(claim_all(*prepare())))
