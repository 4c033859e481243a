"""The admin fuzz: every admin of our apps, as a superuser, with hostile values.

For each ModelAdmin registered on ``admin.site`` for events and every registered format
(discovered from ``admin.site._registry``, so the format apps' admins are covered too), on a
demo-like data set (the formats' demo loaders, a stand-in for a format without one):

- GET the changelist with hostile ``?q=``, filter, ordering and page values;
- GET the add form and the change form of a stored row;
- POST the change form (with its inlines' management forms and rows) unchanged, then with each
  field in turn replaced by hostile values of its type, the others kept valid (the valid data is
  the rendered form, parsed as a browser would send it); POST the add form the same way, with
  one hostile value per field.
- On both forms, each inline gets a new row (``members-N-*``, from the rendered empty row), each
  of its fields in turn hostile: for a key, also every stored key of the field's model (a row of
  another format, one the parent holds already, the same key in two new rows); and its
  management form's counts odd. The demo world has a series per format for the series' inline.

The hostile values include plausible wrong ones (text that is no key: "purple", "74;75"; a
number naming nothing: 99; a checkbox in its other state), the values an admin types by mistake.

Asserted: never a 500 (the test client re-raises a view's exception: it is caught and reported);
after every save, the stored rows (the object and its inline rows) pass ``full_clean()``, the
competition's page and its format's start page answer 200, and so do its desk pages and two
downloads; after each model, the public pages linked from them (a crawl) and the desk pages.

A failure names the app whose admin it belongs to ("[format admin: blokus]"), so that the format
helper or the lead can fix it. The counts of forms and values fuzzed are printed (``-s``).
"""

from __future__ import annotations

import re
import traceback
from collections import Counter
from typing import Any
from urllib.parse import urlencode

import pytest
from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.db import transaction
from django.urls import reverse

from events.formats import all_formats
from tests.support.admin import posted

OUR_APPS = ("events", *(f.key for f in all_formats()))
HUGE = "99999999999999999999"
NESTED_JSON = "[" * 3000 + "]" * 3000
DEEP_OBJECT = '{"a": {"b": {"c": [1, [2, [3]]]}}}'
COUNTS: Counter[str] = Counter()
FLIP = "\x00flip"  # a checkbox posted in the other state

# Known failures of a format's admin, to be fixed by its helper: model label -> reason.
# Each is an xfail(strict=True): when it is fixed the test says so and the entry goes.
KNOWN: dict[str, str] = {}


def _admins() -> list[Any]:
    return sorted(
        (
            model_admin
            for model, model_admin in admin.site._registry.items()
            if model._meta.app_label in OUR_APPS
        ),
        key=lambda ma: ma.model._meta.label,
    )


def _params() -> list[Any]:
    params = []
    for model_admin in _admins():
        label = model_admin.model._meta.label
        marks = [pytest.mark.xfail(strict=True, reason=KNOWN[label])] if label in KNOWN else []
        params.append(pytest.param(label, id=label, marks=marks))
    return params


# --- the demo world, built once ----------------------------------------------------------


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """Every format's demo competition, in one transaction rolled back at the end."""
    from events.series import services as series_services
    from tests.support.factories import UserFactory, stand_in_demo

    with django_db_blocker.unblock():
        with transaction.atomic():
            organiser = UserFactory(username="fuzz-organiser")
            # A format without a demo gets a small stand-in: its admin is fuzzed with rows too.
            competitions = [
                f.hooks.demo(organiser) or stand_in_demo(f, organiser) for f in all_formats()
            ]
            # A series per format with its demo competition: the series' member inline has rows,
            # and other formats' competitions to be posted into it.
            for competition in competitions:
                series = series_services.series_create(
                    by=organiser, name=f"{competition} series", format_key=competition.format
                )
                series_services.series_join(
                    series=series, competition_id=competition.pk, by=organiser
                )
            yield competitions
            transaction.set_rollback(True)
    print(f"\nadmin fuzz: {dict(COUNTS)}")


# --- hostile values by field type ----------------------------------------------------------


