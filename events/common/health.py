"""Health endpoints for load balancers and the benchmark.

``/healthz`` (liveness): the process answers. No database, no session, no template: a plain
``200 ok``. It passes through the same middleware as every page, so it is also the benchmark's
ceiling for a request that does nothing.

``/readyz`` (readiness): may this process take traffic? The database answers a query, every
migration is applied, and the cache is reported: a cache that is down does not make the
process unready, since every page works without it (computed from the database, slower).
``200`` or ``503``, with a JSON body naming each check, e.g.
``{"ready": false, "database": "ok", "migrations": "2 unapplied", "cache": "down"}``.

Both are exempt from the HTTPS redirect (``SECURE_REDIRECT_EXEMPT``), since health checks
usually come over plain HTTP from inside the network.
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.cache import caches
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.executor import MigrationExecutor
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from events.common.cache import OptionalRedisCache

logger = logging.getLogger(__name__)

# Once every migration was found applied, this process does not read the migration files again
# (they are not unapplied under a running server).
_migrated = False


@require_safe
@never_cache
def healthz(request: HttpRequest) -> HttpResponse:
    return HttpResponse("ok", content_type="text/plain")


def _database() -> str:
    try:
        with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:
        logger.warning("readyz: database unavailable", exc_info=True)
        return f"down ({exc.__class__.__name__})"
    return "ok"


def _migrations() -> str:
    global _migrated
    if _migrated:
        return "ok"
    try:
        connection = connections[DEFAULT_DB_ALIAS]
        executor = MigrationExecutor(connection)
        plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    except Exception as exc:
        logger.warning("readyz: migrations could not be checked", exc_info=True)
        return f"unknown ({exc.__class__.__name__})"
    if plan:
        return f"{len(plan)} unapplied"
    _migrated = True
    return "ok"


def _cache() -> str:
    backend = caches["default"]
    if isinstance(backend, OptionalRedisCache):
        return "ok" if backend.ping() else "down"
    return "local"  # in this process's memory: always there, shared with no other process


@require_safe
@never_cache
def readyz(request: HttpRequest) -> HttpResponse:
    checks: dict[str, Any] = {"database": _database()}
    checks["migrations"] = _migrations() if checks["database"] == "ok" else "unknown"
    checks["cache"] = _cache()
    ready = checks["database"] == "ok" and checks["migrations"] == "ok"
    if checks["cache"] == "down":
        checks["note"] = "pages are computed from the database until the cache is back"
    return JsonResponse({"ready": ready, **checks}, status=200 if ready else 503)
