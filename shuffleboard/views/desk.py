"""The sjoelen desk: score entry, a player's games and corrections, the title play-off,
the score sheets (the print kit's) and the competition's end."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _, gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import trigger_client_event

from events.common.http import AuthenticatedHttpRequest
from events.desk.http import already_received, desk_view
from events.errors import ServiceError, Stale, http_status
from events.live.pages import Context
from events.models import Competition
from events.permissions import SCOREKEEPER
from events.services import AlreadySubmitted
from shuffleboard import printing, selectors, services
from shuffleboard.format import SJOELEN
from shuffleboard.forms import TurnForm, optional_numbers, preview
from shuffleboard.models import Turn
from shuffleboard.rules import BOARD_ORDER, DISCS

# --- the desk: score entry ----------------------------------------------------------------


def _desk_context(competition: Competition, **context: Any) -> Context:
    return {"event": competition.event, "competition": competition, **context}


def _board_of(request: AuthenticatedHttpRequest) -> int | None:
    """The board a desk works at (``?board=N``, or a form's ``board``): kept on every link."""
    [board] = optional_numbers(request.POST if request.method == "POST" else request.GET, "board")
    return board if board is not None and board >= 1 else None


def _with_board(url: str, board: int | None) -> str:
    return f"{url}?board={board}" if board else url


def _preview_context(competition: Competition, form: TurnForm | None) -> Context:
    data = (form.data if form.is_bound else form.initial) if form is not None else {}
    return {
        "preview": preview(data, bonus=competition.options.bonus_disc),
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
    refused: Turn | None = None,
    board_rota: selectors.Rota | None = None,  # when the request has read it (every game)
) -> Context:
    board_rota = board_rota or selectors.rota_for_competition(competition)
    if board is not None and not 1 <= board <= board_rota.boards:
        board = None
    queue = board_rota.waiting(board)
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
            bonus=competition.options.bonus_disc,
            initial={"number": current.next_number or board_rota.games},
        )
    if form is not None:
        form.fields["gate2"].widget.attrs["autofocus"] = True
    return _desk_context(
        competition,
        rota=board_rota,
        board=board,
        queue=queue[:12],
        queue_size=len(queue),
        current=current,
        form=form,
        show_form=current is not None
        and (current.next_number is not None or (form is not None and form.is_bound)),
        flash=flash,
        error=error,
        recent=board_rota.recent(board),
        picker=board_rota.picker,
        rota_data=_rota_data(board_rota, board),
        # A second submit was refused (the game is in already): where to go from here.
        refused_turn=refused if current is not None else None,
        next_player=next((p for p in queue if current is None or p != current), None)
        if refused is not None
        else None,
        **_preview_context(competition, form),
    )


def _rota_data(board_rota: Any, board: int | None) -> dict[str, Any]:
    """What static/shuffleboard/offline-rota.js needs to pick the next player offline as the
    server does: every active player's rota position, board per game and games entered."""
    return {
        "board": board,
        "players": [
            {
                "entry": p.entry.pk,
                "name": p.entry.player.name,
                "position": p.position,
                "boards": list(p.boards),
                "entered": sorted(p.turns),
            }
            for p in board_rota.active
        ],
    }


ENTRY_PAGE = "shuffleboard/entry.html"
ENTRY_PANEL = "shuffleboard/_entry_panel.html"


@require_safe
@desk_view(SJOELEN, allow=SCOREKEEPER)
def score_entry(request: AuthenticatedHttpRequest, competition: Competition) -> HttpResponse:
    board, player_id = optional_numbers(request.GET, "board", "player")
    context = _entry_context(competition, board=board, player_id=player_id)
    if not request.htmx:
        context["corrections"] = selectors.corrections_of_competition(competition)
    return render(request, ENTRY_PANEL if request.htmx else ENTRY_PAGE, context)


