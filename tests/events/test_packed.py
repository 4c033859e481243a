"""The spliced gzip stream of a cached body: any text, any token, read back by Python's gzip."""

from __future__ import annotations

import gzip
import zlib

from hypothesis import given, strategies as st

from events.live.packed import accepts_gzip, gzip_body, is_packed, pack, text_body

PLACEHOLDER = "csrf0placeholder0live0body0"
pieces = st.lists(st.text(max_size=300), min_size=1, max_size=5)
tokens = st.text(
    alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", max_size=64
)


@given(pieces, tokens)
def test_the_gzip_stream_is_the_text_with_the_token(parts, token):
    text = PLACEHOLDER.join(parts)
    segments = pack(text, PLACEHOLDER)
    assert is_packed(segments)
    assert len(segments) == len(parts)
    expected = token.join(parts)
    body = gzip_body(segments, token)
    assert gzip.decompress(body).decode() == expected  # checks the CRC and the length too
    assert zlib.decompress(body, 16 + zlib.MAX_WBITS).decode() == expected
    assert text_body(segments, token) == expected


def test_a_large_page_packs_small():
    text = "<table>" + "<tr><td>Anna Lindqvist</td><td>1 ½</td></tr>" * 20000 + "</table>"
    segments = pack(f"<body x='{PLACEHOLDER}'>{text}", PLACEHOLDER)
    body = gzip_body(segments, "t" * 64)
    assert gzip.decompress(body).decode() == f"<body x='{'t' * 64}'>{text}"
    assert len(body) < len(text.encode()) / 20


def test_what_is_not_a_packed_body():
    for value in (None, "html", (), ("a", 1, 2), ((b"", 1, 2),), ((b"", "1", 2, 3),)):
        assert not is_packed(value)


def test_accept_encoding():
    assert accepts_gzip("gzip, deflate, br, zstd")
    assert accepts_gzip("deflate, GZIP;q=0.5")
    assert not accepts_gzip("gzip;q=0")
    assert not accepts_gzip("br, gzip ; q=0.000")
    assert not accepts_gzip("identity")
    assert not accepts_gzip("")
    assert not accepts_gzip("x-gzip")
