"""A club's logo: served from the database under an address that changes with it, and uploaded
or removed by its owners on the settings page."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.http import parse_etags
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from events.clubs import logo_services
from events.clubs.http import OWNERS, club_view
from events.clubs.logo_forms import LogoForm
from events.common.http import AuthenticatedHttpRequest
from events.errors import ServiceError
from events.models import HostClub

# The address carries the logo's hash: what it answers never changes.
LOGO_MAX_AGE = 365 * 24 * 3600


@require_safe
def club_logo(request: HttpRequest, club_slug: str, version: str) -> HttpResponse:
    club = (
        HostClub.objects.filter(slug=club_slug, logo_version=version)
        .exclude(logo_version="")
        .defer(None)  # the manager leaves the bytes out of every other read
        .only("logo", "logo_version")
        .first()
    )
    if club is None or not club.logo:
        raise Http404
    etag = f'"{club.logo_version}"'
    known = set(parse_etags(request.headers.get("If-None-Match", "")))
    if etag in known or "*" in known:
        response = HttpResponse(status=304)
    else:
        response = HttpResponse(bytes(club.logo), content_type="image/png")
    response["ETag"] = etag
    # A PNG is never taken for a page or a script, whatever its bytes look like.
    response["X-Content-Type-Options"] = "nosniff"
    patch_cache_control(response, public=True, max_age=LOGO_MAX_AGE, immutable=True)
    return response


def _back(club: HostClub) -> HttpResponseRedirect:
    # 303: the browser loads the settings page with GET after its POST.
    response = HttpResponseRedirect(reverse("events:club_settings", args=[club.slug]))
    response.status_code = 303
    return response


@require_POST
@club_view(OWNERS)
def club_logo_upload(request: AuthenticatedHttpRequest, club: HostClub) -> HttpResponse:
    """Upload (``logo``) or removal (``remove``). A file input cannot be shown again with its
    file, so the settings page is loaded anew with what went right or wrong as a message."""
    form = LogoForm(request.POST, request.FILES)
    if not form.is_valid():
        for texts in form.errors.values():
            for text in texts:
                messages.error(request, str(text))
        return _back(club)
    try:
        if form.cleaned_data["remove"]:
            logo_services.club_logo_remove(club=club, by=request.user)
            messages.success(request, _("The logo is removed."))
        else:
            logo_services.club_logo_set(club=club, by=request.user, data=form.logo_bytes())
            messages.success(request, _("The logo is saved."))
    except ServiceError as exc:
        messages.error(request, exc.text)
    return _back(club)
