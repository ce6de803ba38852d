from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CorpusConfig(AppConfig):
    name = "corpus"
    verbose_name = _("Corpus")

    def ready(self):
        from core.figures import figure_register
        from corpus.selectors import stats_figure

        figure_register(stats_figure())
