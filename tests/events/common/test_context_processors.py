"""What every page's template is given (events/common/context_processors.py): the site's name
and whether anyone may sign up as an organiser."""

from __future__ import annotations

from django.test import RequestFactory

from events.common.context_processors import site


def test_every_page_knows_the_sites_name_and_whether_sign_up_is_open(settings):
    settings.SITE_NAME = "Turniere"
    settings.ACCOUNT_SIGNUP_OPEN = False
    assert site(RequestFactory().get("/")) == {"site_name": "Turniere", "signup_open": False}
    settings.ACCOUNT_SIGNUP_OPEN = True
    assert site(RequestFactory().get("/"))["signup_open"] is True
