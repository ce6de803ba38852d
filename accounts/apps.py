from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = _("Accounts")

    def ready(self):
        from accounts import language, signals
        from accounts.services import roles_sync

        # Groups need the permission rows, which Django creates after the last migration.
        post_migrate.connect(lambda **kwargs: roles_sync(), weak=False, dispatch_uid="roles_sync")
        signals.connect()
        language.connect()
