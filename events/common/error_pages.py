"""The site's own 400, 403, 404 and 500 pages (``config/urls.py`` handler400..500) and its CSRF
refusal (``CSRF_FAILURE_VIEW``), in the reader's language, in place of Django's bare English.

A page whose address is a link someone was sent (the person's sign-up page, a round-robin
player's private page, a message's stop link) says how to get a working link, since a link
cut short by a mail program or changed by hand lands here. The JSON API keeps its own shape
(``{"error", "code"}``). Each page renders from an explicit context with no database query,
so a 500 page shows even when the database is what failed.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext as _


def link_kind(path: str) -> str:
    """Which kind of sent link ``path`` is, or ""."""
    if path.startswith("/sign-up/"):
        return "sign-up"
    if path.startswith("/p/") and not path.startswith("/p/player/"):
        return "private"
    if path.startswith("/notifications/"):
        return "stop"
    return ""


def _hint(kind: str) -> str:
    if kind == "sign-up":
        return _(
            "A sign-up link works only whole and for 30 days. Open the link in your newest "
            "e-mail about this event, or ask for a new one on the event's sign-up page "
            "(“Signed up already?”)."
        )
    if kind == "private":
        return _(
            "A private link works only whole. Open it again from your e-mail, or ask the "
            "organiser at the desk for your link."
        )
    if kind == "stop":
        return _(
            "A stop link works only whole. Open the link in your newest message, or change "
            "your notifications on your own page."
        )
    return ""


def _page(request: HttpRequest | None, status: int, title: str, message: str) -> HttpResponse:
    path = request.path if request is not None else ""
    if path.startswith("/api/"):
        code = {400: "bad_request", 403: "forbidden", 404: "not_found"}.get(status, "error")
        return JsonResponse({"error": message, "code": code}, status=status)
    kind = link_kind(path)
    html = render_to_string(
        "errors/page.html",
        {
            "status": status,
            "title": title,
            "message": message,
            "hint": _hint(kind),
            "site_name": getattr(settings, "SITE_NAME", ""),
        },
    )
    # SecurityHeadersMiddleware adds the Referrer-Policy of a link's address to this answer too.
    return HttpResponse(html, status=status)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _page(request, 400, _("Bad request"), _("The page could not understand this request."))


def forbidden(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _page(
        request,
        403,
        _("Not allowed"),
        _("This page is for the event's organisers. Log in with an organiser's account."),
    )


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if link_kind(request.path):
        message = _("This link does not open anything: it is incomplete or was changed.")
    else:
        message = _("There is no page at this address.")
    return _page(request, 404, _("Page not found"), message)


def server_error(request: HttpRequest) -> HttpResponse:
    return _page(
        request,
        500,
        _("Something went wrong"),
        _(
            "The server could not answer this time. Nothing you sent was half-saved: reload "
            "the page in a moment."
        ),
    )


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    return _page(
        request,
        403,
        _("Form expired"),
        _(
            "This form was open for too long, or the browser refused its cookie. Go back, "
            "reload the page and send it again."
        ),
    )
