from allauth.account import views as allauth_views
from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path, reverse
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


class AdminLoginRedirect(RedirectView):
    """/admin/login/ → the site's login, keeping where to go next."""

    def get_redirect_url(self, *args, **kwargs) -> str:
        query = self.request.META.get("QUERY_STRING", "")
        return reverse("account_login") + (f"?{query}" if query else "")


urlpatterns = [
    path("healthz", health.healthz, name="healthz"),
    # Browsers ask for /favicon.ico on every page: send them to the static SVG icon.
    path("favicon.ico", FaviconView.as_view()),
    path("readyz", health.readyz, name="readyz"),
    # The admin's own login is the site's (two-factor, lockout): its address leads there.
    path("admin/login/", AdminLoginRedirect.as_view()),
    path("admin/", admin.site.urls),
    # The account's overview and deletion, then django-allauth's pages (login, sign-up,
    # addresses, password, two-factor login, sessions).
    path("accounts/", include("events.accounts.urls")),
    path("accounts/", include("allauth.urls")),
    # The names the login and logout had before allauth (the paths are allauth's, above).
    path("accounts/login/", allauth_views.login, name="login"),
    path("accounts/logout/", allauth_views.logout, name="logout"),
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
    # The read API: /api/v1/, its OpenAPI document and browsable page.
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
