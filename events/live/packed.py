"""Cached live bodies kept compressed, served gzip-encoded with each visitor's own CSRF token.

A live page's body is cached once per version (``events.live.pages``) with a placeholder where the
CSRF token goes, and every visitor must get their own token. Compressing the page per answer
would cost more than the answer itself (the 700-player round-robin tables are about 550 kB of
HTML), so the body is compressed once, when it is cached, as *segments*: the text between two
placeholders, each compressed on its own as raw deflate and ended with a sync flush (no
reference to earlier text, byte-aligned). An answer is then spliced in microseconds: a gzip
header, the segments with the token between them as *stored* (uncompressed) deflate blocks,
an empty final block, and the trailer (CRC-32 and length of the whole text). The CRC of the
whole is combined from the segments' CRCs with zlib alone, see :func:`gzip_body`.

The result is an ordinary single-member gzip stream (RFC 1951/1952), which every browser
reads; a client that does not accept gzip gets the text, inflated from the same segments.
"""

from __future__ import annotations

import re
import struct
import zlib
from collections.abc import Sequence

# One segment: raw deflate (sync-flushed), the CRC-32 of its text, the CRC-32 of as many zero
# bytes (see gzip_body), its length.
Segment = tuple[bytes, int, int, int]
Packed = tuple[Segment, ...]

LEVEL = 6  # zlib's default: the 570 kB round-robin tables pack to 25 kB in 2.5 ms, once per version
_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"  # gzip, deflate, no name, no time
_FINAL = b"\x03\x00"  # an empty fixed-Huffman block with the final bit set
_REFUSED = re.compile(r"q\s*=\s*0(\.0{0,3})?")


def accepts_gzip(accept_encoding: str) -> bool:
    """Whether an ``Accept-Encoding`` header accepts gzip (named, and not with ``q=0``)."""
    for item in accept_encoding.split(","):
        coding, *parameters = (part.strip().lower() for part in item.split(";"))
        if coding == "gzip":
            return not any(_REFUSED.fullmatch(parameter) for parameter in parameters)
    return False


def _zero_crc(length: int, crc: int = 0) -> int:
    """The CRC-32 of ``crc``'s text followed by ``length`` zero bytes (zlib, no copy kept)."""
    return zlib.crc32(bytes(length), crc)


def pack(text: str, placeholder: str) -> Packed:
    """``text`` cut at every ``placeholder``, each piece compressed on its own."""
    segments = []
    for piece in text.split(placeholder):
        data = piece.encode()
        squeeze = zlib.compressobj(LEVEL, zlib.DEFLATED, -zlib.MAX_WBITS)
        deflated = squeeze.compress(data) + squeeze.flush(zlib.Z_SYNC_FLUSH)
        segments.append((deflated, zlib.crc32(data), _zero_crc(len(data)), len(data)))
    return tuple(segments)


def is_packed(value: object) -> bool:
    return (
        isinstance(value, tuple)
        and len(value) > 0
        and all(
            isinstance(segment, tuple)
            and len(segment) == 4
            and isinstance(segment[0], bytes)
            and all(isinstance(number, int) for number in segment[1:])
            for segment in value
        )
    )


def gzip_body(segments: Sequence[Segment], token: str) -> bytes:
    """The gzip stream of the segments joined by ``token``."""
    raw = token.encode()
    stored = b"\x00" + struct.pack("<HH", len(raw), len(raw) ^ 0xFFFF) + raw
    out = [_HEADER]
    crc = size = 0
    for index, (deflated, text_crc, zeros_crc, length) in enumerate(segments):
        if index:
            out.append(stored)
            crc = zlib.crc32(raw, crc)
            size += len(raw)
        out.append(deflated)
        # crc32(A + B) = crc32(zeros(len B), crc32(A)) ^ crc32(zeros(len B)) ^ crc32(B): CRC-32
        # is affine in its start value. Only the first term depends on what came before (zlib's
        # CRC of zeros runs at memory speed: about 0.1 ms for 550 kB); a page's first segment
        # (a whole fragment) needs none.
        crc = _zero_crc(length, crc) ^ zeros_crc ^ text_crc if index else text_crc
        size += length
    out.append(_FINAL)
    out.append(struct.pack("<II", crc, size & 0xFFFFFFFF))
    return b"".join(out)


def text_body(segments: Sequence[Segment], token: str) -> str:
    """The text of the segments joined by ``token`` (for a client without gzip)."""
    pieces = []
    for deflated, *_numbers in segments:
        pieces.append(zlib.decompressobj(-zlib.MAX_WBITS).decompress(deflated).decode())
    return token.join(pieces)
