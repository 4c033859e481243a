"""The sjoelen summary and standings rows (``shuffleboard.templatetags.shuffleboard_tags``): the
podium by shared places, a champion of the play-off alone on top, and names public or full."""

from __future__ import annotations

from django.template import Context

from events.models import Player
from shuffleboard import selectors, services
from shuffleboard.templatetags import shuffleboard_tags
from tests.support.shuffleboard import sjoelen_night


def test_the_podium_shows_a_tie_for_third_in_full_and_leaves_out_players_without_games(event):
    competition, _entries = sjoelen_night(
        {
            "Ann": [(7, 7, 7, 9)],  # 148
            "Bo": [(5, 9, 5, 7)],  # 116
            "Cy": [(1, 1, 1, 1)],  # 20
            "Di": [(1, 1, 1, 1)],  # 20
            "Ed": [],
        },
        event=event,
    )
    rows = selectors.standings_for_competition(competition).rows
    top = shuffleboard_tags.podium_rows(rows)
    assert [(r.name, r.place) for r in top] == [("Ann", 1), ("Bo", 2), ("Cy", 3), ("Di", 3)]


def test_the_summary_puts_the_play_off_champion_first(tied):
    competition, a, b, c = tied
    services.turn_record(entry=c, number=2, counts=(1, 1, 1, 1))
    services.playoff_record(entry=a, counts=(0, 0, 0, 20))
    services.playoff_record(entry=b, counts=(0, 0, 0, 30))
    summary = shuffleboard_tags.sjoelen_summary(Context({}), competition)
    assert [(r.name, r.place) for r in summary["top"]][:2] == [("Jüri Tamm", 1), ("Õie Sööt", 2)]
    assert summary["finished"] is False


def test_standings_rows_escape_and_choose_the_name(played):
    a = played[0]
    Player.objects.filter(pk=a.player_id).update(name="<i>Õie</i> Sööt", name_shown="short")
    rows = selectors.standings_for_competition(a.competition).rows
    desk = shuffleboard_tags.standings_rows(Context({}), rows, "/p/")
    public = shuffleboard_tags.standings_rows(Context({}), rows, "/p/", public=True)
    assert "&lt;i&gt;Õie&lt;/i&gt; Sööt" in desk and "<i>" not in desk
    assert "Sööt" not in public
    assert f'href="/p/{a.pk}/"' in desk and 'class="place">1=' in desk  # a shared 1st place


def test_the_attention_note_lists_nothing_for_games_that_keep_the_rules(played):
    competition = played[0].competition
    note = shuffleboard_tags.sjoelen_attention(Context({}), competition)
    assert list(note["attention"]) == [] and note["event"] == competition.event


def test_the_attention_note_lists_a_game_stored_under_other_settings(event):
    competition, (entry,) = sjoelen_night(
        {"Ann": []}, event=event, settings={"games": 2, "boards": 1, "bonus_disc": True}
    )
    services.turn_record(
        entry=entry, number=1, counts=(7, 7, 7, 9), bonus_counts=(0, 0, 0, 2), max_after=1
    )
    competition.settings = {**competition.settings, "bonus_disc": False}
    competition.save(update_fields=["settings"])
    note = shuffleboard_tags.sjoelen_attention(Context({}), competition)
    assert len(list(note["attention"])) == 1
