"""Sites allowed to frame the standings widget: parsed and checked, no Django.

A site is an origin as a browser names it in ``frame-ancestors``: ``https://club.example``,
``http://127.0.0.1:8080``, or every subdomain of one name, ``https://*.club.example``. The list
ends up inside a response header, so anything that could break out of one source expression
(a space, a semicolon, a quote, a comma, a control character) or widen it (a bare ``*``, a
scheme alone, a keyword such as ``'self'``, a path, user information) is refused, never cleaned.
"""

from __future__ import annotations

import re

MAX_SITES = 20
MAX_LENGTH = 200  # one origin, as typed
SCHEMES = ("https", "http")
# One DNS label of a name already in ASCII (an internationalised name comes in as punycode).
_LABEL = re.compile(r"^(?!-)[a-z0-9-]{1,63}(?<!-)$")
_IPV4 = re.compile(r"^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$")
_IPV6 = re.compile(r"^\[[0-9a-f:.]{2,45}\]$")


class OriginError(ValueError):
    """A site that cannot be listed; ``code`` says why (the form words it)."""

    def __init__(self, code: str, typed: str) -> None:
        super().__init__(f"{code}: {typed!r}")
        self.code = code
        self.typed = typed


def parse_origin(typed: str) -> str:
    """The origin as it goes into the header (lower case, no default port, no trailing slash);
    :class:`OriginError` for anything else."""
    text = typed.strip()
    if not text:
        raise OriginError("empty", typed)
    if len(text) > MAX_LENGTH or any(c.isspace() or ord(c) < 32 or ord(c) == 127 for c in text):
        raise OriginError("characters", typed)
    if any(c in text for c in ";,'\"\\<>`{}|^"):
        raise OriginError("characters", typed)
    scheme, separator, rest = text.partition("://")
    scheme = scheme.lower()
    if not separator or scheme not in SCHEMES:
        raise OriginError("scheme", typed)
    if rest.endswith("/"):
        rest = rest[:-1]  # "https://club.example/" is how a browser's bar shows an origin
    if any(c in rest for c in "/?#"):
        raise OriginError("path", typed)
    if "@" in rest:
        raise OriginError("user", typed)
    host, port = _split_port(rest, typed)
    host = _host(host, typed)
    default = {"https": 443, "http": 80}[scheme]
    shown_port = f":{port}" if port is not None and port != default else ""
    return f"{scheme}://{host}{shown_port}"


def _split_port(rest: str, typed: str) -> tuple[str, int | None]:
    if rest.startswith("["):  # an IPv6 address carries colons of its own
        end = rest.find("]")
        if end < 0:
            raise OriginError("host", typed)
        host, after = rest[: end + 1], rest[end + 1 :]
        if after and not after.startswith(":"):
            raise OriginError("host", typed)
        digits = after[1:] if after else None
    else:
        host, colon, digits_text = rest.partition(":")
        digits = digits_text if colon else None
    if digits is None:
        return host, None
    if not digits.isascii() or not digits.isdigit() or not 0 < int(digits) < 65536:
        raise OriginError("port", typed)
    return host, int(digits)


def _host(host: str, typed: str) -> str:
    host = host.lower()
    if _IPV6.match(host):
        return host
    wildcard = host.startswith("*.")
    name = host[2:] if wildcard else host
    if "*" in name:
        raise OriginError("wildcard", typed)
    if not name.isascii():
        try:
            name = name.encode("idna").decode("ascii")
        except UnicodeError as exc:
            raise OriginError("host", typed) from exc
    if _IPV4.match(name):
        if wildcard:
            raise OriginError("wildcard", typed)
        return name
    labels = name.split(".")
    if not all(_LABEL.match(label) for label in labels):
        raise OriginError("host", typed)
    # "*.se" would let every site of a country frame the page: a wildcard needs a whole name.
    if wildcard and len(labels) < 2:
        raise OriginError("wildcard", typed)
    if labels[-1].isdigit():
        raise OriginError("host", typed)  # "10.0.0.300" is not a name either
    return f"*.{name}" if wildcard else name


def parse_sites(text: str) -> tuple[list[str], list[OriginError]]:
    """One site a line (commas and spaces between sites are refused with the site): the
    distinct origins in the order typed, and the errors. More than :data:`MAX_SITES` is an
    error of its own (code ``many``)."""
    sites: list[str] = []
    errors: list[OriginError] = []
    # Only the line breaks a form sends: a U+2028 inside a line is refused with its line.
    for line in text.replace("\r\n", "\n").split("\n"):
        if not line.strip():
            continue
        try:
            origin = parse_origin(line)
        except OriginError as exc:
            errors.append(exc)
            continue
        if origin not in sites:
            sites.append(origin)
    if len(sites) > MAX_SITES:
        errors.append(OriginError("many", str(len(sites))))
    return sites, errors


def frame_ancestors(sites: list[str]) -> str:
    """The CSP directive for a page these sites may frame (this site itself always may)."""
    return " ".join(["frame-ancestors", "'self'", *sites])
