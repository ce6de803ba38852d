from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AnnotationConfig(AppConfig):
    name = "annotation"
    verbose_name = _("Annotation")

    def ready(self):
        from django.db.models.signals import post_delete, post_save

        from annotation import signals
        from annotation.models import Campaign, Lease
        from annotation.selectors.campaigns import paragraphs_figure
        from annotation.selectors.reports import hours_figure
        from core.figures import figure_register
        from core.fragments import fragment_register
        from corpus.signals import articles_changed

        figure_register(paragraphs_figure())
        figure_register(hours_figure())
        articles_changed.connect(signals.on_articles_changed, dispatch_uid="annotation-items")
        post_delete.connect(signals.on_lease_deleted, sender=Lease, dispatch_uid="annotation-lease")
        for signal in (post_save, post_delete):
            signal.connect(
                signals.on_campaign_changed, sender=Campaign, dispatch_uid="annotation-campaign"
            )
        # The admin's home (accounts) lists annotation's pages (core/fragments.py).
        for part, order in (("campaigns", 10), ("quality", 30), ("hours", 80)):
            fragment_register(
                "accounts.admin-home", f"annotation/fragments.html#admin-home-{part}", order=order
            )
