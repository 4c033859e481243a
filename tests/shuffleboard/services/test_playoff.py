"""The title play-off at the desk (``shuffleboard.services.playoff``): only while 1st place is
shared in final standings, only for the players of the current round, stored after the games."""

from __future__ import annotations

import pytest

from events.errors import Conflict, ServiceError
from shuffleboard import services
from shuffleboard.models import Turn


def test_no_play_off_while_a_game_is_still_to_play(tied):
    competition, a, b, c = tied  # Mari has one game of two
    with pytest.raises(ServiceError) as refused:
        services.playoff_record(entry=a, counts=(0, 0, 0, 30))
    assert refused.value.code == "no_playoff"


def test_a_play_off_game_is_stored_after_the_games_and_the_loser_plays_no_more(tied):
    competition, a, b, c = tied
    services.turn_record(entry=c, number=2, counts=(1, 1, 1, 1))
    with pytest.raises(Conflict) as refused:
        services.playoff_record(entry=c, counts=(0, 0, 0, 30))  # 3rd: not in the play-off
    assert refused.value.code == "not_in_playoff"
    turn = services.playoff_record(entry=a, counts=(0, 0, 0, 30))
    assert turn.number == competition.options.games + 1 and turn.score == 120
    services.playoff_record(entry=b, counts=(0, 0, 0, 20))
    assert Turn.objects.filter(number__gt=2).count() == 2
    with pytest.raises(ServiceError) as over:
        services.playoff_record(entry=b, counts=(0, 0, 0, 30))
    assert over.value.code == "no_playoff"


def test_without_the_option_there_is_no_play_off(tied):
    competition, a, b, c = tied
    services.turn_record(entry=c, number=2, counts=(1, 1, 1, 1))
    competition.settings = {**competition.settings, "title_playoff": False}
    competition.save(update_fields=["settings"])
    with pytest.raises(ServiceError) as refused:
        services.playoff_record(entry=a, counts=(0, 0, 0, 30))
    assert refused.value.code == "no_playoff"
