"""The name shown in public in the round robin: a player who chose "first name
and initial" shows as "Åsa Ö." on every public page, fragment, screen, public sheet, the API and
to other players (their private page, their e-mails); the desk, the organisers' downloads and
the event document keep the full name."""

from __future__ import annotations

import datetime as dt
import json

import pytest
import time_machine
from django.test import Client
from django.urls import reverse

from events.exchange import document as exchange
from events.models import Player
from events.outbox.models import OutboxMessage
from events.signups.services import privacy
from roundrobin import export, services
from roundrobin.models import PlayerToken
from tests.support.roundrobin import (
    START,
    enter_players,
    game_between,
    make_competition,
    play,
)

H = dt.timedelta(hours=1)
HTMX = {"HX-Request": "true"}
FULL = "Åsa Öberg"
SHORT = "Åsa Ö."
SURNAME = "Öberg"


def url(name, competition, *args):
    return reverse(f"roundrobin:{name}", args=[competition.event.slug, competition.slug, *args])


def page(client, address, **headers):
    response = client.get(address, headers=headers)
    assert response.status_code == 200, address
    return response.content.decode()


def shows_short(html):
    return SHORT in html and SURNAME not in html


def asa_table(event, slug, players=3):
    """A started competition of ``players`` at one table, the first one "Åsa Öberg", who chose
    first name and initial before the start; every player has an e-mail address."""
    competition = make_competition(event, slug=slug)
    entries = enter_players(competition, players)
    asa = entries[0].player
    asa.name, asa.club = FULL, f"Club {slug}"  # one register row per competition
    asa.save()
    Player.objects.filter(pk=asa.pk).update(name_shown=Player.NameShown.SHORT)
    for index, entry in enumerate(entries):
        Player.objects.filter(pk=entry.player_id).update(email=f"p{index}.{slug}@example.org")
    services.competition_start(competition=competition, seed=5, now=START)
    competition.refresh_from_db()
    for entry in entries:
        entry.refresh_from_db()
        entry.player.refresh_from_db()
    return competition, entries


@pytest.fixture
def named(event):
    """Åsa (a) beat b; a–c and b–c are open."""
    competition, (a, b, c) = asa_table(event, "names")
    play(competition, a, b)
    return competition, (a, b, c)


def test_the_public_pages_and_their_fragments_show_the_public_name(
    client, named, django_assert_max_num_queries
):
    competition, (a, b, c) = named
    # The choice costs the tables page no query (the name and the choice come in one row):
    # as test_public_pages_take_constant_queries, six on a first visit.
    address = url("tables", competition)
    with django_assert_max_num_queries(6):
        tables = page(client, address)
    assert shows_short(tables)
    assert f'title="{SHORT}"' in tables  # the crosstable's head and row
    for address in (
        url("tables", competition),
        url("player", competition, a.pk),
        url("player", competition, b.pk),  # Åsa as b's opponent
        url("ratings", competition),
        url("screen", competition),
    ):
        assert shows_short(page(client, address)), address
        assert SURNAME not in page(client, address, **HTMX), address  # what the page polls
    assert SURNAME not in page(client, competition.get_absolute_url())


def test_a_finished_table_names_its_podium_and_tiebreak_games_by_public_name(
    client, desk_client, event
):
    competition, (a, b, c) = asa_table(event, "tie")
    for x, y in ((a, b), (a, c), (b, c)):
        play(competition, x, y, draw=True)  # a three-way tie: a tiebreak stage is drawn
    public = page(Client(), url("tables", competition))
    assert 'class="stage' in public and shows_short(public)
    assert f"{SHORT} –" in public or f"– {SHORT}" in public  # a tiebreak game's line
    desk = page(desk_client, url("desk_table", competition, 1))
    assert FULL in desk and SHORT not in desk

    final, (a, b, c) = asa_table(event, "podium")
    play(final, a, b)
    play(final, a, c)
    play(final, b, c)
    public = page(client, url("tables", final))
    assert 'class="podium-line"' in public and shows_short(public)


def test_the_desk_keeps_the_full_name(desk_client, named):
    competition, (a, b, c) = named
    for address in (
        url("desk", competition),
        url("desk_table", competition, 1),
        url("links", competition),
        url("withdraw", competition, a.pk),
    ):
        html = page(desk_client, address)
        assert FULL in html and SHORT not in html, address
    crosstable = page(desk_client, url("desk_table", competition, 1))
    assert f'title="{FULL}"' in crosstable  # the shared crosstable, on the desk's side


def test_the_api_names_players_by_their_public_name(client, named):
    competition, (a, b, c) = named
    for entry in (b, c, a):  # the opponents, and Åsa herself
        token = PlayerToken.objects.get(entry=entry).token
        response = client.get(
            reverse("roundrobin:api_games"), headers={"Authorization": f"Bearer {token}"}
        )
        assert response.status_code == 200
        text = response.content.decode()
        assert SURNAME not in text and SURNAME not in json.dumps(response.json())
        names = {n for g in response.json()["games"] for n in (g["white"], g["black"])}
        assert SHORT in names  # every one of them plays Åsa


