"""The words stay true to the tree: every path of the repository that the README and
docs/architecture.md name (in code font) exists, so a module that moves takes its docs along."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from events.formats import all_formats

ROOT = Path(__file__).resolve().parents[1]
DOCS = ["README.md", "docs/architecture.md"]
# The architecture's worked example of a new format is an app that is not installed.
EXAMPLE_APP = "crokinole"
FOLDERS = ("events", "config", "tests", "templates", "docs", "bench", "scripts", "deploy", "static")
CODE = re.compile(r"`([^`\s]+)`")


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


@pytest.mark.parametrize("doc", DOCS)
def test_every_path_the_docs_name_exists(doc):
    named = named_paths((ROOT / doc).read_text(encoding="utf-8"))
    assert named  # the check reads something
    # a template is named as Django names it ("events/screen_base.html"), under templates/
    missing = sorted(
        path
        for path in named
        if not (ROOT / path).exists() and not (ROOT / "templates" / path).exists()
    )
    assert not missing, f"{doc} names paths that do not exist: {missing}"
