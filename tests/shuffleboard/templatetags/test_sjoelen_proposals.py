"""The board code on the desk's pages (``shuffleboard.templatetags.sjoelen_proposals``)."""

from __future__ import annotations

from django.template import Context, Template

from shuffleboard import proposals


def test_the_tag_gives_the_code_players_type_for_that_board(sjoelen):
    template = Template("{% load sjoelen_proposals %}{% board_code competition 2 %}")
    code = template.render(Context({"competition": sjoelen}))
    assert code == proposals.board_code(sjoelen, 2)
    assert code != proposals.board_code(sjoelen, 1)
