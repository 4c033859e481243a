"""Links followed through the site's pages, as the crawls of every page take them."""

from __future__ import annotations

import re
from html import unescape
from urllib.parse import urljoin, urlsplit

# Addresses not followed: files, the admin (Django's own), logging out, language switching.
SKIP_PREFIXES = ("/admin/", "/static/", "/i18n/", "/accounts/logout/", "/api/")
SKIP_SUFFIXES = (".csv", ".xlsx", ".json", ".png", ".svg", ".pdf", ".txt", ".ics")


def links_in(html: str, base: str) -> list[str]:
    """The site's addresses a page links to (href and hx-get), relative to ``base``, without
    the skipped ones and the projector's ``screen=`` page number."""
    found = re.findall(r'(?:href|hx-get)="([^"#]*)', html)
    out = []
    for link in found:
        link = unescape(link)
        if not link:
            continue
        parts = urlsplit(urljoin(base, link))
        if parts.scheme not in ("", "http") or parts.netloc not in ("", "testserver"):
            continue
        query = "&".join(q for q in parts.query.split("&") if q and not q.startswith("screen="))
        path = parts.path + (f"?{query}" if query else "")
        if path.startswith(SKIP_PREFIXES) or parts.path.endswith(SKIP_SUFFIXES):
            continue
        out.append(path)
    return out
