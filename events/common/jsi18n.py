"""The JavaScript strings' catalogue: Django's ``JavaScriptCatalog``, one file per language.

``base.html`` loads it before every other script (all ``defer``, so they run in document order
and ``gettext``/``ngettext``/``interpolate`` exist when they run; the scripts still fall back to
the English words when it failed to load). The language is in the address (``/jsi18n/sv/``),
not taken from the request: a page may be in its event's language rather than the visitor's
(events/language.py), and its scripts must speak the page's language. The address carries the
catalogues' version (``?v=``, from the compiled ``djangojs.mo`` files), so browsers keep it for a
year and a new catalogue is a new address. The text is built once per language and version per
process. It is a script file from this site with no ``eval`` (Content-Security-Policy
``script-src 'self'`` allows it).
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.dispatch import receiver
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import translation
from django.utils.autoreload import file_changed
from django.utils.cache import patch_cache_control
from django.views.i18n import JavaScriptCatalog

# Our own strings only (the project's locale/ folder, LOCALE_PATHS), not the admin's.
PACKAGES = ["events"]
DOMAIN = "djangojs"
YEAR = 365 * 24 * 3600


@lru_cache(maxsize=1)
def catalogue_version() -> str:
    """A short hash of the compiled JavaScript catalogues (names, sizes, times); a deploy with
    new translations restarts the processes and so gets a new one."""
    digest = hashlib.sha256()
    for folder in settings.LOCALE_PATHS:
        for mo in sorted(Path(folder).glob(f"*/LC_MESSAGES/{DOMAIN}.mo")):
            stat = mo.stat()
            digest.update(f"{mo}:{stat.st_size}:{stat.st_mtime_ns};".encode())
    return digest.hexdigest()[:12]


@receiver(file_changed, dispatch_uid="events.common.jsi18n.mo_changed")
def _forget_on_new_catalogue(sender: object, file_path: Path, **kwargs: object) -> None:
    """``runserver`` reloads translations when a ``.mo`` file changes: new version, new text."""
    if Path(file_path).suffix == ".mo":
        catalogue_version.cache_clear()
        _catalogue.cache_clear()


def _languages() -> set[str]:
    return {code for code, _name in settings.LANGUAGES}


@lru_cache(maxsize=16)
def _catalogue(language: str, version: str) -> tuple[bytes, str]:
    """The catalogue's text and content type for ``language`` (``version`` keys the cache)."""
    request = HttpRequest()
    request.method = "GET"
    with translation.override(language):
        response = JavaScriptCatalog.as_view(packages=PACKAGES, domain=DOMAIN)(request)
    assert isinstance(response, HttpResponse)
    return response.content, response["Content-Type"]


def catalogue_url(language: str | None = None) -> str:
    """The address of the catalogue in ``language`` (the active one by default)."""
    code = language or translation.get_language() or settings.LANGUAGE_CODE
    if code not in _languages():
        code = translation.get_supported_language_variant(code)
    return f"{reverse('javascript-catalog', args=[code])}?v={catalogue_version()}"


def javascript_catalogue(request: HttpRequest, lang: str) -> HttpResponse:
    if lang not in _languages():
        raise Http404
    content, content_type = _catalogue(lang, catalogue_version())
    response = HttpResponse(content, content_type=content_type)
    response["Content-Language"] = lang
    if request.GET.get("v") == catalogue_version():
        patch_cache_control(response, public=True, max_age=YEAR, immutable=True)
    else:
        patch_cache_control(response, public=True, max_age=300)
    return response
