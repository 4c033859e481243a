from typing import Any

import segno
import segno.helpers
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

QR_LABEL = _("QR code: %(url)s")


def qr_svg(url: str) -> SafeString:
    """An inline SVG QR code of ``url`` that scales with its container, named for screen
    readers by the address it holds (``role="img"`` and ``aria-label``)."""
    svg = segno.make(url, error="m").svg_inline(scale=4, omitsize=True, dark="#111", light="#fff")
    label = escape(str(QR_LABEL % {"url": url}))
    svg = svg.replace("<svg ", f'<svg role="img" aria-label="{label}" ', 1)
    return mark_safe(svg)  # segno builds the markup itself; the label is escaped above


GIRO_LABEL = _("QR code of the bank transfer: %(amount)s to %(name)s, reference %(text)s")


def giro_code_svg(*, name: str, iban: str, amount: Any, text: str) -> SafeString:
    """The EPC "GiroCode" of a SEPA credit transfer (euro), which banking apps read: payee,
    IBAN, amount and the remittance text. Empty when segno refuses the values."""
    try:
        qr = segno.helpers.make_epc_qr(name=name, iban=iban, amount=amount, text=text)
    except ValueError:
        return mark_safe("")
    svg = qr.svg_inline(scale=3, omitsize=True, dark="#111", light="#fff")
    label = escape(str(GIRO_LABEL % {"amount": amount, "name": name, "text": text}))
    svg = svg.replace("<svg ", f'<svg role="img" aria-label="{label}" ', 1)
    return mark_safe(svg)  # segno builds the markup itself; the label is escaped above
