import factory
from django.contrib.auth import get_user_model

from accounts.services import user_grant_role


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.org")

    @factory.post_generation
    def password(self, create, extracted, **kwargs):
        self.set_password(extracted or "correct horse battery staple")
        if create:
            self.save(update_fields=["password"])

    @factory.post_generation
    def roles(self, create, extracted, **kwargs):
        for role in extracted or []:
            user_grant_role(user=self, role=role)