def test_other_players_see_the_public_name_on_their_private_page(client, named):
    competition, (a, b, c) = named
    token = PlayerToken.objects.get(entry=c).token
    with time_machine.travel(START + 2 * H, tick=False):  # the turn is open
        opened = client.get(reverse("roundrobin:private", args=[token]))
        assert opened.status_code == 303
        html = page(client, opened["Location"])  # c plays Åsa: the game's card and buttons
        fragment = page(client, opened["Location"], **HTMX)
        game = game_between(c, a)
        claim = client.post(opened["Location"], {"game": game.pk, "outcome": "won"}, headers=HTMX)
    assert claim.status_code == 200
    assert f"you won against {SHORT} as" in claim.content.decode()  # the confirmation step
    assert shows_short(html) and f"<strong>{SHORT}</strong>" in html
    assert f'aria-label="I won against {SHORT}"' in html
    assert shows_short(fragment)


def test_e_mails_name_the_opponent_by_public_name_and_the_player_by_their_own(named):
    competition, (a, b, c) = named
    assert services.reminders_send(now=START + 19 * H) > 0
    (link,) = OutboxMessage.objects.filter(to=c.player.email, key__startswith="rr-link")
    assert f"against {SHORT}" in link.body and SURNAME not in link.subject + link.body
    reminders = OutboxMessage.objects.filter(to=c.player.email, key__startswith="rr-reminder")
    assert reminders  # c's games: against Åsa and against b
    texts = [m.subject + "\n" + m.body for m in reminders]
    assert any(f"against {SHORT}" in text for text in texts)
    assert all(SURNAME not in text for text in texts)
    to_asa = OutboxMessage.objects.filter(to=a.player.email)
    assert to_asa and all(f"Hello {FULL}," in m.body for m in to_asa)  # her own name, whole


def test_the_public_sheets_use_the_public_name_and_the_organisers_the_full_one(
    desk_client, named, event
):
    competition, _entries = named
    standings = export.standings(competition, public=True)
    results = export.results(competition, public=True)
    public = json.dumps([standings.rows, results.rows], default=str, ensure_ascii=False)
    assert shows_short(public)
    private = json.dumps(
        [export.standings(competition).rows, export.results(competition).rows],
        default=str,
        ensure_ascii=False,
    )
    assert FULL in private and SHORT not in private
    for kind in ("standings", "results"):
        download = desk_client.get(
            reverse("events:competition_export", args=[event.slug, competition.slug, kind, "csv"])
        )
        assert download.status_code == 200
        assert FULL in download.content.decode("utf-8-sig")
    # The event document (backup and restore) carries the name and the choice as they are.
    document = json.dumps(exchange.export_event(event), ensure_ascii=False, default=str)
    assert FULL in document and SHORT not in document


def test_the_public_results_sheet_shows_the_public_name(client, named):
    competition, _entries = named
    html = page(client, reverse("results_sheet", args=[competition.event.slug, competition.slug]))
    assert shows_short(html)


def test_the_pages_follow_a_changed_choice_at_once(client, named):
    competition, (a, b, c) = named
    before = client.get(url("tables", competition), headers=HTMX)
    assert shows_short(before.content.decode())
    privacy.public_name_set(a.player.email, Player.NameShown.FULL)
    again = {**HTMX, "If-None-Match": before["ETag"]}
    after = client.get(url("tables", competition), headers=again)
    assert after.status_code == 200 and FULL in after.content.decode()
    assert FULL in page(client, url("player", competition, b.pk))


def test_a_corrections_stored_words_name_her_in_public_as_she_chose(client, desk_client, named):
    """The trail's texts were written with full names: public pages shorten them, the desk
    does not."""
    from events.models import Correction, Seat

    competition, (a, b, c) = named
    game = game_between(a, b)
    first, second = Seat.objects.filter(game=game).order_by("position")
    flipped = {1: "0", 0: "1"}
    services.seats_correct(
        game=game,
        values={
            first.pk: {"score": None, "points": flipped[int(first.points)], "colour": "white"},
            second.pk: {"score": None, "points": flipped[int(second.points)], "colour": "black"},
        },
    )
    correction = Correction.objects.get(competition=competition)
    assert FULL in correction.item_shown + correction.before_shown + correction.after_shown
    for address in (url("player", competition, a.pk), url("player", competition, b.pk)):
        html = page(client, address)
        assert "Corrections" in html and shows_short(html), address
    desk = desk_client.get(url("desk_table", competition, 1)).content.decode()
    assert FULL in desk
