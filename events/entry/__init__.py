"""Entry before the day (issue 29): the public sign-up page, the person's page reached from the
link in every e-mail (``events.services.signup_mail.person_token``). The writes are
``events.services.signups``; the reads ``events.selectors.signups``; the desk's list of
sign-ups is ``events.desk.views.signups``."""
