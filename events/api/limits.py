"""The read API's rate limit per client address, on the shared attempt counter
(``events.services.attempts.take``: one conditional UPDATE, on every server).

Counted in batches: a process takes :data:`settings.API_RATE_BATCH` requests of an address from
the counter at once (one UPDATE) and lets that many through before it asks again, so a 304 costs
one UPDATE per batch instead of one per request (see docs/performance.md). ``limit`` requests
per ``seconds`` per address, to within ``batch - 1`` per server process; once refused, the
process answers 429 until the window ends without asking again. What a process remembers is an
optimisation only: lost (a restart), it costs one more UPDATE.
"""

from __future__ import annotations

import math
import threading
import time

from django.conf import settings
from django.db import connection, transaction
from django.http import HttpRequest
from django.utils import timezone

from events.common.network import client_ip
from events.models import AttemptCounter
from events.services import attempts

MAX_REMEMBERED = 10_000  # addresses a process remembers; forgotten all at once beyond that
_lock = threading.Lock()
# address -> (requests still paid for, until when they may be used, refused until)
_paid: dict[str, tuple[int, float, float]] = {}


def key_of(address: str) -> str:
    return f"api:{address}"


def refused(request: HttpRequest) -> int | None:
    """None when the request may go on, else the seconds until the address may ask again."""
    limit = settings.API_RATE_LIMIT
    if limit <= 0:
        return None
    seconds = settings.API_RATE_SECONDS
    batch = max(1, min(settings.API_RATE_BATCH, limit))
    address = client_ip(request)
    now = time.monotonic()
    with _lock:
        left, until, refused_until = _paid.get(address, (0, 0.0, 0.0))
        if refused_until > now:
            return max(1, math.ceil(refused_until - now))
        if left > 0 and until > now:
            _paid[address] = (left - 1, until, 0.0)
            return None
    if take_batch(address, limit // batch, seconds):
        add_paid(address, batch - 1, now + seconds)
        return None
    wait = seconds_left(key_of(address), seconds)
    return refuse(address, now, wait)


def take_batch(address: str, limit: int, seconds: int) -> bool:
    """One batch from the shared counter. On PostgreSQL its commit does not wait for the disk
    (``synchronous_commit off``, this transaction only): a count lost with a crash of the
    database costs one batch of one window, and the wait for the disk was most of a 304's
    time."""
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL synchronous_commit TO OFF")
        return attempts.take(key_of(address), limit=limit, seconds=seconds)


def seconds_left(key: str, seconds: int) -> int:
    """Until the counter's window ends (one query)."""
    ends = AttemptCounter.objects.filter(key=key[:200]).values_list("expires_at", flat=True).first()
    if ends is None:
        return 1
    return max(1, min(seconds, math.ceil((ends - timezone.now()).total_seconds())))


def add_paid(address: str, count: int, until: float) -> None:
    """Add a batch just taken to what the process holds for the address. Threads of one process
    that each took a batch at once add up: none is thrown away by another's (each batch is
    counted in the shared window, so a lost one would refuse requests the limit allows)."""
    with _lock:
        if len(_paid) >= MAX_REMEMBERED:
            _paid.clear()
        left, held_until, _refused = _paid.get(address, (0, 0.0, 0.0))
        if held_until < time.monotonic():
            left = 0
        _paid[address] = (left + count, max(until, held_until), 0.0)


def refuse(address: str, now: float, wait: int) -> int | None:
    """The shared counter said no: unless another thread's batch still holds one, refused for
    ``wait`` seconds."""
    with _lock:
        left, until, _refused = _paid.get(address, (0, 0.0, 0.0))
        if left > 0 and until > now:
            _paid[address] = (left - 1, until, 0.0)
            return None
        if len(_paid) >= MAX_REMEMBERED:
            _paid.clear()
        _paid[address] = (0, 0.0, now + wait)
    return wait


def forget() -> None:
    """Forget every address (tests; a changed limit)."""
    with _lock:
        _paid.clear()
