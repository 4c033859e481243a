"""Races in tests: actions run at once in threads of their own, each with its own connection."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, connections

from events.errors import ServiceError

postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="SQLite's single writer lock serializes the two transactions: no race to test",
)


def run_together(*actions: Callable[[], Any]) -> list[Any]:
    """Run each action in its own thread and database connection, all released at once;
    the result of each, or the typed error it raised."""
    barrier = threading.Barrier(len(actions))
    results: list[Any] = [None] * len(actions)

    def run(index: int, action: Callable[[], Any]) -> None:
        try:
            barrier.wait(timeout=10)
            results[index] = action()
        except ServiceError as exc:
            results[index] = exc
        except BaseException as exc:  # anything else fails the test below
            results[index] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, a)) for i, a in enumerate(actions)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads)
    return results


def refusal_codes(results: list[Any]) -> list[str]:
    """The code of each refusal among ``results`` ("ok" for a success), sorted; any other
    error is raised."""
    codes = []
    for result in results:
        if isinstance(result, ServiceError):
            codes.append(str(getattr(result, "code", None) or type(result).default_code))
        elif isinstance(result, BaseException):
            raise result
        else:
            codes.append("ok")
    return sorted(codes)
