"""Middleware of the whole site: hostile input refused early, security headers on every answer.

``HostileInputMiddleware``
    A NUL byte is never legitimate in an address, a form field or a JSON body, and PostgreSQL
    cannot store one: such a request is answered ``400`` with a readable page (JSON under
    ``/api/``) before any view runs (a write is refused rather than silently altered; a form
    post's page says nothing was saved and links back to the form it came from). Other
    control characters (C0 and C1, but tab, line feed and carriage return) are stripped from
    form values, so no name, club, reason or note keeps them (the services' ``clean_text``
    folds whitespace on top). A NUL in the query string (keys or values) is refused the same
    way: the address is the path and its query.

``SecurityHeadersMiddleware``
    ``Content-Security-Policy`` (scripts from this site only: no inline script, no ``eval``,
    which is why htmx runs with ``allowEval: false`` and the live sections' visibility filter
    lives in ``static/js/site.js``), ``Permissions-Policy`` (no camera, microphone, location…)
    and ``Cache-Control: no-store`` on every answer under :data:`PRIVATE_PREFIXES` (the desk,
    the API, private pages, logins, admin; ``events.desk.http.desk_view`` adds it too). Every
    answer whose own address holds a token (:func:`referrer_policy`) tells the browser to put
    that address in no ``Referer``, not even to this site: the pages, and the 404s, 410s,
    redirects, CSRF refusals and JSON answers there too.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponse, JsonResponse, QueryDict
from django.template.loader import render_to_string
from django.utils.cache import patch_cache_control
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _

NUL = "\x00"
# C0 and C1 controls except tab, line feed and carriage return (and DEL).
CONTROL = re.compile("[\x01-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
# In query values (reads: a search) the other controls are stripped (a NUL is refused first).
QUERY_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
# Answers no browser or proxy may keep: the desk (lists private links, e-mails), the JSON API,
# players' private pages, the logins and admin.
PRIVATE_PREFIXES = ("/desk/", "/api/", "/p/", "/accounts/", "/admin/")
# ... but the read API (events.api) answers public data with its own ETag and no-cache.
PUBLIC_API_PREFIX = "/api/v1/"
# Addresses that are keys: the person's page behind the sign-up link, a message's stop link, a
# "this is me" push's stop, a player's private link before it is exchanged for a cookie (not
# /p/player/<id>/, which holds none).
SECRET_ADDRESS = re.compile(r"/(sign-up|notifications/stop|notifications/phone|p(?!/player/))/")
# The Referer of everything such a page loads, posts or links: the site's origin at most, never
# the path. Not no-referrer: a browser posts a form from a no-referrer page with
# "Origin: null" (Chromium does), which Django's CSRF check refuses, and these pages post
# forms (the person's buttons; the logout in every page's header).
SECRET_ADDRESS_POLICY = "strict-origin"
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        # style="" attributes (a piece colour, a margin); no <style> element, no inline script.
        "style-src-attr 'unsafe-inline'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
PERMISSIONS_POLICY = ", ".join(
    f"{feature}=()"
    for feature in (
        "accelerometer",
        "camera",
        "geolocation",
        "gyroscope",
        "magnetometer",
        "microphone",
        "payment",
        "usb",
    )
)

# The desk reads players' QR codes with its own camera (static/js/desk-scan.js): this site's
# pages under /desk/ may ask for it; every other page still may not.
DESK_PERMISSIONS_POLICY = PERMISSIONS_POLICY.replace("camera=()", "camera=(self)")


def _strings(value: Any) -> Iterable[str]:
    """Every string inside a decoded JSON value, keys included."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            yield item
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def _has_nul(items: Iterable[str]) -> bool:
    return any(NUL in item for item in items)


