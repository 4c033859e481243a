from __future__ import annotations

from typing import Any

from allauth.account.forms import LoginForm as AllauthLoginForm
from django import forms
from django.utils.translation import gettext_lazy as _


class AccountDeleteForm(forms.Form):
    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        max_length=4096,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )


class LoginForm(AllauthLoginForm):
    """allauth's login, its one field named for what it takes: a login name (the accounts a
    site admin made) or an e-mail address."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["login"].label = _("Login name or e-mail address")
