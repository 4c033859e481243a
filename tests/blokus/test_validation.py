"""A refused hand in the reader's words (``blokus.validation``)."""

from __future__ import annotations

from django.utils import translation

from blokus import rules
from blokus.validation import hand_message


def refusal(*args, **kwargs) -> rules.InvalidResult:
    try:
        rules.check_hand(*args, **kwargs)
    except rules.InvalidResult as exc:
        return exc
    raise AssertionError("the hand was accepted")


def test_each_code_of_check_hand_reads_with_its_numbers():
    assert hand_message(refusal(90, False)) == "Squares left must be a whole number from 0 to 89."
    message = hand_message(refusal(3, False, ["Q9"]))
    assert message == "There is no Blokus piece called Q9."


def test_an_unknown_code_falls_back_to_the_rules_english():
    exc = rules.InvalidResult("Something else.", code="not_mapped")
    assert hand_message(exc) == "Something else."


def test_the_message_follows_the_language():
    exc = refusal(3, True)
    with translation.override("sv"):
        swedish = hand_message(exc)
    with translation.override("en"):
        english = hand_message(exc)
    assert english.startswith("The monomino can count as the last piece")
    assert swedish != english
