"""The attempt counter behind code lockouts (events/services/attempts.py): counted in the
database, so it holds on every server and with the cache down, and an atomic check-and-increment,
so that concurrent wrong codes cannot get more than the allowed number evaluated."""

from __future__ import annotations

import datetime as dt
import threading

import pytest
from django.db import connection, connections
from django.utils import timezone

from events.errors import Forbidden, ServiceError
from events.models import AttemptCounter
from events.services import attempts, proposals

RIGHT = "ACDEF"


def check(key: str, code: str) -> None:
    proposals.code_check(key, code, RIGHT, wrong="wrong", locked="locked")


def outcome(key: str, code: str) -> str:
    try:
        check(key, code)
    except ServiceError as exc:
        return str(exc.code)
    return "ok"


def test_ten_wrong_codes_lock_even_the_right_one(db):
    assert [outcome("k", "XXXXX") for _ in range(10)] == ["wrong_code"] * 10
    assert outcome("k", RIGHT) == "code_locked"
    assert outcome("other", RIGHT) == "ok"  # keys are apart
    assert attempts.is_locked("k", limit=proposals.WRONG_CODES_ALLOWED)


def test_right_codes_are_not_counted(db):
    for _ in range(9):
        assert outcome("k", "XXXXX") == "wrong_code"
    for _ in range(30):  # a table entering and confirming its results never locks itself
        assert outcome("k", f" {RIGHT.lower()} ") == "ok"
    assert outcome("k", "XXXXX") == "wrong_code"
    assert outcome("k", RIGHT) == "code_locked"


def test_the_lock_ends_with_its_window_and_old_rows_go(db):
    for _ in range(10):
        outcome("k", "XXXXX")
    AttemptCounter.objects.filter(key="k").update(
        expires_at=timezone.now() - dt.timedelta(seconds=1)
    )
    AttemptCounter.objects.create(key="stale", count=3, expires_at=timezone.now())
    assert outcome("k", RIGHT) == "ok"
    assert list(AttemptCounter.objects.values_list("key", "count")) == [("k", 0)]
    window = AttemptCounter.objects.get().expires_at - timezone.now()
    assert dt.timedelta(minutes=14) < window <= dt.timedelta(minutes=15)


def test_a_refusal_is_forbidden_with_the_callers_words(db):
    with pytest.raises(Forbidden) as wrong:
        check("k", "")
    assert wrong.value.code == "wrong_code" and "wrong" in str(wrong.value.text)


@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="real concurrent connections need PostgreSQL"
)
@pytest.mark.django_db(transaction=True)
def test_fifty_concurrent_wrong_codes_get_at_most_ten_evaluated():
    barrier = threading.Barrier(50)
    results: list[str] = []
    lock = threading.Lock()

    def run() -> None:
        try:
            barrier.wait(timeout=30)
            result = outcome("table-code:race", "XXXXX")
        except BaseException as exc:  # reported below
            result = repr(exc)
        finally:
            connections.close_all()
        with lock:
            results.append(result)

    threads = [threading.Thread(target=run) for _ in range(50)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads)
    assert sorted(set(results)) == ["code_locked", "wrong_code"], results
    assert results.count("wrong_code") == proposals.WRONG_CODES_ALLOWED
    assert AttemptCounter.objects.get(key="table-code:race").count == 10