def hostile_values(field: forms.Field) -> list[str]:
    """A sample per field type (not a full product: the fuzz must stay fast in CI)."""
    if isinstance(field, forms.JSONField):
        return [NESTED_JSON, DEEP_OBJECT, "abc"]
    if isinstance(field, forms.ModelMultipleChoiceField):
        return [HUGE, "abc"]
    if isinstance(field, forms.ModelChoiceField):
        return ["", HUGE, "abc"]
    if isinstance(field, forms.BooleanField):
        return [FLIP]  # any value is a valid checkbox: the other state is what can hurt
    if isinstance(field, forms.ChoiceField | forms.TypedChoiceField):
        return ["", "no-such-choice"]
    if isinstance(field, forms.IntegerField | forms.DecimalField | forms.FloatField):
        return ["", "-1", HUGE, "abc", "99"]  # 99: a number, naming nothing (a table, a seed)
    if isinstance(field, forms.SplitDateTimeField | forms.DateTimeField | forms.DateField):
        return ["abc", "99999-12-31"]
    # "purple", "74;75": text that is no key of ids, though a key looks like text
    return ["", "\x00", "x" * 5000, "purple", "74;75"]


ODD_COUNTS = ["", "abc", "-1", HUGE, "1001"]  # an inline's TOTAL_FORMS and INITIAL_FORMS


def stored_keys(field: forms.ModelChoiceField) -> list[str]:
    """Keys that name a row, the first and last few: in a new inline row they are a row of
    another format, one the parent holds already, one of another event."""
    queryset = field.queryset
    if queryset is None:
        return []
    pks = [str(pk) for pk in queryset.order_by("pk").values_list("pk", flat=True)]
    return pks if len(pks) <= 6 else [*pks[:3], *pks[-3:]]


def row_values(field: forms.Field) -> list[str]:
    """Hostile values for a new inline row's field: its type's, and for a key the plausible
    wrong ones (no row, zero, negative, a decimal) and every stored key."""
    if isinstance(field, forms.ModelChoiceField) and not isinstance(
        field, forms.ModelMultipleChoiceField
    ):
        return ["", HUGE, "abc", "0", "-1", "1.5", "987654", *stored_keys(field)]
    return hostile_values(field)


def _new_row(templates: dict[str, list[str]], prefix: str, i: int) -> dict[str, list[str]]:
    """The inline's empty row as row ``i``, as the page's "Add another" makes it."""
    template = f"{prefix}-__prefix__-"
    return {
        k.replace("__prefix__", str(i)): v for k, v in templates.items() if k.startswith(template)
    }


def inline_cases(page, data: dict[str, list[str]], sample: bool) -> list[tuple[str, dict]]:
    """(label, posted data) for a new row in each inline of ``page``, one field hostile at a
    time, and for odd management counts; ``sample``: fewer values (the add form)."""
    templates = posted(page.content.decode(), templates=True)
    cases: list[tuple[str, dict]] = []
    for inline in page.context.get("inline_admin_formsets") or []:
        formset = inline.formset
        prefix = formset.prefix
        total_key = f"{prefix}-TOTAL_FORMS"
        if total_key not in data:
            continue
        for count_key in (total_key, f"{prefix}-INITIAL_FORMS"):
            cases.extend(
                (f"{count_key}={value!r}", {**data, count_key: [value]})
                for value in (ODD_COUNTS[1:3] if sample else ODD_COUNTS)
            )
        if not inline.has_add_permission:
            continue
        n = int(data[total_key][0])
        base = {**data, **_new_row(templates, prefix, n), total_key: [str(n + 1)]}
        for field_name, field in formset.empty_form.fields.items():
            if field_name in ("id", "DELETE", formset.fk.name) or isinstance(
                field.widget, forms.HiddenInput
            ):
                continue
            name = f"{prefix}-{n}-{field_name}"
            values = row_values(field)
            if sample:
                values = [v for v in values if not v.isdigit() or v == HUGE][:3]
            for value in values:
                cases.append(
                    (f"new row {name}={value[:30]!r}", {**base, **_replace(base, name, value)})
                )
            keys = (
                stored_keys(field)
                if not sample and isinstance(field, forms.ModelChoiceField)
                else []
            )
            if keys:
                twin = f"{prefix}-{n + 1}-{field_name}"
                both = {**base, **_new_row(templates, prefix, n + 1), total_key: [str(n + 2)]}
                both |= {name: [keys[0]], twin: [keys[0]]}
                cases.append((f"two new rows {name}={keys[0]!r}", both))
    return cases


# --- checks ---------------------------------------------------------------------------------


def where(model_admin) -> str:
    app = type(model_admin).__module__.split(".")[0]
    return "[shared events admin]" if app == "events" else f"[format admin: {app}]"


