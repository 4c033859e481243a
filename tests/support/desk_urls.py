"""Every URL under /desk/, enumerated from the resolver, and who each format's desk views say
may use them (``desk_view(..., allow=...)``): what the permissions matrix
(``tests/test_permissions_matrix.py``) and each format's own table of its desk pages read."""

from __future__ import annotations

from collections.abc import Iterator

from django.urls import URLPattern, URLResolver, get_resolver


def desk_patterns(
    patterns: list | None = None, prefix: str = "", namespace: str = ""
) -> Iterator[tuple[str, str, URLPattern]]:
    """(key, route, pattern) of every URL under desk/; the key is "namespace:name", or the
    route for a pattern without a name."""
    for p in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(p, URLResolver):
            yield from desk_patterns(
                p.url_patterns, prefix + str(p.pattern), p.namespace or namespace
            )
            continue
        route = prefix + str(p.pattern)
        if route.startswith("desk/"):
            yield (f"{namespace}:{p.name}" if p.name else route), route, p


def declared_access(namespace: str) -> dict[str, str | None]:
    """``{"namespace:name": access}`` of the namespace's desk URLs, as their views declare it
    (None for a view that declares nothing)."""
    return {
        key: getattr(pattern.callback, "desk_access", None)
        for key, _route, pattern in desk_patterns()
        if key.split(":")[0] == namespace and pattern.name
    }
