"""The annotation app's answers to changes made elsewhere: the corpus, and leases deleted.

Connected in `AnnotationConfig.ready`.
"""

from __future__ import annotations

from annotation.models import Lease
from annotation.services.items import item_give_back, items_for_articles


def on_articles_changed(sender, *, article_pks, **kwargs) -> None:
    """New paragraphs, or an article moved: the campaigns' items follow."""
    items_for_articles(article_pks)


def on_lease_deleted(sender, *, instance: Lease, **kwargs) -> None:
    """A lease deleted while held (its person or campaign deleted) frees its place."""
    if instance.status == Lease.Status.ACTIVE:
        item_give_back(instance)
