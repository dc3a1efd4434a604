"""The PDF brief in every script: Chinese, Japanese, Korean and emoji in fallback
fonts, Hebrew and Arabic shaped and right to left, a note for what no font has.

The fallback fonts come from the system (Debian: fonts-wqy-microhei or fonts-droid-fallback
with fonts-nanum, and fonts-symbola; .ci/run installs them). On a machine without them the
tests that need them skip, saying what to install; on CI (``CI`` set) they fail instead.
"""

from __future__ import annotations

import os
import re
import unicodedata
from pathlib import Path

import pytest
from conftest import pdftotext_text, run_tool, word_boxes

from casefile.export import brief as brief_module
from casefile.export.brief import render_brief
from casefile.export.brief_data import (
    BriefData,
    EntityEntry,
    EventEntry,
    QuoteEntry,
    SourceEntry,
)
from casefile.export.fonts import FallbackFonts, fallback_fonts, register_fonts, to_unicode_cmap
from casefile.export.textruns import TextRuns

CHINESE, JAPANESE, KOREAN, EMOJI = "习近平", "東京都", "서울시장", "👮"
HEBREW, ARABIC = "דוד בן־גוריון", "محمد بن موسى"
ALL = (CHINESE, JAPANESE, KOREAN, EMOJI, HEBREW, ARABIC)
#: Bidi controls pdftotext puts around the runs it reorders.
_BIDI_MARKS = re.compile("[\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def need_fallback_fonts() -> None:
    """Skip (fail on CI) unless this machine has fonts for Chinese, Korean and emoji."""
    fallbacks = fallback_fonts()
    lacking = [c for c in (CHINESE[0], KOREAN[0], EMOJI) if fallbacks.font_for(c) is None]
    if not lacking:
        return
    message = (f"no font for {' '.join(lacking)} on this machine (Debian: apt-get install "
               "fonts-wqy-microhei fonts-symbola)")
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def extracted(pdf: Path) -> str:
    """pdftotext's text, bidi marks removed, NFC (no NFKC: presentation forms must not come
    back), whitespace collapsed."""
    text = _BIDI_MARKS.sub("", pdftotext_text(pdf))
    return " ".join(unicodedata.normalize("NFC", text).split())


def scripts_brief() -> BriefData:
    source = SourceEntry(number=1, title=f"Interview {JAPANESE} {ARABIC}", sha256="ab" * 32)
    return BriefData(
        case_title=f"Port contract {CHINESE} {HEBREW}",
        generated="2024-05-01",
        summary=f"Names in every script: {KOREAN} {EMOJI}.",
        people=[
            EntityEntry(name=CHINESE, kind="person", notes=f"Met {KOREAN} in {JAPANESE}."),
            EntityEntry(
                name=HEBREW, kind="person",
                quotes=[QuoteEntry(f"{ARABIC} said {EMOJI} came at noon", 1,
                                   note=f"spelled {HEBREW} in the file")],
            ),
            EntityEntry(name=ARABIC, kind="person", aliases=[HEBREW, CHINESE]),
        ],
        organizations=[EntityEntry(name=f"{KOREAN} office {EMOJI}", kind="organization")],
        places=[EntityEntry(name=JAPANESE, kind="place",
                            quotes=[QuoteEntry(f"{CHINESE} visited {JAPANESE}", 1)])],
        events=[EventEntry(title=f"Visit of {ARABIC}", date="2024-02-01",
                           description=f"{HEBREW} and {ARABIC} met")],
        sources=[source],
    )


@pytest.fixture(scope="module")
def scripts_pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    need_fallback_fonts()
    out = tmp_path_factory.mktemp("scripts") / "brief.pdf"
    render_brief(scripts_brief(), out)
    return out


def test_every_script_comes_back_out_of_the_pdf_in_logical_order(scripts_pdf: Path) -> None:
    text = extracted(scripts_pdf)
    for name in ALL:
        assert name in text, f"{name!r} not extracted"
    assert "\x00" not in text and "\ufffd" not in text
    assert "could not be printed" not in text
    # shaped Arabic extracts as its base letters, not presentation forms
    assert not re.search("[\ufb50-\ufdff\ufe70-\ufeff]", text)


def test_every_font_is_embedded_fallbacks_included(scripts_pdf: Path) -> None:
    done = run_tool("pdffonts", scripts_pdf)
    assert done.returncode == 0, done.stderr
    rows = done.stdout.splitlines()[2:]
    for row in rows:
        assert row.split()[-5] == "yes", f"font not embedded: {row}"
    names = {row.split()[0].split("+")[-1] for row in rows}
    assert any(n.startswith("DejaVuSans") for n in names)
    assert len(names - {n for n in names if n.startswith("DejaVuSans")}) >= 1, names


def test_hebrew_reads_right_to_left_on_the_page(scripts_pdf: Path) -> None:
    words = word_boxes(scripts_pdf)
    # pdftotext -bbox gives each word's letters in drawing order (left to right)
    first = [w for w in words if w.text == "דוד"[::-1]]
    second = [w for w in words if w.text == "בן־גוריון"[::-1]]
    assert first and second
    # on a line where both words are printed, the first word is to the right of the second
    pairs = [(a, b) for a in first for b in second
             if a.page == b.page and abs(a.y_min - b.y_min) < 1]
    assert pairs
    for a, b in pairs:
        assert a.x_min > b.x_max, (a, b)


def test_a_long_right_to_left_quote_reads_in_order_line_after_line(tmp_path: Path) -> None:
    words = [f"{ARABIC.split()[0]}{'ابتثجحخدذرزسشصضطظعغفقكلمنهوي'[i % 28]}" for i in range(60)]
    quote = " ".join(words)
    data = BriefData(case_title="Long quote", generated="2024-05-01",
                     people=[EntityEntry(name="Someone", kind="person",
                                         quotes=[QuoteEntry(quote, 1)])],
                     sources=[SourceEntry(number=1, title="Source", sha256="cd" * 32)])
    out = tmp_path / "long.pdf"
    render_brief(data, out)
    # pdftotext -bbox gives each word's letters in drawing order (left to right)
    boxes = [w for w in word_boxes(out) if w.text.strip("“”")[::-1] in words]
    lines: dict[tuple[int, int], list] = {}
    for w in boxes:
        lines.setdefault((w.page, round(w.y_min)), []).append(w)
    assert len(lines) >= 3, "the quote should take several lines"
    # each line, read right to left, continues where the line above stopped
    order = []
    for key in sorted(lines):
        order += [w.text.strip("“”")[::-1]
                  for w in sorted(lines[key], key=lambda w: -w.x_min)]
    assert order == words
    # and pdftotext reads the lines back in logical order
    assert [t.strip("“”") for t in extracted(out).split() if t.strip("“”") in words] == words


def test_markup_characters_between_runs_are_printed_not_obeyed(tmp_path: Path) -> None:
    need_fallback_fonts()
    name = f'{CHINESE}<b>&amp;</b> "{KOREAN}" <font name="x">{EMOJI}'
    data = BriefData(case_title="Markup", generated="2024-05-01",
                     people=[EntityEntry(name=name, kind="person")])
    out = tmp_path / "markup.pdf"
    render_brief(data, out)
    assert " ".join(name.split()) in extracted(out)


def test_a_character_no_font_has_is_noted_not_a_silent_box(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    nothing = FallbackFonts(dirs=[tmp_path / "no-fonts"], use_fontconfig=False)
    monkeypatch.setattr(brief_module, "fallback_fonts", lambda: nothing)
    data = BriefData(case_title="Missing", generated="2024-05-01",
                     people=[EntityEntry(name=f"Mr {CHINESE[0]} of the port", kind="person")])
    out = tmp_path / "missing.pdf"
    render_brief(data, out)
    text = extracted(out)
    assert "1 character could not be printed" in text
    assert "U+4E60" in text and "Mr \ufffd of the port" in text
    assert "\x00" not in text


def test_header_prints_a_title_in_other_scripts(scripts_pdf: Path) -> None:
    done = run_tool("pdftotext", "-enc", "UTF-8", "-f", "2", "-l", "2", "-y", "0", "-H", "60",
                    "-W", "612", "-x", "0", scripts_pdf, "-")
    header = " ".join(_BIDI_MARKS.sub("", done.stdout).split())
    assert CHINESE in header and HEBREW in header


def test_to_unicode_map_writes_surrogate_pairs_and_base_letters() -> None:
    cmap = to_unicode_cmap("F", [0, 0x41, 0x1F46E, 0xFEE3, 0xFEFB])
    assert "<01> <0041>" in cmap
    assert "<02> <D83DDC6E>" in cmap  # 👮 as a UTF-16 surrogate pair
    assert "<03> <0645>" in cmap  # initial meem -> meem
    assert "<04> <06270644>" in cmap  # lam-alef ligature -> alef, lam (drawing order)


def test_latin_text_is_only_escaped() -> None:
    runs = TextRuns(register_fonts(), FallbackFonts(dirs=[], use_fontconfig=False))
    assert runs.markup("Łódź <b> & “quotes”") == "Łódź &lt;b&gt; &amp; “quotes”"
    assert runs.missing == {}


def test_arabic_ligatures_extract_as_their_letters(tmp_path: Path) -> None:
    name = "سلام الله"  # lam-alef is drawn as one glyph
    data = BriefData(case_title="Ligature", generated="2024-05-01",
                     places=[EntityEntry(name=name, kind="place")])
    out = tmp_path / "ligature.pdf"
    render_brief(data, out)
    assert name in extracted(out)


@pytest.mark.parametrize("withheld", [HEBREW, ARABIC])
def test_self_check_finds_a_right_to_left_name_inside_a_left_to_right_line(
    tmp_path: Path, withheld: str
) -> None:
    from casefile.export.pdf_check import ProtectedStringFoundError

    data = BriefData(case_title="Check", generated="2024-05-01",
                     people=[EntityEntry(name="Someone", kind="person",
                                         notes=f"Spoke to {withheld} on Monday.")])
    out = tmp_path / "check.pdf"
    with pytest.raises(ProtectedStringFoundError) as caught:
        render_brief(data, out, protected=[withheld])
    assert caught.value.found == withheld
    assert not out.exists()
