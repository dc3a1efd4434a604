"""Find and register the Unicode TrueType font the PDF brief is set in.

The brief must print any name exactly as typed (``Łódź``, curly quotes, accents), so it cannot use
the PDF base-14 fonts, which only cover Latin-1. It embeds a TrueType font instead, found without
any download, in this order:

1. Fonts shipped with Casefile itself in ``casefile.resources/fonts`` (the desktop bundle puts
   DejaVu Sans and a CJK fallback there: ``scripts/build_bundle.py``); a source checkout has none.
2. DejaVu Sans shipped inside the installed ``matplotlib`` package (``mpl-data/fonts/ttf``), which
   is a declared dependency of Casefile. The package is located with
   :func:`importlib.util.find_spec` and never imported (importing it is slow and pulls in numpy).
3. DejaVu Sans, Noto Sans or Liberation Sans installed on the system, in the usual font folders of
   Linux, macOS and Windows.

If none is found, :class:`~casefile.export.errors.FontNotFoundError` says what to install.

DejaVu has no Chinese, Japanese, Korean or emoji, so :func:`fallback_fonts` finds more fonts for
the characters it lacks (see :mod:`casefile.export.textruns`, which splits text into runs by the
font that has each character): first the files of :data:`FALLBACK_FILES` in the shipped and
the system font folders (Debian's ``fonts-wqy-microhei``, ``fonts-droid-fallback``, ``fonts-nanum``,
``fonts-symbola``; Windows' Microsoft YaHei, Malgun Gothic, Segoe UI Emoji/Symbol; macOS' Arial
Unicode, STHeiti, AppleGothic), then, for characters still without a font, any TrueType font
that fontconfig (``fc-list``) says has them. reportlab embeds TrueType (``glyf``) outlines
only, so a CFF-flavoured OpenType font (e.g. Noto Sans CJK) or a bitmap emoji font (Noto Color
Emoji, Apple Color Emoji) is skipped.

Every font is registered as a :class:`ExtractableTTFont`: reportlab's own ToUnicode map writes
characters above U+FFFF as five hex digits (invalid, so an emoji extracts as garbage) and maps
Arabic presentation forms to themselves; ours writes UTF-16 surrogate pairs and maps the
presentation forms (which the shaped Arabic text is drawn with) back to their base letters, so
``pdftotext`` and search give back ``محمد`` and not ``ﻣﺤﻤﺪ``.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import SUBSETN, TTFError, TTFont

from casefile.export.errors import FontNotFoundError

__all__ = [
    "FALLBACK_FILES",
    "FAMILIES",
    "ExtractableTTFont",
    "FallbackFont",
    "FallbackFonts",
    "FontFamily",
    "FontFiles",
    "RegisteredFonts",
    "fallback_fonts",
    "find_font_files",
    "font_chars",
    "is_cjk",
    "register_fonts",
    "system_font_dirs",
    "to_unicode_cmap",
]


@dataclass(frozen=True)
class FontFamily:
    """File names of the four faces of one font family (regular is the only one required)."""

    name: str
    regular: str
    bold: str
    italic: str
    bold_italic: str


#: Families tried, best first. All three cover Latin, Greek and Cyrillic and the typographic
#: quotes and dashes a reporter types.
FAMILIES: tuple[FontFamily, ...] = (
    FontFamily(
        "DejaVu Sans",
        "DejaVuSans.ttf",
        "DejaVuSans-Bold.ttf",
        "DejaVuSans-Oblique.ttf",
        "DejaVuSans-BoldOblique.ttf",
    ),
    FontFamily(
        "Noto Sans",
        "NotoSans-Regular.ttf",
        "NotoSans-Bold.ttf",
        "NotoSans-Italic.ttf",
        "NotoSans-BoldItalic.ttf",
    ),
    FontFamily(
        "Liberation Sans",
        "LiberationSans-Regular.ttf",
        "LiberationSans-Bold.ttf",
        "LiberationSans-Italic.ttf",
        "LiberationSans-BoldItalic.ttf",
    ),
)


@dataclass(frozen=True)
class FontFiles:
    """Paths of the four faces found for one family.

    A face missing on disk is replaced by the regular face, so text still prints (only without
    the bold or italic look).
    """

    family: str
    regular: Path
    bold: Path
    italic: Path
    bold_italic: Path


@dataclass(frozen=True)
class RegisteredFonts:
    """reportlab font names to use after :func:`register_fonts`.

    ``regular`` is also the family name: ``<b>`` and ``<i>`` in Paragraph markup set in it pick
    ``bold`` / ``italic`` / ``bold_italic`` automatically.
    """

    regular: str
    bold: str
    italic: str
    bold_italic: str
    files: FontFiles


def matplotlib_font_dir() -> Path | None:
    """Return ``mpl-data/fonts/ttf`` of the installed matplotlib, or None if not installed.

    matplotlib is found with :func:`importlib.util.find_spec`, not imported.
    """
    try:
        spec = importlib.util.find_spec("matplotlib")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        candidate = Path(location) / "mpl-data" / "fonts" / "ttf"
        if candidate.is_dir():
            return candidate
    return None


def packaged_font_dir() -> Path | None:
    """Return the ``fonts`` folder of the installed ``casefile.resources`` package (where the
    desktop bundle ships its fonts), or None when there is none (a source checkout)."""
    try:
        from importlib import resources

        folder = Path(str(resources.files("casefile.resources") / "fonts"))
    except (ImportError, TypeError, ValueError):
        return None
    return folder if folder.is_dir() else None


def system_font_dirs() -> list[Path]:
    """Return the usual font folders of this platform (Linux, macOS or Windows), existing or not."""
    home = Path.home()
    if sys.platform == "win32":
        windir = Path(os.environ.get("WINDIR", r"C:\Windows"))
        dirs = [windir / "Fonts"]
        local = os.environ.get("LOCALAPPDATA")
        if local:
            dirs.append(Path(local) / "Microsoft" / "Windows" / "Fonts")
        return dirs
    if sys.platform == "darwin":
        return [
            home / "Library" / "Fonts",
            Path("/Library/Fonts"),
            Path("/System/Library/Fonts"),
            Path("/System/Library/Fonts/Supplemental"),
        ]
    data_home = Path(os.environ.get("XDG_DATA_HOME") or home / ".local" / "share")
    dirs = [data_home / "fonts", home / ".fonts"]
    for data_dir in (os.environ.get("XDG_DATA_DIRS") or "/usr/local/share:/usr/share").split(":"):
        if data_dir:
            dirs.append(Path(data_dir) / "fonts")
    dirs.append(Path("/usr/share/fonts"))  # always, even when XDG_DATA_DIRS leaves it out
    unique: list[Path] = []
    for d in dirs:
        if d not in unique:
            unique.append(d)
    return unique


def _index_ttf_files(roots: Iterable[Path], wanted: set[str]) -> dict[str, Path]:
    """Map each wanted file name (lower case) to the first file found under ``roots``."""
    found: dict[str, Path] = {}
    for root in roots:
        if not root.is_dir():
            continue
        for dirpath, _dirnames, filenames in os.walk(root):
            for filename in filenames:
                key = filename.lower()
                if key in wanted and key not in found:
                    found[key] = Path(dirpath) / filename
            if len(found) == len(wanted):
                return found
    return found


def _search_order(
    dirs: Sequence[Path] | None, include_matplotlib: bool, include_system: bool
) -> Iterator[list[Path]]:
    if dirs:
        yield list(dirs)
    shipped = packaged_font_dir() if include_matplotlib else None
    if shipped is not None:
        yield [shipped]
    if include_matplotlib:
        mpl = matplotlib_font_dir()
        if mpl is not None:
            yield [mpl]
    if include_system:
        yield system_font_dirs()


def find_font_files(
    dirs: Sequence[Path] | None = None,
    *,
    include_matplotlib: bool = True,
    include_system: bool = True,
) -> FontFiles:
    """Locate the TrueType files of the first usable family in :data:`FAMILIES`.

    Places are tried in order: ``dirs`` (searched recursively; for tests and packagers), then
    the fonts shipped with Casefile (:func:`packaged_font_dir`) and matplotlib's (both left out
    with ``include_matplotlib=False``), then :func:`system_font_dirs`. Within a place, families
    are tried best first; a family counts only if its regular face exists.

    Raises:
        FontNotFoundError: nothing usable anywhere; the message names the fonts to install.
    """
    wanted = {
        name.lower()
        for fam in FAMILIES
        for name in (fam.regular, fam.bold, fam.italic, fam.bold_italic)
    }
    for roots in _search_order(dirs, include_matplotlib, include_system):
        index = _index_ttf_files(roots, wanted)
        for fam in FAMILIES:
            regular = index.get(fam.regular.lower())
            if regular is None:
                continue
            return FontFiles(
                family=fam.name,
                regular=regular,
                bold=index.get(fam.bold.lower(), regular),
                italic=index.get(fam.italic.lower(), regular),
                bold_italic=index.get(fam.bold_italic.lower(), regular),
            )
    raise FontNotFoundError(
        "No Unicode font found for the PDF brief: reinstall Casefile (its matplotlib dependency "
        "ships DejaVu Sans) or install DejaVu Sans, Noto Sans or Liberation Sans."
    )


def register_fonts(files: FontFiles | None = None) -> RegisteredFonts:
    """Register the brief's font family with reportlab and return the names to use.

    ``files`` defaults to :func:`find_font_files`. Registering is idempotent: the same files give
    the same names, and registering again is cheap. The fonts are embedded (subset) in every PDF
    that uses them.

    Raises:
        FontNotFoundError: no font was found, or a found file is not a readable TrueType font.
    """
    if files is None:
        files = find_font_files()
    base = "Casefile-" + files.family.replace(" ", "")
    names = RegisteredFonts(
        regular=base,
        bold=base + "-Bold",
        italic=base + "-Italic",
        bold_italic=base + "-BoldItalic",
        files=files,
    )
    faces = (
        (names.regular, files.regular, 0, 0),
        (names.bold, files.bold, 1, 0),
        (names.italic, files.italic, 0, 1),
        (names.bold_italic, files.bold_italic, 1, 1),
    )
    registered = set(pdfmetrics.getRegisteredFontNames())
    for font_name, path, bold, italic in faces:
        if font_name not in registered:
            try:
                pdfmetrics.registerFont(ExtractableTTFont(font_name, str(path)))
            except (TTFError, OSError) as exc:
                raise FontNotFoundError(
                    f"The font file {path} cannot be used for the PDF brief: {exc}"
                ) from exc
        addMapping(names.regular, bold, italic, font_name)
    return names


# --------------------------------------------------------------------------------------------
# Text extraction: a correct ToUnicode map


def _utf16_hex(text: str) -> str:
    """``text`` as the hex digits of its UTF-16BE code units (a ToUnicode destination)."""
    return text.encode("utf-16-be").hex().upper()


def _extracted_as(code: int) -> str:
    """What a glyph drawn for code point ``code`` should extract as: the character itself, or
    for an Arabic presentation form (U+FB50–U+FDFF, U+FE70–U+FEFF) its base letters (NFKC).

    A ligature of several letters (lam-alef) maps to them in drawing order, right to left
    (alef, lam): right-to-left text is drawn in display order and extractors such as
    ``pdftotext`` reverse it character by character back to logical order."""
    char = chr(code)
    if 0xFB50 <= code <= 0xFDFF or 0xFE70 <= code <= 0xFEFF:
        letters = unicodedata.normalize("NFKC", char) or char
        return letters[::-1] if len(letters) > 1 and letters.strip() == letters else letters
    return char


def to_unicode_cmap(fontname: str, subset: Sequence[int]) -> str:
    """A ToUnicode CMap for one 256-code subset of a TrueType font: code ``i`` draws the glyph
    of code point ``subset[i]`` and extracts as :func:`_extracted_as` of it, in UTF-16BE."""
    lines = [
        "/CIDInit /ProcSet findresource begin",
        "12 dict begin",
        "begincmap",
        "/CIDSystemInfo",
        f"<< /Registry ({fontname})",
        f"/Ordering ({fontname})",
        "/Supplement 0",
        ">> def",
        f"/CMapName /{fontname} def",
        "/CMapType 2 def",
        "1 begincodespacerange",
        f"<00> <{len(subset) - 1:02X}>",
        "endcodespacerange",
        f"{len(subset)} beginbfchar",
        *(f"<{i:02X}> <{_utf16_hex(_extracted_as(v))}>" for i, v in enumerate(subset)),
        "endbfchar",
        "endcmap",
        "CMapName currentdict /CMap defineresource pop",
        "end",
        "end",
    ]
    return "\n".join(lines)


class ExtractableTTFont(TTFont):
    """A reportlab TTFont whose embedded subsets carry :func:`to_unicode_cmap` maps (surrogate
    pairs above U+FFFF, Arabic presentation forms extract as base letters)."""

    def addObjects(self, doc: Any) -> None:  # noqa: N802 - reportlab's name
        state = self.state.get(doc)
        subsets = [list(s) for s in state.subsets] if state is not None else []
        super().addObjects(doc)  # forgets the state of ``doc``
        for n, subset in enumerate(subsets):
            base = b"".join((SUBSETN(n), b"+", self.face.name, self.face.subfontNameX))
            name = base.decode("pdfdoc")
            stream = doc.idToObject.get("toUnicodeCMap:" + name)
            if stream is not None:
                stream.content = to_unicode_cmap(name, subset)


# --------------------------------------------------------------------------------------------
# Fallback fonts for the characters DejaVu lacks


#: Fallback font files tried in order, by file name (case-insensitive), anywhere under
#: :func:`system_font_dirs`: ``(file name, index in a .ttc collection, kind)``. All have
#: TrueType outlines. Kind ``cjk`` (Chinese, Japanese, Korean) is tried first for a character
#: of those scripts (:func:`is_cjk`), kind ``symbols`` (monochrome emoji, symbols) first for
#: any other.
FALLBACK_FILES: tuple[tuple[str, int, str], ...] = (
    ("wqy-microhei.ttc", 0, "cjk"),  # Debian fonts-wqy-microhei: Han, kana, Hangul
    ("DroidSansFallbackFull.ttf", 0, "cjk"),  # Debian fonts-droid-fallback: Han, kana
    ("DroidSansFallback.ttf", 0, "cjk"),
    ("NanumGothic.ttf", 0, "cjk"),  # Debian fonts-nanum: Hangul
    ("msyh.ttc", 0, "cjk"),  # Windows: Microsoft YaHei
    ("msyh.ttf", 0, "cjk"),
    ("malgun.ttf", 0, "cjk"),  # Windows: Malgun Gothic
    ("msgothic.ttc", 0, "cjk"),  # Windows: MS Gothic
    ("simsun.ttc", 0, "cjk"),  # Windows: SimSun
    ("Arial Unicode.ttf", 0, "cjk"),  # macOS
    ("STHeiti Light.ttc", 0, "cjk"),  # macOS
    ("STHeiti Medium.ttc", 0, "cjk"),
    ("AppleGothic.ttf", 0, "cjk"),  # macOS: Hangul
    ("Symbola.ttf", 0, "symbols"),  # Debian fonts-symbola: monochrome emoji and symbols
    ("Symbola_hint.ttf", 0, "symbols"),
    ("seguiemj.ttf", 0, "symbols"),  # Windows: Segoe UI Emoji (its glyf outlines)
    ("seguisym.ttf", 0, "symbols"),  # Windows: Segoe UI Symbol
    ("Apple Symbols.ttf", 0, "symbols"),  # macOS
)


@dataclass(frozen=True)
class FallbackFont:
    """One registered fallback font: its reportlab name (a family whose bold and italic are the
    same face), the file, and the characters it has (``chars``: a frozenset of 1-char str)."""

    name: str
    path: Path
    subfont: int
    chars: frozenset[str]


def font_chars(font_name: str) -> frozenset[str]:
    """The characters a registered TrueType font has a glyph for (its cmap), as 1-char str."""
    face = pdfmetrics.getFont(font_name).face
    return frozenset(map(chr, face.charToGlyph)) - {"\0"}


def _register_fallback(path: Path, subfont: int) -> FallbackFont | None:
    """Register one fallback font file (all four styles map to its one face); None if it
    cannot be embedded (CFF outlines, bitmap-only, unreadable)."""
    stem = "".join(c for c in path.stem if c.isalnum()) or "Font"
    name = f"Casefile-Fallback-{stem}-{subfont}"
    if name not in pdfmetrics.getRegisteredFontNames():
        try:
            font = ExtractableTTFont(name, str(path), subfontIndex=subfont)
        except (TTFError, OSError, ValueError, KeyError, IndexError):
            return None
        pdfmetrics.registerFont(font)
        for bold in (0, 1):
            for italic in (0, 1):
                addMapping(name, bold, italic, name)
    return FallbackFont(name, path, subfont, font_chars(name))


def _fontconfig_files(char: str) -> list[tuple[Path, int]]:
    """TrueType fonts fontconfig says have ``char``, best match first (empty without fc-list)."""
    exe = shutil.which("fc-list")
    if exe is None:
        return []
    try:
        done = subprocess.run(
            [exe, "--format", "%{file}|%{index}\\n", f":charset={ord(char):x}:fontformat=TrueType"],
            capture_output=True, text=True, timeout=10, check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return []
    found: list[tuple[Path, int]] = []
    for line in sorted(done.stdout.splitlines()):
        file, _sep, index = line.rpartition("|")
        if file and file.lower().endswith((".ttf", ".ttc")):
            found.append((Path(file), int(index) if index.isdigit() else 0))
    return found


_CJK_RANGES = (
    (0x1100, 0x11FF), (0x2E80, 0x9FFF), (0xA960, 0xA97F), (0xAC00, 0xD7FF),
    (0xF900, 0xFAFF), (0xFE30, 0xFE4F), (0xFF00, 0xFFEF), (0x20000, 0x3FFFF),
)


def is_cjk(char: str) -> bool:
    """True for a Han, kana, Hangul or CJK punctuation / full-width character."""
    code = ord(char)
    return any(lo <= code <= hi for lo, hi in _CJK_RANGES)


class FallbackFonts:
    """The fallback fonts of this machine, found and registered on first need.

    :meth:`font_for` answers which fallback has a character. The known files
    (:data:`FALLBACK_FILES`) are located the first time any character is asked about and each
    is loaded (parsed, registered) only when the ones before it lack a character asked about;
    fontconfig is asked about a character none of them has (at most :attr:`MAX_LOOKUPS` such
    characters per process, each once).
    """

    MAX_LOOKUPS = 64

    def __init__(self, dirs: Sequence[Path] | None = None, *, use_fontconfig: bool = True) -> None:
        self._dirs = list(dirs) if dirs is not None else None
        self._use_fontconfig = use_fontconfig
        self._fonts: list[FallbackFont] = []
        self._pending: list[tuple[Path, int, str]] | None = None
        self._tried: set[tuple[Path, int]] = set()
        self._asked: set[str] = set()
        self._answers: dict[str, str | None] = {}

    @property
    def fonts(self) -> list[FallbackFont]:
        """The fallback fonts loaded so far, in the order they are tried."""
        return list(self._fonts)

    def _known_files(self) -> list[tuple[Path, int, str]]:
        if self._dirs is not None:
            roots = self._dirs
        else:
            shipped = packaged_font_dir()
            roots = ([shipped] if shipped is not None else []) + system_font_dirs()
        wanted = {name.lower() for name, _index, _kind in FALLBACK_FILES}
        index = _index_ttf_files(roots, wanted)
        return [(index[name.lower()], subfont, kind) for name, subfont, kind in FALLBACK_FILES
                if name.lower() in index]

    def _load(self, path: Path, subfont: int) -> FallbackFont | None:
        if (path, subfont) in self._tried:
            return None
        self._tried.add((path, subfont))
        font = _register_fallback(path, subfont)
        if font is not None:
            self._fonts.append(font)
        return font

    def font_for(self, char: str) -> str | None:
        """reportlab name of the first fallback font with a glyph for ``char``, or None."""
        if char in self._answers:
            return self._answers[char]
        answer = next((f.name for f in self._fonts if char in f.chars), None)
        if answer is None:
            if self._pending is None:
                self._pending = self._known_files()
            pending_files = self._pending
            kind = "cjk" if is_cjk(char) else "symbols"
            for pending in sorted(pending_files, key=lambda p: p[2] != kind):
                pending_files.remove(pending)
                font = self._load(pending[0], pending[1])
                if font is not None and char in font.chars:
                    answer = font.name
                    break
        if answer is None and self._use_fontconfig and len(self._asked) < self.MAX_LOOKUPS:
            self._asked.add(char)
            for path, subfont in _fontconfig_files(char):
                font = self._load(path, subfont)
                if font is not None and char in font.chars:
                    answer = font.name
                    break
        self._answers[char] = answer
        return answer


_FALLBACKS: FallbackFonts | None = None


def fallback_fonts() -> FallbackFonts:
    """This process's :class:`FallbackFonts` (one, shared: fonts are registered once)."""
    global _FALLBACKS
    if _FALLBACKS is None:
        _FALLBACKS = FallbackFonts()
    return _FALLBACKS
