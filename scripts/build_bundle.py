"""Build the desktop bundle: one folder a reporter unpacks and opens, nothing to install.

    python scripts/build_bundle.py [--dist DIR] [--work DIR] [--no-archive]

Run it with a Python where Casefile's dependencies and PyInstaller are installed, e.g.::

    python3 -m venv /tmp/bundle-venv
    /tmp/bundle-venv/bin/pip install '.[bundle]'
    /tmp/bundle-venv/bin/pip uninstall -y opencv-python   # then the same version headless
    /tmp/bundle-venv/bin/pip install --force-reinstall --no-deps opencv-python-headless==VERSION
    /tmp/bundle-venv/bin/python scripts/build_bundle.py

(the OpenCV swap last: installing Casefile again brings opencv-python back; an editable install
works too, the Casefile sources are always taken from this checkout).

It writes, under ``--dist`` (default ``dist/``):

- ``Casefile/``: the folder bundle (PyInstaller "onedir"): the executable ``casefile`` and
  ``_internal/`` (Python, Qt, spaCy with its English pipeline, RapidOCR's ONNX models, the brief's
  fonts, the Alembic migrations, the sample case), plus ``casefile.png``, ``casefile.desktop``
  and ``add-to-menu.sh`` (writes the desktop entry with this folder's path into
  ``~/.local/share/applications``);
- ``casefile-VERSION-linux-ARCH.tar.gz``: that folder, packed.

Sizes (Linux x86-64, version 0.1.0): the folder 706-746 MiB, the .tar.gz about 290-300 MiB; a
build takes 1-5 minutes on two cores by load (70-103 s at load 2), the .tar.gz a minute more.

``Casefile/casefile`` is the same program as the ``casefile`` command: no arguments open the
window, ``Casefile/casefile import ...`` runs the command. The workspace is the usual default
folder in the user data directory; nothing is fetched at run time.

Left out to keep it small: matplotlib (the brief only needs its DejaVu Sans files, copied to
``casefile/resources/fonts``), Qt's translations and the Qt modules the window does not import
(QtWebEngine, Qt3D, QtQuick/QML, QtNetwork, ...), spaCy's other languages and tests, and the
pipeline components the suggestions never load (parser, lemmatizer, senter); the debugging
sections of the shared libraries are stripped. Build it with opencv-python-headless in place of
opencv-python (RapidOCR only needs OpenCV's image functions; the full build carries Qt 5 and
video codecs for windows the app never opens): about 115 MiB less. Fonts: DejaVu Sans
(Bitstream Vera licence) and, when the build machine has it (Debian ``fonts-droid-fallback``),
Droid Sans Fallback (Apache 2.0) for Chinese, Japanese and Korean, each with its licence text.
Symbola is not shipped (its licence does not clearly allow it): a brief with emoji uses the
system's fonts through fontconfig, as in a development install.

Other systems (build on each; PyInstaller does not cross-compile):

- macOS: the spec adds PyInstaller's ``BUNDLE`` step on darwin, so the same command makes
  ``Casefile.app`` (untested: this project builds on Linux only). Its icon must be a ``.icns``
  (made from the SVG with ``iconutil``; named by ``CASEFILE_BUNDLE_ICNS``), the .desktop file and
  ``add-to-menu.sh`` do not apply, and the command line is
  ``Casefile.app/Contents/MacOS/casefile``. Unsigned, Gatekeeper makes the reporter open it with
  right-click ▸ Open once; a release would sign and notarize it (``codesign``, ``notarytool``,
  an Apple developer account). Pack it as a .dmg or .zip.
- Windows: the executable is ``casefile.exe``; built with ``console=True`` (as here) it opens a
  console window beside the app when double-clicked, so a Windows release would add a second,
  windowed ``EXE`` (``Casefile.exe``, ``console=False``) to the same ``COLLECT`` for the Start
  menu shortcut and keep ``casefile.exe`` for the command line. Pack it as a .zip (or an
  installer made with Inno Setup). The user data folder is ``%LOCALAPPDATA%\\Casefile``.
  The fonts of the brief come from ``C:\\Windows\\Fonts`` when the shipped ones lack a character.

Exit status 0 when the bundle was built; 1 (one line on stderr) when PyInstaller or Casefile's
dependencies are missing in this Python.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import importlib.util
import os
import platform
import shutil
import subprocess
import sys
import tarfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SPEC = ROOT / "scripts" / "bundle" / "casefile.spec"
#: The spaCy pipeline components the suggestions never load (casefile.extract.model._EXCLUDE).
MODEL_SKIP = ("parser", "lemmatizer", "senter")
DEJAVU = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSans-Oblique.ttf",
          "DejaVuSans-BoldOblique.ttf")
#: Fallback fonts shipped when the build machine has them: (file, licence file candidates).
FALLBACKS = (("DroidSansFallbackFull.ttf", ("/usr/share/doc/fonts-droid-fallback/copyright",)),)

DESKTOP_ENTRY = """[Desktop Entry]
Type=Application
Name=Casefile
GenericName=Case-file organizer
Comment=Organize the documents, people and claims of a story, offline
Exec={exec}
Icon={icon}
Terminal=false
Categories=Office;
StartupWMClass=casefile
"""

ADD_TO_MENU = r"""#!/bin/sh
# Adds Casefile to the applications menu of this user, pointing at this folder. The folder's
# path is escaped as the desktop entry format wants it (any character but a line break).
set -e
here=$(cd "$(dirname "$0")" && pwd)
case "$here" in *"
"*) echo "add-to-menu: this folder's path holds a line break; move it and run again" >&2
    exit 1 ;;
