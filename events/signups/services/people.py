"""A sign-up's person in the hosting club's register: found by their e-mail address (or the
person they joined on their own page), else made; a namesake shown at the desk as a possible
duplicate. Only the event's club's register is ever searched."""

from __future__ import annotations

from events.models import Player
from events.services.players import person_key, player_build
from events.signups.models import SignUp, SignUpWindow


def register_person_for(window: SignUpWindow, sign_up: SignUp) -> Player:
    """The register person of this sign-up: the one with the same e-mail address, else a new
    one (marked as a possible duplicate when the name and club are in the register already)."""
    host_id = window.competition.event.host_id
    register = Player.objects.filter(host_id=host_id)
    if sign_up.register_person_id is not None:
        joined = register.filter(pk=sign_up.register_person_id).first()
        if joined is not None:
            return joined
    known = (
        register.filter(email__iexact=sign_up.email).order_by("pk").first()
        if sign_up.email
        else None
    )
    if known is not None:
        return known
    player = player_build(
        host_id=host_id,
        name=sign_up.name,
        club=sign_up.club,
        email=sign_up.email,
        rating=sign_up.rating,
        language=sign_up.language,
    )
    key = person_key(player.name, player.club)
    namesakes = register.filter(person_key=key).order_by("homonym")
    first = namesakes.first()
    if first is not None:
        sign_up.possible_duplicate = first
        player.homonym = max(p.homonym for p in namesakes) + 1
    player.save()
    return player


def register_namesake(person: Player, email: str) -> Player | None:
    """The register's person of the same name and club when no register person has this
    address: shown at the desk as a possible duplicate from the moment of sign-up."""
    register = Player.objects.filter(host_id=person.host_id)
    if register.filter(email__iexact=email).exists():
        return None
    key = person_key(person.name, person.club)
    return register.filter(person_key=key).order_by("homonym").first()
