"""Who may frame the widget: the ``frame-ancestors`` of its answer, without rendering it.

Every other page of the site says ``frame-ancestors 'none'`` and ``X-Frame-Options: DENY``
(``events.common.middleware``, ``config/settings.py``). The widget's answer, a 200, a stored body
or a 304 alike, says ``frame-ancestors 'self' <the listed sites>`` and drops
``X-Frame-Options`` (``SAMEORIGIN`` while nobody is listed: the desk's preview frames it).

The sites are part of the version: saving them bumps the versions of the event's
competitions (``events.embed.services``). So the header is cached under the version the
answer carries in its ETag, and a 304 or a stored body costs one cache read more and no
query; a new version reads the sites once (one query) and keeps them for the next requests.
An answer without our ETag (a 404) keeps the site's default, which frames nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse

from events import versions
from events.common.middleware import CONTENT_SECURITY_POLICY
from events.embed.origins import frame_ancestors
from events.embed.selectors import sites_of_competition

FRAME_PREFIX = "embed:frame"
FRAME_SECONDS = 3600
NOT_FRAMED = "frame-ancestors 'none'"
# The ETag of a competition's live page: "c-<pk>.<version>.<created>-<representation>".
ETAG = re.compile(rf'^"{versions.COMPETITION}-(\d+)\.(\d+)\.(\d+)-')


def policy_for(sites: list[str]) -> str:
    """The site's Content-Security-Policy with the widget's ``frame-ancestors``."""
    return CONTENT_SECURITY_POLICY.replace(NOT_FRAMED, frame_ancestors(sites))


def version_of(response: HttpResponse) -> tuple[int, int, int] | None:
    """``(competition pk, version, created)`` of a live answer, from its ETag."""
    found = ETAG.match(response.headers.get("ETag", ""))
    if found is None:
        return None
    pk, version, created = (int(part) for part in found.groups())
    return pk, version, created


def sites_at(pk: int, version: int, created: int) -> list[str]:
    """The sites at this version of the competition: from the cache, else the database."""
    key = f"{FRAME_PREFIX}:{pk}.{version}.{created}"
    stored = versions.cached([key]).get(key)
    if isinstance(stored, tuple) and all(isinstance(site, str) for site in stored):
        return list(stored)
    sites = sites_of_competition(pk)
    try:
        cache.set(key, tuple(sites), FRAME_SECONDS)
    except Exception:  # an optimisation: a dead cache costs one query a request
        versions.logger.warning("embed cache unavailable (set sites)", exc_info=True)
    return sites


def framed(response: HttpResponse) -> HttpResponse:
    """The widget's framing headers on a live answer of its competition."""
    version = version_of(response)
    if version is None:
        return response
    sites = sites_at(*version)
    response.headers["Content-Security-Policy"] = policy_for(sites)
    if sites:
        # Django's XFrameOptionsMiddleware leaves this answer alone; CSP says who may frame.
        response.xframe_options_exempt = True
    else:
        response.headers["X-Frame-Options"] = "SAMEORIGIN"
    return response


def frameable(
    view: Callable[..., HttpResponse],
) -> Callable[..., HttpResponse]:
    """A live page of a competition that the listed sites may frame."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        return framed(view(request, *args, **kwargs))

    return wrapped
