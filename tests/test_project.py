"""Project-level checks: production settings pass `check --deploy`, the demo loads."""

from __future__ import annotations

import os
import runpy
import shutil
import subprocess
import sys
import sysconfig
import tomllib
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from events.formats import FormatHooks, all_formats
from events.models import Competition, Event
from events.signups.models import SignUp

ROOT = Path(__file__).resolve().parents[1]


def test_production_settings_pass_check_deploy(tmp_path):
    env = {
        **{
            k: v
            for k, v in os.environ.items()
            if k not in ("DEBUG", "SECURE_SSL_REDIRECT", "DJANGO_ALLOW_ASYNC_UNSAFE")
        },
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "SECRET_KEY": "x7" * 30 + "-a-long-random-production-secret",
        "ALLOWED_HOSTS": "events.example.org",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'deploy.sqlite3'}",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr + result.stdout
    assert "no issues" in result.stdout


def test_production_settings_refuse_to_start_without_a_secret(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "SECRET_KEY")}
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    result = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert result.returncode != 0
    assert "SECRET_KEY is required" in result.stderr


def test_the_demo_refuses_to_load_without_debug(db):
    with pytest.raises(CommandError):
        call_command("load_demo")


def test_the_demo_loads_once(db, settings, capsys):
    settings.DEBUG = True
    call_command("load_demo")
    call_command("load_demo")
    out = capsys.readouterr().out
    assert "Demo events loaded." in out and "already loaded" in out
    call_command("load_demo", verbosity=0)  # as `make run` calls it: it prints nothing
    assert capsys.readouterr().out == ""
    # One event per format with a demo (FormatHooks.demo), and one taking sign-ups online.
    with_demo = {f.key for f in all_formats() if type(f.hooks).demo is not FormatHooks.demo}
    assert Event.objects.count() == len(with_demo) + 1
    assert SignUp.objects.filter(status="waitlisted").count() == 2
    signing_up = all_formats()[0].key  # the sign-up event's competition (any format will do)
    assert set(Competition.objects.values_list("format", flat=True)) == {*with_demo, signing_up}


def test_every_static_file_a_template_names_exists():
    """Production serves static files from a manifest: a missing file is a 500 there."""
    import re

    from django.contrib.staticfiles import finders

    named = set()
    for template in (ROOT / "templates").rglob("*.html"):
        named |= set(re.findall(r"{%\s*static\s+['\"]([^'\"]+)['\"]", template.read_text()))
    assert named, "no template names a static file?"
    missing = sorted(path for path in named if not finders.find(path))
    assert not missing


# The apps of this repository (a format installed from elsewhere is not shipped with it).
APPS = ("events", *(f.key for f in all_formats() if (ROOT / f.key).is_dir()))
SITE_FOLDERS = ("templates", "static", "locale")


def _declared_packages() -> set[str]:
    """What setup.py finds and ``pip install .`` ships."""
    return set(runpy.run_path(str(ROOT / "setup.py"), run_name="setup")["packages"]())


def test_pyproject_lists_every_package_and_site_folder():
    """`pip install .` ships what is listed: a package or a template folder left out works in
    the checkout and is missing once installed."""
    expected = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for name in ("config", *APPS)
        for init in (ROOT / name).rglob("__init__.py")
    }
    for folder in SITE_FOLDERS:
        expected |= {
            ".".join(("config", *path.relative_to(ROOT).parts))
            for path in [ROOT / folder, *(ROOT / folder).rglob("*")]
            if path.is_dir() and path.name != "__pycache__"
        }
    declared = _declared_packages()
    missing, stale = sorted(expected - declared), sorted(declared - expected)
    assert not missing, f"setup.py does not find: {missing}"
    assert not stale, f"setup.py finds what is no package: {stale}"


def test_the_lock_pins_every_dependency_within_its_range():
    """`make` installs the lock and then the project without its dependencies: one added to
    pyproject.toml but not locked (`make lock`) would be missing."""
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    pins = dict(
        line.split(" ")[0].split("==")
        for line in (ROOT / "requirements.lock").read_text().splitlines()
        if "==" in line and not line.startswith((" ", "#"))
    )
    pins = {canonicalize_name(name): version for name, version in pins.items()}
    with (ROOT / "pyproject.toml").open("rb") as file:
        project = tomllib.load(file)["project"]
    wanted = [*project["dependencies"], *project["optional-dependencies"]["dev"]]
    for requirement in map(Requirement, wanted):
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{name} is not in requirements.lock: run `make lock`"
        assert requirement.specifier.contains(pins[name]), f"{name}=={pins[name]}: `make lock`"


