"""A second factor as a phone's authenticator app has it: RFC 6238 computed here, from the
secret the site showed, independent of the site's own code (allauth's)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import struct
import time

from allauth.mfa.adapter import get_adapter
from allauth.mfa.models import Authenticator


def code(secret: str, at: float | None = None, step: int = 30, digits: int = 6) -> str:
    """The code an authenticator app shows for a base32 ``secret`` at ``at`` (now)."""
    key = base64.b32decode(secret.upper() + "=" * (-len(secret) % 8))
    counter = int((time.time() if at is None else at) // step)
    digest = hmac.new(key, struct.pack(">Q", counter), hashlib.sha1).digest()
    offset = digest[-1] & 0x0F
    value = struct.unpack(">I", digest[offset : offset + 4])[0] & 0x7FFFFFFF
    return str(value % 10**digits).zfill(digits)


def secret_of(user) -> str:
    """The TOTP secret the site keeps for ``user`` (decrypted as the site reads it)."""
    authenticator = Authenticator.objects.get(user=user, type=Authenticator.Type.TOTP)
    return get_adapter().decrypt(authenticator.data["secret"])


def turn_on(user, secret: str = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP") -> str:
    """Give ``user`` a TOTP authenticator with ``secret`` (as finishing the setup page does) and
    return the secret."""
    Authenticator.objects.create(
        user=user,
        type=Authenticator.Type.TOTP,
        data={"secret": get_adapter().encrypt(secret)},
    )
    return secret
