"""``manage.py vapid_keys`` (``events.management.commands.vapid_keys``): a new P-256 key pair as
the environment lines the settings read, in the encoding browsers and pywebpush take."""

from __future__ import annotations

import base64
import io

from cryptography.hazmat.primitives.asymmetric import ec
from django.core.management import call_command

from events.management.commands.vapid_keys import b64url, new_keys


def unpadded(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def test_a_key_pair_is_a_private_number_and_its_uncompressed_public_point():
    private, public = new_keys()
    assert "=" not in private + public
    number, point = unpadded(private), unpadded(public)
    assert (len(number), len(point), point[0]) == (32, 65, 4)
    key = ec.derive_private_key(int.from_bytes(number, "big"), ec.SECP256R1())
    numbers = key.public_key().public_numbers()
    assert point[1:] == numbers.x.to_bytes(32, "big") + numbers.y.to_bytes(32, "big")
    assert new_keys() != (private, public)


def test_base64url_has_no_padding_and_no_plus_or_slash():
    assert b64url(b"\xfb\xff") == "-_8"


def test_the_command_prints_both_keys_as_environment_lines():
    out = io.StringIO()
    call_command("vapid_keys", stdout=out)
    lines = out.getvalue().splitlines()
    assert [line.split("=", 1)[0] for line in lines] == ["VAPID_PRIVATE_KEY", "VAPID_PUBLIC_KEY"]
    assert len(unpadded(lines[1].split("=", 1)[1])) == 65
