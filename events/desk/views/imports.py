"""The desk's player import: upload, preview, confirm.

The upload writes nothing: it shows what each row would become
(``events.exchange.players.import_plan``).
The file then travels back with the confirmation, signed (it cannot be altered on the way) and
compressed, in a hidden field, so no server keeps it between the two steps (two app servers,
nothing in memory). The confirmation carries a one-time token: a double click imports once.
"""

from __future__ import annotations

import base64
import binascii

from django.contrib import messages
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods, require_POST

from events.desk.forms import CsvConfirmForm, CsvImportForm
from events.desk.http import desk_view
from events.errors import ServiceError
from events.exchange import players as imports
from events.exchange.players import CsvImportError
from events.models import Competition
from events.services import AlreadySubmitted

PAYLOAD_MAX_AGE = 2 * 60 * 60  # seconds between the preview and its confirmation
PAYLOAD_EXPIRED = gettext_lazy(
    "This preview is too old or was altered; upload the file again to see a fresh one."
)


def _salt(competition: Competition) -> str:
    return f"events.csv_import:{competition.pk}"


def payload_dumps(competition: Competition, data: bytes, filename: str) -> str:
    text = base64.b64encode(data).decode("ascii")
    return signing.dumps(
        {"data": text, "name": filename[:200]}, salt=_salt(competition), compress=True
    )


def payload_loads(competition: Competition, payload: str) -> tuple[bytes, str]:
    """The file a preview was made from; ``signing.BadSignature`` when altered or too old."""
    value = signing.loads(payload, salt=_salt(competition), max_age=PAYLOAD_MAX_AGE)
    try:
        return base64.b64decode(value["data"], validate=True), str(value.get("name", ""))
    except (KeyError, TypeError, binascii.Error) as exc:
        raise signing.BadSignature from exc


def _page(
    request: HttpRequest,
    competition: Competition,
    *,
    form: CsvImportForm,
    plan: imports.ImportPlan | None = None,
    confirm_form: CsvConfirmForm | None = None,
    filename: str = "",
    error: str = "",
    status: int = 200,
) -> HttpResponse:
    return render(
        request,
        "events/csv_import.html",
        {
            "event": competition.event,
            "competition": competition,
            "form": form,
            "plan": plan,
            "confirm_form": confirm_form,
            "filename": filename,
            "error": error,
        },
        status=status,
    )


def _preview(
    request: HttpRequest,
    competition: Competition,
    data: bytes,
    filename: str,
    confirm_form: CsvConfirmForm | None = None,
) -> HttpResponse:
    plan = imports.import_plan(competition=competition, data=data, by=request.user)
    if plan.problem:
        return _page(request, competition, form=CsvImportForm(), error=plan.problem, status=400)
    if confirm_form is None:
        confirm_form = CsvConfirmForm(
            initial={"payload": payload_dumps(competition, data, filename)}
        )
    # Nothing to import is a refusal the organiser must act on (correct the file).
    status = 200 if plan.importable else 400
    return _page(
        request,
        competition,
        form=CsvImportForm(),
        plan=plan,
        confirm_form=confirm_form if plan.importable else None,
        filename=filename,
        status=status,
    )


@require_http_methods(["GET", "POST"])
@desk_view()
def csv_import(request: HttpRequest, competition: Competition) -> HttpResponse:
    """Upload a file: the answer is its preview (nothing written yet)."""
    if request.method == "GET":
        return _page(request, competition, form=CsvImportForm())
    form = CsvImportForm(request.POST, request.FILES)
    if not form.is_valid():
        return _page(request, competition, form=form, status=400)
    upload = form.cleaned_data["file"]
    return _preview(request, competition, upload.read(), upload.name or "")


@require_POST
@desk_view()
def csv_import_confirm(request: HttpRequest, competition: Competition) -> HttpResponse:
    """Import what the preview showed (planned again against the register as it is now)."""
    confirm_form = CsvConfirmForm(request.POST)
    data = b""
    filename = ""
    if confirm_form.is_valid():
        try:
            data, filename = payload_loads(competition, confirm_form.cleaned_data["payload"])
        except signing.BadSignature:
            confirm_form.add_error(None, PAYLOAD_EXPIRED)
    if not confirm_form.is_valid():
        error = " ".join(str(e) for e in confirm_form.non_field_errors()) or str(PAYLOAD_EXPIRED)
        return _page(request, competition, form=CsvImportForm(), error=error, status=400)
    try:
        result = imports.import_confirm(
            competition=competition,
            data=data,
            submission=confirm_form.cleaned_data["submission"],
            by=request.user,
        )
    except AlreadySubmitted as exc:
        messages.info(request, exc.text)
        url = exc.url if exc.url.startswith("/") and not exc.url.startswith("//") else ""
        return redirect(url or competition.get_desk_url())
    except CsvImportError:
        # The register changed since the preview and no row is left to import: show it again.
        response = _preview(request, competition, data, filename)
        response.status_code = 400
        return response
    except ServiceError as exc:
        return _page(request, competition, form=CsvImportForm(), error=exc.text, status=400)
    messages.success(
        request,
        ngettext(
            "Imported %(total)s player (%(created)s new to the register).",
            "Imported %(total)s players (%(created)s new to the register).",
            result.created + result.reused,
        )
        % {"total": result.created + result.reused, "created": result.created},
    )
    return redirect(competition.get_desk_url())
