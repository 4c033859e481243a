"""What the translation tests share: the catalogues' helpers (``scripts/catalogues.py``), the
words a translation may keep from the English, and the shapes of placeholders and words."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def load_catalogues() -> ModuleType:
    """``scripts/catalogues.py``, the catalogues' shared helpers, as a module."""
    spec = importlib.util.spec_from_file_location("catalogues", ROOT / "scripts" / "catalogues.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("catalogues", module)
    spec.loader.exec_module(module)
    return module


cat = load_catalogues()

# Words a translation may keep from the English (lower case; a message is exempt when all its
# words are here). Keep it short: names, formats and words that are spelled the same.
# "h" and "min" are the international unit symbols (SI), written the same in all four.
SAME_AS_ENGLISH_EVERYWHERE = {"blokus", "sjoelen", "csv", "xlsx", "elo", "ok", "finalist"}
SAME_AS_ENGLISH_EVERYWHERE |= {"h", "min", "iban"}
# The rating's symbols: skill μ and its uncertainty σ, as OpenSkill writes them in every language.
SAME_AS_ENGLISH_EVERYWHERE |= {"μ", "σ"}
SAME_AS_ENGLISH = {
    "sv": {"bonus", "export", "final", "format", "information", "position", "rating", "start"}
    | {"session"}
    | {"status", "token"},
    "et": {"number"},
    "nl": {"bonus", "club", "deadline", "e-mail", "format", "podium", "rating", "ratings"}
    | {"reserve", "reserves", "score", "start", "status", "token", "camera", "conflict"}
    | {"e-mails", "webhook", "webhooks", "login", "account"},
}

PYTHON_FORMAT = re.compile(
    r"%(?:\((?P<name>[^)]*)\))?[#0 +\-]*(?:\*|\d+)?(?:\.(?:\*|\d+))?(?P<type>[diouxXeEfFgGcrsa%])"
)
WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")
