"""Projector screens paired at the desk (events/screens): a pairing and its screen, and the
screen's address."""

from __future__ import annotations

from django.urls import reverse

from events.screens import services


def paired_screen(event, name: str = "Hall left"):
    """A screen of ``event`` paired by the code its browser was given."""
    pairing = services.pairing_start()
    return services.screen_pair(event=event, code=pairing.code, name=name)


def page_of(screen) -> str:
    return reverse("events:screen_page", args=[screen.token])


def desk_url(event) -> str:
    return reverse("events:screens", args=[event.slug])
