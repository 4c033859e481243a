"""The desk's group page: who belongs together (a family) and is seated apart."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from events.common.http import HtmxHttpRequest
from events.desk.http import desk_view
from events.models import Competition
from events.seating import selectors
from events.seating.contract import OFF
from events.seating.forms import GroupsForm
from events.seating.services import entry_groups_set


@require_http_methods(["GET", "POST"])
@desk_view()
def groups(request: HtmxHttpRequest, competition: Competition) -> HttpResponse:
    mode = selectors.seating_mode(competition)
    if mode is None:
        raise Http404  # a format that draws no tables has nothing to keep apart
    entries = selectors.group_entries(competition)
    form = GroupsForm(request.POST or None, entries=entries)
    if request.method == "POST" and form.is_valid():
        changed = entry_groups_set(competition=competition, groups=form.groups())
        messages.success(
            request,
            ngettext("%(count)s group saved.", "%(count)s groups saved.", changed)
            % {"count": changed},
        )
        return redirect(request.path)
    return render(
        request,
        "events/seating/groups.html",
        {
            "event": competition.event,
            "competition": competition,
            "form": form,
            "mode_off": mode == OFF,
        },
        status=400 if form.is_bound else 200,
    )
