"""The public sign-up page of an event and the person's page behind their link.
Thin: parse, call one service of ``events.signups.services.lifecycle``, render. The page never says
whether an address has signed up (the link goes to the address, not to the screen)."""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.core import signing
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.cache import patch_cache_control
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from events import selectors
from events.calendar.links import player_feed_path, subscribe_links
from events.common.network import client_ip
from events.common.qr import giro_code_svg
from events.errors import ServiceError
from events.formats import part
from events.models import NameShown
from events.outbox import notify
from events.services import attempts
from events.signups.contract import PrivateLinks
from events.signups.forms import NameShownForm, ResendForm, SignUpForm
from events.signups.models import Payment, SignUp, SignUpStatus
from events.signups.notify import notify_panels
from events.signups.selectors import competition_starts, sign_ups_of_person, windows_of_event
from events.signups.services import door, lifecycle as signups, mail as signup_mail, privacy

# Sign-ups and link requests from one client address: 10 in 10 minutes (the 11th is refused).
SIGN_UPS_PER_ADDRESS = 10
SIGN_UP_SECONDS = 600
FIELD_OF_CODE = {
    "duplicate": "email",
    "closed": "competitions",
    "waitlist_full": "competitions",
    "session_needed": "competitions",
}


def _private(response: HttpResponse) -> HttpResponse:
    """Pages with a person's address or link: kept by no browser cache or proxy. (Every answer
    under /sign-up/<token>/ also gets its Referrer-Policy from
    ``events.common.middleware.referrer_policy``, the 404s and CSRF refusals included.)"""
    patch_cache_control(response, no_store=True, private=True)
    return response


