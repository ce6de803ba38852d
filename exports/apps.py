from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ExportsConfig(AppConfig):
    name = "exports"
    verbose_name = _("Releases")

    def ready(self):
        from core.figures import figure_register
        from core.fragments import fragment_register
        from exports.diff import diff_figure

        figure_register(diff_figure())
        # The admin's home (accounts) lists the releases (core/fragments.py).
        fragment_register("accounts.admin-home", "exports/fragments.html#admin-home", order=20)
