"""The one base address of every absolute link: QR codes, e-mails, printed cards.

Links that leave the browser (a QR code on the desk or the projector, a table card, an e-mail
with a private link) are built from ``settings.SITE_URL``, never from the request's own host:
the desk laptop reaches itself as 127.0.0.1, which no phone can. On a server ``SITE_URL`` is the
public address; at a venue ``make run HOST=0.0.0.0`` sets it to the laptop's LAN address
(``scripts/run.py``).
"""

from __future__ import annotations

from django.conf import settings

from events.common.network import is_loopback_host, url_host


def site_url() -> str:
    """The base address, without a trailing slash (``https://events.example.org``)."""
    return str(settings.SITE_URL).rstrip("/")


def absolute_url(path: str) -> str:
    """``path`` (an address on this site: ``reverse()``, ``get_absolute_url()``) made absolute."""
    return site_url() + "/" + path.lstrip("/")


def base_is_loopback() -> bool:
    """True when the base address is one phones cannot reach (127.0.0.1, localhost, ::1)."""
    return is_loopback_host(url_host(site_url()))
