"""gunicorn's settings for this app: ``gunicorn -c python:config.gunicorn config.wsgi``.

- No ``Server`` banner: gunicorn has no setting for it, so its response's default headers are
  taken without the ``Server:`` line (the app sends none either).
- Access log on stdout, with players' private links (``/p/<token>/``) redacted
  (``config.logfilters``).
Everything else comes from the command line or ``GUNICORN_CMD_ARGS`` (``--workers 3 --bind
0.0.0.0:8000``).
"""

from __future__ import annotations

from gunicorn.http import wsgi

from config import logfilters

_default_headers = wsgi.Response.default_headers


def _default_headers_without_server(self: wsgi.Response) -> list[str]:
    return [line for line in _default_headers(self) if not line.startswith("Server:")]


wsgi.Response.default_headers = _default_headers_without_server

accesslog = "-"
# Logger filters survive gunicorn's own handler setup, and the workers inherit them.
logfilters.install()
