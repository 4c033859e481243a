"""Sjoelen pages: public standings, player pages and board rota; the desk's score entry,
corrections and printable score cards."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import trigger_client_event
from django_htmx.middleware import HtmxDetails

from events import selectors as event_selectors
from events.live import POLL, live_competition
from events.models import Competition
from events.services import ServiceError
from shuffleboard import selectors, services
from shuffleboard.format import SJOELEN
from shuffleboard.forms import RANKING_CHOICES, TIEBREAK_CHOICES, TurnForm, preview
from shuffleboard.models import Turn, competition_bonus, competition_games
from shuffleboard.rules import BOARD_ORDER, DISCS


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


def _ours(competition: Competition) -> Competition:
    if competition.format != SJOELEN.key:
        raise Http404
    return competition


def _public(event_slug: str, competition_slug: str) -> Competition:
    return _ours(event_selectors.competition_by_slugs(event_slug, competition_slug))


def _desk(request: HttpRequest, event_slug: str, competition_slug: str) -> Competition:
    return _ours(
        event_selectors.competition_for_organiser(request.user, event_slug, competition_slug)
    )


def _int(value, default: int | None = None) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def _poll(competition: Competition) -> str:
    return "" if competition.is_finished else POLL


# --- public pages -------------------------------------------------------------------------


def _players_url(event_slug: str, competition_slug: str) -> str:
    """One reverse() instead of one per row: ``{{ players_url }}{{ id }}/``."""
    return reverse("shuffleboard:player", args=[event_slug, competition_slug, 0]).removesuffix("0/")


def _ranking_note(competition: Competition) -> str:
    settings = competition.settings
    ranking = dict(RANKING_CHOICES).get(settings.get("ranking"), RANKING_CHOICES[0][1])
    ties = dict(TIEBREAK_CHOICES).get(settings.get("tiebreaks"), TIEBREAK_CHOICES[0][1])
    return _("Ranked by: %(ranking)s. Equal players: %(ties)s.") % {
        "ranking": ranking,
        "ties": str(ties).lower(),
    }


@require_safe
@live_competition
def standings(request: HtmxHttpRequest, event_slug: str, competition_slug: str) -> HttpResponse:
    competition = _public(event_slug, competition_slug)
    context = {
        "event": competition.event,
        "competition": competition,
        "standings": selectors.standings_for_competition(competition),
        "players_url": _players_url(event_slug, competition_slug),
        "ranking_note": _ranking_note(competition),
        "poll": _poll(competition),
    }
    template = "shuffleboard/standings.html"
    if request.htmx:
        template += "#standings-live"
    return render(request, template, context)


@require_safe
@live_competition
def player(
    request: HtmxHttpRequest, event_slug: str, competition_slug: str, entry_id: int
) -> HttpResponse:
    competition = _public(event_slug, competition_slug)
    entry = selectors.entry_in_competition(competition, entry_id)
    if entry.withdrawn_at and not entry.checked_in_at:
        raise Http404
    rota_player = selectors.rota_player_with_games(competition, entry)
    standings = selectors.standings_for_competition(competition)
    context = {
        "event": competition.event,
        "competition": competition,
        "entry": entry,
        "rota_player": rota_player,
        "row": next((r for r in standings.rows if r.entry_id == entry.pk), None),
        "games": _player_game_rows(rota_player, competition),
        "board_order": BOARD_ORDER,
        "poll": _poll(competition),
    }
    template = "shuffleboard/player.html"
    if request.htmx:
        template += "#player-live"
    return render(request, template, context)


def _player_game_rows(rota_player: selectors.RotaPlayer | None, competition: Competition):
    """One row per game number: (number, board, turn or None)."""
    games = competition_games(competition)
    if rota_player is None:
        return []
    return [
        (number, rota_player.board_for(number), rota_player.turns.get(number))
        for number in range(1, games + 1)
    ]


@require_safe
@live_competition
def rota(request: HtmxHttpRequest, event_slug: str, competition_slug: str) -> HttpResponse:
    competition = _public(event_slug, competition_slug)
    board_rota = selectors.rota_for_competition(competition)
    number = _int(request.GET.get("game"))
    if number is None or not 1 <= number <= board_rota.games:
        number = board_rota.current_game
    context = {
        "event": competition.event,
        "competition": competition,
        "rota": board_rota,
        "number": number,
        "table": list(zip(board_rota.board_numbers, board_rota.table(number), strict=True)),
        "players_url": _players_url(event_slug, competition_slug),
        "poll": _poll(competition),
    }
    template = "shuffleboard/rota.html"
    if request.htmx:
        template += "#rota-live"
    return render(request, template, context)


# --- the desk: score entry ----------------------------------------------------------------


def _preview_context(competition: Competition, form: TurnForm | None) -> dict:
    data = (form.data if form.is_bound else form.initial) if form is not None else {}
    return {
        "preview": preview(data, bonus=competition_bonus(competition)),
        "preview_url": reverse(
            "shuffleboard:preview", args=[competition.event.slug, competition.slug]
        ),
        "discs": DISCS,
    }


def _entry_context(
    competition: Competition,
    *,
    board: int | None,
    player_id: int | None,
    form: TurnForm | None = None,
    flash: str = "",
) -> dict:
    board_rota = selectors.rota_for_competition(competition)
    if board is not None and not 1 <= board <= board_rota.boards:
        board = None
    if board is not None:
        queue = board_rota.queue(board)
    else:
        queue = sorted(
            (p for p in board_rota.active if p.next_number is not None),
            key=lambda p: (p.next_number, p.position),
        )
    current = board_rota.by_entry(player_id) if player_id is not None else None
    error = ""
    if current is None or not current.active:
        current = None
        if form is not None:
            # The typed counts belong to a player who cannot play (withdrawn meanwhile):
            # never show them under the next player's name.
            error = " ".join(str(e) for e in form.non_field_errors())
            form = None
    if current is None and queue:
        current = queue[0]
    if form is None and current is not None:
        form = TurnForm(
            games=board_rota.games,
            bonus=competition_bonus(competition),
            initial={"number": current.next_number or board_rota.games},
        )
    if form is not None:
        form.fields["gate2"].widget.attrs["autofocus"] = True
    recent = sorted(
        (
            (turn, p)
            for p in board_rota.players
            for turn in p.turns.values()
            if board is None or turn.board == board
        ),
        key=lambda pair: pair[0].pk,  # the latest entered first
        reverse=True,
    )[:6]
    return {
        "event": competition.event,
        "competition": competition,
        "rota": board_rota,
        "board": board,
        "queue": queue[:12],
        "queue_size": len(queue),
        "current": current,
        "form": form,
        "show_form": current is not None
        and (current.next_number is not None or (form is not None and form.is_bound)),
        "flash": flash,
        "error": error,
        "recent": recent,
        **_preview_context(competition, form),
    }


@require_safe
@login_required
def score_entry(request: HtmxHttpRequest, event_slug: str, competition_slug: str) -> HttpResponse:
    competition = _desk(request, event_slug, competition_slug)
    context = _entry_context(
        competition,
        board=_int(request.GET.get("board")),
        player_id=_int(request.GET.get("player")),
    )
    template = "shuffleboard/entry.html"
    if request.htmx:
        template += "#entry-panel"
    return render(request, template, context)


@require_POST
@login_required
def turn_record(request: HtmxHttpRequest, event_slug: str, competition_slug: str) -> HttpResponse:
    competition = _desk(request, event_slug, competition_slug)
    entry = selectors.entry_in_competition(competition, request.POST.get("entry", ""))
    board = _int(request.POST.get("board"))
    form = TurnForm(
        request.POST, games=competition_games(competition), bonus=competition_bonus(competition)
    )
    if form.is_valid():
        number = form.cleaned_data["number"]
        rota_player = selectors.rota_for_competition(competition, with_turns=False).by_entry(
            entry.pk
        )
        try:
            turn = services.turn_record(
                entry=entry,
                number=number,
                counts=form.counts(),
                bonus_counts=form.bonus_counts(),
                max_after=form.max_after(),
                board=rota_player.board_for(number) if rota_player else None,
                entered_by=request.user,
            )
        except ServiceError as exc:
            form.add_error(None, " ".join(exc.messages))
        else:
            flash = _("Saved: %(player)s, game %(number)s: %(score)s.") % {
                "player": entry.player.name,
                "number": turn.number,
                "score": turn.score,
            }
            if not request.htmx:
                messages.success(request, flash)
                url = reverse("shuffleboard:entry", args=[event_slug, competition_slug])
                return redirect(f"{url}?board={board}" if board else url)
            competition.refresh_from_db()
            context = _entry_context(competition, board=board, player_id=None, flash=flash)
            response = render(request, "shuffleboard/entry.html#entry-panel", context)
            return trigger_client_event(response, "turnRecorded")
    context = _entry_context(competition, board=board, player_id=entry.pk, form=form)
    if request.htmx:
        return render(request, "shuffleboard/entry.html#entry-panel", context)
    return render(request, "shuffleboard/entry.html", context, status=400)


@require_POST
@login_required
def turn_preview(request: HtmxHttpRequest, event_slug: str, competition_slug: str) -> HttpResponse:
    competition = _desk(request, event_slug, competition_slug)
    context = _preview_context(
        competition, TurnForm(request.POST, games=None, bonus=competition_bonus(competition))
    )
    return render(request, "shuffleboard/entry.html#preview", context)


# --- the desk: a player's games and corrections -------------------------------------------


@require_safe
@login_required
def desk_player(
    request: HttpRequest, event_slug: str, competition_slug: str, entry_id: int
) -> HttpResponse:
    competition = _desk(request, event_slug, competition_slug)
    entry = selectors.entry_in_competition(competition, entry_id)
    rota_player = selectors.rota_player_with_games(competition, entry)
    context = {
        "event": competition.event,
        "competition": competition,
        "entry": entry,
        "rota_player": rota_player,
        "games": _player_game_rows(rota_player, competition),
        "board_order": BOARD_ORDER,
    }
    return render(request, "shuffleboard/desk_player.html", context)


def _correction_form(turn: Turn, competition: Competition, data=None) -> TurnForm:
    initial = {f"gate{v}": getattr(turn, f"c{v}") for v in BOARD_ORDER}
    initial.update({f"bonus{v}": getattr(turn, f"b{v}") for v in BOARD_ORDER})
    initial["max_after"] = turn.max_after or ""
    return TurnForm(data, games=None, bonus=competition_bonus(competition), initial=initial)


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def turn_edit(
    request: HtmxHttpRequest, event_slug: str, competition_slug: str, turn_id: int
) -> HttpResponse:
    competition = _desk(request, event_slug, competition_slug)
    turn = selectors.turn_in_competition(competition, turn_id)
    form = _correction_form(turn, competition, request.POST if request.method == "POST" else None)
    revision = turn.revision
    status = 200
    flash = ""
    if request.method == "POST":
        if form.is_valid():
            try:
                turn = services.turn_correct(
                    turn=turn,
                    revision=_int(request.POST.get("revision"), -1),
                    counts=form.counts(),
                    bonus_counts=form.bonus_counts(),
                    max_after=form.max_after(),
                    entered_by=request.user,
                )
            except ServiceError as exc:
                form.add_error(None, " ".join(exc.messages))
                turn.refresh_from_db()
                revision = turn.revision  # the typed values stay; a second save is deliberate
            else:
                flash = _("Corrected: game %(number)s is now %(score)s.") % {
                    "number": turn.number,
                    "score": turn.score,
                }
                if not request.htmx:
                    messages.success(request, flash)
                    return redirect(
                        "shuffleboard:desk_player", event_slug, competition_slug, turn.entry_id
                    )
                form = _correction_form(turn, competition)
                revision = turn.revision
        if form.errors:
            status = 200 if request.htmx else 400
    context = {
        "event": competition.event,
        "competition": competition,
        "turn": turn,
        "form": form,
        "revision": revision,
        "flash": flash,
        "history": selectors.turn_history(turn),
        **_preview_context(competition, form),
    }
    template = "shuffleboard/turn.html"
    if request.htmx:
        template += "#correction"
    response = render(request, template, context, status=status)
    return trigger_client_event(response, "turnRecorded") if flash else response


@require_POST
@login_required
def turn_delete(
    request: HttpRequest, event_slug: str, competition_slug: str, turn_id: int
) -> HttpResponse:
    competition = _desk(request, event_slug, competition_slug)
    turn = selectors.turn_in_competition(competition, turn_id)
    try:
        services.turn_delete(turn=turn, revision=_int(request.POST.get("revision"), -1))
    except ServiceError as exc:
        messages.error(request, " ".join(exc.messages))
        return redirect("shuffleboard:turn", event_slug, competition_slug, turn.pk)
    messages.success(
        request,
        _("Game %(number)s of %(player)s removed.")
        % {"number": turn.number, "player": turn.entry.player.name},
    )
    return redirect("shuffleboard:desk_player", event_slug, competition_slug, turn.entry_id)


# --- the desk: score cards and the competition's end --------------------------------------


@require_safe
@login_required
def score_cards(request: HttpRequest, event_slug: str, competition_slug: str) -> HttpResponse:
    competition = _desk(request, event_slug, competition_slug)
    board_rota = selectors.rota_for_competition(competition, with_turns=False)
    cards = [
        (
            board,
            [(number, board_rota.table(number)[board - 1]) for number in board_rota.game_numbers],
        )
        for board in board_rota.board_numbers
    ]
    context = {
        "event": competition.event,
        "competition": competition,
        "rota": board_rota,
        "cards": cards,
        "board_order": BOARD_ORDER,
    }
    return render(request, "shuffleboard/cards.html", context)


@require_POST
@login_required
def finish(request: HttpRequest, event_slug: str, competition_slug: str) -> HttpResponse:
    competition = _desk(request, event_slug, competition_slug)
    # The button says what it does, so a stale page cannot do the opposite.
    actions = {"finish": services.competition_finish, "reopen": services.competition_reopen}
    action = actions.get(request.POST.get("action", ""))
    if action is None:
        raise Http404
    try:
        competition = action(competition=competition)
    except ServiceError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(
            request,
            _("The competition is finished.")
            if competition.is_finished
            else _("The competition is open again."),
        )
    return redirect(competition.get_desk_url())
