from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ExportsConfig(AppConfig):
    name = "exports"
    verbose_name = _("Releases")

    def ready(self):
        from core.figures import figure_register
        from exports.diff import diff_figure

        figure_register(diff_figure())