def _rate_limited(request: HttpRequest) -> bool:
    key = f"signup:{client_ip(request)}"
    return not attempts.take(key, limit=SIGN_UPS_PER_ADDRESS, seconds=SIGN_UP_SECONDS)


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest, event_slug: str) -> HttpResponse:
    event = selectors.event_by_slug(event_slug)
    windows = windows_of_event(event)
    open_windows = [w for w in windows if w.open_now]  # type: ignore[attr-defined]
    form = SignUpForm(windows=open_windows)
    status = 200
    if request.method == "POST":
        form = SignUpForm(request.POST, windows=open_windows)
        status = 400
        if form.is_bot:
            # Answered as a person would be, and nothing written.
            return _private(
                render(request, "events/signups/sent.html", {"event": event}, status=200)
            )
        # Only a well-formed sign-up counts against the address (a typo costs nothing).
        if form.is_valid() and _rate_limited(request):
            form.add_error(
                None,
                _("Too many sign-ups from your network just now. Try again in %(minutes)s minutes.")
                % {"minutes": SIGN_UP_SECONDS // 60},
            )
            status = 429
        elif form.is_valid():
            data = form.cleaned_data
            try:
                signups.signups_submit(
                    windows=form.chosen_windows(),
                    name=data["name"],
                    email=data["email"],
                    club=data["club"],
                    rating=data["rating"],
                    language=data["language"],
                    name_shown=data["name_shown"],
                    sessions=form.chosen_sessions(),
                )
            except ServiceError as exc:
                if exc.code == "duplicate":
                    # Answered as a new sign-up, and the address's own inbox is told (its
                    # link): the page must not tell a stranger who has signed up, as the
                    # resend form does not either.
                    _send_link(event, data["email"])
                    context = {"event": event, "email": data["email"]}
                    return _private(render(request, "events/signups/sent.html", context))
                form.add_error(FIELD_OF_CODE.get(exc.code or ""), exc)
                status = 400
            else:
                context = {"event": event, "email": data["email"]}
                return _private(render(request, "events/signups/sent.html", context))
    return _page(request, event, windows, form, ResendForm(prefix="resend"), status)


def _page(
    request: HttpRequest,
    event: Any,
    windows: list[Any],
    form: SignUpForm,
    resend: ResendForm,
    status: int,
) -> HttpResponse:
    """The sign-up page: the windows, the sign-up form and the form asking for the link."""
    context = {
        "event": event,
        "windows": windows,
        "open_windows": [w for w in windows if w.open_now],
        "form": form,
        "resend": resend,
        "now_time": timezone.now(),
    }
    return _private(render(request, "events/signups/form.html", context, status=status))


def _send_link(event: Any, email: str) -> None:
    """E-mail the person's link to ``email`` if it signed up for ``event`` (any sign-up, a
    cancelled one too: the page also downloads and erases what is kept); nothing otherwise."""
    sign_up = (
        SignUp.objects.filter(email=email.strip().lower(), window__competition__event=event)
        .select_related("window__competition__event")
        .order_by("-pk")
        .first()
    )
    if sign_up is not None:
        signups.link_send(sign_up=sign_up)


@require_POST
def signup_resend(request: HttpRequest, event_slug: str) -> HttpResponse:
    """A new link to an address that signed up for this event; the answer is the same whether
    it did or not."""
    event = selectors.event_by_slug(event_slug)
    form = ResendForm(request.POST, prefix="resend")
    limited = form.is_valid() and _rate_limited(request)
    if not form.is_valid() or limited:
        windows = windows_of_event(event)
        sign_up_form = SignUpForm(windows=[w for w in windows if w.open_now])  # type: ignore[attr-defined]
        if limited:
            form.add_error(None, _("Too many requests from your network just now."))
        return _page(request, event, windows, sign_up_form, form, 429 if limited else 400)
    email = form.cleaned_data["email"].strip().lower()
    _send_link(event, email)
    return _private(
        render(
            request, "events/signups/sent.html", {"event": event, "email": email, "resent": True}
        )
    )


# --- the person's page -------------------------------------------------------------------------


def _email_or_none(token: str) -> tuple[str | None, bool]:
    """(address, expired) of a token; (None, False) for an altered one."""
    try:
        return signup_mail.person_email(token), False
    except signing.SignatureExpired:
        return None, True
    except signing.BadSignature:
        return None, False


def _expired_page(request: HttpRequest, expired: bool) -> HttpResponse:
    if not expired:
        raise Http404
    return _private(render(request, "events/signups/person.html", {"expired": True}, status=410))


@require_http_methods(["GET", "HEAD"])
def person(request: HttpRequest, token: str) -> HttpResponse:
    email, expired = _email_or_none(token)
    if email is None:
        return _expired_page(request, expired)
    rows = sign_ups_of_person(email)
    now = timezone.now()
    private = _private_links(rows)
    starts = competition_starts({row.window.competition_id for row in rows})
    for row in rows:
        # What is true at the instant of reading: an offer past its end is over even before
        # the next sweep writes it so (``offer_accept`` refuses it too).
        ended = (
            row.status == SignUpStatus.OFFERED
            and row.offer_until is not None
            and row.offer_until <= now
        )
        row.offer_ended = ended  # type: ignore[attr-defined]
        row.status_label = SignUpStatus.EXPIRED.label if ended else row.get_status_display()  # type: ignore[attr-defined]
        row.starts_at = (  # type: ignore[attr-defined]
            row.session.starts_at
            if row.session and row.session.starts_at
            else starts.get(row.window.competition_id)
        )
        # Kept on one line: a number split across two is easy to mistype.
        row.iban_grouped = format_html(  # type: ignore[attr-defined]
            '<span class="iban">{}</span>', iban_grouped(row.window.payee_iban)
        )
        row.giro_code = _giro_code(row)  # type: ignore[attr-defined]
        row.door_open = row.window.self_check_in_open(now)  # type: ignore[attr-defined]
        row.player_url = _player_url(row)  # type: ignore[attr-defined]
        row.private_url = private.get(row.entry_id or 0, "")  # type: ignore[attr-defined]
    context = {
        "token": token,
        "email": email,
        "sign_ups": rows,
        "pending": any(s.status == SignUpStatus.PENDING for s in rows),
        # The calendar feed of each player the address has a seat as (usually one).
        "calendar_feeds": [
            subscribe_links(player_feed_path(player_id))
            for player_id in sorted(
                {r.entry.player_id for r in rows if r.status == SignUpStatus.CONFIRMED and r.entry}
            )
        ],
        "now": now,
        # Notifications per event of a seat; push only with the VAPID keys.
        "notify_panels": notify_panels(
            {
                r.window.competition.event_id: (r.window.competition.event, r.entry.player_id)
                for r in reversed(rows)
                if r.status == SignUpStatus.CONFIRMED and r.entry
            }
        ),
        "push_key": settings.VAPID_PUBLIC_KEY if notify.push_available() else "",
        # The latest choice of the address (every sign-up of it carries the same one).
        "name_form": NameShownForm(
            initial={"name_shown": rows[0].name_shown if rows else NameShown.FULL},
            auto_id="name_%s",
        ),
    }
    return _private(render(request, "events/signups/person.html", context))


def _private_links(rows: list[SignUp]) -> dict[int, str]:
    """The seats' private pages where a format has them (the round robin's moves): one query
    per format among the seats."""
    by_format: dict[str, list[Any]] = {}
    for row in rows:
        if row.status == SignUpStatus.CONFIRMED and row.entry is not None:
            by_format.setdefault(row.window.competition.format, []).append(row.entry)
    links: dict[int, str] = {}
    for key, entries in by_format.items():
        if taking_part := part(key, PrivateLinks):
            links.update(taking_part.private_links(entries))
    return links


def _player_url(sign_up: SignUp) -> str:
    """A seat's player page in its competition (its seat, scores, "this is me"): every format
    names it ``<format>:player`` by convention."""
    if sign_up.status != SignUpStatus.CONFIRMED or sign_up.entry_id is None:
        return ""
    competition = sign_up.window.competition
    try:
        return reverse(
            f"{competition.format}:player",
            kwargs={
                "event_slug": competition.event.slug,
                "competition_slug": competition.slug,
                "entry_id": sign_up.entry_id,
            },
        )
    except NoReverseMatch:
        return ""


def iban_grouped(iban: str) -> str:
    """An IBAN as banks print it, in groups of four ("SE45 5000 0000 ..."): read aloud and
    typed without losing one's place; banking apps take it with the spaces too."""
    plain = "".join(iban.split())
    return " ".join(plain[i : i + 4] for i in range(0, len(plain), 4))


def _giro_code(sign_up: SignUp) -> str:
    """The bank transfer's QR code of a seat's unpaid euro fee, when the organiser gave an
    account; else empty."""
    window = sign_up.window
    if not (
        window.fee
        and window.currency == "EUR"
        and window.payee_iban
        and window.payee_name
        and sign_up.payment == Payment.UNPAID
        and sign_up.status == SignUpStatus.CONFIRMED
    ):
        return ""
    return giro_code_svg(
        name=window.payee_name, iban=window.payee_iban, amount=window.fee, text=sign_up.reference
    )


ACTIONS: dict[str, Any] = {
    "accept": signups.offer_accept,
    "decline": signups.offer_decline,
    "cancel": signups.signup_cancel,
}


@require_POST
def person_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """The button on the person's page (a POST, so a mail scanner opening the link confirms
    nothing): every unconfirmed sign-up of the address, each for a seat or the waitlist."""
    email, expired = _email_or_none(token)
    if email is None:
        return _expired_page(request, expired)
    pending = list(SignUp.objects.filter(email=email, status=SignUpStatus.PENDING).order_by("pk"))
    for sign_up in pending:
        try:
            done = signups.signup_confirm(sign_up=sign_up)
        except ServiceError as exc:
            messages.error(request, exc.text)
        else:
            competition = done.window.competition.name
            if done.status == SignUpStatus.CONFIRMED:
                messages.success(request, _("You have a seat in %(c)s.") % {"c": competition})
            else:
                messages.info(request, _("You are on the waitlist of %(c)s.") % {"c": competition})
    return redirect(reverse("events:signup_person", args=[token]))


@require_POST
def person_action(request: HttpRequest, token: str, sign_up_id: int, action: str) -> HttpResponse:
    """Accept or decline an offered seat, or cancel: only the address's own sign-ups."""
    email, expired = _email_or_none(token)
    if email is None:
        return _expired_page(request, expired)
    service = ACTIONS.get(action)
    sign_up = (
        SignUp.objects.filter(pk=sign_up_id, email=email)
        .select_related("window__competition")
        .first()
    )
    if sign_up is None:
        raise Http404
    if action == "check-in":
        return _door_check_in(request, token, sign_up)
    if service is None:
        raise Http404
    try:
        with transaction.atomic():
            done = service(sign_up=sign_up)
    except ServiceError as exc:
        messages.error(request, exc.text)
    else:
        words = {
            SignUpStatus.CONFIRMED: _("You have a seat in %(c)s."),
            SignUpStatus.CANCELLED: _("Your sign-up for %(c)s is cancelled."),
        }
        text = words.get(done.status, _("Saved."))
        messages.success(request, text % {"c": sign_up.window.competition.name})
    return redirect(reverse("events:signup_person", args=[token]))


def _door_check_in(request: HttpRequest, token: str, sign_up: SignUp) -> HttpResponse:
    """The door screen's code typed on the person's page: checked in, or told why not."""
    try:
        entry = door.door_check_in(sign_up=sign_up, code=request.POST.get("code", ""))
    except ServiceError as exc:
        messages.error(request, exc.text)
    else:
        messages.success(
            request,
            _("You are checked in for %(c)s. Have a good game!") % {"c": entry.competition.name},
        )
    return redirect(reverse("events:signup_person", args=[token]) + f"#sign-up-{sign_up.pk}")


@require_POST
def person_name_shown(request: HttpRequest, token: str) -> HttpResponse:
    """Full name, or first name and initial, on every public page of the person's events."""
    email, expired = _email_or_none(token)
    if email is None:
        return _expired_page(request, expired)
    form = NameShownForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose one of the listed ways."))
    else:
        privacy.public_name_set(email, form.cleaned_data["name_shown"])
        messages.success(request, _("Your name on the public pages is changed."))
    return redirect(reverse("events:signup_person", args=[token]) + "#name-shown")


@require_http_methods(["GET", "HEAD"])
def person_data(request: HttpRequest, token: str) -> HttpResponse:
    """Everything stored under the link's address, as a JSON file."""
    email, expired = _email_or_none(token)
    if email is None:
        return _expired_page(request, expired)
    text = json.dumps(privacy.person_data(email), ensure_ascii=False, indent=1)
    response = HttpResponse(text.encode("utf-8"), content_type="application/json")
    response["Content-Disposition"] = 'attachment; filename="my-data.json"'
    return _private(response)


@require_POST
def person_erase(request: HttpRequest, token: str) -> HttpResponse:
    """The person replaced by a pseudonym everywhere (``services.privacy``); asked twice."""
    email, expired = _email_or_none(token)
    if email is None:
        return _expired_page(request, expired)
    if request.POST.get("confirm") != "erase":
        messages.error(request, _("Tick the box to confirm the erasure."))
        return redirect(reverse("events:signup_person", args=[token]) + "#erase")
    privacy.person_erase(email)
    return _private(render(request, "events/signups/person.html", {"erased": True}))