@require_POST
@desk_view(SJOELEN, allow=SCOREKEEPER)
def turn_record(request: AuthenticatedHttpRequest, competition: Competition) -> HttpResponse:
    entry = selectors.entry_in_competition(competition, request.POST.get("entry", ""))
    [board] = optional_numbers(request.POST, "board")
    options = competition.options
    form = TurnForm(request.POST, games=options.games, bonus=options.bonus_disc)
    refused: Turn | None = None
    status = 400
    if form.is_valid():
        number = form.cleaned_data["number"]
        # The one rota of this post: the game's board, the next game in the service (which
        # sets the player's games as stored), the panel (a redirect needs no one else's games).
        board_rota = selectors.rota_for_competition(competition, with_turns=bool(request.htmx))
        rota_player = board_rota.by_entry(entry.pk)
        try:
            turn = services.turn_record(
                entry=entry,
                number=number,
                game=form.result,  # checked by the form: the counts are not checked again
                board=rota_player.board_for(number) if rota_player else None,
                entered_by=request.user,
                submission=request.POST.get("submission", ""),
                rota=board_rota,
            )
        except AlreadySubmitted as exc:  # the offline queue sent it again: done once already
            url = reverse("shuffleboard:entry", args=[competition.event.slug, competition.slug])
            return already_received(request, exc, _with_board(url, board))
        except ServiceError as exc:
            form.add_error(None, exc)
            status = http_status(exc)
            if exc.code in ("already_entered", "stale"):
                refused = selectors.turn_of(entry, number)
        else:
            flash = _("Saved: %(player)s, game %(number)s: %(score)s.") % {
                "player": entry.player.name,
                "number": turn.number,
                "score": turn.score,
            }
            if not request.htmx:
                messages.success(request, flash)
                url = reverse("shuffleboard:entry", args=[competition.event.slug, competition.slug])
                return redirect(f"{url}?board={board}" if board else url)
            context = _entry_context(
                competition, board=board, player_id=None, flash=flash, board_rota=board_rota
            )
            return trigger_client_event(render(request, ENTRY_PANEL, context), "turnRecorded")
    # Refused or not valid: the rota read as it stands (a refusal often means another desk acted).
    context = _entry_context(
        competition, board=board, player_id=entry.pk, form=form, refused=refused
    )
    if request.htmx:
        return render(request, ENTRY_PANEL, context)
    return render(request, ENTRY_PAGE, context, status=status)


@require_POST
@desk_view(SJOELEN, allow=SCOREKEEPER)
def turn_preview(request: AuthenticatedHttpRequest, competition: Competition) -> HttpResponse:
    form = TurnForm(request.POST, games=None, bonus=competition.options.bonus_disc)
    return render(request, "shuffleboard/_preview.html", _preview_context(competition, form))


# --- the desk: a player's games and corrections -------------------------------------------


@require_safe
@desk_view(SJOELEN, allow=SCOREKEEPER)
def desk_player(
    request: AuthenticatedHttpRequest, competition: Competition, entry_id: int
) -> HttpResponse:
    entry = selectors.entry_in_competition(competition, entry_id)
    rota_player = selectors.rota_player_with_games(competition, entry)
    context = _desk_context(
        competition,
        board=_board_of(request),
        entry=entry,
        rota_player=rota_player,
        games=rota_player.game_rows if rota_player else [],
        board_order=BOARD_ORDER,
        corrections=selectors.corrections_of_entry(entry),
    )
    return render(request, "shuffleboard/desk_player.html", context)


def _correction_form(turn: Turn, competition: Competition, data: Any = None) -> TurnForm:
    """The stored game in the form: its sub-turn rows when it has them (the totals then stay
    empty, as at entry, so a changed row is not refused as differing from them), else the
    totals (A-SJ-15)."""
    rows = turn.sub_turn_rows
    initial: dict[str, Any] = {}
    if rows:
        for number, counts in rows:
            initial.update(
                {f"s{number}_gate{v}": c for v, c in zip(BOARD_ORDER, counts, strict=True)}
            )
    else:
        initial.update({f"gate{v}": getattr(turn, f"c{v}") for v in BOARD_ORDER})
    initial.update({f"bonus{v}": getattr(turn, f"b{v}") for v in BOARD_ORDER})
    initial["max_after"] = turn.max_after or ""
    return TurnForm(data, games=None, bonus=competition.options.bonus_disc, initial=initial)


def _confirmed(data: Any) -> bool:
    return str(data.get("confirm", "")).lower() in ("1", "on", "true", "yes")


