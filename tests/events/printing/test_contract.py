"""The print kit's contract: the item's defaults, the protocols a format's hooks implement, and
the registry's answer for each format."""

from __future__ import annotations

from events.formats import all_formats
from events.formats.registry import formats_taking_part, part
from events.printing.contract import CertificateDetails, NoSuchItem, PrintedTables, PrintItem
from events.printing.pdf import PAPER


def test_an_item_is_the_whole_competition_on_a4_portrait_by_default():
    item = PrintItem("tents", "Table tents")
    assert (item.scope, item.scope_label, item.paper, item.orientation) == ("", "", "A4", "P")
    assert item.paper in PAPER


def test_no_such_item_is_a_lookup_error():
    assert issubclass(NoSuchItem, LookupError)


class Printing:
    def print_items(self, competition):
        return []

    def draw_print_item(self, pdf, competition, item):
        raise NoSuchItem(item.key)


class Details:
    def certificate_details(self, competition):
        return {}


def test_a_hooks_class_takes_part_by_its_methods():
    assert isinstance(Printing(), PrintedTables)
    assert not isinstance(Printing(), CertificateDetails)
    assert isinstance(Details(), CertificateDetails)
    assert not isinstance(object(), PrintedTables)


def test_the_registry_answers_which_formats_print_their_own():
    taking = {game_format.key for game_format, _part in formats_taking_part(PrintedTables)}
    for game_format in all_formats():
        assert (part(game_format, PrintedTables) is not None) == (game_format.key in taking)
