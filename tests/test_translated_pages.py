"""Every page and e-mail of the demo reads in the visitor's language.

The demo (``manage.py load_demo``: one event per format) is built once for the module. Its pages
are found by following the links from the front page (anonymous), from the desk (the demo
organiser) and from a round-robin player's private link, in English; up to
:data:`PER_ROUTE` addresses per URL pattern. Every one of them, and every e-mail template, is
then rendered again with Swedish, Estonian and Dutch asked for (the language cookie and
``Accept-Language``), and its visible text is read: HTML text nodes and the ``title``,
``placeholder``, ``aria-label``, ``alt`` and ``hx-confirm`` attributes and the ``value`` of
buttons; ``<script>`` and ``<style>`` are left out.

It fails on:

- ``<html lang>`` not the language asked for (or a ``lang`` attribute naming no site language);
- a text that is an English msgid of our catalogue (exactly, or with its placeholders filled)
  whose translation is missing or differs: a string left out of ``{% translate %}``/``gettext``
  where the catalogue has it, or an untranslated entry;
- a text that reads exactly as in English, with a word of four letters or more that is neither
  user data (names, venues, notes of the demo) nor a word of the language's translations nor
  in ``SAME_AS_ENGLISH`` (tests/test_translations.py): a string that was never marked.

Fix: mark the string (``{% translate %}``, ``gettext``), run ``make messages``, translate it in
``locale/<lang>/LC_MESSAGES/django.po``, run ``.venv/bin/python scripts/catalogues.py compile``.
"""

from __future__ import annotations

import logging
import re
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.apps import apps
from django.conf import settings
from django.conf.locale import LANG_INFO
from django.core.management import call_command
from django.db import models, transaction
from django.template.loader import render_to_string
from django.test import Client, override_settings
from django.urls import Resolver404, resolve, reverse
from django.utils import timezone, translation

from events.formats import all_formats
from tests.support.pages import links_in
from tests.support.translations import (
    PYTHON_FORMAT,
    SAME_AS_ENGLISH,
    SAME_AS_ENGLISH_EVERYWHERE,
    WORD,
    cat,
)

LANGUAGES = cat.LANGUAGES
ROOT = Path(__file__).resolve().parent.parent
# Addresses rendered per URL pattern (the first ones found, in a fixed order).
PER_ROUTE = 2
TEXT_ATTRIBUTES = ("title", "placeholder", "aria-label", "alt", "hx-confirm", "data-confirm")
BUTTON_TYPES = ("submit", "button", "reset")
SEPARATORS = re.compile(r"\s+[·•|—–]\s+")
EDGE_PUNCTUATION = " :;,.!?()[]{}«»\"'“”‘’*"
TIMES: dict[str, float] = {}
APPS = ("events", *(f.key for f in all_formats()))
FIX = (
    "mark it ({% translate %} / gettext), run `make messages`, translate it in "
    "locale/<lang>/LC_MESSAGES/django.po, then run: .venv/bin/python scripts/catalogues.py compile"
)


# --- visible text --------------------------------------------------------------------------------


