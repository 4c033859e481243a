"""``manage.py vapid_keys``: a new VAPID key pair for browser push."""

from __future__ import annotations

import base64
from typing import Any

from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.core.management.base import BaseCommand


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def new_keys() -> tuple[str, str]:
    """(private, public): the P-256 private number (32 bytes) and the uncompressed public
    point (65 bytes), both base64url without padding, as pywebpush and browsers take them."""
    key = ec.generate_private_key(ec.SECP256R1())
    private = key.private_numbers().private_value.to_bytes(32, "big")
    public = key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    return b64url(private), b64url(public)


class Command(BaseCommand):
    help = (
        "Print a new VAPID key pair for browser push notifications, as environment lines: "
        "VAPID_PRIVATE_KEY (keep it secret) and VAPID_PUBLIC_KEY. Set both (and VAPID_SUBJECT, "
        "a mailto: or https: address of the operator) and restart; without them the site does "
        "not offer push. A new pair makes every browser subscribe again."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        private, public = new_keys()
        self.stdout.write(f"VAPID_PRIVATE_KEY={private}\nVAPID_PUBLIC_KEY={public}\n")
