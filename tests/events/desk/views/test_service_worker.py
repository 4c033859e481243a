"""The desk's service worker: served at /desk/sw.js so that its scope can be
/desk/, public (it holds no data), always revalidated, naming the logout address it watches."""

from __future__ import annotations

from django.urls import reverse


def test_the_service_worker_is_served_for_the_desk_scope(client, db):
    response = client.get("/desk/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert "no-cache" in response["Cache-Control"]
    body = response.content.decode()
    assert f'var LOGOUT = "{reverse("account_logout")}"' in body
    assert '"/static/"' in body and "desk-pages-v1" in body
    assert client.post("/desk/sw.js").status_code == 405


def test_the_score_entry_page_carries_its_rota_for_offline_use(desk_client, event):
    from django.utils import timezone

    from tests.support.factories import EntryFactory, PlayerFactory
    from tests.support.shuffleboard import SjoelenFactory

    competition = SjoelenFactory(event=event, slug="sj", settings={"games": 2, "boards": 1})
    for name in ("Anna", "Bert"):
        EntryFactory(
            competition=competition, player=PlayerFactory(name=name), checked_in_at=timezone.now()
        )
    page = desk_client.get(reverse("shuffleboard:entry", args=[event.slug, competition.slug]))
    html = page.content.decode()
    assert '<script id="rota-data" type="application/json">' in html
    assert '"boards": [1, 1]' in html and '"entered": []' in html
    assert "shuffleboard/offline-rota" in html
