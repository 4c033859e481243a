"""The site's URLs plus one view that fails, for the 500 page's test."""

from __future__ import annotations

from django.urls import path

from config.urls import handler400, handler403, handler404, handler500, urlpatterns as site_urls  # noqa: F401


def fails(request):
    raise RuntimeError("a bug")


urlpatterns = [path("fails/", fails), *site_urls]
