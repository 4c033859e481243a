"""gunicorn's settings for this app: ``gunicorn -c python:config.gunicorn config.wsgi``.

- No ``Server`` banner: gunicorn has no setting for it, so its response's default headers are
  taken without the ``Server:`` line (the app sends none either).
- Access log on stdout, with the links that are keys (a player's ``/p/<token>/``, the person's
  ``/sign-up/<token>/``, stop links, calendar feeds) redacted in the request line and the
  Referer (``config.logfilters``).
- Each worker freezes what it loaded (``gc.freeze``) once the app is up: Django, the URL
  patterns and the templates then never go through the collector again, which otherwise walks
  them in every full collection a large page's objects set off (the 700-player round-robin
  page's median render was set by these collections, not by its own work).
- Workers: ``WEB_CONCURRENCY``, else (2 x cores) + 1, the number gunicorn's documentation
  suggests for sync workers.
Everything else comes from the command line or ``GUNICORN_CMD_ARGS`` (``--workers 3 --bind
0.0.0.0:8000``), which override this file.
"""

from __future__ import annotations

import gc
import os

from gunicorn.http import wsgi

from config import logfilters

_default_headers = wsgi.Response.default_headers


def _default_headers_without_server(self: wsgi.Response) -> list[str]:
    return [line for line in _default_headers(self) if not line.startswith("Server:")]


wsgi.Response.default_headers = _default_headers_without_server

accesslog = "-"
workers = int(os.environ.get("WEB_CONCURRENCY") or 2 * len(os.sched_getaffinity(0)) + 1)
# Logger filters survive gunicorn's own handler setup, and the workers inherit them.
logfilters.install()


def post_worker_init(worker: object) -> None:
    """Import every view module (the URL patterns) now, then freeze what is loaded."""
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 (imports every view module)
    gc.collect()
    gc.freeze()
