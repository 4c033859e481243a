"""Helpers of the hostile-input fuzz (``tests/test_hostile_input.py``): the URL patterns of the
project, the forms of a page as a browser reads them, the hostile values, and a cheap signature
of every row our apps store (to tell "nothing changed" from "something was written")."""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

from django.apps import apps
from django.db import connection, models
from django.urls import URLPattern, URLResolver, get_resolver

from events.formats import all_formats

# --- the URL patterns ----------------------------------------------------------------------

PARAM = re.compile(r"<(?:(?P<converter>[^>:]+):)?(?P<name>[^>]+)>")


@dataclass(frozen=True)
class Route:
    """One URL pattern: its full route string (the key), name and parameters."""

    route: str
    name: str  # "namespace:name", or the route itself for an unnamed pattern
    namespace: str = ""

    @property
    def params(self) -> list[tuple[str, str]]:
        """(name, converter) of each path parameter, in order."""
        return [(m["name"], m["converter"] or "str") for m in PARAM.finditer(self.route)]

    def url(self, values: dict[str, str]) -> str:
        """The address with ``values`` (already quoted as they go in a URL) put in."""
        return "/" + PARAM.sub(lambda m: values[m["name"]], self.route)


def routes(exclude_prefixes: tuple[str, ...] = ("admin/",)) -> list[Route]:
    """Every URL pattern of the project, from the resolver (all path() patterns)."""
    found: list[Route] = []

    def walk(resolver: URLResolver, prefix: str, namespaces: list[str]) -> None:
        for pattern in resolver.url_patterns:
            route = prefix + str(pattern.pattern)
            if route.startswith(exclude_prefixes):
                continue
            if isinstance(pattern, URLResolver):
                walk(
                    pattern,
                    route,
                    [*namespaces, pattern.namespace] if pattern.namespace else namespaces,
                )
            elif isinstance(pattern, URLPattern):
                name = ":".join([*namespaces, pattern.name]) if pattern.name else route
                found.append(Route(route=route, name=name, namespace=":".join(namespaces)))

    walk(get_resolver(), "", [])
    return found


# --- hostile values --------------------------------------------------------------------------

LONG = "x" * 10_000
HUGE = "99999999999999999999999"
# Values posted in form fields (each field in turn and all fields at once).
VALUES: tuple[str, ...] = (
    "",
    "   \t ",
    "\x00",
    "a\x01b\x1b[31mc\x7f\x85d",
    LONG,
    "-1",
    HUGE,
    "1.5",
    "1e309",
    "NaN",
    "abc",
    '{"a": [1, {"b": null}], "turn": 1}',
    "[" * 500,
    "<script>alert(1)</script>\"'><b>",
    "é中😀\u202e\ufeff",
)
# Values put in a path parameter (already URL-quoted), by converter: first those the converter
# accepts (they reach the view: unknown, huge, very long), then those it refuses (the
# resolver's 404, or the middleware's 400 for NUL).
PATH_VALUES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "int": (("999999", HUGE, "9" * 400), ("-1", "%00")),
    "slug": (("no-such-thing", "a" * 3000), ("%C3%BC%E4%B8%AD", "%00")),
    "str": (
        ("no-such-thing", "a" * 3000, "%C3%BC%E4%B8%AD", "%0A%1B%7F", "%3Cscript%3E"),
        ("%00", ".."),
    ),
    "path": (("no/such/thing", "a" * 3000, "%C3%BC/%0A%1B", "games/1/move/x"), ("%00",)),
}
# Bodies posted to the JSON API.
JSON_BODIES: tuple[str, ...] = (
    "",
    "not json",
    "[]",
    "null",
    '"\\u0000"',
    "[" * 3000 + "]" * 3000,
    json.dumps({"turn": HUGE, "move": "e4"}),
    json.dumps({"turn": -1, "move": "e4"}),
    json.dumps({"turn": 1.5, "move": ["e4"]}),
    json.dumps({"turn": "abc", "move": LONG}),
    json.dumps({"turn": 1, "move": "e\u0000"}),
    json.dumps({"turn": 1, "move": "\x01\x1b"}),
    json.dumps({"result": "<script>"}),
    json.dumps({"result": "1-0", "extra": {"deep": [[[]]]}}),
    json.dumps({"result": None}),
)


def sample(key: str, k: int) -> list[str]:
    """``k`` of :data:`VALUES`, the same ones for the same key on every run."""
    return random.Random(key).sample(VALUES, k)


# --- forms, read from a page as a browser would send them ----------------------------------


@dataclass
class Form:
    method: str  # "get" or "post"
    action: str  # the path (and query) it is sent to
    data: list[tuple[str, str]] = field(default_factory=list)  # what a browser would send
    htmx: bool = False

    @property
    def names(self) -> list[str]:
        seen: dict[str, None] = {}
        for name, _value in self.data:
            if name != "csrfmiddlewaretoken":
                seen.setdefault(name)
        return list(seen)


