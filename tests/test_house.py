"""The house rules of LAYOUT.md that a machine can check: no private name used across modules,
no import loop between the project's modules, no raw version bump outside events/versions.py,
a small top level in events/, no module of the apps over 500 lines, tests that mirror the
modules, and no tracker issue numbers in the code and its words."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from importlib import import_module
from pathlib import Path

import pytest
from django.conf import settings

from events.formats import all_formats

ROOT = Path(__file__).resolve().parents[1]


def package_dir(name: str) -> Path:
    return Path(import_module(name).__file__ or "").parent


# The project's own code: events, config and every registered format's app (its top-level
# package, wherever it is installed from), so a new format is checked without being named.
APP_DIRS = {
    "events": ROOT / "events",
    "config": ROOT / "config",
    **{(top := f.key.split(".")[0]): package_dir(top) for f in all_formats()},
}
APPS = list(APP_DIRS)


def shown(path: Path) -> str:
    """A module's path from the folder holding its app (the repository for ours)."""
    return str(path.relative_to(next(d.parent for d in APP_DIRS.values() if d in path.parents)))


def modules() -> Iterator[tuple[str, Path]]:
    for app, folder in APP_DIRS.items():
        for path in sorted(folder.rglob("*.py")):
            if "migrations" in path.parts:
                continue
            parts = [app, *path.relative_to(folder).with_suffix("").parts]
            if parts[-1] == "__init__":
                parts.pop()
            yield ".".join(parts), path


MODULES = dict(modules())


def private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def resolve(module: str, level: int, here: str, is_package: bool) -> str:
    if not level:
        return module
    base = here.split(".")
    base = base[: len(base) - level + (1 if is_package else 0)]
    return ".".join([*base, module] if module else base)


def foreign_uses(name: str, path: Path) -> Iterator[str]:
    tree = ast.parse(path.read_text())
    imported_modules: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            source = resolve(node.module or "", node.level, name, path.name == "__init__.py")
            if source == name or source.split(".")[0] not in APPS:
                continue
            for alias in node.names:
                target = f"{source}.{alias.name}"
                if target in MODULES:
                    imported_modules[alias.asname or alias.name] = target
                elif private(alias.name):
                    yield f"from {source} import {alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in APPS:
                    imported_modules[alias.asname or alias.name] = alias.name
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and private(node.attr):
            chain = []
            value: ast.expr = node.value
            while isinstance(value, ast.Attribute):
                chain.append(value.attr)
                value = value.value
            if isinstance(value, ast.Name) and value.id in imported_modules:
                yield f"{'.'.join([imported_modules[value.id], *reversed(chain)])}.{node.attr}"


def test_no_private_name_is_used_across_modules():
    found = {f"{name}: {use}" for name, path in MODULES.items() for use in foreign_uses(name, path)}
    assert not found, "\n".join(sorted(found))


def imports_of(name: str, path: Path) -> set[str]:
    """The project's modules ``name`` imports, at module level or inside a function (a deferred
    import hides a loop, it does not remove it); ``TYPE_CHECKING`` blocks aside."""
    tree = ast.parse(path.read_text())
    found: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            continue
        for item in ast.walk(node):
            if isinstance(item, ast.ImportFrom):
                source = resolve(item.module or "", item.level, name, path.name == "__init__.py")
                for alias in item.names:
                    full = f"{source}.{alias.name}"
                    found.add(full if full in MODULES else source)
            elif isinstance(item, ast.Import):
                found.update(alias.name for alias in item.names)
    return {m for m in found if m in MODULES and m != name}


