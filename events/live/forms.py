"""The players' result forms on the public pages: who sends it, the table's code,
and the confirmation of another player's result. Each format's form builds on these."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from events.models import Entry


def proposal_code_field(label: Any, help_text: Any) -> forms.CharField:
    """The code of a table card or a board, typed on a phone."""
    return forms.CharField(
        label=label,
        max_length=20,
        help_text=help_text,
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false"}
        ),
    )


class ProposerFields(forms.Form):
    """Who sends a result (one of ``entries``, preselected by the phone's "This is me"); a
    format's form adds its ``code`` field (:func:`proposal_code_field`)."""

    entry = forms.TypedChoiceField(label=_("Who are you?"), coerce=int)

    def __init__(self, *args: Any, entries: Sequence[Entry], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.entries = {e.pk: e for e in entries}
        field = self.fields["entry"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [("", "—")] + [(e.pk, e.player.public_name) for e in entries]
        field.widget.attrs["data-me-select"] = ""

    def chosen(self) -> Entry:
        return self.entries[self.cleaned_data["entry"]]


class ConfirmingFields(forms.Form):
    """Mixed in before a format's proposer form: the confirmation of another player's result
    (the revision they saw), with its own field ids beside the page's other form."""

    revision = forms.IntegerField(widget=forms.HiddenInput, min_value=0)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "confirm_%s")
        super().__init__(*args, **kwargs)
