"""Sentences kept as their message ids and values, shown in the reader's language.

The correction trail was stored as text in the writer's language: a Swedish page showed an
English line. A line written as ``Words`` keeps its recipe, a small JSON tree
(``{"t": msgid, "p": {name: recipe}}``, a leaf a plain str), and ``render`` translates it
again for whoever reads it. Values may be ``Words``, a ``gettext_lazy`` string (its message id
is kept) or anything else (kept as text: names, numbers). Message ids are marked for
extraction where they are written (``gettext_noop`` or a module's ``gettext_lazy`` constant).
"""

from __future__ import annotations

from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext

Recipe = Any  # str | {"t": str, "p": {str: Recipe}}


def _lazy_recipe(value: Promise) -> Recipe:
    """A ``gettext_lazy`` string as its message id; any other lazy value as its text."""
    try:
        _unpickle, (func, args, kwargs, *_classes) = value.__reduce__()  # type: ignore[misc]
    except (TypeError, ValueError):
        return str(value)
    if getattr(func, "__name__", "") == "gettext" and len(args) == 1 and not kwargs:
        return {"t": str(args[0])}
    return str(value)


def recipe_of(value: Any) -> Recipe:
    if isinstance(value, Words):
        return value.recipe
    if isinstance(value, Promise):
        return _lazy_recipe(value)
    return str(value)


def render(recipe: Recipe) -> str:
    """A recipe in the active language (a message without its values: the message alone)."""
    if isinstance(recipe, dict) and isinstance(recipe.get("t"), str):
        text = gettext(recipe["t"])
        params = recipe.get("p")
        if not isinstance(params, dict) or not params:
            return text
        try:
            return text % {str(name): render(value) for name, value in params.items()}
        except (KeyError, TypeError, ValueError):
            return recipe["t"]
    return "" if recipe is None else str(recipe)


class Words:
    """A message id (marked for translation where it is written) and its values."""

    __slots__ = ("msgid", "params")

    def __init__(self, msgid: str | Promise, **params: Any) -> None:
        recipe = recipe_of(msgid)
        self.msgid = recipe["t"] if isinstance(recipe, dict) else str(recipe)
        self.params = params

    @property
    def recipe(self) -> Recipe:
        if not self.params:
            return {"t": self.msgid}
        return {"t": self.msgid, "p": {name: recipe_of(v) for name, v in self.params.items()}}

    def __str__(self) -> str:
        return render(self.recipe)
