from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from accounts.language import set_language_view

urlpatterns = [
    path("", include("accounts.urls")),
    path("", include("core.urls")),
    path("", include("corpus.urls")),
    path("", include("annotation.urls")),
    path("", include("annotation.report_urls")),
    path("", include("evaluation.urls")),
    path("", include("exports.urls")),
    # Django's switch, which also keeps the choice on a signed-in account (accounts/language.py).
    path("i18n/setlang/", set_language_view, name="set_language"),
    path("django-admin/", admin.site.urls),
    path("api/v1/", include(("config.api_urls", "api"), namespace="api")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
]

# A path under /api/ that names no operation answers the API's JSON 404, not the site's page.
handler404 = "core.api.not_found"
