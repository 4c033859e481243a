"""The drawing surface: paper sizes, the shipped fonts, QR codes, text that never gets cut,
folded tents, tables over pages with their headings repeated."""

from __future__ import annotations

import re

import pytest
import segno
from django.utils import translation
from pypdf import PdfReader

from events.printing.pdf import PAPER, PT_PER_MM, QR_MASK, KitPdf
from tests.support.printing import embedded_fonts, opened, page_sizes_mm, text_of

EVERY_SCRIPT = "Tõnu Šmidt Žanna Ülle Öö Ää Иван Петров Γιώργος Παπαδόπουλος"


def test_pages_have_the_paper_and_orientation_asked_for():
    for paper, (width, height) in PAPER.items():
        pdf = KitPdf(title="t", paper=paper)
        pdf.add_page()
        landscape = KitPdf(title="t", paper=paper, orientation="L")
        landscape.add_page()
        assert page_sizes_mm(opened(pdf.to_bytes())) == [(width, height)]
        assert page_sizes_mm(opened(landscape.to_bytes())) == [(height, width)]


def test_unknown_paper_or_orientation_is_refused():
    with pytest.raises(ValueError):
        KitPdf(title="t", paper="Letter")
    with pytest.raises(ValueError):
        KitPdf(title="t", orientation="X")


def test_metadata_title_and_the_active_language():
    with translation.override("et"):
        pdf = KitPdf(title="LinCon 2026: Blokus")
    reader = opened(pdf.to_bytes())
    assert reader.metadata.title == "LinCon 2026: Blokus"
    assert reader.trailer["/Root"]["/Lang"] == "et"
    assert len(reader.pages) == 1  # an empty document still opens


def test_estonian_cyrillic_and_greek_print_in_the_shipped_font(caplog):
    pdf = KitPdf(title="t")
    pdf.add_page()
    pdf.fit_text(EVERY_SCRIPT, 10, 10, 190, 10, size=12)
    pdf.fit_text(EVERY_SCRIPT, 10, 30, 190, 10, size=12, style="B")
    reader = opened(pdf.to_bytes())
    assert "missing" not in caplog.text.lower()
    assert embedded_fonts(reader) == {"DejaVuSansBook", "DejaVuSansBold"}
    text = text_of(reader)
    for word in EVERY_SCRIPT.split():
        assert word in text


def test_fit_text_shrinks_a_long_name_instead_of_cutting_it():
    pdf = KitPdf(title="t")
    pdf.add_page()
    name = "Maximilian Alexander von Hohenzollern-Sigmaringen"
    pdf.fit_text(name, 10, 10, 60, 8, size=20)
    assert pdf.font_size_pt < 20
    assert pdf.get_string_width(name) <= 60
    pdf.fit_text("Short", 10, 30, 100, 8, size=20)
    assert pdf.font_size_pt == 20
    assert name in text_of(opened(pdf.to_bytes()))


def test_fit_text_wraps_below_the_smallest_size():
    pdf = KitPdf(title="t")
    pdf.add_page()
    pdf.fit_text("Anna Maria Magdalena Kuusk-Tamm", 10, 10, 15, 12, size=12, min_size=6)
    text = text_of(opened(pdf.to_bytes()))
    for word in ("Anna", "Maria", "Magdalena", "Kuusk-Tamm"):
        assert word in text


def test_qr_code_draws_exactly_the_codes_dark_modules_in_its_square():
    url = "https://events.example.org/e/lincon/blokus/player/12/"
    pdf = KitPdf(title="t")
    pdf.add_page()
    x, y, size = 20.0, 30.0, 45.0
    pdf.qr(url, x, y, size)
    content = opened(pdf.to_bytes()).pages[0].get_contents().get_data().decode()
    code = segno.make_qr(url, error="m", mask=QR_MASK)
    modules = code.symbol_size(scale=1, border=4)[0]
    module = size / modules
    # The code's own coordinates: one module a unit, its first dark row at the top.
    place = re.search(r"q ([\d.]+) 0 0 (-[\d.]+) ([\d.]+) ([\d.]+) cm\n(.*?) f Q", content, re.S)
    assert place is not None
    unit, flipped, left, top = (float(v) / PT_PER_MM for v in place.groups()[:4])
    assert unit == pytest.approx(module, abs=1e-3) and flipped == pytest.approx(-module, abs=1e-3)
    assert left == pytest.approx(x + 4 * module, abs=1e-3)  # the quiet zone: four modules
    assert top == pytest.approx(pdf.h - y - 4 * module, abs=1e-3)
    dark = set()
    for run in re.finditer(r"(\d+) (\d+) (\d+)\.02 1\.02 re", place.group(5)):
        column, row, length = (int(v) for v in run.groups())
        dark.update((row, c) for c in range(column, column + length))
    expected = {(r, c) for r, line in enumerate(code.matrix) for c, v in enumerate(line) if v}
    assert dark == expected


def test_coded_qr_links_its_address_and_prints_the_code_under_it_only_when_there_is_one():
    pdf = KitPdf(title="t")
    pdf.add_page()
    pdf.coded_qr("https://example.org/t/1/", 10, 10, 40, label="Table code", code="K7QX")
    pdf.add_page()
    pdf.coded_qr("https://example.org/t/2/", 10, 10, 40, label="Table code")
    reader = opened(pdf.to_bytes())
    first, second = (page.extract_text() for page in reader.pages)
    assert "Table code" in first and "K7QX" in first
    assert "Table code" not in second
    links = [
        [annot.get_object()["/A"]["/URI"] for annot in page["/Annots"]] for page in reader.pages
    ]
    assert links == [["https://example.org/t/1/"], ["https://example.org/t/2/"]]


def test_tent_draws_each_face_twice_the_upper_turned():
    pdf = KitPdf(title="t", paper="A5")
    faces = []

    def face(x, y, w, h):
        faces.append((x, y, w, h))
        pdf.fit_text("Table 7", x, y, w, h, size=40)

    pdf.tent(face)
    pdf.tent(face)
    reader = opened(pdf.to_bytes())
    assert page_sizes_mm(reader) == [(148, 210), (148, 210)]
    assert len(faces) == 4
    x, y, w, h = faces[0]
    assert y > 105 and y + h < 210  # the lower half; the rotation puts its copy above the fold
    assert b" cm" in reader.pages[0].get_contents().get_data()  # the turned copy
    assert text_of(reader).count("Table 7") == 4


def test_grid_table_repeats_title_and_headings_on_every_page():
    pdf = KitPdf(title="t", orientation="L")
    rows = [[str(n), f"Player {n:03d}", "Club Ääretu", str(n * 3)] for n in range(1, 121)]
    pdf.grid_table(
        ["Place", "Player", "Club", "Points"],
        rows,
        widths=[1, 4, 3, 1],
        title="Standings",
        align=["R", "L", "L", "R"],
    )
    reader: PdfReader = opened(pdf.to_bytes())
    assert len(reader.pages) >= 4
    for number, page in enumerate(reader.pages, start=1):
        text = page.extract_text()
        assert "Standings" in text and "Player" in text and "Points" in text
        assert f"{number} / {len(reader.pages)}" in text
    whole = text_of(reader)
    assert "Player 001" in whole and "Player 120" in whole


def test_grid_table_needs_one_width_per_heading():
    pdf = KitPdf(title="t")
    with pytest.raises(ValueError):
        pdf.grid_table(["a", "b"], [], widths=[1])
