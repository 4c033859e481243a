"""The read API's edge (``/api/v1/``): English, GET only, CORS, the rate limit.

- Every answer is English (messages are for developers): the language is set before the view.
- GET reaches the views (HEAD as a GET whose body is dropped); ``OPTIONS`` is answered here
  (a CORS preflight); any other method is a 405.
- CORS: ``Access-Control-Allow-Origin: *`` and no credentials, for GET/HEAD/OPTIONS; the
  ``ETag`` is exposed and ``If-None-Match`` allowed, so a browser script can poll with 304s.
- The rate limit per client address (``events.api.limits``): 429 with ``Retry-After``.
No cookie is read or set: the views never touch the session or the CSRF token.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import translation

from events.api import limits
from events.api.caching import JSON, ApiError, error_response

PREFIX = "/api/v1/"
METHODS = "GET, HEAD, OPTIONS"
CORS = {
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Allow-Methods": METHODS,
    "Access-Control-Allow-Headers": "If-None-Match, Accept, Accept-Encoding",
    "Access-Control-Expose-Headers": "ETag, Link, Retry-After",
}
PREFLIGHT_SECONDS = "86400"


class ReadApiMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path_info.startswith(PREFIX):
            return self.get_response(request)
        translation.activate("en")
        request.LANGUAGE_CODE = "en"
        response = self.answer(request)
        if response.status_code == 404 and not response.get("Content-Type", "").startswith(JSON):
            # an address no view of the API matches: the same JSON as every other error
            response = error_response(ApiError(404, "No such address in this API.", "not_found"))
        for name, value in CORS.items():
            response.headers[name] = value
        return response

    def answer(self, request: HttpRequest) -> HttpResponse:
        if request.method == "OPTIONS":
            response = HttpResponse(status=204)
            response.headers["Access-Control-Max-Age"] = PREFLIGHT_SECONDS
            response.headers["Allow"] = METHODS
            return response
        if request.method not in ("GET", "HEAD"):
            response = error_response(
                ApiError(405, "This API is read-only: GET (or HEAD) only.", "method_not_allowed")
            )
            response.headers["Allow"] = METHODS
            return response
        wait = limits.refused(request)
        if wait is not None:
            response = error_response(
                ApiError(
                    429,
                    f"Too many requests from this address: try again in {wait} seconds.",
                    "rate_limited",
                )
            )
            response.headers["Retry-After"] = str(wait)
            return response
        if request.META.get("HTTP_IF_NONE_MATCH", "").strip() == "*":
            # "any version": it would tell an unlisted event's address from an unknown one
            del request.META["HTTP_IF_NONE_MATCH"]
        if request.method == "HEAD":  # the views answer GET; HEAD is GET without the body
            request.method = "GET"
            response = self.get_response(request)
            request.method = "HEAD"
            if not response.streaming:
                response.content = b""
            return response
        return self.get_response(request)
