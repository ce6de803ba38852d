from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _

from core.roles import Role


class User(AbstractUser):
    """A person using the platform; what they may do comes from their role groups."""

    class Meta(AbstractUser.Meta):
        swappable = "AUTH_USER_MODEL"
        permissions = [
            ("annotate", _("Can write questions and answers")),
            ("review", _("Can review the questions of others")),
            ("administer", _("Can run the platform: corpus, campaigns, releases, scoring")),
        ]

    paused_at = models.DateTimeField(_("paused"), null=True, blank=True)
    pause_note = models.CharField(_("why paused"), max_length=500, blank=True)
    # The interface language this person chose (a code of settings.LANGUAGES); empty until
    # they choose one. It follows them to every browser they sign in from (accounts.language).
    language = models.CharField(_("interface language"), max_length=8, blank=True)

    @cached_property
    def roles(self) -> frozenset[str]:
        """Return the role names this user holds (cached for the request)."""
        if not self.is_active or not self.pk:
            return frozenset()
        names = self.groups.filter(name__in=Role.values).values_list("name", flat=True)
        return frozenset(names)

    def has_role(self, role: str) -> bool:
        return role in self.roles

    @property
    def is_platform_admin(self) -> bool:
        return self.has_role(Role.ADMIN)

    def save(self, *args, **kwargs):
        if getattr(self, "from_cache", False):  # built from a few cached fields
            raise RuntimeError("a user read from the authentication cache cannot be saved")
        super().save(*args, **kwargs)


class ApiToken(models.Model):
    """A token a script signs in with (`Authorization: Token …`), stored as its SHA-256 only.

    The key itself is shown once, when it is issued; nobody can read it back, admins included.
    """

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="api_tokens")
    digest = models.CharField(_("SHA-256 of the key"), max_length=64, unique=True)
    prefix = models.CharField(_("first characters of the key"), max_length=8)
    created_at = models.DateTimeField(_("issued"), auto_now_add=True)

    class Meta:
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")
        ordering = ["-created_at", "-pk"]

    def __str__(self):
        return f"{self.prefix}… · {self.user_id}"
