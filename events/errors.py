"""Typed refusals: every service raises one of these, views map the class to an HTTP status.

Each error is a Django ``ValidationError`` (so a form can show it beside the field) with a
``code``: the class gives a default, a service may name the exact case (``code="late_move"``).
Tests and views match on the class or the code, never on the words, which are translated.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError


class ServiceError(ValidationError):
    """An action refused for a reason the user can read and act on."""

    default_code = "refused"
    http_status = 400

    def __init__(self, message: Any, code: str | None = None, params: Any = None) -> None:
        super().__init__(message, code=code or self.default_code, params=params)
        if not hasattr(self, "code"):  # a list or dict of messages: Django sets no code
            self.code = code or self.default_code

    @property
    def text(self) -> str:
        """The message as one string (a form shows ``messages``; an API or a flash this)."""
        return " ".join(str(message) for message in self.messages)


class Invalid(ServiceError):
    """The values given break a rule (a score out of range, an unknown setting)."""

    default_code = "invalid"
    http_status = 400


class Refused(ServiceError):
    """The values are fine but the action is not allowed now (registration closed, ...)."""

    default_code = "refused"
    http_status = 400


class NotFound(ServiceError):
    """What the action names does not exist, or not for this caller."""

    default_code = "not_found"
    http_status = 404


class Forbidden(ServiceError):
    """The caller may not do this (a withdrawn player's move)."""

    default_code = "forbidden"
    http_status = 403


class Conflict(ServiceError):
    """The action collides with one already taken (a second move, a duplicate)."""

    default_code = "conflict"
    http_status = 409


class Stale(Conflict):
    """The page the user acted on is out of date: someone else changed it since."""

    default_code = "stale"
    http_status = 409


class Gone(ServiceError):
    """What the action names is over (a finished game)."""

    default_code = "gone"
    http_status = 410


def refuse(
    message: Any,
    *,
    error_class: type[ServiceError] = Refused,
    code: str | None = None,
    **params: Any,
) -> ServiceError:
    """An error of class ``error_class`` from a message constant and its parameters."""
    return error_class(str(message) % {k: str(v) for k, v in params.items()}, code=code)


def http_status(exc: ServiceError) -> int:
    """The HTTP status a view answers for this error."""
    return exc.http_status
