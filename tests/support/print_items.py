"""A format's print items in tests: the kit's download of one item, and the links a PDF holds
(the QR codes are drawn as squares; each carries its address as a link too)."""

from __future__ import annotations

from django.urls import reverse
from pypdf import PdfReader

from tests.support.printing import opened


def download(client, competition, key: str, scope: str = "", lang: str = "en"):
    """GET the kit's PDF of item ``key`` at ``scope`` (the response, whatever its status)."""
    address = reverse("events:print_download", args=[competition.event.slug, competition.slug, key])
    return client.get(address, {"scope": scope, "lang": lang})


def pdf_of(response) -> PdfReader:
    assert response.status_code == 200, response.status_code
    assert response["Content-Type"] == "application/pdf"
    return opened(response.content)


def links_of(reader: PdfReader) -> set[str]:
    """Every address the pages link to."""
    addresses = set()
    for page in reader.pages:
        for annotation in page.get("/Annots", []) or []:
            action = annotation.get_object().get("/A", {})
            if "/URI" in action:
                addresses.add(str(action["/URI"]))
    return addresses
