"""The admin's forms as a browser would post them."""

from __future__ import annotations

from html.parser import HTMLParser


def posted(html: str, templates: bool = False) -> dict[str, list[str]]:
    """What a browser posts; with ``templates``, also the inlines' empty rows ("__prefix__"),
    which the page's script copies when a row is added."""
    reader = FormReader()
    reader.feed(html)
    return {k: v for k, v in reader.data.items() if templates or "__prefix__" not in k}


class FormReader(HTMLParser):
    """The name -> values a browser would submit for the admin's change form."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.data: dict[str, list[str]] = {}
        self.in_form = False
        self.select: str | None = None
        self.select_has_selected = False
        self.first_option: str | None = None
        self.textarea: str | None = None
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form" and a.get("id", "").endswith("_form"):
            self.in_form = True
        if not self.in_form:
            return
        name = a.get("name")
        if tag == "input" and name:
            kind = a.get("type", "text")
            if kind in ("submit", "button", "file", "image", "reset"):
                return
            if kind in ("checkbox", "radio") and "checked" not in a:
                return
            self.data.setdefault(name, []).append(
                a.get("value", "on" if kind == "checkbox" else "")
            )
        elif tag == "select" and name:
            self.select, self.select_has_selected, self.first_option = name, False, None
            self.multiple = "multiple" in a
            self.data.setdefault(name, [])
        elif tag == "option" and self.select:
            value = a.get("value", "")
            if self.first_option is None:
                self.first_option = value
            if "selected" in a:
                self.data[self.select].append(value)
                self.select_has_selected = True
        elif tag == "textarea" and name:
            self.textarea, self.text = name, []

    def handle_data(self, data: str) -> None:
        if self.textarea:
            self.text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.in_form = False
        elif tag == "select" and self.select:
            if not self.select_has_selected and not self.multiple and self.first_option is not None:
                self.data[self.select].append(self.first_option)
            self.select = None
        elif tag == "textarea" and self.textarea:
            self.data[self.textarea] = ["".join(self.text).lstrip("\n")]
            self.textarea = None
