"""Roles, account creation and the all-or-nothing import."""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from accounts.services import admin_create, roles_sync, user_create, users_import
from core.errors import ServiceError
from core.roles import Role
from tests.factories import UserFactory

User = get_user_model()


def test_roles_are_groups_with_their_permissions(db):
    roles_sync()
    annotator = Group.objects.get(name="annotator")
    reviewer = Group.objects.get(name="reviewer")
    admin = Group.objects.get(name="admin")
    assert list(annotator.permissions.values_list("codename", flat=True)) == ["annotate"]
    assert list(reviewer.permissions.values_list("codename", flat=True)) == ["review"]
    admin_codenames = set(admin.permissions.values_list("codename", flat=True))
    assert {"administer", "add_user", "change_user", "view_workercheck"} <= admin_codenames
    assert "annotate" not in admin_codenames


def test_roles_sync_is_idempotent(db):
    roles_sync()
    counts = [g.permissions.count() for g in Group.objects.order_by("name")]
    roles_sync()
    assert [g.permissions.count() for g in Group.objects.order_by("name")] == counts
    assert Group.objects.count() == 3


def test_admins_are_staff_but_not_superusers(db):
    user, password = admin_create(username="chief", email="chief@example.org")
    user.refresh_from_db()
    assert (user.is_staff, user.is_superuser) == (True, False)
    assert user.check_password(password)
    assert len(password) == 20
    assert user.has_perm("accounts.administer")
    assert user.roles == frozenset({"admin"})


def test_user_create_refuses_a_taken_username_in_any_case(db):
    UserFactory(username="Alice")
    with pytest.raises(ServiceError) as error:
        user_create(username="alice", email="a@x.org", role=Role.ANNOTATOR)
    assert error.value.errors == {"username": ["Ce nom d’utilisateur est déjà pris."]}
    assert User.objects.count() == 1


def test_user_create_refuses_an_unknown_role(db):
    with pytest.raises(ServiceError) as error:
        user_create(username="x", email="x@x.org", role="boss")
    assert list(error.value.errors) == ["role"]
    assert User.objects.count() == 0


def test_import_creates_accounts_without_usable_passwords(db):
    result = users_import(text="username,email,role\na,a@x.org,annotator\nr,r@x.org,reviewer\n")
    assert [(row.username, user.username) for row, user in result.created] == [
        ("a", "a"),
        ("r", "r"),
    ]
    assert result.skipped == []
    a = User.objects.get(username="a")
    assert a.has_usable_password() is False
    assert a.roles == frozenset({"annotator"})


def test_import_skips_existing_usernames_and_leaves_them_unchanged(db):
    existing = UserFactory(username="a", email="old@x.org", roles=[Role.REVIEWER])
    result = users_import(text="username,email,role\nA,new@x.org,admin\nb,b@x.org,annotator\n")
    assert [row.username for row in result.skipped] == ["A"]
    assert [user.username for _row, user in result.created] == ["b"]
    existing.refresh_from_db()
    assert (existing.email, existing.is_staff) == ("old@x.org", False)
    assert User.objects.get(pk=existing.pk).roles == frozenset({"reviewer"})


def test_import_with_one_bad_line_creates_nobody(db):
    with pytest.raises(ServiceError) as error:
        users_import(text="username,email,role\ngood,g@x.org,annotator\nbad,bad,annotator\n")
    assert list(error.value.errors) == ["file"]
    assert len(error.value.errors["file"]) == 1
    assert User.objects.count() == 0
