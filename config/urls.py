from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic.base import RedirectView

from events import language
from events.common import health, jsi18n
from events.formats import all_formats
from events.live import results_sheet


class FaviconView(RedirectView):
    """/favicon.ico: the static SVG icon (its hashed name is read per request, not at import)."""

    permanent = True

    def get_redirect_url(self, *args, **kwargs) -> str:
        return static("favicon.svg")


urlpatterns = [
    path("healthz", health.healthz, name="healthz"),
    # Browsers ask for /favicon.ico on every page: send them to the static SVG icon.
    path("favicon.ico", FaviconView.as_view()),
    path("readyz", health.readyz, name="readyz"),
    path("admin/", admin.site.urls),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    # The footer's language links (GET: public pages carry no CSRF token).
    path("language/<str:code>/", language.language_switch, name="language_switch"),
    # The JavaScript strings (Django's JavaScriptCatalog), per language, cached
    # (events/common/jsi18n.py).
    path("jsi18n/<str:lang>/", jsi18n.javascript_catalogue, name="javascript-catalog"),
    # The notice board's A4 sheet of a competition (final standings and podium).
    path(
        "e/<slug:event_slug>/<slug:competition_slug>/results-sheet/",
        results_sheet.results_sheet,
        name="results_sheet",
    ),
    # The read API (issue 32): /api/v1/, its OpenAPI document and browsable page.
    path("", include("events.api.urls")),
    path("", include("events.urls")),
    # Each format's own URL module (its pages start with its segment: events.formats.declaration).
    *[path("", include(game_format.urls)) for game_format in all_formats()],
]

# The site's own error pages, translated, with a way to a new link on a link's address.
handler400 = "events.common.error_pages.bad_request"
handler403 = "events.common.error_pages.forbidden"
handler404 = "events.common.error_pages.not_found"
handler500 = "events.common.error_pages.server_error"
