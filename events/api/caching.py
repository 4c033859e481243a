"""The read API's answers: the version ETag and 304 of the public pages, stored bodies, errors.

A versioned answer (a competition's, an event's, a series') works as ``events.live.pages``:
its owner's *stamp* (``events.versions``) and the body stored for this address come from one
cache round trip; an ``If-None-Match`` that matches the stamp's ETag is a ``304`` decided
before any query (where the stamps are in the shared cache); a body stored at this stamp is
sent as stored (gzip, inflated for a client that takes none); otherwise the answer is built,
checked against its schema, stored gzip-compressed under the stamp it was built at, and sent.
Answers without a version (the lists of events and series, a rating list) carry an ETag of
their bytes instead: a ``304`` then saves the transfer, not the work.

Every answer names the data licence (``Link: <…>; rel="license"``) and is English
(``events.api.middleware``); errors are ``{"error": message, "code": code}``.
"""

from __future__ import annotations

import hashlib
import json
import zlib
from collections.abc import Callable, Sequence
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpRequest, HttpResponse
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from pydantic import BaseModel

from events import versions
from events.live.pages import MAX_CACHED_PATH, accepts_gzip, pack

BODY_PREFIX = "api:z"  # a new prefix whenever what is stored changes (rolling deploys)
BODY_SECONDS = 3600
JSON = "application/json"

Payload = dict[str, Any]


class ApiError(Exception):
    """An answer other than 200: ``status``, a message for developers (English) and a code."""

    def __init__(self, status: int, message: str, code: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.code = code


def not_found(what: str = "No such public resource.") -> ApiError:
    return ApiError(404, what, "not_found")


def licence() -> dict[str, str]:
    """The data licence every answer states (settings ``API_DATA_LICENCE``, ``..._URL``)."""
    return {
        "licence": settings.API_DATA_LICENCE,
        "licence_url": settings.API_DATA_LICENCE_URL,
    }


def meta(attribution: str = "") -> dict[str, str]:
    """The ``meta`` of a body: the licence and whom to credit."""
    credit = attribution or f"The event organisers, via {settings.SITE_NAME}"
    return {**licence(), "attribution": credit}


def error_response(error: ApiError) -> HttpResponse:
    return finish(
        HttpResponse(
            json.dumps({"error": error.message, "code": error.code}),
            content_type=JSON,
            status=error.status,
        ),
        None,
    )


def finish(response: HttpResponse, etag: str | None) -> HttpResponse:
    """The headers of every answer: revalidate each time (cheap with the ETag), the licence."""
    patch_cache_control(response, no_cache=True)
    patch_vary_headers(response, ["Accept-Encoding"])
    url = settings.API_DATA_LICENCE_URL
    if url:
        response.headers["Link"] = f'<{url}>; rel="license"'
    if etag and response.status_code in (200, 304):
        response.headers["ETag"] = etag
    return response


def _gzip(request: HttpRequest) -> bool:
    return accepts_gzip(request.META.get("HTTP_ACCEPT_ENCODING", ""))


def etag_of(kind: str, stamp: int, request: HttpRequest) -> str:
    pk, created, version = versions.stamp_parts(stamp)
    return f'"api-{kind}-{pk}.{version}.{created}{"-z" if _gzip(request) else ""}"'


def body_key(request: HttpRequest, kind: str) -> str | None:
    path = request.get_full_path()
    if len(path) > MAX_CACHED_PATH:
        return None
    where = f"{request.get_host()}|{path}"
    return f"{BODY_PREFIX}:{kind}:{hashlib.sha256(where.encode()).hexdigest()[:32]}"


def encode(schema: type[BaseModel], payload: Payload) -> bytes:
    """The body: the payload checked against its schema, as compact JSON."""
    checked = schema.model_validate(payload).model_dump(mode="json")
    return json.dumps(
        checked, cls=DjangoJSONEncoder, separators=(",", ":"), ensure_ascii=False
    ).encode()


def serve(request: HttpRequest, packed: bytes, etag: str | None) -> HttpResponse:
    if _gzip(request):
        response = HttpResponse(packed, content_type=JSON)
        response.headers["Content-Encoding"] = "gzip"
    else:
        response = HttpResponse(zlib.decompress(packed, wbits=31), content_type=JSON)
    return finish(response, etag)


def versioned(
    request: HttpRequest,
    kind: str,
    slugs: Sequence[str],
    schema: type[BaseModel],
    build: Callable[[], tuple[Any, Payload]],
) -> HttpResponse:
    """A versioned answer (see the module's docstring). ``build`` returns ``(owner, payload)``
    (the owner: the competition, event or series whose stamp the ETag follows) or raises
    :class:`ApiError` (404 for an unknown or non-public owner)."""
    stamp_key = versions.stamp_key(kind, slugs) if versions.in_cache() else None
    key = body_key(request, kind) if "HTTP_IF_NONE_MATCH" not in request.META else None
    found = versions.cached([k for k in (stamp_key, key) if k])
    stamp = found.get(stamp_key) if stamp_key else None
    if stamp is None:
        stamp = versions.stamp_from_database(kind, slugs)
        if stamp is not None:
            versions.fill(kind, slugs, stamp)
    if stamp is None:  # no such address: the builder says what is missing
        try:
            build()
        except ApiError as error:
            return error_response(error)
        return error_response(not_found())
    etag = etag_of(kind, stamp, request)
    not_modified = get_conditional_response(request, etag=etag)
    if not_modified is not None:
        return finish(not_modified, etag)
    body = found.get(key) if key else None
    if isinstance(body, tuple) and len(body) == 2 and body[0] == stamp:
        if isinstance(body[1], bytes):
            return serve(request, body[1], etag)
    try:
        owner, payload = build()
    except ApiError as error:
        return error_response(error)
    rendered = versions.stamp_of(owner.pk, owner.created_at, owner.version)
    packed = pack(encode(schema, payload).decode())
    key = body_key(request, kind)
    if key:
        try:
            cache.set(key, (rendered, packed), BODY_SECONDS)
        except Exception:  # an optimisation: a dead cache must not take the API down
            versions.logger.warning("api cache unavailable (set body)", exc_info=True)
    return serve(request, packed, etag_of(kind, rendered, request))


def unversioned(
    request: HttpRequest, schema: type[BaseModel], build: Callable[[], Payload]
) -> HttpResponse:
    """An answer without a version: built every time, its ETag a hash of its bytes."""
    try:
        payload = build()
    except ApiError as error:
        return error_response(error)
    data = encode(schema, payload)
    etag = f'"api-h-{hashlib.sha256(data).hexdigest()[:32]}"'
    not_modified = get_conditional_response(request, etag=etag)
    if not_modified is not None:
        return finish(not_modified, etag)
    return finish(HttpResponse(data, content_type=JSON), etag)
