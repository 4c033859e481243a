"""The words stay true to the tree: every path of the repository that the README and every
page under docs/ name (in code font) exists, so a module that moves takes its docs along; and
every picture a page shows (`![…](path)`) is there."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from events.formats import all_formats

ROOT = Path(__file__).resolve().parents[1]
DOCS = ["README.md", *sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "docs").rglob("*.md"))]
# The architecture's worked example of a new format is an app that is not installed.
EXAMPLE_APP = "crokinole"
FOLDERS = ("events", "config", "tests", "templates", "docs", "bench", "scripts", "deploy", "static")
CODE = re.compile(r"`([^`\s]+)`")
IMAGE = re.compile(r"!\[[^\]]*\]\(([^)\s]+)")


def named_paths(text: str) -> set[str]:
    roots = {*FOLDERS, *(f.key for f in all_formats())}
    found = set()
    for code in CODE.findall(text):
        path = code.rstrip(".,:;)")
        first = path.split("/", 1)[0]
        if "/" not in path or first not in roots or EXAMPLE_APP in path:
            continue
        if any(mark in path for mark in "<>*{}$?#="):
            continue
        is_file = re.search(r"\.(py|html|md|json|txt|js|css|toml|conf|sh)$", path) is not None
        if is_file or (path.endswith("/") and first in FOLDERS):
            found.add(path)
    return found


def test_the_docs_are_found_and_name_paths():
    # the check reads something: the pages that name the most paths are among those read
    assert {"README.md", "docs/architecture.md", "docs/deploy.md", "docs/guide/README.md"} <= set(
        DOCS
    )
    for doc in ("README.md", "docs/architecture.md", "docs/deploy.md"):
        assert named_paths((ROOT / doc).read_text(encoding="utf-8")), doc


@pytest.mark.parametrize("doc", DOCS)
def test_every_path_the_docs_name_exists(doc):
    named = named_paths((ROOT / doc).read_text(encoding="utf-8"))
    # a template is named as Django names it ("events/screen_base.html"), under templates/
    missing = sorted(
        path
        for path in named
        if not (ROOT / path).exists() and not (ROOT / "templates" / path).exists()
    )
    assert not missing, f"{doc} names paths that do not exist: {missing}"


def images(doc: str) -> list[str]:
    return [
        link
        for link in IMAGE.findall((ROOT / doc).read_text(encoding="utf-8"))
        if not link.startswith(("http://", "https://"))
    ]


def test_the_guide_shows_pictures():
    assert sum(len(images(doc)) for doc in DOCS if doc.startswith("docs/guide/")) >= 20


@pytest.mark.parametrize("doc", DOCS)
def test_every_picture_the_docs_show_exists(doc):
    # a picture's path is relative to the page that shows it
    folder = (ROOT / doc).parent
    missing = sorted(link for link in images(doc) if not (folder / link.split("#")[0]).is_file())
    assert not missing, f"{doc} shows pictures that are not there: {missing}"
