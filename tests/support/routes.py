"""Every URL route of the project, walked from the resolver's patterns."""

from __future__ import annotations

from collections.abc import Iterator

from django.urls import URLPattern, URLResolver


def routes(patterns: list, prefix: str = "", namespace: str = "") -> Iterator[tuple[str, str]]:
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
            yield from routes(pattern.url_patterns, prefix + str(pattern.pattern), inner)
        elif isinstance(pattern, URLPattern):
            name = f"{namespace}{pattern.name}" if pattern.name else ""
            yield name, prefix + str(pattern.pattern)
