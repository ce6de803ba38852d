"""The interface language follows the account, and the browser when nobody is signed in.

Django keeps the chosen language in a cookie (LocaleMiddleware, `set_language`): one browser
only, so a phone stayed in English after its owner switched to French on a desktop. Here the
choice is also kept on the account (`User.language`):

- the language switch saves it on the account when someone is signed in (`set_language_view`);
- signing in from a browser where a language was chosen adopts it, if the account has none yet;
- every request of a signed-in browser session is answered in the account's language, and the
  browser's cookie is brought in line, so that the pages it shows after signing out agree.

API calls made with a token keep HTTP's own rule (Accept-Language, then the default): a script
says per request what it wants. Calls made by the pages' scripts carry the session, and so get
the account's language, like the page around them (docs/decisions.md).
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.utils import translation
from django.views.decorators.http import require_POST
from django.views.i18n import set_language

from accounts.models import User


def language_known(code) -> bool:
    return isinstance(code, str) and code in dict(settings.LANGUAGES)


def language_save(*, user: User, language: str) -> None:
    """Keep this interface language on the account (a code of settings.LANGUAGES)."""
    if not language_known(language) or user.language == language:
        return
    User.objects.filter(pk=user.pk).update(language=language)
    user.language = language


def account_language(request) -> str:
    """The language of the signed-in account of this request, or "" (none chosen, anonymous)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return ""
    code = getattr(user, "language", "")
    return code if language_known(code) else ""


class AccountLanguageMiddleware:
    """Answer a signed-in session in its account's language; keep the browser's cookie in line.

    Placed after AuthenticationMiddleware (it needs `request.user`) and inside LocaleMiddleware,
    whose response half then names this language in Content-Language.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        code = account_language(request)
        if code:
            translation.activate(code)
            request.LANGUAGE_CODE = code
        response = self.get_response(request)
        code = account_language(request)  # a sign-in during this request counts
        cookie = settings.LANGUAGE_COOKIE_NAME
        if code and request.COOKIES.get(cookie) != code and cookie not in response.cookies:
            response.set_cookie(
                cookie,
                code,
                max_age=settings.LANGUAGE_COOKIE_AGE,
                path=settings.LANGUAGE_COOKIE_PATH,
                domain=settings.LANGUAGE_COOKIE_DOMAIN,
                secure=settings.LANGUAGE_COOKIE_SECURE,
                httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
                samesite=settings.LANGUAGE_COOKIE_SAMESITE,
            )
        return response


@require_POST
def set_language_view(request):
    """Django's language switch (the browser's cookie), and the account's choice if signed in."""
    response = set_language(request)
    code = request.POST.get("language")
    if request.user.is_authenticated and translation.check_for_language(code):
        language_save(user=request.user, language=code)
    return response


def _adopt_browser_language(sender, request, user, **kwargs):
    """Signing in: an account without a language takes the one chosen in this browser."""
    if request is None or getattr(user, "language", "x"):
        return
    code = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
    if language_known(code):
        language_save(user=user, language=code)


def connect() -> None:
    user_logged_in.connect(_adopt_browser_language, dispatch_uid="account-language-sign-in")