def competition_of(model_admin, obj):
    if obj is None:
        return None
    finder = getattr(model_admin, "competition_of", None)
    if finder is None:
        return None
    try:
        return finder(obj)
    except (NotImplementedError, AttributeError):
        return None


def public_pages(client, competition, crawl: bool = True) -> list[str]:
    """The failures among the public pages of ``competition`` (its page, its format's start
    page and, with ``crawl``, the pages they link to below the competition's address)."""
    failures = []
    base = competition.get_absolute_url()
    fmt = competition.game_format
    start = [base, reverse(fmt.public_home, args=[competition.event.slug, competition.slug])]
    seen: set[str] = set()
    queue = list(start)
    while queue and len(seen) < 12:
        url = queue.pop(0)
        if url in seen:
            continue
        seen.add(url)
        COUNTS["public pages"] += 1
        try:
            response = client.get(url)
        except Exception as exc:  # noqa: BLE001 - report, do not stop the fuzz
            failures.append(f"public page {url}: {type(exc).__name__}: {exc}")
            continue
        if response.status_code != 200:
            failures.append(f"public page {url}: {response.status_code}")
            continue
        if crawl and url in start:
            for href in re.findall(r'href="([^"#?]+)"', response.content.decode()):
                if href.startswith(base) and href not in seen:
                    queue.append(href)
    return failures


def desk_pages(client, competition) -> list[str]:
    """The failures among the competition's desk pages and downloads (as a superuser)."""
    args = [competition.event.slug, competition.slug]
    urls = [
        competition.get_desk_url(),
        reverse(competition.game_format.desk_home, args=args),
        reverse("events:competition_export", args=[*args, "standings", "csv"]),
        reverse("events:competition_export", args=[*args, "results", "xlsx"]),
    ]
    failures = []
    for url in urls:
        COUNTS["desk pages"] += 1
        status, error = request(client, "get", url)
        if status not in (200, 302):
            failures.append(f"desk page {url}: {status} {error}")
    return failures


def stored_problems(model_admin, pk, inline_models) -> list[str]:
    obj = model_admin.model._default_manager.filter(pk=pk).first()
    if obj is None:
        return []
    rows = [obj]
    for model, fk_name in inline_models:
        rows.extend(model._default_manager.filter(**{fk_name: obj}))
    problems = []
    for row in rows:
        try:
            row.full_clean()
        except ValidationError as exc:
            problems.append(f"stored {row._meta.label} {row.pk}: {exc.messages}")
    return problems


def request(client, method: str, url: str, data=None):
    """(status, error text): a view's exception is a 500."""
    try:
        response = client.post(url, data) if method == "post" else client.get(url)
    except Exception as exc:  # noqa: BLE001 - every crash is a finding
        frame = traceback.extract_tb(exc.__traceback__)[-1]
        return 500, f"{type(exc).__name__}: {str(exc)[:160]} at {frame.filename}:{frame.lineno}"
    return response.status_code, ""


# --- the fuzz -------------------------------------------------------------------------------


