"""The players' result forms' shared parts (events/live/forms.py): who sends it, named by the
public name and preselected by the phone; the confirmation's own field ids; the code field."""

from __future__ import annotations

import pytest
from django import forms

from events.live.forms import ConfirmingFields, ProposerFields, proposal_code_field
from events.models import Player
from tests.support.factories import EntryFactory, PlayerFactory


class Confirm(ConfirmingFields, forms.Form):
    note = forms.CharField(required=False)


@pytest.mark.django_db
def test_the_sender_is_one_of_the_entries_by_public_name(competition):
    anna = EntryFactory(competition=competition, player=PlayerFactory(name="Anna Berg"))
    bo = EntryFactory(competition=competition, player=PlayerFactory(name="Bo Lind"))
    Player.objects.filter(pk=anna.player_id).update(name_shown="short")
    anna.player.refresh_from_db()
    form = ProposerFields(entries=[anna, bo])
    field = form.fields["entry"]
    assert field.choices == [("", "—"), (anna.pk, "Anna B."), (bo.pk, "Bo Lind")]
    assert "data-me-select" in field.widget.attrs
    posted = ProposerFields({"entry": str(bo.pk)}, entries=[anna, bo])
    assert posted.is_valid() and posted.chosen() == bo
    assert not ProposerFields({"entry": "999999"}, entries=[anna, bo]).is_valid()
    assert not ProposerFields({"entry": ""}, entries=[anna, bo]).is_valid()


def test_the_confirmation_has_field_ids_of_its_own_and_a_revision_of_zero_or_more():
    form = Confirm({"revision": "3"})
    assert form.is_valid() and form.cleaned_data["revision"] == 3
    assert 'id="confirm_revision"' in str(form["revision"])
    assert not Confirm({"revision": "-1"}).is_valid()
    assert Confirm(auto_id="mine_%s")["revision"].auto_id == "mine_revision"


def test_the_code_field_is_typed_on_a_phone_without_corrections():
    field = proposal_code_field("Board code", "On the board's card.")
    assert (field.label, field.help_text, field.max_length) == (
        "Board code",
        "On the board's card.",
        20,
    )
    assert field.widget.attrs == {
        "autocomplete": "off",
        "autocapitalize": "characters",
        "spellcheck": "false",
        "maxlength": "20",
    }
