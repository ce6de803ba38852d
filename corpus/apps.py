from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CorpusConfig(AppConfig):
    name = "corpus"
    verbose_name = _("Corpus")

    def ready(self):
        from core.figures import figure_register
        from core.fragments import fragment_register
        from corpus.selectors import stats_figure

        figure_register(stats_figure())
        # The admin's home (accounts) lists the corpus (core/fragments.py).
        fragment_register("accounts.admin-home", "corpus/fragments.html#admin-home", order=90)
