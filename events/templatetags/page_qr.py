"""``{% page_qr %}``: the QR code of the page being shown, at the site's one base address.

On a player's page it is the player's check-in code: the desk's camera reads it
(``static/js/desk-scan.js``) and checks that player in (``events.desk.views.checkin``)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString

from events.common.qr import qr_svg
from events.common.siteurl import absolute_url

register = template.Library()


@register.simple_tag(takes_context=True)
def page_qr(context: dict[str, Any]) -> SafeString:
    return qr_svg(absolute_url(context["request"].path))
