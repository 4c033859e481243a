"""Reading a player list from a spreadsheet export: bytes in, rows of players out.

This module is pure: standard library only, no Django import, no database. The import service
(``events.exchange.players``) decides what each row becomes (a new player, a known one, refused) and
writes; this module only reads the file.

What it accepts
- Encodings: UTF-8 with or without a BOM; UTF-16 with a BOM (Excel's "Unicode text"); anything
  else is read as Windows-1252 (Excel's "CSV (semicolon delimited)" on a Western Windows), or
  Latin-1 for the few bytes cp1252 leaves undefined. NUL bytes or a zip (an .xlsx workbook) are
  not text: ``NotText``.
- Separators: comma, semicolon or tab, found by ``csv.Sniffer`` on the first lines, checked
  against a column count (the separator that splits the lines into the same number of columns,
  most columns first); Excel's ``sep=;`` first line is honoured.
- Columns: mapped by the words of the header row, in any order, in English, Swedish, Estonian
  and Dutch (``HEADER_WORDS``), so a Google Forms export ("Timestamp", "Full name", "Email
  address", questions...) works. An optional language column (Språk, Keel, Taal) gives each
  player's preferred language, as a code or a name (``parse_language``). Columns no word
  matches are ignored and reported (``Sheet.ignored``). A file without a header row is read
  by position: name, club, e-mail, rating (the format the desk always documented).

Reasons are returned as codes with values (``Reason``) for the caller to put into words, so
that the words can be translated.
"""

from __future__ import annotations

import codecs
import csv
import io
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass

NAME, FIRST_NAME, LAST_NAME, CLUB, EMAIL, RATING, LANGUAGE = (
    "name",
    "first_name",
    "last_name",
    "club",
    "email",
    "rating",
    "language",
)
FIELDS = (NAME, FIRST_NAME, LAST_NAME, CLUB, EMAIL, RATING, LANGUAGE)
# A file without a header row: these columns, in this order.
POSITIONAL = (NAME, CLUB, EMAIL, RATING)
NAME_MAX = 100
CLUB_MAX = 100

# Whole headers (after ``header_key``: folded, punctuation as spaces) -> the field they name.
HEADER_PHRASES: dict[str, str] = {
    # English
    "name": NAME,
    "full name": NAME,
    "your name": NAME,
    "player": NAME,
    "player name": NAME,
    "participant": NAME,
    "first name": FIRST_NAME,
    "given name": FIRST_NAME,
    "forename": FIRST_NAME,
    "last name": LAST_NAME,
    "surname": LAST_NAME,
    "family name": LAST_NAME,
    "club": CLUB,
    "club name": CLUB,
    "team": CLUB,
    "email": EMAIL,
    "e mail": EMAIL,
    "email address": EMAIL,
    "e mail address": EMAIL,
    "mail": EMAIL,
    "rating": RATING,
    "ranking": RATING,
    "elo": RATING,
    "language": LANGUAGE,
    "preferred language": LANGUAGE,
    # Swedish
    "namn": NAME,
    "fullstandigt namn": NAME,
    "spelare": NAME,
    "deltagare": NAME,
    "fornamn": FIRST_NAME,
    "efternamn": LAST_NAME,
    "klubb": CLUB,
    "forening": CLUB,
    "e post": EMAIL,
    "epost": EMAIL,
    "e postadress": EMAIL,
    "epostadress": EMAIL,
    "sprak": LANGUAGE,
    # Estonian
    "nimi": NAME,
    "taisnimi": NAME,
    "mangija": NAME,
    "osaleja": NAME,
    "eesnimi": FIRST_NAME,
    "perekonnanimi": LAST_NAME,
    "klubi": CLUB,
    "selts": CLUB,
    "e posti aadress": EMAIL,
    "meil": EMAIL,
    "reiting": RATING,
    "keel": LANGUAGE,
    # Dutch
    "naam": NAME,
    "volledige naam": NAME,
    "speler": NAME,
    "deelnemer": NAME,
    "voornaam": FIRST_NAME,
    "achternaam": LAST_NAME,
    "vereniging": CLUB,
    "club vereniging": CLUB,
    "e mailadres": EMAIL,
    "emailadres": EMAIL,
    "taal": LANGUAGE,
    "voorkeurstaal": LANGUAGE,
}
# A longer header ("Which club do you play for?", "Name of your club") names a field by one of
# its words; the fields are tried in this order, so "club name" is a club, "email name" an e-mail.
HEADER_WORDS: tuple[tuple[str, frozenset[str]], ...] = (
    (EMAIL, frozenset({"email", "mail", "epost", "meil", "emailadres", "epostadress"})),
    (RATING, frozenset({"rating", "ranking", "reiting", "elo"})),
    (LANGUAGE, frozenset({"language", "sprak", "keel", "taal", "voorkeurstaal"})),
    (CLUB, frozenset({"club", "klubb", "klubi", "vereniging", "forening", "selts"})),
    (FIRST_NAME, frozenset({"firstname", "fornamn", "eesnimi", "voornaam"})),
    (LAST_NAME, frozenset({"surname", "lastname", "efternamn", "perekonnanimi", "achternaam"})),
    (NAME, frozenset({"name", "namn", "nimi", "naam", "player", "spelare", "mangija", "speler"})),
)