INSTALLED_COPY_CHECK = """
from pathlib import Path

import django

django.setup()

import config
from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.test import Client

call_command("check", fail_level="WARNING")
print("config from", Path(config.__file__).parent)
print("site files from", settings.SITE_DIR)
print("site.css at", finders.find("css/site.css"))
page = Client(HTTP_HOST="localhost").get("/accounts/login/")
assert page.status_code == 200, page.status_code
assert b"css/site.css" in page.content and b'name="password"' in page.content, page.content
"""


def test_an_installed_copy_runs_outside_the_checkout(tmp_path):
    """Build and install the project into a folder of its own, then run Django from there with
    only the dependencies on the path: the installed code, templates and static files are used,
    not the checkout's."""
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy(ROOT / name, source / name)
    for name in ("config", *APPS, *SITE_FOLDERS):
        shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
    target = tmp_path / "installed"
    build = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation"]
        + ["--no-compile", "--target", str(target), str(source)],
        capture_output=True,
        text=True,
    )
    assert build.returncode == 0, build.stderr + build.stdout
    shutil.rmtree(source)

    # The base interpreter with the venv's site-packages on PYTHONPATH: the dependencies, without
    # the .pth files that point the editable install back at the checkout.
    dependencies = sysconfig.get_paths()["purelib"]
    env = {
        "PATH": os.environ.get("PATH", ""),
        "PYTHONPATH": os.pathsep.join([str(target), dependencies]),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "1",
        "VAR_DIR": str(tmp_path / "var"),
    }
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    result = subprocess.run(
        [getattr(sys, "_base_executable", sys.executable), "-c", INSTALLED_COPY_CHECK],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr + result.stdout
    assert f"config from {target / 'config'}" in result.stdout
    assert f"site files from {target / 'config'}" in result.stdout
    assert f"site.css at {target / 'config' / 'static' / 'css' / 'site.css'}" in result.stdout
    assert (tmp_path / "var" / "static").is_dir()
    for folder in SITE_FOLDERS:
        shipped = _files_under(target / "config" / folder)
        assert shipped == _files_under(ROOT / folder), f"{folder}/ is not shipped whole"


def _files_under(folder: Path) -> set[Path]:
    return {
        path.relative_to(folder)
        for path in folder.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    }


def _pure_modules() -> list[str]:
    """Every rules module of the formats (and the Blokus piece set they build on)."""
    paths = [*ROOT.glob("*/rules.py"), *ROOT.glob("*/*_rules.py"), *ROOT.glob("*/rules/*.py")]
    paths += [ROOT / "blokus" / "rules" / "pieces.py"]
    modules = {
        ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        for path in paths
        if path.exists()
    }
    return sorted(modules)


def test_every_rules_module_imports_without_django():
    """The functional core runs on plain Python: no Django settings, no Django import."""
    modules = _pure_modules()
    assert {"blokus.rules", "shuffleboard.rules", "roundrobin.rules"} <= set(modules)
    script = (
        "import importlib, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "leaked = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.'))\n"
        "assert not leaked, leaked\n"
    )
    env = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [getattr(sys, "_base_executable", sys.executable), "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr + result.stdout


def test_template_comments_close_on_their_own_line():
    # Django's {# #} comment is one line only: one that runs on is shown to the user as text.
    root = Path(__file__).resolve().parent.parent / "templates"
    runaway = [
        f"{path.relative_to(root)}:{number}"
        for path in root.rglob("*.html")
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if line.count("{#") > line.count("#}")
    ]
    assert not runaway, f"multi-line {{# #}} comments (use {{% comment %}}): {runaway}"


def _database_settings(monkeypatch, tmp_path, **env: str) -> dict:
    monkeypatch.setenv("VAR_DIR", str(tmp_path))
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(ROOT / "config" / "settings.py"))["DATABASES"]["default"]


def test_db_pool_max_pools_postgresql_connections(monkeypatch, tmp_path):
    """`make run`'s server (DB_POOL_MAX=10, scripts/run.py) borrows PostgreSQL connections
    from a bounded pool; without DB_POOL_MAX, and on SQLite, connections stay as they were."""
    postgres = "postgres://events@db.example:5432/events"
    pooled = _database_settings(
        monkeypatch, tmp_path, DATABASE_URL=postgres, DB_POOL_MAX="7", CONN_MAX_AGE="60"
    )
    assert pooled["CONN_MAX_AGE"] == 0  # Django refuses a pool with persistent connections
    assert pooled["OPTIONS"]["pool"] == {"min_size": 1, "max_size": 7, "timeout": 30}
    plain = _database_settings(monkeypatch, tmp_path, DATABASE_URL=postgres, DB_POOL_MAX="0")
    assert plain["CONN_MAX_AGE"] == 60 and "pool" not in plain.get("OPTIONS", {})
    sqlite = _database_settings(
        monkeypatch, tmp_path, DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}", DB_POOL_MAX="7"
    )
    assert "pool" not in sqlite["OPTIONS"] and sqlite["CONN_MAX_AGE"] == 60
