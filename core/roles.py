"""The three roles of the platform, each a Django group."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class Role(models.TextChoices):
    ANNOTATOR = "annotator", _("Annotator")
    REVIEWER = "reviewer", _("Reviewer")
    ADMIN = "admin", _("Admin")


# What each role may do; admins also get every permission of the platform's own apps.
ROLE_PERMISSIONS = {
    Role.ANNOTATOR: ["accounts.annotate"],
    Role.REVIEWER: ["accounts.review"],
    Role.ADMIN: ["accounts.administer"],
}
ADMIN_APPS = ["accounts", "core", "corpus", "annotation", "exports", "evaluation"]
# Where each role's work starts; a user with several roles picks on the home page.
ROLE_HOMES = {
    Role.ANNOTATOR: "annotation:annotator-home",
    Role.REVIEWER: "annotation:reviewer-home",
    Role.ADMIN: "accounts:admin-home",
}