def _without_controls(data: QueryDict, pattern: re.Pattern[str] = CONTROL) -> QueryDict | None:
    """A copy of ``data`` with control characters removed, or None when it has none."""
    if not any(pattern.search(v) for values in data.lists() for v in values[1]):
        return None
    cleaned = QueryDict(mutable=True, encoding=data.encoding)
    for key, values in data.lists():
        cleaned.setlist(key, [pattern.sub("", v) for v in values])
    cleaned._mutable = False
    return cleaned


class HostileInputMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if self.refuses(request):
            return self._bad_request(request)
        cleaned_get = _without_controls(request.GET, QUERY_CONTROL)
        if cleaned_get is not None:
            request.GET = cleaned_get  # type: ignore[assignment]
        if request.content_type in FORM_TYPES:
            cleaned_post = _without_controls(request.POST)
            if cleaned_post is not None:
                request.POST = cleaned_post  # type: ignore[assignment]
        return self.get_response(request)

    def refuses(self, request: HttpRequest) -> bool:
        if NUL in request.path or NUL in request.path_info:
            return True
        query = request.GET
        if _has_nul(query.keys()) or _has_nul(v for _k, vs in query.lists() for v in vs):
            return True
        if request.method in ("GET", "HEAD", "OPTIONS"):
            return False
        if request.content_type in FORM_TYPES:
            post = request.POST
            if _has_nul(post.keys()) or _has_nul(v for _k, vs in post.lists() for v in vs):
                return True
            return _has_nul(str(getattr(f, "name", "") or "") for f in request.FILES.values())
        if request.content_type == "application/json":
            try:
                body = request.body
            except Exception:  # too large: the view answers that
                return False
            if b"\x00" in body:
                return True
            try:
                value = json.loads(body or b"null")
            except (ValueError, RecursionError):
                return False  # the view answers bad JSON itself
            return _has_nul(_strings(value))
        return False

    def _bad_request(self, request: HttpRequest) -> HttpResponse:
        message = _("The request contains a NUL character, which is never valid here.")
        if request.path.startswith("/api/"):
            return JsonResponse({"error": message, "code": "nul_character"}, status=400)
        html = render_to_string(
            "events/bad_request.html",
            {
                "message": message,
                "site_name": getattr(settings, "SITE_NAME", ""),
                # A form post: the way back to the form (the browser's Back keeps the values).
                "back": _form_page(request) if request.method == "POST" else "",
            },
        )
        # Answered before SecurityHeadersMiddleware runs: its page must not leak the address.
        return _secret_address(request, HttpResponse(html, status=400))


def _form_page(request: HttpRequest) -> str:
    """The page a form was posted from (its Referer, on this site only), or ""."""
    referer = request.headers.get("Referer", "")
    try:
        host = request.get_host()
    except DisallowedHost:
        return ""
    if NUL in referer or not url_has_allowed_host_and_scheme(referer, allowed_hosts={host}):
        return ""
    parts = urlsplit(referer)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def referrer_policy(path: str) -> str | None:
    """The Referrer-Policy of an answer whose own address holds a token, else None (the
    site's SECURE_REFERRER_POLICY, which SecurityMiddleware adds only where none is set)."""
    return SECRET_ADDRESS_POLICY if SECRET_ADDRESS.match(path) else None


def _secret_address(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """The policy on an answer from a secret address, unless its view chose its own (the
    round robin's ``/p/<token>/`` redirects with no-referrer: it renders no page)."""
    policy = referrer_policy(request.path)
    if policy is not None:
        response.headers.setdefault("Referrer-Policy", policy)
    return response


class SecurityHeadersMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        desk = request.path.startswith("/desk/")
        response.headers.setdefault(
            "Permissions-Policy", DESK_PERMISSIONS_POLICY if desk else PERMISSIONS_POLICY
        )
        if request.path.startswith(PRIVATE_PREFIXES) and not request.path.startswith(
            PUBLIC_API_PREFIX
        ):
            patch_cache_control(response, no_store=True, private=True)
        return _secret_address(request, response)
