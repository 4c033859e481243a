"""The sites form of an event and of a club: one site a line, each checked
(``events.embed.origins``), every refusal named beside the field with the line it refuses."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from events.embed.origins import MAX_LENGTH, MAX_SITES, OriginError, parse_sites

REASONS = {
    "empty": _("an empty site"),
    "characters": _("spaces, quotes, commas or semicolons are not part of a site"),
    "scheme": _("a site starts with https:// (or http://)"),
    "path": _("only the site, no page: leave out everything after the name"),
    "user": _("a site has no user name or password in it"),
    "host": _("not a site's name"),
    "port": _("the port must be a number from 1 to 65535"),
    "wildcard": _("a * may only stand for the subdomains of a whole name, as in https://*.club.se"),
}
SITES_HELP = _(
    "One site a line, as https://club.se or https://www.club.se:8443. "
    "https://*.club.se allows every subdomain of club.se. No pages, no paths."
)


def sites_errors(errors: list[OriginError]) -> list[ValidationError]:
    found = []
    for error in errors:
        if error.code == "many":
            found.append(
                ValidationError(
                    _("At most %(count)s sites."), code="many", params={"count": MAX_SITES}
                )
            )
            continue
        shown = error.typed.strip()[:80] or "—"
        found.append(
            ValidationError(
                _("“%(site)s”: %(reason)s."),
                code=error.code,
                params={"site": shown, "reason": REASONS[error.code]},
            )
        )
    return found


class SitesForm(forms.Form):
    sites = forms.CharField(
        label=_("Sites allowed to show the standings widget"),
        help_text=SITES_HELP,
        required=False,
        # Room for every site with its line break; longer is refused by the field itself.
        max_length=MAX_SITES * (MAX_LENGTH + 2),
        widget=forms.Textarea(attrs={"rows": 4, "spellcheck": "false", "autocomplete": "off"}),
    )

    def clean_sites(self) -> str:
        parsed, errors = parse_sites(self.cleaned_data.get("sites") or "")
        if errors:
            raise ValidationError(sites_errors(errors))
        return "\n".join(parsed)


class EventSitesForm(SitesForm):
    with_club_sites = forms.BooleanField(
        label=_("Also the sites the hosting club lists for all its events"), required=False
    )

    def values(self) -> dict[str, Any]:
        return {
            "sites": self.cleaned_data["sites"],
            "with_club_sites": self.cleaned_data["with_club_sites"],
        }