esac
apps="${XDG_DATA_HOME:-$HOME/.local/share}/applications"
mkdir -p "$apps"
# In a quoted Exec argument " ` $ \ are written \\X, and % as %%; in Icon a \ as \\.
exec_path=$(printf '%s\n' "$here/casefile" | sed -e 's/[\\"`$]/\\\\&/g' -e 's/%/%%/g')
icon_path=$(printf '%s\n' "$here/casefile.png" | sed -e 's/\\/\\\\/g')
tmp="$apps/.casefile.desktop.$$"
{
  grep -v -e '^Exec=' -e '^Icon=' "$here/casefile.desktop"
  printf 'Exec="%s"\n' "$exec_path"
  printf 'Icon=%s\n' "$icon_path"
} > "$tmp"
mv "$tmp" "$apps/casefile.desktop"
echo "Casefile added to the applications menu ($apps/casefile.desktop)"
"""


def fail(message: str) -> None:
    print(f"build_bundle: {message}", file=sys.stderr)
    raise SystemExit(1)


def check_environment() -> tuple[str, str]:
    """The spaCy pipeline's import name and distribution name; exits when PyInstaller, a
    dependency or the pipeline is missing in this Python."""
    for module, install in (("PyInstaller", "pip install pyinstaller"),
                            ("spacy", "pip install ."), ("PySide6", "pip install ."),
                            ("rapidocr_onnxruntime", "pip install .")):
        if importlib.util.find_spec(module) is None:
            fail(f"{module} is not installed in {sys.executable} ({install})")
    try:
        importlib.metadata.version("opencv-python")
    except importlib.metadata.PackageNotFoundError:
        pass
    else:
        print("build_bundle: opencv-python (under RapidOCR) carries its own Qt 5 and video "
              "codecs: about 115 MiB more than opencv-python-headless (pip uninstall "
              "opencv-python, then pip install --force-reinstall --no-deps "
              "opencv-python-headless of the same version)")
    sys.path.insert(0, str(ROOT))
    from casefile.extract.model import default_model_name

    model = default_model_name()
    if model is None:
        fail("no English spaCy pipeline is installed (pip install .)")
    dists = importlib.metadata.packages_distributions().get(model, [])
    if not dists:
        fail(f"the spaCy pipeline {model} has no installed distribution")
    return model, dists[0]


def stage_sources(stage: Path) -> Path:
    """Copy casefile/ with db/ and resources/ inside it (as an installed wheel lays them out)
    to ``stage``; returns the package folder."""
    if stage.exists():
        shutil.rmtree(stage)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    package = stage / "casefile"
    shutil.copytree(ROOT / "casefile", package, ignore=ignore)
    shutil.copytree(ROOT / "db", package / "db", ignore=ignore)
    shutil.copytree(ROOT / "resources", package / "resources", ignore=ignore)
    return package


def stage_fonts(fonts: Path) -> list[str]:
    """Copy the brief's fonts and their licences into ``fonts``; returns the font file names."""
    from casefile.export.fonts import matplotlib_font_dir, system_font_dirs

    fonts.mkdir(parents=True, exist_ok=True)
    places = [p for p in [matplotlib_font_dir(), *system_font_dirs()] if p is not None]
    shipped: list[str] = []

    def find(name: str) -> Path | None:
        for place in places:
            for found in place.rglob(name) if place.is_dir() else ():
                return found
        return None

    for name in DEJAVU:
        found = find(name)
        if found is None:
            fail(f"{name} not found (it comes with matplotlib: pip install .)")
        shutil.copy2(found, fonts / name)
        shipped.append(name)
    licence = find("LICENSE_DEJAVU")
    if licence is not None:
        shutil.copy2(licence, fonts / "LICENSE-DejaVu.txt")
    for name, licences in FALLBACKS:
        found = find(name)
        if found is None:
            print(f"build_bundle: {name} not on this machine; the bundle goes without it")
            continue
        shutil.copy2(found, fonts / name)
        shipped.append(name)
        for candidate in map(Path, licences):
            if candidate.is_file():
                shutil.copy2(candidate, fonts / f"LICENSE-{Path(name).stem}.txt")
    return shipped