@require_http_methods(["GET", "HEAD", "POST"])
@desk_view(SJOELEN, allow=SCOREKEEPER)
def turn_edit(
    request: AuthenticatedHttpRequest, competition: Competition, turn_id: int
) -> HttpResponse:
    turn = selectors.turn_in_competition(competition, turn_id)
    form = _correction_form(turn, competition, request.POST if request.method == "POST" else None)
    revision = turn.revision
    status = 200
    flash = ""
    needs_confirm = False
    if request.method == "POST":
        if form.is_valid():
            [typed_revision] = optional_numbers(request.POST, "revision")
            try:
                turn = services.turn_correct(
                    turn=turn,
                    revision=-1 if typed_revision is None else typed_revision,
                    counts=form.counts(),
                    bonus_counts=form.bonus_counts(),
                    max_after=form.max_after(),
                    sub_turns=form.sub_turns(),
                    entered_by=request.user,
                    confirmed=_confirmed(request.POST),
                )
            except Stale as exc:
                form.add_error(None, exc)
                turn = selectors.turn_in_competition(competition, turn.pk)
                revision = turn.revision  # the typed values stay; a second save is deliberate
            except ServiceError as exc:
                form.add_error(None, exc)
                needs_confirm = exc.code == "confirm_first_place"
            else:
                flash = _("Corrected: game %(number)s is now %(score)s.") % {
                    "number": turn.number,
                    "score": turn.score,
                }
                if not request.htmx:
                    messages.success(request, flash)
                    url = reverse(
                        "shuffleboard:desk_player",
                        args=[competition.event.slug, competition.slug, turn.entry_id],
                    )
                    return redirect(_with_board(url, _board_of(request)))
                turn = selectors.turn_in_competition(competition, turn.pk)
                form = _correction_form(turn, competition)
                revision = turn.revision
        if form.errors:
            status = 200 if request.htmx else 400
    return _turn_page(
        request,
        competition,
        turn,
        form=form,
        revision=revision,
        flash=flash,
        needs_confirm=needs_confirm,
        status=status,
    )


def _turn_page(
    request: AuthenticatedHttpRequest,
    competition: Competition,
    turn: Turn,
    *,
    form: TurnForm,
    revision: int,
    status: int = 200,
    **extra: Any,
) -> HttpResponse:
    context = _desk_context(
        competition,
        board=_board_of(request),
        turn=turn,
        form=form,
        revision=revision,
        corrections=selectors.corrections_of_game(turn.entry, turn.number),
        **extra,
        **_preview_context(competition, form),
    )
    template = "shuffleboard/_correction.html" if request.htmx else "shuffleboard/turn.html"
    response = render(request, template, context, status=status)
    return trigger_client_event(response, "turnRecorded") if extra.get("flash") else response


@require_POST
@desk_view(SJOELEN, allow=SCOREKEEPER)
def turn_delete(
    request: AuthenticatedHttpRequest, competition: Competition, turn_id: int
) -> HttpResponse:
    """Remove a game: the first post asks "Remove game N of X?" (``sure=1`` confirms), then a
    change of 1st place asks once more (``confirm=1``)."""
    turn = selectors.turn_in_competition(competition, turn_id)
    [revision] = optional_numbers(request.POST, "revision")
    board = _board_of(request)
    slugs = (competition.event.slug, competition.slug)
    form = _correction_form(turn, competition)
    if not _confirmed({"confirm": request.POST.get("sure", "")}):
        return _turn_page(
            request,
            competition,
            turn,
            form=form,
            revision=turn.revision if revision is None else revision,
            delete_asked=True,
        )
    try:
        services.turn_delete(
            turn=turn,
            revision=-1 if revision is None else revision,
            by=request.user,
            confirmed=_confirmed(request.POST),
        )
    except ServiceError as exc:
        if exc.code != "confirm_first_place":
            messages.error(request, exc.text)
            return redirect(
                _with_board(reverse("shuffleboard:turn", args=[*slugs, turn.pk]), board)
            )
        return _turn_page(
            request, competition, turn, form=form, revision=turn.revision, delete_warning=exc.text
        )
    messages.success(
        request,
        _("Game %(number)s of %(player)s removed.")
        % {"number": turn.number, "player": turn.entry.player.name},
    )
    url = reverse("shuffleboard:desk_player", args=[*slugs, turn.entry_id])
    return redirect(_with_board(url, board))


