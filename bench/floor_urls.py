"""The site's URLs and, first, the benchmarks' floor (issue 24): the site's layout (base.html)
with no content for a signed-in user, behind `login_required`, so it pays what every page pays
(middleware, session, user, menus, template, style sheet) and nothing else."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.urls import path

from config.urls import handler404
from config.urls import urlpatterns as site_urls

EMPTY_PAGE = "/bench-empty-page/"


@login_required
def empty_page(request):
    return render(request, "base.html")


urlpatterns = [path(EMPTY_PAGE.strip("/") + "/", empty_page), *site_urls]
__all__ = ["handler404", "urlpatterns"]
