"""Use cases of accounts: roles, account creation, bulk import, set-password links."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import Group, Permission
from django.contrib.auth.tokens import default_token_generator
from django.db import IntegrityError, transaction
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _

from accounts.authentication import principal_forget
from accounts.csv_import import UserRow, parse_users_csv
from accounts.models import ApiToken
from accounts.tokens import key_digest, new_key
from core.errors import ServiceError
from core.inputs import check_text
from core.roles import ADMIN_APPS, ROLE_PERMISSIONS, Role

User = get_user_model()


def roles_sync() -> None:
    """Create the role groups and give each its permissions (idempotent)."""
    for role, codenames in ROLE_PERMISSIONS.items():
        group, _created = Group.objects.get_or_create(name=role)
        perms = Permission.objects.filter(
            content_type__app_label__in=[c.split(".")[0] for c in codenames],
            codename__in=[c.split(".")[1] for c in codenames],
        )
        if role == Role.ADMIN:
            # Admins run the platform; writing and reviewing questions stay separate roles.
            perms = Permission.objects.filter(content_type__app_label__in=ADMIN_APPS).exclude(
                content_type__app_label="accounts", codename__in=["annotate", "review"]
            )
        group.permissions.set(perms.distinct())


def generate_password() -> str:
    """Return a random password of 20 URL-safe characters."""
    return secrets.token_urlsafe(15)


def user_grant_role(*, user, role: str) -> None:
    """Add a role to the user; admins are also staff (Django's admin site)."""
    group, _created = Group.objects.get_or_create(name=role)
    user.groups.add(group)
    if role == Role.ADMIN and not user.is_staff:
        user.is_staff = True
        user.save(update_fields=["is_staff"])
    user.__dict__.pop("roles", None)


@transaction.atomic
def user_create(*, username: str, email: str, role: str, password: str | None = None):
    """Create an account with one role; without a password it can only be set by link."""
    if role not in Role.values:
        raise ServiceError({"role": [_("Unknown role “%(role)s”.") % {"role": role}]})
    if User.objects.filter(username__iexact=username).exists():
        raise ServiceError({"username": [_("This username is already taken.")]})
    user = User(username=username, email=email)
    if password:
        user.set_password(password)
    else:
        user.set_unusable_password()
    try:
        with transaction.atomic():
            user.save()
    except IntegrityError:  # created by a concurrent request since the check above
        raise ServiceError({"username": [_("This username is already taken.")]}) from None
    user_grant_role(user=user, role=role)
    return user


@transaction.atomic
def admin_create(*, username: str, email: str = "") -> tuple[object, str]:
    """Create an admin with a generated password; return (user, password)."""
    password = generate_password()
    user = user_create(username=username, email=email, role=Role.ADMIN, password=password)
    return user, password


def set_password_path(user) -> str:
    """Return the one-time set-password path of a user (void once the password changes)."""
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)
    return reverse("accounts:set-password", kwargs={"uidb64": uid, "token": token})


@dataclass
class ImportResult:
    created: list[tuple[UserRow, object]] = field(default_factory=list)
    skipped: list[UserRow] = field(default_factory=list)


@transaction.atomic
def users_import(*, text: str) -> ImportResult:
    """Create the accounts of a username,email,role CSV: all of them, or none on any error.

    Usernames that already exist are skipped and listed, so the same class list can be
    imported again after adding a few names.
    """
    rows, problems = parse_users_csv(text)
    if problems:
        raise ServiceError({"file": problems})
    wanted = [row.username.lower() for row in rows]
    existing = set(
        User.objects.annotate(lower=Lower("username"))
        .filter(lower__in=wanted)
        .values_list("lower", flat=True)
    )
    result = ImportResult()
    for row in rows:
        if row.username.lower() in existing:
            result.skipped.append(row)
            continue
        user = user_create(username=row.username, email=row.email, role=row.role)
        result.created.append((row, user))
    return result


def demo_user_ensure(*, username: str, role: str, known_password: str | None) -> str:
    """Make sure the demo account exists with `role`; return its password.

    A password remembered from an earlier run is kept while it still works, so running the
    demo again does not sign people out; otherwise a new one is generated.
    """
    user = User.objects.filter(username=username).first()
    if user is None:
        password = generate_password()
        user_create(
            username=username, email=f"{username}@demo.invalid", role=role, password=password
        )
        return password
    user_grant_role(user=user, role=role)
    if known_password and user.check_password(known_password):
        return known_password
    password = generate_password()
    user.set_password(password)
    user.save(update_fields=["password"])
    return password


TOKENS_PER_USER = 10


@transaction.atomic
def token_issue(*, user) -> str:
    """Issue a new API token for the user; return its key (stored only as a digest).

    A user keeps their TOKENS_PER_USER newest tokens: issuing one more revokes the oldest.
    """
    key = new_key()
    ApiToken.objects.create(user=user, digest=key_digest(key), prefix=key[:6])
    mine = ApiToken.objects.filter(user=user).order_by("-created_at", "-pk")
    ApiToken.objects.filter(
        pk__in=list(mine.values_list("pk", flat=True)[TOKENS_PER_USER:])
    ).delete()
    return key


def holder_accounts_ensure(*, usernames: list[str]) -> list:
    """Return the accounts that hold work brought from elsewhere, created the first time.

    They have no role and no usable password: nobody signs in with them.
    """
    return [
        User.objects.get_or_create(
            username=username, defaults={"is_active": False, "password": make_password(None)}
        )[0]
        for username in usernames
    ]


def annotator_pause(*, user, note: str = "") -> None:
    """Stop an annotator from taking new items; what they hold now can still be sent."""
    note = check_text(note.strip() if isinstance(note, str) else "", "note")
    if len(note) > 500:
        raise ServiceError({"note": [_("At most 500 characters.")]})
    if not user.has_role(Role.ANNOTATOR):
        raise ServiceError({"user": [_("Only annotators can be paused.")]})
    User.objects.filter(pk=user.pk).update(paused_at=timezone.now(), pause_note=note)
    principal_forget(user.pk)
    user.refresh_from_db(fields=["paused_at", "pause_note"])


def annotator_resume(*, user) -> None:
    """Let a paused annotator take new items again."""
    User.objects.filter(pk=user.pk).update(paused_at=None, pause_note="")
    principal_forget(user.pk)
    user.refresh_from_db(fields=["paused_at", "pause_note"])