class FormReader(HTMLParser):
    """The forms of a page (``<form>``, and elements with ``hx-post``/``hx-get`` outside a
    form), with the values a browser would submit: checked boxes, the selected option (else the
    first), textareas, the name and value of the first submit button (each named submit button
    gives its own form)."""

    def __init__(self, page_url: str) -> None:
        super().__init__(convert_charrefs=True)
        self.page_url = page_url
        self.forms: list[Form] = []
        self.form: Form | None = None
        self.buttons: list[tuple[str, str, str, str]] = []  # name, value, hx-post, formaction
        self.select: str | None = None
        self.options: list[tuple[str, bool]] = []
        self.textarea: str | None = None
        self.text: list[str] = []

    def _target(self, a: dict[str, str], default: str) -> str:
        return urljoin(self.page_url, a.get("hx-post") or a.get("hx-get") or default)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            htmx = "hx-post" in a or "hx-get" in a
            method = (
                "post"
                if "hx-post" in a
                else "get"
                if "hx-get" in a
                else (a.get("method") or "get").lower()
            )
            self.form = Form(method, self._target(a, a.get("action", "")), htmx=htmx)
            self.buttons = []
            return
        if self.form is None:
            # htmx on a lone element (a button, a link): its hx-vals and own name/value.
            if "hx-post" in a or ("hx-get" in a and tag != "a"):
                loose = Form("post" if "hx-post" in a else "get", self._target(a, ""), htmx=True)
                try:
                    vals = json.loads(a.get("hx-vals") or "{}")
                except ValueError:
                    vals = {}
                if isinstance(vals, dict):
                    loose.data.extend((str(k), str(v)) for k, v in vals.items())
                if a.get("name"):
                    loose.data.append((a["name"], a.get("value", "")))
                self.forms.append(loose)
            return
        name = a.get("name")
        if tag == "input" and name:
            kind = a.get("type", "text").lower()
            if kind in ("submit", "image"):
                self.buttons.append(
                    (name, a.get("value", ""), a.get("hx-post", ""), a.get("formaction", ""))
                )
            elif kind in ("checkbox", "radio"):
                if "checked" in a:
                    self.form.data.append((name, a.get("value", "on")))
            elif kind not in ("button", "reset", "file"):
                self.form.data.append((name, a.get("value", "")))
        elif tag == "button" and a.get("type", "submit").lower() == "submit":
            self.buttons.append(
                (name or "", a.get("value", ""), a.get("hx-post", ""), a.get("formaction", ""))
            )
        elif tag == "select" and name:
            self.select, self.options = name, []
        elif tag == "option" and self.select is not None:
            self.options.append((a.get("value", ""), "selected" in a))
        elif tag == "textarea" and name:
            self.textarea, self.text = name, []

    def handle_data(self, data: str) -> None:
        if self.textarea is not None:
            self.text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if self.form is None:
            return
        if tag == "select" and self.select is not None:
            chosen = [v for v, selected in self.options if selected] or [
                v for v, _s in self.options[:1]
            ]
            self.form.data.extend((self.select, v) for v in chosen)
            self.select = None
        elif tag == "textarea" and self.textarea is not None:
            self.form.data.append((self.textarea, "".join(self.text).removeprefix("\n")))
            self.textarea = None
        elif tag == "form":
            form, self.form = self.form, None
            if not self.buttons:
                self.forms.append(form)
            seen: set[tuple[str, str, str]] = set()
            for name, value, hx_post, formaction in self.buttons:
                key = (name, hx_post, formaction)
                if key in seen:
                    continue
                seen.add(key)
                clicked = Form(form.method, form.action, list(form.data), form.htmx)
                if hx_post:
                    clicked.method, clicked.htmx = "post", True
                    clicked.action = urljoin(self.page_url, hx_post)
                elif formaction:
                    clicked.action = urljoin(self.page_url, formaction)
                if name:
                    clicked.data.append((name, value))
                self.forms.append(clicked)


def forms_of(html: str, page_url: str) -> list[Form]:
    reader = FormReader(page_url)
    reader.feed(html)
    reader.close()
    return [
        f
        for f in reader.forms
        if urlsplit(f.action).scheme in ("", "http")
        and urlsplit(f.action).netloc in ("", "testserver")
    ]


# --- a signature of everything our apps store ----------------------------------------------

OUR_APPS = ("events", *(f.key for f in all_formats()))


def _aggregates(model: type[models.Model]) -> list[str]:
    q = connection.ops.quote_name
    parts = ["COUNT(*)"]
    for f in model._meta.concrete_fields:
        col = q(f.column)
        if isinstance(f, models.BooleanField):
            parts.append(f"SUM(CASE WHEN {col} THEN 1 ELSE 0 END)")
        elif isinstance(f, models.IntegerField | models.ForeignKey):
            parts.append(f"SUM({col} % 1000003)")  # big values (history ids) would overflow
        elif isinstance(f, models.FloatField | models.DecimalField):
            parts.append(f"SUM({col})")
        elif isinstance(f, models.CharField | models.TextField):
            parts.append(f"SUM(LENGTH({col}))")
        elif isinstance(f, models.DateTimeField | models.DateField | models.TimeField):
            parts.append(f"MAX({col})")
            parts.append(f"COUNT({col})")
        else:
            parts.append(f"COUNT({col})")
    table = q(model._meta.db_table)
    return [f"(SELECT {part} FROM {table})" for part in parts]


def signature_sql() -> str:
    """One SELECT of row counts and per-column sums (numbers, text lengths, true flags, latest
    dates) of every table of our apps, their history tables and many-to-many tables included,
    and the count of users: any insert, delete or change of a value shows (bar two changes that
    cancel out exactly). One query, so it can run after every request."""
    parts: list[str] = []
    for model in apps.get_models(include_auto_created=True):
        # The attempt counters are throttling's bookkeeping, as axes' tables are (NOT_DATA in
        # test_hostile_input.py): a refused attempt is counted by design.
        if (
            model._meta.app_label in OUR_APPS
            and not model._meta.proxy
            and model._meta.db_table != "events_attemptcounter"
        ):
            parts.extend(_aggregates(model))
    users = apps.get_model("auth", "User")
    parts.append(f"(SELECT COUNT(*) FROM {connection.ops.quote_name(users._meta.db_table)})")
    return "SELECT " + ", ".join(parts)


def signature(sql: str) -> tuple[object, ...]:
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return tuple(cursor.fetchone())