@pytest.mark.parametrize("label", _params())
def test_admin_fuzz(world, admin_client, monkeypatch, label):
    model_admin = next(ma for ma in _admins() if ma.model._meta.label == label)
    # Short list pages: the hostile values are what is tested, not rendering 100 rows each time.
    monkeypatch.setattr(model_admin, "list_per_page", 10)
    model = model_admin.model
    opts = model._meta
    name = f"admin:{opts.app_label}_{opts.model_name}"
    failures: list[str] = []

    # The changelist, with hostile search, filter, ordering and page values.
    changelist = reverse(f"{name}_changelist")
    response = admin_client.get(changelist)
    assert response.status_code == 200
    params = {"q", "o", "p", "all"}
    cl = response.context["cl"]
    for spec in cl.filter_specs:
        params.update(spec.expected_parameters())
    for param in sorted(params):
        for value in ["\x00", HUGE, "abc"] if param == "q" else [HUGE, "abc,-1"]:
            COUNTS["changelist values"] += 1
            status, error = request(
                admin_client, "get", f"{changelist}?{urlencode({param: value})}"
            )
            if status >= 500:
                failures.append(f"changelist ?{param}={value!r}: {error}")

    obj = model._default_manager.order_by("pk").first()
    inline_models = [
        (inline.model, inline.fk_name or _fk_name(inline.model, model))
        for inline in model_admin.get_inline_instances(response.wsgi_request, obj)
    ]

    # The add form.
    if model_admin.has_add_permission(response.wsgi_request):
        add = reverse(f"{name}_add")
        status, error = request(admin_client, "get", add)
        if status >= 500:
            failures.append(f"add form GET: {error}")
        else:
            add_page = admin_client.get(add)
            add_data = posted(add_page.content.decode())
            COUNTS["forms"] += 1
            fields = _fields(add_page)
            for field_name, field in fields.items():
                for value in hostile_values(field)[-1:]:
                    data = {**add_data, **_replace(add_data, field_name, value)}
                    COUNTS["values posted"] += 1
                    status, error = request(admin_client, "post", add, data)
                    if status >= 500:
                        failures.append(f"add POST {field_name}={value[:30]!r}: {error}")
            for case, data in inline_cases(add_page, add_data, sample=True):
                COUNTS["inline values posted"] += 1
                status, error = request(admin_client, "post", add, data)
                if status >= 500:
                    failures.append(f"add POST {case}: {error}")

    if obj is None:
        assert not failures, f"{where(model_admin)} {label}:\n" + "\n".join(failures)
        return

    # The change form of a stored row, and its history.
    change = reverse(f"{name}_change", args=[obj.pk])
    for url in (change, reverse(f"{name}_history", args=[obj.pk])):
        status, error = request(admin_client, "get", url)
        if status >= 500:
            failures.append(f"GET {url}: {error}")
    page = admin_client.get(change)
    competition = competition_of(model_admin, obj)
    baseline_clean = not stored_problems(model_admin, obj.pk, inline_models)
    if (
        page.status_code == 200
        and "adminform" in page.context
        and model_admin.has_change_permission(page.wsgi_request, obj)
    ):
        valid = posted(page.content.decode())
        COUNTS["forms"] += 1 + len(page.context.get("inline_admin_formsets") or [])
        cases: list[tuple[str, dict]] = [("(unchanged)", valid)]  # the unchanged form first
        for field_name, field in _fields(page).items():
            cases.extend(
                (f"{field_name}={value[:30]!r}", {**valid, **_replace(valid, field_name, value)})
                for value in hostile_values(field)
            )
        cases.extend(inline_cases(page, valid, sample=False))
        for case, data in cases:
            COUNTS["values posted"] += 1
            status, error = request(admin_client, "post", change, data)
            if status >= 500:
                failures.append(f"change POST {case}: {error}")
                continue
            if status == 302:
                if baseline_clean:
                    failures.extend(
                        f"after {case}: {problem}"
                        for problem in stored_problems(model_admin, obj.pk, inline_models)
                    )
                target = competition_of(
                    model_admin, model._default_manager.filter(pk=obj.pk).first()
                )
                for comp in {c.pk: c for c in (competition, target) if c is not None}.values():
                    comp.refresh_from_db()
                    failures.extend(
                        f"after {case}: {problem}"
                        for problem in [
                            *public_pages(admin_client, comp, crawl=False),
                            *desk_pages(admin_client, comp),
                        ]
                    )

    if competition is not None:
        competition.refresh_from_db()
        failures.extend(public_pages(admin_client, competition))
        failures.extend(desk_pages(admin_client, competition))
    assert not failures, f"{where(model_admin)} {label}:\n" + "\n".join(failures)


def _fk_name(child, parent) -> str:
    return next(f.name for f in child._meta.fields if getattr(f, "related_model", None) is parent)


def _fields(page) -> dict[str, forms.Field]:
    """Post name -> form field, for the main form and the first row of each inline."""
    fields: dict[str, forms.Field] = {}
    form = page.context["adminform"].form
    for field_name, field in form.fields.items():
        fields[form.add_prefix(field_name)] = field
    for inline in page.context.get("inline_admin_formsets") or []:
        rows = list(inline.formset.forms)
        if not rows:
            continue
        row = rows[0]
        for field_name, field in row.fields.items():
            if field_name in ("id", "DELETE") or isinstance(field.widget, forms.HiddenInput):
                continue
            fields[row.add_prefix(field_name)] = field
    return fields


def _replace(data: dict[str, list[str]], name: str, value: str) -> dict[str, list[str]]:
    """``name`` set to ``value`` (both halves of a split date and time; ``FLIP``: a checkbox in
    its other state)."""
    if value == FLIP:
        return {name: []} if data.get(name) else {name: ["on"]}
    if name in data or f"{name}_0" not in data:
        return {name: [value]}
    return {f"{name}_0": [value], f"{name}_1": [value]}
