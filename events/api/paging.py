"""Cursor pagination of the read API's lists that grow (events, entries, results).

A cursor is opaque to clients: base64url of a small JSON object naming the list it belongs to
and where the next page starts (the last row's id, or for results a position and the
competition's version, so that a walk reads one version). Send the ``next`` of a page back
unchanged; anything else is a 400 with a message saying so. ``limit``: 1 to :data:`MAX_LIMIT`.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Callable, Sequence
from typing import Any, TypeVar
from urllib.parse import urlencode

from events.api.caching import ApiError

DEFAULT_LIMIT = 50
MAX_LIMIT = 200
MAX_CURSOR = 200  # characters: no cursor this API writes is longer
T = TypeVar("T")


def bad_cursor() -> ApiError:
    return ApiError(
        400,
        "Invalid cursor: pass the 'next' value of the previous page unchanged, "
        "or leave the cursor out to start at the first page.",
        "invalid_cursor",
    )


def encode(kind: str, **where: int) -> str:
    text = json.dumps({"k": kind, **where}, separators=(",", ":"))
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def decode(cursor: str | None, kind: str, *fields: str) -> dict[str, int] | None:
    """The cursor's fields (whole numbers >= 0), None without a cursor; 400 for anything else
    (another list's cursor, a damaged one)."""
    if cursor is None or cursor == "":
        return None
    if len(cursor) > MAX_CURSOR:
        raise bad_cursor()
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        value = json.loads(raw.decode())
    except (binascii.Error, ValueError, UnicodeDecodeError, RecursionError):
        raise bad_cursor() from None
    if not isinstance(value, dict) or value.get("k") != kind or set(value) != {"k", *fields}:
        raise bad_cursor()
    numbers = {name: value[name] for name in fields}
    if not all(type(n) is int and 0 <= n < 2**63 for n in numbers.values()):
        raise bad_cursor()
    return numbers


def check_limit(limit: int) -> int:
    if not 1 <= limit <= MAX_LIMIT:
        raise ApiError(400, f"limit must be a whole number from 1 to {MAX_LIMIT}.", "invalid_limit")
    return limit


def after_id(
    rows: Sequence[T], pk: Callable[[T], int], cursor: str | None, kind: str, limit: int
) -> tuple[list[T], str | None]:
    """A page of ``rows`` (sorted by ascending ``pk``) after the cursor's id, and the next
    cursor (None on the last page)."""
    where = decode(cursor, kind, "after")
    start = where["after"] if where else None
    remaining = [row for row in rows if start is None or pk(row) > start]
    page = remaining[: check_limit(limit)]
    more = len(remaining) > len(page)
    return page, encode(kind, after=pk(page[-1])) if more and page else None


def at_position(
    rows: Sequence[T], cursor: str | None, kind: str, limit: int, version: int
) -> tuple[list[T], str | None]:
    """A page of ``rows`` (a list in a stable order at ``version``) from the cursor's position;
    409 when the cursor was made at another version (the list may have changed: start again)."""
    where = decode(cursor, kind, "at", "v")
    start = 0
    if where is not None:
        if where["v"] != version:
            raise ApiError(
                409,
                "The results changed since the first page of this walk: start again without a "
                "cursor.",
                "cursor_stale",
            )
        start = where["at"]
    end = start + check_limit(limit)
    page = list(rows[start:end])
    return page, encode(kind, at=end, v=version) if end < len(rows) else None


def next_link(
    path: str, cursor: str | None, limit: int, extra: dict[str, Any] | None = None
) -> str:
    """The address of the next page (None -> "")."""
    if cursor is None:
        return ""

    query = {**(extra or {}), "cursor": cursor, "limit": limit}
    return f"{path}?{urlencode(query)}"
