"""The sjoelen rules' refusals in the reader's language: the rules speak
English and name the case by a code and its values; shuffleboard/validation.py translates."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.utils import translation

from shuffleboard import rules
from shuffleboard.forms import TurnForm
from shuffleboard.validation import RULE_MESSAGES, rule_message
from tests.support.shuffleboard import post_game, turn_on

RULES = Path(rules.__file__).parent
# Codes the desk and the phones never show (settings and standings inputs checked before).
INTERNAL = {
    "games_not_a_list",
    "unknown_tiebreaks",
    "boards_not_valid",
    "games_not_valid",
    "player_twice",
    "class_limits",
    "invalid_result",
}


def test_every_code_the_rules_raise_has_words_in_every_language():
    raised = set()
    for module in RULES.glob("*.py"):
        raised |= set(re.findall(r'code="([a-z_]+)"', module.read_text()))
    assert raised - INTERNAL <= set(RULE_MESSAGES), raised - INTERNAL - set(RULE_MESSAGES)
    assert raised - INTERNAL, "found no codes"


@pytest.mark.parametrize(
    "language, words",
    [
        ("en", "There are only 30 discs, but these counts add up to 35."),
        ("sv", "Det finns bara 30 brickor, men de här antalen blir tillsammans 35."),
        ("et", "Litreid on ainult 30, kuid need arvud annavad kokku 35."),
        ("nl", "Er zijn maar 30 schijven, maar deze aantallen tellen op tot 35."),
    ],
)
def test_too_many_discs_reads_in_the_language(language, words):
    with pytest.raises(rules.InvalidResult) as refused:
        rules.check_game([10, 10, 10, 5])
    with translation.override(language):
        assert rule_message(refused.value) == words
        form = TurnForm({"number": 1, "gate1": 10, "gate2": 10, "gate3": 10, "gate4": 5}, games=5)
        assert not form.is_valid()
        assert words in str(form.errors)


def test_a_sub_turns_problem_names_the_sub_turn_in_the_language():
    with pytest.raises(rules.InvalidResult) as refused:
        rules.check_game([0, 0, 0, 0], sub_turns=[[1, 1, 1, 1], [-1, 0, 0, 0]])
    with translation.override("sv"):
        assert rule_message(refused.value) == (
            "Kastomgång 2: Antalet i 1-poängsfacket kan inte vara negativt (-1)."
        )


@pytest.mark.parametrize("language", ["sv", "et", "nl"])
def test_the_phone_page_refuses_in_the_players_language(sjoelen, playing, client, language):
    turn_on(sjoelen)
    client.cookies["django_language"] = language
    page = post_game(client, sjoelen, playing[0], gate1=10, gate2=10, gate3=10, gate4=5)
    html = page.content.decode()
    assert page.status_code == 400
    assert "but these counts add up to" not in html
    with translation.override(language):
        expected = str(RULE_MESSAGES["too_many_discs"]) % {"discs": 30, "total": 35}
    assert expected in html
