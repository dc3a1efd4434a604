"""The brief's markup read without reportlab's HTML parser gives reportlab's own fragments:
every paragraph of a brief prints the same words in the same fonts and colours, and markup the
brief does not write is left to reportlab."""

from __future__ import annotations

from typing import Any

import pytest
from reportlab.platypus.paragraph import cleanBlockQuotedText, textTransformFrags
from reportlab.platypus.paraparser import ParaParser

from casefile.export import brief_layout, brief_sections, para_markup
from casefile.export.brief_data import BriefData, EntityEntry, QuoteEntry
from casefile.export.brief_layout import _Styles, _text
from casefile.export.fonts import fallback_fonts, register_fonts
from casefile.export.textruns import TextRuns, using_runs


def reportlab_parse(markup: str, style: Any) -> tuple[str, list[dict[str, Any]]]:
    """What ``Paragraph(markup, style)`` sets: its folded text and its fragments."""
    parser = ParaParser()
    parser.caseSensitive = 1
    text = cleanBlockQuotedText(markup)
    _style, frags, _bullet = parser.parse(text, style)
    textTransformFrags(frags, style)
    return text, [f.__dict__ for f in frags]


def fast_parse(markup: str, style: Any) -> tuple[str, list[dict[str, Any]]] | None:
    parsed = para_markup.parse(markup, style)
    return None if parsed is None else (parsed[0], [f.__dict__ for f in parsed[1]])


@pytest.fixture(scope="module")
def styles() -> _Styles:
    return _Styles(register_fonts())


USER_TEXTS = [
    "Plain words",
    "  spaced   out \n over lines  ",
    "AT&T <b>not bold</b> & <i> \"quoted\" 'single' > < &amp;",
    "Café — naïve “curly” ‘quotes’ … 10 €",
    "Line one\nLine two\n\nafter a blank line",
    "习近平 met 東京都 officials and 서울시장 👮",
    "דוד בן־גוריון said محمد بن موسى",
    "",
]


@pytest.mark.parametrize("user", USER_TEXTS)
def test_user_text_in_every_style_parses_as_reportlab_does(user: str, styles: _Styles) -> None:
    runs = TextRuns(styles.fonts, fallback_fonts())
    with using_runs(runs):
        markups = [
            _text(user),
            _text(user, keep_newlines=True),
            f"<b>{_text(user)}</b> " + '<font color="#1f3a5f">[3], p. 2</font>',
            f"<i>contradicts:</i> “{_text(user)}” " + '<font color="#1f3a5f">[12]</font>',
            '<font color="#b3261e"><b>[confidential]</b></font> ' + _text(user),
        ]
    for markup in markups:
        for style in (styles.body, styles.quote, styles.meta, styles.h2, styles.source):
            assert fast_parse(markup, style) == reportlab_parse(markup, style), markup


@pytest.mark.parametrize("markup", [
    '<font size="9.5" color="#1b1b1b">x</font>',  # another attribute
    "<u>underlined</u>",
    "&#169; a character reference",
    "&nbsp;",
    "<para>a paragraph tag</para>",
    "a stray < sign",
    "a stray & sign",
    "<b>unclosed",
])
def test_other_markup_is_left_to_reportlab(markup: str, styles: _Styles) -> None:
    assert para_markup.parse(markup, styles.body) is None


def test_every_paragraph_of_a_brief_is_read_as_reportlab_reads_it(
    sample_brief: BriefData, styles: _Styles, monkeypatch: pytest.MonkeyPatch,
) -> None:
    made: list[tuple[str, Any]] = []
    plain_init = brief_layout._Paragraph.__init__

    def recording(self: Any, text: Any, style: Any = None, *args: Any, **kwargs: Any) -> None:
        if text is not None and kwargs.get("frags") is None:
            made.append((text, style))
        plain_init(self, text, style, *args, **kwargs)

    monkeypatch.setattr(brief_layout._Paragraph, "__init__", recording)
    data = BriefData(**{**sample_brief.__dict__, "people": [*sample_brief.people, EntityEntry(
        name="A <b>B</b> & C", kind="person", role="<i>",
        quotes=[QuoteEntry("x < y & z", 1, relation="contradicts", note="n & m")])]})
    with using_runs(TextRuns(styles.fonts, fallback_fonts())):
        story = brief_sections._story(data, styles)
    assert story and len(made) > 50
    fast = 0
    for text, style in made:
        parsed = fast_parse(text, style)
        if parsed is not None:
            fast += 1
            assert parsed == reportlab_parse(text, style), text
    assert fast >= len(made) - 3  # the cover's banner (font size) is reportlab's to read
