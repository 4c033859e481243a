"""The organisers' series pages: their series and a new one, a series' formula and
competitions, and the standings with full names as CSV/XLSX. Every write through
``events.series.services``."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from events.common.http import AuthenticatedHttpRequest
from events.errors import ServiceError
from events.series import selectors, services
from events.series.forms import JoinForm, SeriesCreateForm, SeriesEditForm
from events.series.models import Series
from events.series.sheets import download
from events.services.hosts import clubs_run_by

MEMBER_ACTIONS = ("final", "not-final", "remove")


def private(response: HttpResponse) -> HttpResponse:
    patch_cache_control(response, no_store=True, private=True)
    return response


def organised(request: AuthenticatedHttpRequest, series_slug: str) -> Series:
    series = selectors.series_by_slug(series_slug)
    if not series.is_organised_by(request.user):
        raise PermissionDenied
    return series


@require_http_methods(["GET", "POST"])
@login_required
def series_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = SeriesCreateForm(
        request.POST if request.method == "POST" else None, hosts=clubs_run_by(request.user)
    )
    if request.method == "POST" and form.is_valid():
        values = form.values()
        try:
            series = services.series_create(
                by=request.user,
                name=values.pop("name"),
                format_key=form.cleaned_data["format"],
                host=form.chosen_host(),
                **values,
            )
        except ServiceError as exc:
            form.add_error(None, exc)
        else:
            messages.success(request, _("Series created. Add its competitions below."))
            return redirect(series.get_desk_url())
    context = {"all_series": selectors.series_of_user(request.user), "form": form}
    return private(
        render(request, "events/series/desk_list.html", context, status=400 if form.errors else 200)
    )


@require_http_methods(["GET", "POST"])
@login_required
def series_desk(request: AuthenticatedHttpRequest, series_slug: str) -> HttpResponse:
    series = organised(request, series_slug)
    initial = {f: getattr(series, f) for f in services.FORMULA_FIELDS} | {"version": series.version}
    form = SeriesEditForm(request.POST if request.method == "POST" else None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            services.series_update(
                series=series,
                by=request.user,
                expected_version=form.cleaned_data["version"],
                values=form.values(),
            )
        except ServiceError as exc:
            form.add_error(None, exc)
        else:
            messages.success(request, _("Series saved."))
            return redirect(series.get_desk_url())
    return private(render_desk(request, series, form=form))


def render_desk(
    request: AuthenticatedHttpRequest,
    series: Series,
    *,
    form: SeriesEditForm | None = None,
    join: JoinForm | None = None,
) -> HttpResponse:
    members = selectors.series_members(series)
    joinable = selectors.joinable_competitions(series, request.user)
    if form is None:
        initial = {f: getattr(series, f) for f in services.FORMULA_FIELDS}
        form = SeriesEditForm(initial=initial | {"version": series.version})
    context = {
        "series": series,
        "members": members,
        "form": form,
        "join": join or JoinForm(competitions=joinable),
        "table": selectors.series_table(series, members),
    }
    bad = bool(form.errors or (join is not None and join.errors))
    return render(request, "events/series/desk.html", context, status=400 if bad else 200)


@require_POST
@login_required
def series_join(request: AuthenticatedHttpRequest, series_slug: str) -> HttpResponse:
    series = organised(request, series_slug)
    joinable = selectors.joinable_competitions(series, request.user)
    join = JoinForm(request.POST, competitions=joinable)
    if join.is_valid():
        try:
            services.series_join(
                series=series,
                competition_id=join.cleaned_data["competition"],
                by=request.user,
                is_final=join.cleaned_data["is_final"],
            )
        except ServiceError as exc:
            join.add_error(None, exc)
        else:
            messages.success(request, _("The competition joined the series."))
            return redirect(series.get_desk_url())
    return private(render_desk(request, series, join=join))


@require_POST
@login_required
def series_member(
    request: AuthenticatedHttpRequest, series_slug: str, member_id: int, action: str
) -> HttpResponse:
    series = organised(request, series_slug)
    if action not in MEMBER_ACTIONS:
        return private(HttpResponse(status=404))
    try:
        services.series_member_set(
            series=series,
            member_id=member_id,
            by=request.user,
            is_final={"final": True, "not-final": False}.get(action),
            remove=action == "remove",
        )
    except ServiceError as exc:
        messages.error(request, exc.text)
    else:
        messages.success(request, _("Series saved."))
    return redirect(series.get_desk_url())


@require_GET
@login_required
def series_desk_download(
    request: AuthenticatedHttpRequest, series_slug: str, file_format: str
) -> HttpResponse:
    series = organised(request, series_slug)
    return private(download(selectors.series_table(series), file_format, public=False))