class TextReader(HTMLParser):
    """The visible text of a page: text nodes and the text attributes, whitespace collapsed."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self.choices: set[str] = set()  # texts of <option>s: may be data (time zones, names)
        self.langs: list[str] = []
        self.html_lang: str | None = None
        self.whole_page = False  # an <html> element: not an htmx fragment
        self._skip = 0
        self._option = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if tag in ("script", "style"):
            self._skip += 1
        if tag == "option":
            self._option += 1
        if tag == "html":
            self.whole_page = True
            self.html_lang = values.get("lang")
        elif "lang" in values:
            self.langs.append(values["lang"])
        for name in TEXT_ATTRIBUTES:
            if values.get(name):
                self._add(values[name])
        if tag == "input" and values.get("type") in BUTTON_TYPES and values.get("value"):
            self._add(values["value"])

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style") and self._skip:
            self._skip -= 1
        if tag == "option" and self._option:
            self._option -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self._add(data)

    def _add(self, text: str) -> None:
        text = " ".join(text.split())
        if text:
            self.texts.append(text)
            if self._option:
                self.choices.add(text)


def read_page(html: str) -> TextReader:
    reader = TextReader()
    reader.feed(html)
    reader.close()
    return reader


def fragments(text: str) -> list[str]:
    """A text and its parts: split at " · ", " | ", " — ", and with edge punctuation removed."""
    found = [text, *SEPARATORS.split(text)]
    found += [part.strip(EDGE_PUNCTUATION) for part in found]
    return list(dict.fromkeys(part for part in found if part))


# --- what the catalogue says ---------------------------------------------------------------------


def _pattern(text: str) -> re.Pattern[str] | None:
    """A msgid with python-format placeholders as a regular expression (None without any)."""
    parts, last, placeholders = [], 0, 0
    for match in PYTHON_FORMAT.finditer(text):
        parts.append(re.escape(text[last : match.start()]))
        if match["type"] == "%":
            parts.append("%")
        else:
            parts.append(r".+?")
            placeholders += 1
        last = match.end()
    if not placeholders:
        return None
    parts.append(re.escape(text[last:]))
    return re.compile("".join(parts), re.DOTALL)


@dataclass
class Catalogue:
    """One language's django.po, as the page check needs it."""

    lang: str
    exact: dict[str, str] = field(default_factory=dict)  # English text -> translation ("": none)
    patterns: dict[str, list[tuple[re.Pattern[str], str, str]]] = field(
        default_factory=lambda: defaultdict(list)
    )  # a literal word -> (English pattern, msgid, translation)
    translations: set[str] = field(default_factory=set)
    translation_patterns: list[re.Pattern[str]] = field(default_factory=list)
    vocabulary: set[str] = field(default_factory=set)  # lower-case words of the translations
    seen: dict[str, str | None] = field(default_factory=dict)

    @classmethod
    def load(cls, lang: str) -> Catalogue:
        found = cls(lang)
        catalog = cat.read(cat.LOCALE / lang / "LC_MESSAGES" / "django.po")
        for message in cat.messages_of(catalog):
            ids = list(message.id) if isinstance(message.id, tuple | list) else [message.id]
            strings = (
                list(message.string)
                if isinstance(message.string, tuple | list)
                else [message.string]
            )
            translated = "" if message.fuzzy else strings[-1]
            for english in ids:
                english = " ".join(english.split())
                if "<" in english or not english:
                    continue  # msgids holding HTML never show as one text
                found._add(english, translated)
            for string in strings:
                if string and not message.fuzzy:
                    string = " ".join(string.split())
                    found.translations.add(string)
                    found.vocabulary.update(w.lower() for w in WORD.findall(string))
                    pattern = _pattern(string)
                    if pattern:
                        found.translation_patterns.append(pattern)
        return found

    def _add(self, english: str, translated: str) -> None:
        pattern = _pattern(english)
        if pattern is None:
            self.exact.setdefault(english, translated)
            return
        literal = PYTHON_FORMAT.sub(" ", english)
        words = sorted((w for w in WORD.findall(literal) if len(w) >= 3), key=len, reverse=True)
        if words:  # a msgid of placeholders alone matches anything: not checked
            self.patterns[words[0].lower()].append((pattern, english, translated))

    def english_left(self, text: str) -> str | None:
        """The msgid ``text`` shows untranslated, if it does (None when it does not)."""
        if text not in self.seen:
            self.seen[text] = self._english_left(text)
        return self.seen[text]

    def _english_left(self, text: str) -> str | None:
        if text in self.translations or any(p.fullmatch(text) for p in self._own(text)):
            return None  # what the translation says (a word spelled the same in both)
        translated = self.exact.get(text)
        if translated is not None and translated != text:
            return text
        for word in {w.lower() for w in WORD.findall(text)}:
            for pattern, english, translated in self.patterns.get(word, ()):
                if translated != english and pattern.fullmatch(text):
                    return english
        return None

    def _own(self, text: str) -> list[re.Pattern[str]]:
        return self.translation_patterns if WORD.search(text) else []


# --- the demo, its pages and e-mails -------------------------------------------------------


@dataclass
class Page:
    url: str
    role: str
    english: str  # the page in English (its body)


@dataclass
class Demo:
    clients: dict[str, Client]
    pages: list[Page]
    emails: dict[str, tuple[str, dict]]  # "template #n" -> (template name, context)
    user_data: set[str]
    user_words: set[str]


def _user_data() -> tuple[set[str], set[str]]:
    """Every text stored by our apps (names, clubs, venues, notes) and the users' names."""
    texts: set[str] = set()
    for model in apps.get_models():
        if model._meta.app_label not in (*APPS, "auth"):
            continue
        names = [
            f.name
            for f in model._meta.concrete_fields
            if isinstance(f, models.CharField | models.TextField) and not f.choices
        ]
        if not names:
            continue
        for row in model._default_manager.values_list(*names):
            texts.update(" ".join(str(v).split()) for v in row if v)
    words = {w.lower() for text in texts for w in WORD.findall(text)}
    # The site's name and the languages' own names ("svenska", "eesti") are not translated.
    texts.update((settings.SITE_NAME, "testserver"))
    for code, _name in settings.LANGUAGES:
        info = LANG_INFO[code]
        texts.update((info["name_local"], info["name"]))
    return texts, words


