"""The packages of `pip install .`, found rather than listed (the rest is in pyproject.toml): a
new app or subpackage is shipped without anyone remembering to name it."""

from pathlib import Path

from setuptools import find_packages, setup

ROOT = Path(__file__).resolve().parent
NOT_SHIPPED = ["tests", "tests.*", "bench", "bench.*", "scripts", "scripts.*", "docs", "deploy"]
# The site's folders, shipped inside `config` (pyproject.toml maps them there).
SITE_FOLDERS = {
    "templates": "config.templates",
    "static": "config.static",
    "locale": "config.locale",
}


def packages() -> list[str]:
    found = find_packages(where=str(ROOT), exclude=NOT_SHIPPED)
    for folder, package in SITE_FOLDERS.items():
        for path in [ROOT / folder, *sorted((ROOT / folder).rglob("*"))]:
            if path.is_dir() and path.name != "__pycache__":
                found.append(".".join((package, *path.relative_to(ROOT / folder).parts)))
    return sorted(found)


if __name__ == "__main__":
    setup(packages=packages())
