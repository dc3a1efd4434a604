"""Finding and registering the brief's Unicode font (casefile.export.fonts)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from reportlab.lib.fonts import tt2ps
from reportlab.pdfbase import pdfmetrics

from casefile.errors import CasefileError
from casefile.export.errors import FontNotFoundError
from casefile.export.fonts import (
    FontFiles,
    find_font_files,
    matplotlib_font_dir,
    register_fonts,
    system_font_dirs,
)


def test_dejavu_comes_from_matplotlib_first() -> None:
    mpl = matplotlib_font_dir()
    assert mpl is not None and (mpl / "DejaVuSans.ttf").is_file()
    files = find_font_files()
    assert files.family == "DejaVu Sans"
    assert files.regular == mpl / "DejaVuSans.ttf"
    assert files.bold.name == "DejaVuSans-Bold.ttf"
    assert files.italic.name == "DejaVuSans-Oblique.ttf"
    assert files.bold_italic.name == "DejaVuSans-BoldOblique.ttf"


def test_matplotlib_is_located_not_imported() -> None:
    code = (
        "import sys\n"
        "from casefile.export.fonts import find_font_files, register_fonts\n"
        "register_fonts(find_font_files())\n"
        "assert 'matplotlib' not in sys.modules, 'matplotlib was imported'\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_falls_back_to_other_families_and_fills_missing_faces(tmp_path: Path) -> None:
    source = matplotlib_font_dir()
    assert source is not None
    nested = tmp_path / "truetype" / "noto"
    nested.mkdir(parents=True)
    shutil.copy(source / "DejaVuSans.ttf", nested / "NotoSans-Regular.ttf")
    shutil.copy(source / "DejaVuSans-Bold.ttf", nested / "NotoSans-Bold.ttf")

    files = find_font_files([tmp_path], include_matplotlib=False, include_system=False)

    assert files.family == "Noto Sans"
    assert files.regular == nested / "NotoSans-Regular.ttf"
    assert files.bold == nested / "NotoSans-Bold.ttf"
    assert files.italic == files.regular  # missing faces fall back to the regular one
    assert files.bold_italic == files.regular


def test_family_order_prefers_dejavu(tmp_path: Path) -> None:
    source = matplotlib_font_dir()
    assert source is not None
    shutil.copy(source / "DejaVuSans.ttf", tmp_path / "LiberationSans-Regular.ttf")
    shutil.copy(source / "DejaVuSans.ttf", tmp_path / "DejaVuSans.ttf")
    files = find_font_files([tmp_path], include_matplotlib=False, include_system=False)
    assert files.family == "DejaVu Sans"


def test_no_font_anywhere_is_a_clear_user_error(tmp_path: Path) -> None:
    (tmp_path / "Comic.ttf").write_bytes(b"not a font")
    with pytest.raises(FontNotFoundError) as info:
        find_font_files([tmp_path], include_matplotlib=False, include_system=False)
    assert isinstance(info.value, CasefileError)
    message = str(info.value)
    assert "DejaVu Sans" in message and "\n" not in message


def test_unreadable_font_file_is_a_clear_error(tmp_path: Path) -> None:
    broken = tmp_path / "Broken.ttf"
    broken.write_bytes(b"\x00\x01\x00\x00 definitely not a TrueType font")
    files = FontFiles("Broken Test", broken, broken, broken, broken)
    with pytest.raises(FontNotFoundError, match="Broken.ttf"):
        register_fonts(files)


def test_register_is_idempotent_and_maps_bold_italic() -> None:
    first = register_fonts()
    second = register_fonts()
    assert first == second
    registered = set(pdfmetrics.getRegisteredFontNames())
    assert {first.regular, first.bold, first.italic, first.bold_italic} <= registered
    assert tt2ps(first.regular, 1, 0) == first.bold
    assert tt2ps(first.regular, 0, 1) == first.italic
    assert tt2ps(first.regular, 1, 1) == first.bold_italic


def test_system_font_dirs_cover_this_platform() -> None:
    dirs = system_font_dirs()
    assert dirs and all(isinstance(d, Path) for d in dirs)
    if sys.platform.startswith("linux"):
        assert Path("/usr/share/fonts") in dirs
