"""The site's headers (events/common/middleware.py): the Content-Security-Policy and what it asks
of the templates."""

from __future__ import annotations

from pathlib import Path

TEMPLATES = Path(__file__).resolve().parents[3] / "templates"


def test_no_template_has_a_style_element():
    offenders = [
        str(path.relative_to(TEMPLATES))
        for path in TEMPLATES.rglob("*.html")
        if "<style" in path.read_text()
    ]
    assert offenders == []
