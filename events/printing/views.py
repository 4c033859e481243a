"""The print kit's desk pages: the kit of one competition, and each of its PDFs."""

from __future__ import annotations

import re

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

from events.desk.http import desk_view
from events.models import Competition
from events.printing.contract import NoSuchItem
from events.printing.documents import print_document

LANGUAGE_CODES = frozenset(code for code, _name in settings.LANGUAGES)


def chosen_language(request: HttpRequest, competition: Competition) -> str:
    """``?lang=`` when it is one of the site's languages, else the event's; 404 for another."""
    language = request.GET.get("lang") or competition.event.language
    if language not in LANGUAGE_CODES:
        raise Http404
    return language


@require_GET
@desk_view()
def download(request: HttpRequest, competition: Competition, key: str) -> HttpResponse:
    scope = request.GET.get("scope", "")
    if not re.fullmatch(r"[-\w]*", scope, flags=re.ASCII):
        raise Http404
    language = chosen_language(request, competition)
    try:
        printed = print_document(competition, key, scope, language)
    except NoSuchItem as exc:
        raise Http404 from exc
    parts = [competition.event.slug, competition.slug, key, scope, language]
    filename = "-".join(part for part in parts if part) + ".pdf"
    response = HttpResponse(printed.content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


@require_GET
@desk_view()
def kit(request: HttpRequest, competition: Competition) -> HttpResponse:
    raise Http404
