from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from events import health, jsi18n
from events.formats import all_formats

urlpatterns = [
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
    path("admin/", admin.site.urls),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    # The JavaScript strings (Django's JavaScriptCatalog), per language, cached (events/jsi18n.py).
    path("jsi18n/<str:lang>/", jsi18n.javascript_catalogue, name="javascript-catalog"),
    path("", include("events.urls")),
    # Each format's own URL module (its pages start with the format's segment, see formats.py).
    *[path("", include(game_format.urls)) for game_format in all_formats()],
]
