"""URL patterns nested under their shared prefixes, so that resolving an address is cheap.

Django tries a URL module's patterns one by one, matching each whole route. A site with a
hundred routes, most of them starting with the same few prefixes (``desk/<event>/``,
``e/<event>/<competition>/<format>/``), would match dozens of them for every request, a live
page's 304 included. :func:`nest` regroups the routes that start with one of the given
prefixes under ``path(prefix, include([...]))`` (each run of consecutive such routes): one
match rules a whole group out. Names, converters and reversing are unchanged (the group has
no namespace; the prefix's captured values are passed on).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.urls import URLPattern, URLResolver, include, path
from django.urls.resolvers import RoutePattern


def nest(
    urlpatterns: Sequence[URLPattern | URLResolver], *prefixes: str
) -> list[URLPattern | URLResolver]:
    """``urlpatterns`` with each run of consecutive routes under the same prefix (the longest
    of ``prefixes`` each starts with) moved into a group; the order of matching is unchanged."""
    ordered = sorted(prefixes, key=len, reverse=True)
    out: list[URLPattern | URLResolver] = []
    run: list[URLPattern | URLResolver] = []
    run_prefix: str | None = None

    def close() -> None:
        if run_prefix is not None:
            out.append(path(run_prefix, include(list(run))))
            run.clear()

    for pattern in urlpatterns:
        route = str(pattern.pattern)
        prefix = next(
            (p for p in ordered if isinstance(pattern, URLPattern) and route.startswith(p)), None
        )
        if prefix != run_prefix:
            close()
            run_prefix = prefix
        if prefix is None:
            out.append(pattern)
        else:
            assert isinstance(pattern, URLPattern)
            # What path() builds, with the route after the prefix (path() wants a name).
            rest = RoutePattern(route[len(prefix) :], name=pattern.name, is_endpoint=True)
            run.append(URLPattern(rest, pattern.callback, pattern.default_args, pattern.name))
    close()
    return out
