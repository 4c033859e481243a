"""``python -m config.devserver [ADDRPORT]``: ``manage.py runserver`` with a deeper listen queue,
as ``make run`` (scripts/run.py) starts it.

runserver listens with a queue of 10 connections not yet accepted. While its threads keep the
one process busy, a room sending a form at the same moment overflows it, and the kernel
answers the connections past it with a reset: the phone shows an error, the sign-up is lost.
A deeper queue lets them wait their turn; 2048 is gunicorn's default (the kernel caps it at
``net.core.somaxconn``). The autoreloader starts this module again, so the queue holds after a
reload too. Its banner is left out (``RUNSERVER_BANNER=1`` brings it back): scripts/run.py prints
the address and the logins once, where a newcomer looks.
"""

from __future__ import annotations

import io
import os
import sys

LISTEN_QUEUE = 2048


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    # The address and the logins are printed once by scripts/run.py; runserver's own banner
    # (checks, date, version, address, the production warning) would bury them after every reload.
    os.environ.setdefault("DJANGO_RUNSERVER_HIDE_WARNING", "true")
    import django
    from django.core.management import get_commands, load_command_class
    from django.core.management.base import OutputWrapper
    from django.core.servers import basehttp

    django.setup()
    # The runserver the installed apps provide (whitenoise's, which leaves static files to it).
    runserver = type(load_command_class(get_commands()["runserver"], "runserver"))

    class QuietRunserver(runserver):  # type: ignore[misc,valid-type]
        def inner_run(self, *args: object, **options: object) -> None:
            if os.environ.get("RUNSERVER_BANNER") != "1":
                # Errors (a port in use, a failed check) go to stderr and stay.
                self.stdout = OutputWrapper(io.StringIO())
            super().inner_run(*args, **options)

    basehttp.WSGIServer.request_queue_size = LISTEN_QUEUE
    QuietRunserver().run_from_argv([sys.argv[0], "runserver", *sys.argv[1:]])


if __name__ == "__main__":
    main()
