"""The print kit: server-made PDFs from the desk (a capability room: LAYOUT.md). The drawing
surface is ``pdf.KitPdf`` (fpdf2, the shipped fonts of ``fonts/``); the shared documents are one
module each; what a format prints of its own comes through ``contract.PrintedTables``."""