def _route(path: str) -> str | None:
    try:
        return str(resolve(urlsplit(path).path).route)
    except Resolver404:
        return None


def _get(client: Client, url: str, lang: str):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    return client.get(url, HTTP_ACCEPT_LANGUAGE=lang)


def _crawl(clients: dict[str, Client], starts: list[tuple[str, str]]) -> list[Page]:
    """Breadth first from ``starts`` ((role, address)), in English, PER_ROUTE per pattern."""
    per_route: dict[str, int] = defaultdict(int)
    seen: set[tuple[str, str]] = set()
    queue = list(starts)
    pages: list[Page] = []
    while queue:
        role, url = queue.pop(0)
        route = _route(url)
        if (role, url) in seen or route is None or per_route[route] >= PER_ROUTE:
            continue
        seen.add((role, url))
        response = _get(clients[role], url, "en")
        if response.status_code in (301, 302, 303, 307):  # an event of one competition: to it
            queue.extend((role, link) for link in links_in(f'href="{response["Location"]}"', url))
            continue
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            continue
        per_route[route] += 1
        html = response.content.decode()
        pages.append(Page(url, role, html))
        queue.extend((role, link) for link in sorted(set(links_in(html, url))))
    return pages


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker) -> Iterator[Demo]:
    """The demo, its pages (found in English) and e-mail contexts; rolled back at the end."""
    logging.disable(logging.WARNING)
    try:
        with django_db_blocker.unblock(), transaction.atomic():
            started = time.perf_counter()
            built = _build()
            roles = Counter(page.role for page in built.pages)
            print(
                f"\ntranslated pages: {len(built.pages)} pages ({dict(sorted(roles.items()))}), "
                f"{len(built.emails)} e-mails (templates × contexts); "
                f"demo {TIMES['demo']:.1f} s, crawl in English {TIMES['crawl']:.1f} s "
                f"(wall, {time.perf_counter() - started:.1f} s in all)"
            )
            yield built
            transaction.set_rollback(True)
    finally:
        logging.disable(logging.NOTSET)