DELIMITERS = (",", ";", "\t")
SNIFF_LINES = 20

# Letters Unicode does not decompose into a base letter plus a mark (as events.models.fold).
_FOLD = str.maketrans(
    {"ø": "o", "æ": "ae", "œ": "oe", "ß": "ss", "ł": "l", "đ": "d", "ð": "d", "þ": "th"}
)


def fold(text: str) -> str:
    """Case and accents aside: 'Õie SÖÖT' -> 'oie soot'."""
    # Case-folded again after the decomposition: NFKD can yield capitals ("𝘈" -> "A").
    decomposed = unicodedata.normalize("NFKD", text.casefold().translate(_FOLD))
    kept = "".join(c for c in decomposed if not unicodedata.combining(c) and c.isprintable())
    return " ".join(kept.casefold().translate(_FOLD).split())


def header_key(text: str) -> str:
    """A header cell as the tables above spell it: folded, every non-letter a space."""
    return " ".join(re.sub(r"[\W_]+", " ", fold(text)).split())


def header_field(text: str) -> str | None:
    """The field a header cell names, or None."""
    key = header_key(text)
    if not key:
        return None
    if key in HEADER_PHRASES:
        return HEADER_PHRASES[key]
    if key.replace(" ", "") in HEADER_PHRASES:  # "e-mail" typed "email", "E-post" as "epost"
        return HEADER_PHRASES[key.replace(" ", "")]
    words = set(key.split())
    # "e mail address" and "e post" split a word in two: join each pair of neighbours too.
    parts = key.split()
    words |= {a + b for a, b in zip(parts, parts[1:], strict=False)}
    for name, vocabulary in HEADER_WORDS:
        if words & vocabulary:
            return name
    return None


# --- decoding --------------------------------------------------------------------------------


class NotText(ValueError):
    """The bytes are no text file a spreadsheet writes (``kind``: "binary" or "workbook")."""

    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind


def decode(data: bytes) -> tuple[str, str]:
    """(text, the encoding's name) of a file's bytes; ``NotText`` for a binary file."""
    if data.startswith(b"PK\x03\x04"):
        raise NotText("workbook")
    if data.startswith(codecs.BOM_UTF8):
        try:
            text, encoding = data[len(codecs.BOM_UTF8) :].decode("utf-8"), "UTF-8"
        except UnicodeDecodeError as exc:
            raise NotText("binary") from exc
    elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            text, encoding = data.decode("utf-16"), "UTF-16"
        except UnicodeDecodeError as exc:
            raise NotText("binary") from exc
    else:
        try:
            text, encoding = data.decode("utf-8"), "UTF-8"
        except UnicodeDecodeError:
            try:
                text, encoding = data.decode("cp1252"), "Windows-1252"
            except UnicodeDecodeError:
                text, encoding = data.decode("latin-1"), "Latin-1"
    if "\x00" in text:
        raise NotText("binary")
    return text, encoding


# --- separators and records ------------------------------------------------------------------


def _records(text: str, delimiter: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True))


def _fits(lines: Sequence[str], delimiter: str) -> tuple[bool, int]:
    """(every line splits into the same number of columns, the first line's columns)."""
    try:
        widths = [len(r) for r in _records("\n".join(lines), delimiter) if r]
    except csv.Error:
        return False, 0
    if not widths:
        return False, 0
    return len(set(widths)) == 1, widths[0]


def sniff_delimiter(text: str) -> str:
    """The separator of a CSV text: comma, semicolon or tab (comma when nothing tells)."""
    lines = [line for line in text.splitlines() if line.strip()][:SNIFF_LINES]
    if not lines:
        return ","
    try:
        sniffed = csv.Sniffer().sniff("\n".join(lines), delimiters="".join(DELIMITERS)).delimiter
    except csv.Error:
        sniffed = ""
    scores = {d: _fits(lines, d) for d in DELIMITERS}
    if sniffed in scores and scores[sniffed][1] > 1 and scores[sniffed][0]:
        return sniffed
    # The Sniffer gave up or chose a separator that does not split the lines evenly.
    return max(DELIMITERS, key=lambda d: (scores[d][1] > 1 and scores[d][0], scores[d][1]))


