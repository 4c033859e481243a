from typing import Any

from django.conf import settings
from django.http import HttpRequest


def site(request: HttpRequest) -> dict[str, Any]:
    # signup_open: the login page offers sign-up only where anyone may sign up.
    return {"site_name": settings.SITE_NAME, "signup_open": settings.ACCOUNT_SIGNUP_OPEN}
