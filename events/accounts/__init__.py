"""Organiser accounts: sign-up, login and two-factor login on django-allauth; the account page,
deleting an account, the language mails are written in, and the rule that pages with people's
addresses, fees and sign-up lists open only after two-factor login."""