# --- the sheet -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Reason:
    """Why a row (or the file) cannot be imported: a code and its values, put into words by
    the caller. Codes: name_missing, name_too_long, club_too_long, bad_email, bad_rating,
    bad_language, too_many_cells, bad_csv, no_name_column, not_text, workbook."""

    code: str
    values: tuple[tuple[str, str | int], ...] = ()

    def get(self, key: str) -> str | int:
        return dict(self.values)[key]


@dataclass(frozen=True)
class SheetRow:
    line: int
    name: str
    club: str
    email: str
    rating: int | None
    reasons: tuple[Reason, ...] = ()
    language: str = ""  # a code of LANGUAGE_NAMES, "" when the file says none


@dataclass(frozen=True)
class Sheet:
    """What a file holds: rows, how it was read, and what was left out of it."""

    rows: tuple[SheetRow, ...]
    encoding: str
    delimiter: str
    header: bool
    columns: tuple[tuple[str, str], ...] = ()  # (field, the header as written), in file order
    ignored: tuple[str, ...] = ()  # headers of the columns no word matched
    problem: Reason | None = None  # the whole file is refused


def clean_cell(text: str) -> str:
    """Whitespace folded and invisible characters (zero-width spaces, controls) removed."""
    return " ".join("".join(c if c.isprintable() else " " for c in text).split())


def parse_rating(text: str, maximum: int) -> int | None:
    """A rating cell -> its number; ``ValueError`` for anything but plain ASCII digits (a
    spreadsheet's "1620.0" or "1620,0" too) up to ``maximum``."""
    match = re.fullmatch(r"([0-9]+)(?:[.,]0+)?", text)
    if match is None or int(match.group(1)) > maximum:
        raise ValueError(text)
    return int(match.group(1))


# A language cell (folded, as ``header_key``) -> the language's code: the code itself, a
# regional variant, or the language's name in any of the four languages.
LANGUAGE_NAMES: dict[str, str] = {
    **{code: code for code in ("en", "sv", "et", "nl")},
    **dict.fromkeys(("english", "engelska", "inglise", "inglise keel", "engels"), "en"),
    **dict.fromkeys(("swedish", "svenska", "rootsi", "rootsi keel", "zweeds"), "sv"),
    **dict.fromkeys(("estonian", "estniska", "eesti", "eesti keel", "ests", "estisch"), "et"),
    **dict.fromkeys(
        ("dutch", "nederlandska", "hollandska", "hollandi", "hollandi keel", "nederlands"), "nl"
    ),
}


def parse_language(text: str) -> str:
    """A language cell -> its code ("" for an empty cell); ``ValueError`` when it names no
    language of ours. "sv-SE", "SV", "Svenska", "Swedish" and "rootsi keel" are all "sv"."""
    key = header_key(text)
    if not key:
        return ""
    if key in LANGUAGE_NAMES:
        return LANGUAGE_NAMES[key]
    parts = key.split()  # "sv se", "nl be": a regional variant of a code
    if len(parts) == 2 and len(parts[0]) == 2 and parts[0] in LANGUAGE_NAMES:
        return LANGUAGE_NAMES[parts[0]]
    raise ValueError(text)


def plausible_email(text: str) -> bool:
    """A structural check only; the caller may pass a stricter one."""
    return re.fullmatch(r"[^@\s]+@[^@\s]+\.[^@\s]+", text) is not None


def map_header(cells: Sequence[str]) -> tuple[dict[str, int], list[str]] | None:
    """(field -> column index, ignored headers) when ``cells`` are a header row naming the
    players (a name, or a first or last name, column); None when they look like data."""
    if any("@" in cell or cell.isdigit() for cell in cells):
        return None
    columns: dict[str, int] = {}
    ignored: list[str] = []
    for index, cell in enumerate(cells):
        name = header_field(cell)
        if name is None or name in columns:
            if cell:
                ignored.append(cell)
            continue
        columns[name] = index
    if not columns.keys() & {NAME, FIRST_NAME, LAST_NAME}:
        return None
    if NAME in columns:  # a full-name column wins over first/last name columns
        for part in (FIRST_NAME, LAST_NAME):
            if part in columns:
                ignored.append(cells[columns.pop(part)])
    return columns, ignored