def test_no_import_loop():
    graph = {name: imports_of(name, path) for name, path in MODULES.items()}
    loops = []
    state: dict[str, int] = {}

    def visit(node: str, stack: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            # a package's __init__ importing its own submodules is how packages re-export
            if nxt.startswith(node + "."):
                continue
            if state.get(nxt) == 1:
                loops.append(" -> ".join([*stack[stack.index(nxt) :], nxt]))
            elif nxt not in state:
                visit(nxt, [*stack, nxt])
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    assert not loops, "\n".join(loops)


RAW_BUMP = re.compile(r"""F\(\s*["']version["']\s*\)\s*\+""")


def test_versions_are_bumped_by_one_function():
    raw = [
        shown(path)
        for path in MODULES.values()
        if RAW_BUMP.search(path.read_text()) and path != ROOT / "events" / "versions.py"
    ]
    assert not raw, raw


def test_events_has_a_small_top_level():
    top = sorted(p.name for p in (ROOT / "events").glob("*.py"))
    assert len(top) <= 12, top


@pytest.mark.parametrize("app", APPS)
def test_no_module_over_500_lines(app):
    long = {
        shown(path): n
        for path in APP_DIRS[app].rglob("*.py")
        if "migrations" not in path.parts and (n := len(path.read_text().splitlines())) > 500
    }
    assert not long, long


def test_every_app_of_the_project_is_checked():
    ours = {
        app.split(".")[0] for app in settings.INSTALLED_APPS if (ROOT / app.split(".")[0]).is_dir()
    }
    assert ours <= {*APPS}


def test_common_imports_nothing_else_of_the_project():
    """events/common/ is plumbing: every other room may build on it, so it builds on none."""
    found = {
        f"{name} imports {imported}"
        for name, path in MODULES.items()
        if name.startswith("events.common")
        for imported in imports_of(name, path)
        if not imported.startswith("events.common")
    }
    assert not found, sorted(found)


@pytest.mark.parametrize("app", [f.key for f in all_formats()])
def test_format_tests_mirror_the_app(app):
    """A format's tests mirror its app (docs/architecture.md): the tests of rules/, services/,
    selectors/ and views/ live in tests/<app>/rules/, services/, selectors/ and views/, each a
    package holding at least one test_*.py. A test left at the top of tests/<app>/ is named
    after a top-level module or package of the app other than those four, as
    test_<module>.py or test_<module>_<topic>.py (admin.py: test_admin.py; models/:
    test_models_admin.py), or after one of the app's
    migrations without its number (migrations/0004_seat_checks.py: test_seat_checks.py)."""
    mirrored = ("rules", "services", "selectors", "views")
    source, tests = package_dir(app), ROOT / "tests" / app
    if not tests.is_dir():
        # A format whose tests live with it (or are still to be written) has nothing to
        # mirror here; the shared tests already run it through every format's checks.
        pytest.skip(f"no tests/{app}/")
    empty = [
        f"tests/{app}/{room}/"
        for room in mirrored
        if not (tests / room / "__init__.py").is_file() or not any((tests / room).glob("test_*.py"))
    ]
    assert not empty, f"no package with a test_*.py: {empty}"
    modules = {p.stem for p in source.glob("*.py")} | {
        p.name for p in source.iterdir() if (p / "__init__.py").is_file()
    }
    modules -= {"__init__", *mirrored}
    migrations = {p.stem.split("_", 1)[1] for p in (source / "migrations").glob("[0-9]*_*.py")}
    stray = sorted(
        path.name
        for path in tests.glob("test_*.py")
        if not (
            (name := path.stem.removeprefix("test_")) in modules | migrations
            or any(name.startswith(f"{module}_") for module in modules)
        )
    )
    assert not stray, f"tests/{app}/ holds tests named after no top-level module of {app}/: {stray}"


# "issue N", "issues N and M", "stop N" with N a number: a reference a reader who never saw the
# tracker cannot follow; the comment says why instead. Rule references (R-BLK-25, A-SJ-15) and
# other projects' addresses are not matched.
TRACKER_NUMBER = re.compile(r"\b(?:issues?|stop)\s+#?\d+\b", re.IGNORECASE)
WORDS_AND_CODE = ("*.py", "*.html", "*.js", "*.css", "*.md", "*.txt", "*.toml", "*.env", "*.conf")


def test_no_code_or_doc_cites_a_tracker_issue_number():
    folders = [*APP_DIRS.values(), *(ROOT / name for name in ("tests", "templates", "static"))]
    folders += [ROOT / name for name in ("scripts", "bench", "deploy", "docs", ".ci")]
    files = [
        path for folder in folders for pattern in WORDS_AND_CODE for path in folder.rglob(pattern)
    ]
    files += [ROOT / name for name in ("Makefile", "README.md", "pyproject.toml", ".ci/run")]
    cited = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in files
        if path.is_file()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if TRACKER_NUMBER.search(line)
    ]
    assert len(files) > 100  # the walk reads the tree
    assert not cited, "\n".join(cited)


# Modules that define functions yet have nothing of their own to test: declarations a format or a
# room fills in (their bodies are `...` or a documented empty default), and a one-line tag over a
# tested function.
NOTHING_OF_THEIR_OWN = {
    "events/calendar/contract.py": "a data class and a Protocol, no behaviour",
    "events/exchange/contract.py": "Protocols only",
    "events/formats/proposals.py": "Protocols and two plain data classes",
    "events/series/contract.py": "a Protocol whose one default answers no links",
    "events/signups/contract.py": "Protocols only",
    "events/templatetags/jsi18n.py": "calls events.common.jsi18n.catalogue_url, tested there",
}
TRIVIAL_METHODS = {"__str__", "__repr__", "ready", "get_absolute_url"}


def mirrored_test(path: Path, app: str) -> Path:
    """events/live/pages.py → tests/events/live/test_pages.py; a package's __init__.py with logic
    → tests/<parent>/test_<package>.py."""
    relative = path.relative_to(APP_DIRS[app].parent)
    if path.name == "__init__.py":
        return ROOT / "tests" / relative.parent.parent / f"test_{relative.parent.name}.py"
    return ROOT / "tests" / relative.parent / f"test_{path.stem}.py"


def has_logic(path: Path) -> bool:
    return any(
        isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.name not in TRIVIAL_METHODS
        for node in ast.walk(ast.parse(path.read_text()))
    )


def test_every_module_with_logic_has_its_test_module():
    """LAYOUT.md's tests mirror the tree, module by module: a module that defines a function
    (migrations, apps.py and urls.py aside) is tested in its mirrored test module."""
    checked, missing = 0, []
    for app, folder in APP_DIRS.items():
        for path in sorted(folder.rglob("*.py")):
            if "migrations" in path.parts or path.name in ("apps.py", "urls.py"):
                continue
            if not has_logic(path):
                continue
            checked += 1
            if shown(path) in NOTHING_OF_THEIR_OWN:
                assert not mirrored_test(path, app).exists(), f"{shown(path)} is tested: unlist it"
            elif not mirrored_test(path, app).is_file():
                missing.append(f"{shown(path)} → {mirrored_test(path, app).relative_to(ROOT)}")
    assert checked > 200  # the walk reads the apps
    assert not missing, "\n".join(missing)
