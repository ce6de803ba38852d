"""The annotation app's answers to changes: the corpus, leases deleted, campaigns saved.

Connected in `AnnotationConfig.ready`.
"""

from __future__ import annotations

from django.db import transaction

from annotation.models import Lease
from annotation.selectors.campaigns import campaign_forget
from annotation.services.items import item_give_back, items_for_articles


def on_articles_changed(sender, *, article_pks, **kwargs) -> None:
    """New paragraphs, or an article moved: the campaigns' items follow."""
    items_for_articles(article_pks)


def on_lease_deleted(sender, *, instance: Lease, **kwargs) -> None:
    """A lease deleted while held (its person or campaign deleted) frees its place."""
    if instance.status == Lease.Status.ACTIVE:
        item_give_back(instance)


def on_campaign_changed(sender, *, instance, **kwargs) -> None:
    """A campaign saved or deleted: the cached copy goes (`selectors.campaigns`), now and
    once the change is committed (a read in between may have cached the old row again)."""
    pk = instance.pk
    campaign_forget(pk)
    transaction.on_commit(lambda: campaign_forget(pk))
