"""``python -m config.devserver [ADDRPORT]``: ``manage.py runserver`` with a deeper listen queue,
as ``make run`` (scripts/run.py) starts it.

runserver listens with a queue of 10 connections not yet accepted. While its threads keep the
one process busy, a room sending a form at the same moment overflows it, and the kernel
answers the connections past it with a reset: the phone shows an error, the sign-up is lost.
A deeper queue lets them wait their turn; 2048 is gunicorn's default (the kernel caps it at
``net.core.somaxconn``). The autoreloader starts this module again, so the queue holds after a
reload too.
"""

from __future__ import annotations

import os
import sys

LISTEN_QUEUE = 2048


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.core.management import execute_from_command_line
    from django.core.servers import basehttp

    basehttp.WSGIServer.request_queue_size = LISTEN_QUEUE
    execute_from_command_line([sys.argv[0], "runserver", *sys.argv[1:]])


if __name__ == "__main__":
    main()
