"""What sjoelen answers ``events`` (``shuffleboard.hooks``): a check-in tells the player their
first board; an undone one moves everyone after it, who hear their new board."""

from __future__ import annotations

import pytest

from events.outbox.models import OutboxStatus
from events.printing.contract import NoSuchItem, PrintItem
from events.printing.pdf import KitPdf
from shuffleboard.hooks import SjoelenHooks
from tests.support.factories import PlayerFactory
from tests.support.printing import opened
from tests.support.shuffleboard import listen, sjoelen_night, subjects


def test_check_in_tells_the_first_board_and_an_undone_one_moves_those_after(sjoelen):
    from events.services import entry_check_in, entry_undo_check_in
    from tests.support.factories import EntryFactory

    first, second, third = (
        EntryFactory(competition=sjoelen, player=PlayerFactory(name=name))
        for name in ("Õie Sööt", "Jüri Tamm", "Mari Kask")
    )
    for entry, language in ((first, "en"), (second, "sv"), (third, "nl")):
        listen(entry, language)
    for entry in (first, second, third):
        entry_check_in(entry=entry)
    # In check-in order, player i's game 1 is at board i + 1; each hears theirs once.
    assert "game 1 at board 1" in subjects(first)[0][0]
    assert "parti 1 vid bräda 2" in subjects(second)[0][0]
    assert "partij 1 aan sjoelbak 3" in subjects(third)[0][0]
    entry_undo_check_in(entry=first)  # before the first game: the others move up a board
    assert [s for _t, s in subjects(first)] == [OutboxStatus.CANCELLED]
    assert [s for _t, s in subjects(second)] == [OutboxStatus.CANCELLED, OutboxStatus.PENDING]
    assert "bräda 1" in subjects(second)[-1][0] and "sjoelbak 2" in subjects(third)[-1][0]


def test_the_hooks_draw_every_item_they_list_and_refuse_another(event):
    competition, _entries = sjoelen_night({"Õie Sööt": [], "Jüri Tamm": []}, event=event)
    hooks = SjoelenHooks()
    items = hooks.print_items(competition)
    assert [item.key for item in items[:2]] == ["tents", "score-sheets"]
    for item in items[:3]:
        pdf = KitPdf(title="Sjoelen", paper=item.paper, orientation=item.orientation)
        hooks.draw_print_item(pdf, competition, item)
        assert opened(pdf.to_bytes()).pages
    with pytest.raises(NoSuchItem):
        hooks.draw_print_item(KitPdf(title="Sjoelen"), competition, PrintItem("tents", "", "x"))
