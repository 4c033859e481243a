"""The print kit's desk pages: the kit of one competition (every item with its button, the
language, the names no font here can draw), and each of its PDFs."""

from __future__ import annotations

import re
from urllib.parse import urlencode

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from events.desk.http import desk_view
from events.models import Competition
from events.printing.contract import NoSuchItem, PrintItem
from events.printing.documents import format_items, print_document, shared_items
from events.printing.pdf import PAPER
from events.printing.selectors import playing_entries, unprintable_names

LANGUAGE_CODES = frozenset(code for code, _name in settings.LANGUAGES)
SIGNATURE_MAX_BYTES = 2 * 1024 * 1024
SIGNATURE_TYPES = {"image/png", "image/jpeg"}


def chosen_language(request: HttpRequest, competition: Competition) -> str:
    """``lang`` when it is one of the site's languages, else the event's; 404 for another."""
    language = request.GET.get("lang") or request.POST.get("lang") or competition.event.language
    if language not in LANGUAGE_CODES:
        raise Http404
    return language


def signature_of(request: HttpRequest) -> bytes | None:
    """The signature image sent with a certificate's request (a PNG or JPEG), never stored."""
    upload = request.FILES.get("signature")
    if upload is None:
        return None
    if upload.size is None or upload.size > SIGNATURE_MAX_BYTES:
        return None
    content = upload.read()
    if content.startswith(b"\x89PNG\r\n\x1a\n") or content.startswith(b"\xff\xd8\xff"):
        return content
    return None


# POST: the certificates with a signature image uploaded for them (the kit's form, CSRF checked).
@require_http_methods(["GET", "POST"])
@desk_view()
def download(request: HttpRequest, competition: Competition, key: str) -> HttpResponse:
    scope = request.GET.get("scope") or request.POST.get("scope") or ""
    if not re.fullmatch(r"[-\w]*", scope, flags=re.ASCII):
        raise Http404
    language = chosen_language(request, competition)
    signature = signature_of(request) if request.method == "POST" else None
    try:
        printed = print_document(competition, key, scope, language, signature=signature)
    except NoSuchItem as exc:
        raise Http404 from exc
    parts = [competition.event.slug, competition.slug, key, scope, language]
    filename = "-".join(part for part in parts if part) + ".pdf"
    response = HttpResponse(printed.content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def item_link(competition: Competition, item: PrintItem, language: str) -> dict[str, object]:
    """What the kit page shows of an item: its label, scope, paper and download address."""
    query = {"scope": item.scope, "lang": language} if item.scope else {"lang": language}
    url = reverse(
        "events:print_download", args=[competition.event.slug, competition.slug, item.key]
    )
    width, height = PAPER.get(item.paper, PAPER["A4"])
    return {
        "item": item,
        "url": f"{url}?{urlencode(query)}",
        # Translated outside the f-string: xgettext does not read inside f-strings.
        "paper": (_("%(paper)s landscape") if item.orientation == "L" else _("%(paper)s portrait"))
        % {"paper": item.paper},
        "size": f"{height} × {width} mm" if item.orientation == "L" else f"{width} × {height} mm",
    }


@require_GET
@desk_view()
def kit(request: HttpRequest, competition: Competition) -> HttpResponse:
    language = chosen_language(request, competition)
    event = competition.event
    context = {
        "event": event,
        "competition": competition,
        "language": language,
        "languages": [(code, name) for code, name in settings.LANGUAGES],
        "shared": [item_link(competition, item, language) for item in shared_items()],
        "own": [item_link(competition, item, language) for item in format_items(competition)],
        "unprintable": unprintable_names(competition),
        "entries": playing_entries(competition),
        "certificates_url": reverse(
            "events:print_download", args=[event.slug, competition.slug, "certificates"]
        ),
    }
    return render(request, "events/printing/kit.html", context)
