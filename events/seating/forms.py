"""The desk's group page: one short text per entry."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from events.models import Entry
from events.seating.services import GROUP_LENGTH


class GroupsForm(forms.Form):
    def __init__(self, *args: Any, entries: Sequence[Entry], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.entries = list(entries)
        for entry in self.entries:
            self.fields[f"group_{entry.pk}"] = forms.CharField(
                label=_("Group of %(name)s") % {"name": entry.player.name},
                max_length=GROUP_LENGTH,
                required=False,
                initial=entry.group,
            )

    def rows(self) -> Iterator[tuple[Entry, forms.BoundField]]:
        for entry in self.entries:
            yield entry, self[f"group_{entry.pk}"]

    def groups(self) -> dict[int, str]:
        return {entry.pk: self.cleaned_data[f"group_{entry.pk}"] for entry in self.entries}
