import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# A still-current poll of a live page is answered 304 before Django's middleware
# (events/live/fast.py); every other request goes to Django.
_django = get_wsgi_application()

from events.live.fast import NotModifiedFirst  # noqa: E402 (needs the apps loaded above)

application = NotModifiedFirst(_django)
