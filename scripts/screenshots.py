"""Screenshots of the main pages at phone (390 px) and desk (1280 px) width.

Usage: python scripts/screenshots.py [BASE_URL] [OUT_DIR]   (a server with the demo must run)
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

BASE = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000"
OUT = Path(sys.argv[2] if len(sys.argv) > 2 else "screenshots")
PUBLIC = ["/", "/e/lincon-2026/", "/e/lincon-2026/blokus-tournament/", "/accounts/login/"]
DESK = [
    "/desk/",
    "/desk/new/",
    "/desk/lincon-2026/blokus-tournament/",
    "/desk/lincon-2026/blokus-tournament/import/",
    "/desk/lincon-2026/?all",
]


def main() -> None:
    OUT.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        for width, label in [(390, "phone"), (1280, "desk")]:
            page = browser.new_page(viewport={"width": width, "height": 844})
            for path in PUBLIC:
                page.goto(BASE + path)
                page.screenshot(path=OUT / f"{label}{path.replace('/', '_')}.png", full_page=True)
            page.goto(BASE + "/accounts/login/")
            page.fill("#id_login", "organiser")
            page.fill("#id_password", "desk-demo-2026")
            page.click("button[type=submit].primary")
            for path in DESK:
                page.goto(BASE + path)
                name = path.replace("/", "_").replace("?", "_")
                page.screenshot(path=OUT / f"{label}{name}.png", full_page=True)
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
