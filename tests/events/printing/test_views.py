"""The kit's downloads: who may fetch them, the PDF's headers and name, the language asked for."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from events.models import Event
from events.printing.documents import format_items, shared_items
from tests.support.factories import EntryFactory, PlayerFactory
from tests.support.printing import opened, png_signature


def download_url(competition, key):
    return reverse("events:print_download", args=[competition.event.slug, competition.slug, key])


@pytest.mark.django_db
def test_an_anonymous_visitor_is_sent_to_log_in(client, competition):
    response = client.get(download_url(competition, "wall-chart"))
    assert response.status_code == 302
    assert "login" in response["Location"]


@pytest.mark.django_db
def test_an_organiser_of_another_event_is_refused(client, outsider, competition):
    client.force_login(outsider)
    assert client.get(download_url(competition, "wall-chart")).status_code == 403


@pytest.mark.django_db
def test_an_unknown_key_scope_or_language_is_not_found(desk_client, competition):
    assert desk_client.get(download_url(competition, "nothing")).status_code == 404
    url = download_url(competition, "wall-chart")
    assert desk_client.get(url, {"scope": "no-such"}).status_code == 404
    assert desk_client.get(url, {"scope": 'a"b'}).status_code == 404
    assert desk_client.get(url, {"lang": "de"}).status_code == 404


@pytest.mark.django_db
def test_a_download_is_an_inline_pdf_named_after_event_competition_key_scope_language(
    desk_client, competition, entries
):
    response = desk_client.get(
        download_url(competition, "wall-chart"), {"scope": "a3", "lang": "sv"}
    )
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == (
        'inline; filename="lincon-2026-blokus-wall-chart-a3-sv.pdf"'
    )
    assert "no-store" in response["Cache-Control"]
    reader = opened(response.content)
    assert reader.trailer["/Root"]["/Lang"] == "sv"


@pytest.mark.django_db
def test_the_events_language_is_the_default(desk_client, competition):
    Event.objects.filter(pk=competition.event_id).update(language="et")
    response = desk_client.get(download_url(competition, "door-poster"))
    assert response["Content-Disposition"].endswith('-door-poster-et.pdf"')
    assert opened(response.content).trailer["/Root"]["/Lang"] == "et"


@pytest.mark.django_db
def test_certificates_with_a_signature_are_posted_and_nothing_is_stored(
    desk_client, competition, entries
):
    image = SimpleUploadedFile("signature.png", png_signature(), content_type="image/png")
    response = desk_client.post(
        download_url(competition, "certificates"),
        {"lang": "en", "scope": f"entry-{entries[0].pk}", "signature": image},
    )
    assert response.status_code == 200
    assert "/XObject" in opened(response.content).pages[0]["/Resources"]
    not_an_image = SimpleUploadedFile("x.png", b"<svg/>", content_type="image/png")
    response = desk_client.post(
        download_url(competition, "certificates"),
        {"scope": f"entry-{entries[0].pk}", "signature": not_an_image},
    )
    assert response.status_code == 200
    assert "/XObject" not in opened(response.content).pages[0]["/Resources"]


@pytest.mark.django_db
def test_the_kit_page_lists_every_item_with_its_button(desk_client, competition, entries):
    response = desk_client.get(
        reverse("events:print_kit", args=[competition.event.slug, competition.slug])
    )
    assert response.status_code == 200
    html = response.content.decode()
    items = [*shared_items(), *format_items(competition)]
    assert items
    for item in items:
        assert f'data-print-key="{item.key}" data-print-scope="{item.scope}"' in html
    assert html.count('class="button"') >= len(items)
    assert 'aria-current="true">English' in html
    for code in ("sv", "et", "nl"):
        assert f'href="?lang={code}"' in html
    assert 'id="unprintable"' not in html


@pytest.mark.django_db
def test_the_kit_page_in_another_language_links_its_pdfs_in_it(desk_client, competition):
    url = reverse("events:print_kit", args=[competition.event.slug, competition.slug])
    html = desk_client.get(url, {"lang": "nl"}).content.decode()
    assert "lang=nl" in html and "lang=en" not in html.replace('href="?lang=en"', "")
    assert desk_client.get(url, {"lang": "xx"}).status_code == 404


@pytest.mark.django_db
def test_names_no_font_can_draw_are_flagged_above_the_buttons(desk_client, competition, settings):
    settings.PRINT_FALLBACK_FONTS = []
    EntryFactory(competition=competition, player=PlayerFactory(name="김민준"))
    url = reverse("events:print_kit", args=[competition.event.slug, competition.slug])
    html = desk_client.get(url).content.decode()
    assert 'id="unprintable"' in html
    assert "김민준" in html
    assert html.index('id="unprintable"') < html.index("data-print-key")


@pytest.mark.django_db
def test_the_competition_desk_links_the_kit(desk_client, competition):
    html = desk_client.get(competition.get_desk_url()).content.decode()
    assert reverse("events:print_kit", args=[competition.event.slug, competition.slug]) in html