def render_icon(svg: Path, png: Path, size: int = 256) -> None:
    """Render the SVG icon to a PNG of ``size`` pixels with Qt (offscreen)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    _app = QGuiApplication.instance() or QGuiApplication([])
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    QSvgRenderer(str(svg)).render(painter)
    painter.end()
    if not image.save(str(png)):
        fail(f"could not write {png}")


def strip_debug_info(folder: Path) -> int:
    """Remove the debugging sections from the shared libraries under ``folder`` that have
    them (spaCy's, SQLAlchemy's and Python's extension modules ship with them); returns the
    bytes saved. Only ``strip --strip-debug`` (symbols stay), and only on files with a
    ``.debug_info`` section: libraries patched for their wheels are left as they are. Needs
    binutils; without it the bundle is built unstripped."""
    strip, readelf = shutil.which("strip"), shutil.which("readelf")
    if not (strip and readelf) or sys.platform != "linux":
        print("build_bundle: no strip/readelf (binutils): debug sections kept")
        return 0
    saved = 0
    for path in folder.rglob("*.so*"):
        if not path.is_file() or path.is_symlink():
            continue
        sections = subprocess.run([readelf, "-S", "-W", str(path)], capture_output=True,
                                  text=True).stdout
        if ".debug_info" not in sections:
            continue
        before = path.stat().st_size
        subprocess.run([strip, "--strip-debug", str(path)], check=True)
        saved += before - path.stat().st_size
    return saved


def folder_size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dist", type=Path, default=ROOT / "dist", help="output folder")
    parser.add_argument("--work", type=Path, default=ROOT / "build" / "bundle",
                        help="PyInstaller's work folder (kept between builds: faster rebuilds)")
    parser.add_argument("--no-archive", action="store_true", help="skip the .tar.gz")
    args = parser.parse_args(argv)
    started = time.monotonic()
    dist, work = args.dist.resolve(), args.work.resolve()

    model, model_dist = check_environment()
    package = stage_sources(work / "stage")
    fonts = stage_fonts(package / "resources" / "fonts")
    print(f"build_bundle: spaCy pipeline {model} ({model_dist}); fonts {', '.join(fonts)}")

    env = dict(os.environ, CASEFILE_BUNDLE_STAGE=str(work / "stage"),
               CASEFILE_BUNDLE_MODEL=model, CASEFILE_BUNDLE_MODEL_DIST=model_dist,
               CASEFILE_BUNDLE_MODEL_SKIP=",".join(MODEL_SKIP))
    # a child process: PyInstaller must not see this process's imports of casefile from ROOT
    subprocess.run([sys.executable, "-m", "PyInstaller", "--noconfirm", "--log-level", "WARN",
                    "--distpath", str(work / "dist"), "--workpath", str(work / "pyinstaller"),
                    str(SPEC)], check=True, env=env, cwd=work)

    bundle = dist / "Casefile"
    if bundle.exists():
        shutil.rmtree(bundle)
    dist.mkdir(parents=True, exist_ok=True)
    shutil.move(str(work / "dist" / "casefile"), bundle)
    saved = strip_debug_info(bundle)
    print(f"build_bundle: debug sections stripped ({saved / 2**20:.0f} MiB)")
    render_icon(ROOT / "resources" / "icons" / "casefile.svg", bundle / "casefile.png")
    (bundle / "casefile.desktop").write_text(
        DESKTOP_ENTRY.format(exec="casefile", icon="casefile"), encoding="utf-8")
    menu = bundle / "add-to-menu.sh"
    menu.write_text(ADD_TO_MENU, encoding="utf-8")
    menu.chmod(0o755)
    built = time.monotonic() - started
    print(f"build_bundle: {bundle} ({folder_size(bundle) / 2**20:.0f} MiB) "
          f"in {built:.0f} s")

    if not args.no_archive:
        from casefile import __version__

        machine = platform.machine().lower() or "unknown"
        archive = dist / f"casefile-{__version__}-{sys.platform}-{machine}.tar.gz"
        with tarfile.open(archive, "w:gz", compresslevel=6) as tar:
            tar.add(bundle, arcname="Casefile")
        print(f"build_bundle: {archive} ({archive.stat().st_size / 2**20:.0f} MiB) "
              f"in {time.monotonic() - started - built:.0f} s more")
    return 0


if __name__ == "__main__":
    sys.exit(main())