def _build() -> Demo:
    from django.contrib.auth import get_user_model

    from events.models import Game, Player
    from events.signups.models import SignUp
    from events.signups.services.mail import person_token
    from roundrobin.models import PlayerToken, Turn

    started = time.perf_counter()
    with override_settings(DEBUG=True):  # load_demo refuses to run with DEBUG off
        call_command("load_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    TIMES["demo"] = time.perf_counter() - started
    organiser = get_user_model().objects.get(username="organiser")
    token = (
        PlayerToken.objects.filter(entry__seats__game__status=Game.Status.PLAYING)
        .select_related("entry__player", "entry__competition__event")
        .order_by("pk")
        .first()
        or PlayerToken.objects.select_related("entry__player", "entry__competition__event")
        .order_by("pk")
        .first()
    )
    assert token is not None, "the demo has no round-robin player with a private link"
    sign_up = SignUp.objects.filter(status="waitlisted").order_by("pk").first()
    assert sign_up is not None, "the demo has no sign-up on a waitlist"
    clients = {"anonymous": Client(), "organiser": Client(), "player": Client()}
    clients["organiser"].force_login(organiser)
    link = _get(clients["player"], f"/p/{token.token}/", "en")
    assert link.status_code in (302, 303), "the private link did not set the player's cookie"
    starts = [
        ("anonymous", "/"),
        ("anonymous", "/accounts/login/"),
        ("organiser", "/desk/"),
        ("player", link["Location"]),
        # A person's sign-up page, from the link in their e-mail.
        ("anonymous", reverse("events:signup_person", args=[person_token(sign_up.email)])),
    ]
    started = time.perf_counter()
    pages = _crawl(clients, starts)
    TIMES["crawl"] = time.perf_counter() - started

    # The e-mails' contexts, as roundrobin/services/mail.py gives them (one game named, none).
    turn = Turn.objects.order_by("pk").first()
    competition = token.entry.competition
    opponent = Player.objects.exclude(pk=token.entry.player_id).order_by("pk").first()
    game = {
        "table": 1,
        "number": 2,
        "tiebreak": False,
        "white": True,
        "opponent": opponent.name if opponent else "",
    }
    tiebreak = {**game, "tiebreak": True, "white": False}
    base = {
        "player": token.entry.player,
        "competition": competition,
        "event": competition.event,
        "url": f"http://testserver/p/{token.token}/",
        "turn": turn.number if turn else 1,
        "deadline": turn.deadline if turn else timezone.now(),
        "sign_up": sign_up,  # the sign-up's e-mails (events/signups/services/mail.py)
        "offer_until": timezone.now(),
    }
    contexts = [
        {**base, "game": game, "games": [game, tiebreak]},
        {**base, "game": tiebreak, "games": []},
        {**base, "game": None, "games": []},
    ]
    emails = {
        f"{path.relative_to(ROOT / 'templates')} #{number}": (
            str(path.relative_to(ROOT / "templates")),
            context,
        )
        for path in sorted((ROOT / "templates").glob("**/email/*.txt"))
        if not path.name.startswith("_")  # included by the others
        for number, context in enumerate(contexts, 1)
    }
    texts, words = _user_data()
    return Demo(clients, pages, emails, texts, words)


@pytest.fixture(scope="module")
def catalogues() -> dict[str, Catalogue]:
    return {lang: Catalogue.load(lang) for lang in LANGUAGES}


# --- the checks -------------------------------------------------------------------------------


def test_the_demo_has_pages_of_every_kind(demo: Demo) -> None:
    roles = {page.role for page in demo.pages}
    assert roles == {"anonymous", "organiser", "player"}, roles
    assert len(demo.pages) >= 20, [page.url for page in demo.pages]
    assert demo.emails, "no e-mail template found under templates/**/email/"


# An address, a time zone, an e-mail, a line of a CSV example: no prose.
IDENTIFIER = re.compile(r"\S*[/_:;=@]\S*")


def _english_looking(text: str, lang: str, demo: Demo, catalogue: Catalogue) -> bool:
    """Some part of ``text`` has a word of 4 letters or more that is no user data, no word of
    the language's translations and not allowed to stay English."""
    allowed = SAME_AS_ENGLISH_EVERYWHERE | SAME_AS_ENGLISH.get(lang, set())
    for part in SEPARATORS.split(text):
        part = part.strip(EDGE_PUNCTUATION)
        if part in demo.user_data or part in catalogue.translations:
            continue
        if any(
            len(word) >= 4
            and word.lower() not in demo.user_words
            and word.lower() not in catalogue.vocabulary
            and word.lower() not in allowed
            for word in WORD.findall(IDENTIFIER.sub(" ", part))
        ):
            return True
    return False


def _check_texts(
    where: str,
    texts: list[str],
    english_texts: set[str],
    lang: str,
    demo: Demo,
    catalogue: Catalogue,
    problems: dict[str, set[str]],
    choices: set[str] = frozenset(),  # type: ignore[assignment]
) -> None:
    for text in dict.fromkeys(texts):
        for part in fragments(text):
            if part in demo.user_data:
                continue
            msgid = catalogue.english_left(part)
            if msgid is not None:
                problems[f"English msgid {msgid!r} shown as {part!r}"].add(where)
                break
        else:
            if (
                text in english_texts
                and text not in choices
                and _english_looking(text, lang, demo, catalogue)
            ):
                problems[f"same as in English, not in the catalogue: {text!r}"].add(where)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_pages_and_emails_read_in_the_language(
    demo: Demo, catalogues: dict[str, Catalogue], lang: str, db
) -> None:
    catalogue = catalogues[lang]
    problems: dict[str, set[str]] = defaultdict(set)
    for page in demo.pages:
        where = f"{page.url} ({page.role})"
        response = _get(demo.clients[page.role], page.url, lang)
        if response.status_code != 200:
            problems[f"status {response.status_code} in {lang} (200 in English)"].add(where)
            continue
        reader = read_page(response.content.decode())
        english = set(read_page(page.english).texts)
        if reader.whole_page and reader.html_lang != lang:
            problems[f'<html lang="{reader.html_lang}">, asked for {lang}'].add(where)
        for other in reader.langs:
            if other not in {code for code, _name in settings.LANGUAGES}:
                problems[f'lang="{other}" is none of the site languages'].add(where)
        _check_texts(where, reader.texts, english, lang, demo, catalogue, problems, reader.choices)

    for where, (name, context) in demo.emails.items():
        with translation.override("en"):
            english_text = render_to_string(name, context)
        with translation.override(lang):
            text = render_to_string(name, context)
        paragraphs = [" ".join(p.split()) for p in re.split(r"\n\s*\n", text) if p.strip()]
        texts = [" ".join(text.split()), *paragraphs]
        english = {" ".join(english_text.split())} | {
            " ".join(p.split()) for p in re.split(r"\n\s*\n", english_text) if p.strip()
        }
        _check_texts(f"e-mail {where}", texts, english, lang, demo, catalogue, problems)

    assert not problems, (
        f"{lang}: {len(problems)} texts read in English on {len(demo.pages)} pages and "
        f"{len(demo.emails)} e-mails ({FIX}):\n  "
        + "\n  ".join(
            f"{problem}  on {', '.join(sorted(where)[:3])}"
            + (f" and {len(where) - 3} more" if len(where) > 3 else "")
            for problem, where in sorted(problems.items())
        )
    )
