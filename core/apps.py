from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CoreConfig(AppConfig):
    name = "core"
    verbose_name = _("Platform core")

    def ready(self):
        from core import egress, outbound

        # Every outbound request for admins follows the settings' policy (docs/security.md).
        egress.use_policy_source(outbound.policy_from_settings)
