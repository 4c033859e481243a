"""One base address for every absolute link, the venue mode of `make run`
(`make serve`'s refusals are in tests/config/test_serve.py).

QR codes, table cards, the private-link sheet and e-mails are all built from SITE_URL
(events/common/siteurl.py), never from the address the desk itself was opened with.
"""

from __future__ import annotations

import http.client
import importlib.util
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.core import mail
from django.core.management import call_command
from django.test import override_settings
from django.urls import reverse

from blokus import services as blokus_services
from events.common.network import is_loopback_host, lan_address, url_host
from events.common.qr import qr_svg
from events.common.siteurl import absolute_url, base_is_loopback
from events.formats import all_formats
from roundrobin import services as rr_services
from roundrobin.models import PlayerToken
from tests.support.blokus import register, set_up
from tests.support.print_items import links_of, pdf_of
from tests.support.roundrobin import START, enter_players, make_competition

ROOT = Path(__file__).resolve().parent.parent


VENUE = "http://192.168.1.23:8000"


def load_run_script():
    spec = importlib.util.spec_from_file_location("run_script", ROOT / "scripts" / "run.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_run_plans_the_bind_address_and_the_one_base():
    run = load_run_script()
    assert run.plan("127.0.0.1", "8000", "", "") == ("127.0.0.1:8000", "http://127.0.0.1:8000")
    assert run.plan("0.0.0.0", "8000", "", "192.168.1.23") == ("0.0.0.0:8000", VENUE)
    assert run.plan("0.0.0.0", "8080", "https://desk.example.org/", "192.168.1.23") == (
        "0.0.0.0:8080",
        "https://desk.example.org",
    )
    assert run.plan("::", "8000", "", "10.0.0.2") == ("[::]:8000", "http://10.0.0.2:8000")


def test_run_prints_the_address_and_the_demo_logins_once(db, settings):
    run = load_run_script()
    assert run.banner("http://127.0.0.1:8000", venue=False).splitlines() == [
        "Tabletop Desk is running at http://127.0.0.1:8000/",
        "  Phones     `make run HOST=0.0.0.0` serves the venue's network, with a QR code.",
    ]
    settings.DEBUG = True
    call_command("load_demo", verbosity=0)
    shown = run.banner(VENUE, venue=True)
    assert f"The desk   {VENUE}/desk/   organiser / desk-demo-2026" in shown
    assert f"The admin  {VENUE}/admin/  admin / admin-demo-2026" in shown
    assert "lincon / desk-demo-2026, tallinn / desk-demo-2026" in shown
    assert shown.endswith(
        f"Phones on this network open {VENUE}/ (this QR code; the desk shows it too):"
    )


def test_run_makes_a_development_push_key_pair_once_and_keeps_one_given(tmp_path):
    run = load_run_script()
    env: dict[str, str] = {}
    run.dev_push_keys(env, tmp_path / "var")
    private, public = env["VAPID_PRIVATE_KEY"], env["VAPID_PUBLIC_KEY"]
    assert len(private) == 43 and len(public) == 87  # 32 and 65 bytes, base64url
    assert oct((tmp_path / "var" / "vapid-dev.txt").stat().st_mode & 0o777) == "0o600"
    again: dict[str, str] = {}
    run.dev_push_keys(again, tmp_path / "var")
    assert again == env  # the same pair next time: browsers stay subscribed
    given = {"VAPID_PRIVATE_KEY": "operator-key", "VAPID_PUBLIC_KEY": "operator-public"}
    run.dev_push_keys(given, tmp_path / "var")
    assert given == {"VAPID_PRIVATE_KEY": "operator-key", "VAPID_PUBLIC_KEY": "operator-public"}


def test_absolute_links_use_site_url_not_the_request():
    with override_settings(SITE_URL=VENUE + "/"):
        assert absolute_url("/e/lincon/") == VENUE + "/e/lincon/"
        assert absolute_url("e/lincon/") == VENUE + "/e/lincon/"
        assert not base_is_loopback()
    with override_settings(SITE_URL="http://127.0.0.1:8000"):
        assert base_is_loopback()


def test_no_view_builds_links_from_the_request_host():
    apps = ["events", *(f.key for f in all_formats()), "config"]
    offenders = [
        f"{path}:{number}"
        for app in apps
        for path in (ROOT / app).rglob("*.py")
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if "build_absolute_uri" in line
    ]
    offenders += [
        str(path)
        for path in (ROOT / "templates").rglob("*.html")
        if "request.get_host" in path.read_text()
    ]
    assert offenders == [], "absolute links go through events.common.siteurl.absolute_url"


@override_settings(SITE_URL=VENUE, ALLOWED_HOSTS=["127.0.0.1", "testserver"])
def test_the_event_qr_code_and_its_address_use_the_base(client, event, competition):
    html = client.get(event.get_absolute_url(), HTTP_HOST="127.0.0.1").content.decode()
    expected = f"{VENUE}/e/{event.slug}/"
    assert expected in html
    assert str(qr_svg(expected)) in html
    assert "127.0.0.1" not in html


@override_settings(SITE_URL=VENUE, ALLOWED_HOSTS=["127.0.0.1", "testserver"])
def test_the_desk_shows_the_venue_address_and_its_qr_code(desk_client, event):
    html = desk_client.get(reverse("events:desk")).content.decode()
    assert f'href="{VENUE}/"' in html
    assert str(qr_svg(VENUE + "/")) in html
    assert "Phones cannot reach" not in html


@override_settings(SITE_URL="http://127.0.0.1:8000")
def test_the_desk_warns_when_the_base_is_a_loopback_address(desk_client, event):
    html = desk_client.get(reverse("events:desk")).content.decode()
    assert "Phones cannot reach http://127.0.0.1:8000/" in html
    assert "make run HOST=0.0.0.0" in html


@override_settings(SITE_URL=VENUE, ALLOWED_HOSTS=["127.0.0.1", "testserver"])
def test_private_links_in_print_and_mail_use_the_base(
    desk_client, event, django_capture_on_commit_callbacks
):
    competition = make_competition(event, slug="league")
    entries = enter_players(competition, 2)
    player = entries[0].player
    player.email = "a@example.org"
    player.save()
    with django_capture_on_commit_callbacks(execute=True):
        rr_services.competition_start(competition=competition, seed=3, now=START)
    token = PlayerToken.objects.get(entry=entries[0]).token
    link = f"{VENUE}/p/{token}/"
    assert rr_services.private_url(token) == link
    assert any(link in message.body for message in mail.outbox)
    slips = desk_client.get(
        reverse("roundrobin:links", args=[event.slug, competition.slug]),
        HTTP_HOST="127.0.0.1",
        follow=True,
    )
    assert link in links_of(pdf_of(slips))  # the slip's QR code


@override_settings(SITE_URL=VENUE, ALLOWED_HOSTS=["127.0.0.1", "testserver"])
def test_printed_table_cards_use_the_base(desk_client, competition):
    session = set_up(competition)[0]
    register(competition, session, 4, check_in=4)
    blokus_services.session_seat(session=session)
    round_ = blokus_services.round_draw(session=session, seed=1)
    args = [competition.event.slug, competition.slug, round_.pk]
    cards = desk_client.get(
        reverse("blokus:round_cards", args=args), HTTP_HOST="127.0.0.1", follow=True
    )
    session_page = f"{VENUE}/e/{competition.event.slug}/{competition.slug}/blokus/s1/"
    assert links_of(pdf_of(cards)) == {session_page}  # the tent's QR code


def test_venue_mode_serves_the_lan_address_it_prints(tmp_path):
    """scripts/run.py (what `make run HOST=0.0.0.0` runs after migrate and the demo): it prints
    the LAN address with a QR code, and a request to that address (as a phone on the venue
    network makes it) gets the public page."""
    lan = lan_address()
    if is_loopback_host(lan):
        pytest.skip("this machine has no network address besides loopback")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    keep = {
        k: v
        for k, v in os.environ.items()
        if k not in ("SITE_URL", "ALLOWED_HOSTS", "DATABASE_URL", "DJANGO_SETTINGS_MODULE")
    }
    env = {**keep, "DEBUG": "1", "VAR_DIR": str(tmp_path), "HOST": "0.0.0.0", "PORT": str(port)}
    env["PYTHONUNBUFFERED"] = "1"
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "-v0"], cwd=ROOT, env=env, check=True, timeout=300)
    server = subprocess.Popen(
        [sys.executable, "scripts/run.py"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        assert server.stdout is not None
        first = server.stdout.readline()
        base = f"http://{lan}:{port}"
        assert first.strip() == f"Tabletop Desk is running at {base}/"
        # No demo in this database: no logins printed, straight to the phones' address.
        assert f"Phones on this network open {base}/" in server.stdout.readline()
        assert url_host(base) == lan
        lines = []
        for line in server.stdout:  # the terminal QR code, then the last line of the banner
            lines.append(line)
            if line.startswith("Ctrl-C stops"):
                break
        assert any("█" in line or "▀" in line for line in lines), "no QR code printed"
        # Quiet: no lockout banner, no runserver banner between the address and the QR code.
        assert not any("AXES" in line or "system check" in line for line in lines)

        def fetch() -> int | None:
            try:
                conn = http.client.HTTPConnection(lan, port, timeout=10)
                conn.request("GET", "/")
                return conn.getresponse().status
            except (OSError, http.client.HTTPException):  # not listening yet
                assert server.poll() is None, "the server stopped"
                return None

        deadline = time.monotonic() + 30
        while (status := fetch()) is None and time.monotonic() < deadline:
            time.sleep(0.05)  # poll until it listens
        assert status == 200
    finally:
        # SIGTERM first: scripts/run.py then stops its worker too, which runs in a
        # session of its own (a SIGKILL to this group would leave it running).
        try:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=30)
        except ProcessLookupError:
            pass
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
