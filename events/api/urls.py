"""``/api/v1/``: the read API (``events.api.views``), its OpenAPI document and browsable page."""

from django.urls import path

from events.api import series  # noqa: F401 (its views join the API)
from events.api.views import api

urlpatterns = [path("api/v1/", api.urls)]