# --- the desk: the title play-off (A-SJ-16) ------------------------------------------------

PLAYOFF_PAGE = "shuffleboard/playoff.html"
NOT_IN_PLAYOFF_NOW = gettext_lazy("This player does not play the title play-off now.")


@require_http_methods(["GET", "HEAD", "POST"])
@desk_view(SJOELEN, allow=SCOREKEEPER)
def playoff(request: AuthenticatedHttpRequest, competition: Competition) -> HttpResponse:
    """The title play-off at the desk: who plays the current round, a form for the first of
    them still waiting (or the one picked), the games played with their correction links."""
    options = competition.options
    view = selectors.playoff_for(competition, selectors.standings_for_competition(competition))
    status = 200
    error = ""
    form: TurnForm | None = None
    [picked] = optional_numbers(request.POST if request.method == "POST" else request.GET, "player")
    waiting = view.state.waiting if view is not None else []
    current = picked if picked in waiting else (waiting[0] if waiting else None)
    if request.method == "POST":
        form = TurnForm(request.POST, games=None, bonus=options.bonus_disc)
        if form.is_valid() and current is not None and current == picked:
            entry = selectors.entry_in_competition(competition, current)
            try:
                turn = services.playoff_record(
                    entry=entry,
                    counts=form.counts(),
                    bonus_counts=form.bonus_counts(),
                    max_after=form.max_after(),
                    sub_turns=form.sub_turns(),
                    entered_by=request.user,
                    submission=request.POST.get("submission", ""),
                )
            except AlreadySubmitted as exc:
                url = reverse(
                    "shuffleboard:playoff", args=[competition.event.slug, competition.slug]
                )
                return already_received(request, exc, url)
            except ServiceError as exc:
                form.add_error(None, exc)
                status = http_status(exc)
            else:
                messages.success(
                    request,
                    _("Saved: %(player)s, title play-off: %(score)s.")
                    % {"player": entry.player.name, "score": turn.score},
                )
                url = reverse(
                    "shuffleboard:playoff", args=[competition.event.slug, competition.slug]
                )
                return redirect(url)
        elif current != picked:
            # Typed for a player who does not play now: never show the counts under another
            # player's name.
            error, form, status = str(NOT_IN_PLAYOFF_NOW), None, 400
        if form is not None and form.errors and status == 200:
            status = 400
    if form is None and current is not None:
        form = TurnForm(games=None, bonus=options.bonus_disc)
    context = _desk_context(
        competition,
        playoff=view,
        current=current,
        current_name=view.names.get(current, "") if view is not None and current else "",
        form=form,
        error=error,
        **_preview_context(competition, form),
    )
    return render(request, PLAYOFF_PAGE, context, status=status)


# --- the desk: score cards and the competition's end --------------------------------------


@require_safe
@desk_view(SJOELEN)
def score_cards(request: AuthenticatedHttpRequest, competition: Competition) -> HttpResponse:
    """Every board's score sheets: the print kit's PDF (the address the cards had)."""
    address = reverse(
        "events:print_download", args=[competition.event.slug, competition.slug, printing.SHEETS]
    )
    return redirect(address)


@require_POST
@desk_view(SJOELEN)
def finish(request: AuthenticatedHttpRequest, competition: Competition) -> HttpResponse:
    # The button says what it does, so a stale page cannot do the opposite.
    actions = {"finish": services.competition_finish, "reopen": services.competition_reopen}
    action = actions.get(request.POST.get("action", ""))
    if action is None:
        raise Http404
    if action is services.competition_finish and not _confirmed(
        {"confirm": request.POST.get("sure", "")}
    ):
        # Finishing stops score entry and the public pages' refresh: asked once more.
        return render(request, "shuffleboard/finish_confirm.html", _desk_context(competition))
    try:
        competition = action(competition=competition)
    except ServiceError as exc:
        messages.error(request, exc.text)
    else:
        messages.success(
            request,
            _("The competition is finished.")
            if competition.is_finished
            else _("The competition is open again."),
        )
    return redirect(competition.get_desk_url())
