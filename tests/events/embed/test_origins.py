import pytest

from events.embed.origins import (
    MAX_SITES,
    OriginError,
    frame_ancestors,
    parse_origin,
    parse_sites,
)


@pytest.mark.parametrize(
    ("typed", "origin"),
    [
        ("https://club.se", "https://club.se"),
        ("  HTTPS://Www.Club.SE/ ", "https://www.club.se"),
        ("https://club.se:443", "https://club.se"),
        ("http://club.se:80", "http://club.se"),
        ("https://club.se:8443", "https://club.se:8443"),
        ("http://127.0.0.1:8123", "http://127.0.0.1:8123"),
        ("https://[::1]:8443", "https://[::1]:8443"),
        ("https://*.club.se", "https://*.club.se"),
        ("https://klubb-ö.se", "https://xn--klubb--1xa.se"),
    ],
)
def test_an_origin_is_written_as_a_browser_names_it(typed, origin):
    assert parse_origin(typed) == origin


@pytest.mark.parametrize(
    ("typed", "code"),
    [
        ("", "empty"),
        ("club.se", "scheme"),
        ("ftp://club.se", "scheme"),
        ("javascript://club.se", "scheme"),
        ("data:text/html", "scheme"),
        ("*", "scheme"),
        ("'self'", "characters"),
        ("'none'", "characters"),
        ("https://club.se; script-src *", "characters"),
        ("https://club.se https://evil.example", "characters"),
        ("https://club.se,https://evil.example", "characters"),
        ('https://club.se"', "characters"),
        ("https://club.se\r\nSet-Cookie: x=1", "characters"),
        ("https://club.se\x00", "characters"),
        ("https://club.se/standings", "path"),
        ("https://club.se?x=1", "path"),
        ("https://club.se#top", "path"),
        ("https://user:pw@club.se", "user"),
        ("https://*", "wildcard"),
        ("https://*.se", "wildcard"),
        ("https://a.*.club.se", "wildcard"),
        ("https://*club.se", "wildcard"),
        ("https://*.10.0.0.1", "wildcard"),
        ("https://club.se:0", "port"),
        ("https://club.se:65536", "port"),
        ("https://club.se:８０", "port"),
        ("https://club.se:", "port"),
        ("https://-club.se", "host"),
        ("https://club..se", "host"),
        ("https://10.0.0.300", "host"),
        ("https://[::1", "host"),
        ("https://" + "a" * 64 + ".se", "host"),
        ("https://" + "a." * 100 + "se", "characters"),
    ],
)
def test_anything_else_is_refused_never_cleaned(typed, code):
    with pytest.raises(OriginError) as refused:
        parse_origin(typed)
    assert refused.value.code == code
    assert refused.value.typed == typed


def test_a_list_keeps_the_order_typed_without_repeats_and_every_error():
    sites, errors = parse_sites("https://b.se\n\nhttps://a.se\nHTTPS://B.SE/\nnonsense\n")
    assert sites == ["https://b.se", "https://a.se"]
    assert [e.code for e in errors] == ["scheme"]


def test_a_list_has_a_limit():
    text = "\n".join(f"https://s{n}.club.se" for n in range(MAX_SITES + 1))
    sites, errors = parse_sites(text)
    assert len(sites) == MAX_SITES + 1
    assert [e.code for e in errors] == ["many"]


def test_the_directive_always_lets_this_site_frame_it():
    assert frame_ancestors([]) == "frame-ancestors 'self'"
    assert frame_ancestors(["https://club.se"]) == "frame-ancestors 'self' https://club.se"
