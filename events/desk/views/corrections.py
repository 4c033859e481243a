"""Undoing a correction from the desk (any format's; the undo is itself recorded as one)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from events import services
from events.common.http import AuthenticatedHttpRequest
from events.errors import ServiceError
from events.selectors.people import correction_for_scorekeeper


@require_POST
@login_required
def correction_undo(request: AuthenticatedHttpRequest, correction_id: int) -> HttpResponse:
    """Undo a correction (itself recorded as one), then back to the competition's desk."""
    correction = correction_for_scorekeeper(request.user, correction_id)
    try:
        services.correction_undo(correction=correction, by=request.user)
    except ServiceError as exc:
        messages.error(request, exc.text)
    else:
        messages.success(request, _("The correction was undone."))
    back = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}
    ) and back.startswith("/desk/"):
        return redirect(back)
    return redirect(correction.competition.get_desk_url())
