"""The desk's service worker, which keeps desk pages usable offline."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.http import require_GET


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The desk's service worker (templates/events/desk_sw.js), at /desk/sw.js so that its
    scope can be /desk/. Public: it holds no data, only how desk pages are kept offline."""
    response = render(
        request,
        "events/desk_sw.js",
        {"logout_url": reverse("account_logout"), "static_url": static("")},
        content_type="text/javascript; charset=utf-8",
    )
    response["Cache-Control"] = "no-cache"  # a new version is picked up at the next visit
    return response