def _headers_without_name(cells: Sequence[str]) -> bool:
    """A first row that names columns (some header words, no player data) but no name column."""
    if any("@" in cell or cell.isdigit() for cell in cells):
        return False
    named = [header_field(cell) for cell in cells if cell]
    return len(named) >= 2 and all(named)


def read_sheet(
    data: bytes,
    *,
    max_rating: int,
    email_ok: Callable[[str], bool] = plausible_email,
) -> Sheet:
    """Read a player list from a CSV file's bytes."""
    try:
        text, encoding = decode(data)
    except NotText as exc:
        code = "workbook" if exc.kind == "workbook" else "not_text"
        return Sheet(rows=(), encoding="", delimiter="", header=False, problem=Reason(code))
    lines = text.splitlines()
    delimiter = ""
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is not None:
        # Excel writes "sep=;" before the header when asked to name its separator.
        match = re.fullmatch(r"\s*sep=(.)\s*", lines[first], flags=re.IGNORECASE)
        if match:
            delimiter, lines[first] = match.group(1), ""
    text = "\n".join(lines)
    delimiter = delimiter or sniff_delimiter(text)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    try:
        records = list(reader)
    except csv.Error as exc:
        return Sheet(
            rows=(),
            encoding=encoding,
            delimiter=delimiter,
            header=False,
            problem=Reason("bad_csv", (("line", reader.line_num), ("error", str(exc)))),
        )
    numbered = [
        (number, [clean_cell(cell) for cell in cells])
        for number, cells in enumerate(records, start=1)
    ]
    numbered = [(number, cells) for number, cells in numbered if any(cells)]
    if not numbered:
        return Sheet(rows=(), encoding=encoding, delimiter=delimiter, header=False)
    header = map_header(numbered[0][1])
    if header is None and _headers_without_name(numbered[0][1]):
        return Sheet(
            rows=(),
            encoding=encoding,
            delimiter=delimiter,
            header=True,
            problem=Reason("no_name_column", (("headers", ", ".join(numbered[0][1])),)),
        )
    if header is not None:
        columns, ignored = header
        header_cells = numbered[0][1]
        numbered = numbered[1:]
        width = len(header_cells)
    else:
        columns, ignored = {name: i for i, name in enumerate(POSITIONAL)}, []
        header_cells = []
        width = len(POSITIONAL)
    rows = tuple(
        _read_row(number, cells, columns, width, max_rating=max_rating, email_ok=email_ok)
        for number, cells in numbered
    )
    return Sheet(
        rows=rows,
        encoding=encoding,
        delimiter=delimiter,
        header=header is not None,
        columns=tuple(
            (name, header_cells[index] if header_cells else name)
            for name, index in sorted(columns.items(), key=lambda item: item[1])
        ),
        ignored=tuple(ignored),
    )


def _read_row(
    number: int,
    cells: list[str],
    columns: dict[str, int],
    width: int,
    *,
    max_rating: int,
    email_ok: Callable[[str], bool],
) -> SheetRow:
    def cell(name: str) -> str:
        index = columns.get(name)
        return cells[index] if index is not None and index < len(cells) else ""

    used = len(cells)
    while used and not cells[used - 1]:
        used -= 1
    if used > width:
        return SheetRow(
            number,
            cell(NAME),
            cell(CLUB),
            "",
            None,
            (Reason("too_many_cells", (("count", used), ("expected", width))),),
        )
    name = cell(NAME) or " ".join(filter(None, (cell(FIRST_NAME), cell(LAST_NAME))))
    club, email, rating_text = cell(CLUB), cell(EMAIL), cell(RATING)
    language = ""
    reasons: list[Reason] = []
    if not name:
        reasons.append(Reason("name_missing"))
    elif len(name) > NAME_MAX:
        reasons.append(Reason("name_too_long", (("max", NAME_MAX),)))
    if len(club) > CLUB_MAX:
        reasons.append(Reason("club_too_long", (("max", CLUB_MAX),)))
    if email and not email_ok(email):
        reasons.append(Reason("bad_email", (("email", email),)))
    rating = None
    if rating_text:
        try:
            rating = parse_rating(rating_text, max_rating)
        except ValueError:
            reasons.append(Reason("bad_rating", (("rating", rating_text), ("max", max_rating))))
    try:
        language = parse_language(cell(LANGUAGE))
    except ValueError:
        reasons.append(Reason("bad_language", (("language", cell(LANGUAGE)),)))
    return SheetRow(number, name, club, email, rating, tuple(reasons), language)
