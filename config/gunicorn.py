"""gunicorn's settings for this app: ``gunicorn -c python:config.gunicorn config.wsgi``.

- No ``Server`` banner: gunicorn has no setting for it, so its response's default headers are
  taken without the ``Server:`` line (the app sends none either).
- Access log on stdout, with players' private links (``/p/<token>/``) redacted
  (``config.logfilters``).
- Workers: ``WEB_CONCURRENCY``, else (2 x cores) + 1, the number gunicorn's documentation
  suggests for sync workers.
Everything else comes from the command line or ``GUNICORN_CMD_ARGS`` (``--workers 3 --bind
0.0.0.0:8000``), which override this file.
"""

from __future__ import annotations

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
