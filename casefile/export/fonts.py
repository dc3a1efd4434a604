"""Find and register the Unicode TrueType font the PDF brief is set in.

The brief must print any name exactly as typed (``Łódź``, curly quotes, accents), so it cannot use
the PDF base-14 fonts, which only cover Latin-1. It embeds a TrueType font instead, found without
any download, in this order:

1. DejaVu Sans shipped inside the installed ``matplotlib`` package (``mpl-data/fonts/ttf``), which
   is a declared dependency of Casefile. The package is located with
   :func:`importlib.util.find_spec` and never imported (importing it is slow and pulls in numpy).
2. DejaVu Sans, Noto Sans or Liberation Sans installed on the system, in the usual font folders of
   Linux, macOS and Windows.

If none is found, :class:`~casefile.export.errors.FontNotFoundError` says what to install.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFError, TTFont

from casefile.export.errors import FontNotFoundError

__all__ = [
    "FAMILIES",
    "FontFamily",
    "FontFiles",
    "RegisteredFonts",
    "find_font_files",
    "register_fonts",
    "system_font_dirs",
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
    matplotlib's bundled fonts, then :func:`system_font_dirs`. Within a place, families are tried
    best first; a family counts only if its regular face exists.

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
                pdfmetrics.registerFont(TTFont(font_name, str(path)))
            except (TTFError, OSError) as exc:
                raise FontNotFoundError(
                    f"The font file {path} cannot be used for the PDF brief: {exc}"
                ) from exc
        addMapping(names.regular, bold, italic, font_name)
    return names
