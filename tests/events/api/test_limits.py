"""The read API's rate limit per address (``events.api.limits``), on the shared attempt counter."""

from __future__ import annotations

import pytest
from django.db import connection

from events.api import limits
from events.models import AttemptCounter

pytestmark = pytest.mark.django_db


def test_over_the_limit_is_a_429_with_retry_after(client, settings):
    settings.API_RATE_LIMIT = 3
    settings.API_RATE_BATCH = 1
    settings.API_RATE_SECONDS = 60
    for _ in range(3):
        assert client.get("/api/v1/events").status_code == 200
    refused = client.get("/api/v1/events")
    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 60
    assert refused.json()["code"] == "rate_limited"
    assert refused["Access-Control-Allow-Origin"] == "*"  # a browser script can read why
    # another address is not held back
    assert client.get("/api/v1/events", REMOTE_ADDR="10.0.0.9").status_code == 200


def test_counted_in_batches_one_update_per_batch(client, settings, django_assert_max_num_queries):
    settings.API_RATE_LIMIT = 20
    settings.API_RATE_BATCH = 5
    client.get("/api/v1/")  # the first request of the window takes a batch of five
    assert AttemptCounter.objects.get(key=limits.key_of("127.0.0.1")).count == 1
    for _ in range(4):
        with django_assert_max_num_queries(0):  # paid for: no query at all
            assert client.get("/api/v1/").status_code == 200
    client.get("/api/v1/")
    assert AttemptCounter.objects.get(key=limits.key_of("127.0.0.1")).count == 2
    for _ in range(14):
        client.get("/api/v1/")
    # the refused take (2, in its own transaction: a savepoint in a test, 2 more; on PostgreSQL
    # one more, its commit not waiting for the disk) and its window's end
    with django_assert_max_num_queries(6):
        assert client.get("/api/v1/").status_code == 429
    with django_assert_max_num_queries(0):  # remembered until the window ends
        assert client.get("/api/v1/").status_code == 429


def test_the_limit_can_be_turned_off(client, settings, django_assert_max_num_queries):
    settings.API_RATE_LIMIT = 0
    with django_assert_max_num_queries(0):
        for _ in range(5):
            assert client.get("/api/v1/").status_code == 200
    assert not AttemptCounter.objects.exists()


def test_the_address_behind_a_trusted_proxy(client, settings):
    settings.API_RATE_LIMIT = 1
    settings.API_RATE_BATCH = 1
    settings.TRUSTED_PROXIES = 1
    assert client.get("/api/v1/", HTTP_X_FORWARDED_FOR="203.0.113.5").status_code == 200
    assert client.get("/api/v1/", HTTP_X_FORWARDED_FOR="203.0.113.5").status_code == 429
    assert client.get("/api/v1/", HTTP_X_FORWARDED_FOR="203.0.113.6").status_code == 200


@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="SQLite's shared-cache test database locks its tables against other threads",
)
@pytest.mark.django_db(transaction=True)
def test_threads_of_one_process_taking_batches_at_once_lose_none(settings, rf):
    """Six requests of one address at a time through a threaded server: every batch taken from
    the shared counter is spent, so the address gets its documented limit, not a share of it
    (each thread used to overwrite the batch another had just taken: 261-285 of 600)."""
    import threading

    from django.db import connections

    settings.API_RATE_LIMIT = 600
    settings.API_RATE_BATCH = 50
    settings.API_RATE_SECONDS = 600
    threads, per_thread = 6, 150
    barrier = threading.Barrier(threads)
    admitted = [0] * threads
    failures: list[BaseException] = []

    def ask(index: int) -> None:
        try:
            barrier.wait(timeout=30)
            for _ in range(per_thread):
                if limits.refused(rf.get("/api/v1/", REMOTE_ADDR="198.51.100.7")) is None:
                    admitted[index] += 1
        except BaseException as exc:  # reported below, not lost in the thread
            failures.append(exc)
        finally:
            connections.close_all()

    running = [threading.Thread(target=ask, args=(i,)) for i in range(threads)]
    for thread in running:
        thread.start()
    for thread in running:
        thread.join(timeout=120)
    assert not failures
    # A batch added by a thread whose own last request had already gone may stay unspent:
    # at most one batch short, never over.
    assert 600 - 49 <= sum(admitted) <= 600
    assert AttemptCounter.objects.get(key=limits.key_of("198.51.100.7")).count == 12
