"""Owner-only workspace folders: the folder and its subfolders mode 0700, every file Casefile
keeps there mode 0600, on platforms with POSIX modes (ARCHITECTURE.md, "Owner-only files").

A workspace holds unpublished reporting and the names of sources; other local users must not
read it, whatever the user's umask. So:

* folders are made by :func:`make_private_dir` and files by :func:`create_private_file`,
  which set the mode explicitly after creating (a umask only ever removes bits, and a strange
  one such as 0o200 would remove the owner's own write bit);
* SQLite gives the ``-wal``, ``-shm`` and ``-journal`` files the mode of their database file,
  so a database created empty here with 0600 keeps its companions private too;
* :func:`tighten` fixes what an older Casefile (or a copy) left too open: called on every open
  of a workspace folder and after the operations that create files (backup, restore,
  encryption). It changes only what is too open, says nothing when it works, and returns what
  it could not fix (a file owned by another user) for the caller to report.

Only what Casefile writes is touched (the database and its companions, ``backups/``,
``open-windows/``, the encryption journal and its temporary copies): a folder chosen as a
workspace may also hold the user's own files, which are left as they are. Windows has no such
modes (its folders under the user's profile are private already): everything here does
nothing there.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

#: The mode of a workspace folder and its subfolders.
PRIVATE_DIR = 0o700
#: The mode of every file Casefile keeps in a workspace folder.
PRIVATE_FILE = 0o600
#: Subfolders of a workspace folder that Casefile makes (backups, the windows' marks).
SUBFOLDERS = ("backups", "open-windows")
#: Name prefixes of the files Casefile writes at the top of a workspace folder.
TOP_PREFIXES = ("casefile.sqlite3", "encryption-journal")

HAS_MODES = os.name == "posix"


def fsync_dir(folder: Path) -> None:
    """Make a rename or a new file in ``folder`` durable (fsync of the folder itself); does
    nothing on a platform without directory descriptors."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def make_private_dir(path: Path, *, parents: bool = False) -> Path:
    """Create the folder ``path`` (and its parents when ``parents``; only ``path`` itself is
    made private) when missing, and give it mode 0700 when it is more open (unless it is a
    shared folder, the home folder or not the user's: see :func:`tighten`). Returns ``path``.
    Raises OSError."""
    path.mkdir(mode=PRIVATE_DIR, parents=parents, exist_ok=True)
    _chmod_if_open(path, PRIVATE_DIR)
    return path


def create_private_file(path: Path) -> bool:
    """Create ``path`` as an empty file of mode 0600 when it does not exist (before SQLite
    opens it, so that SQLite's companions get the same mode); False when it existed already.
    Raises OSError."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE)
    except FileExistsError:
        return False
    try:
        if HAS_MODES:
            os.fchmod(fd, PRIVATE_FILE)  # whatever the umask took away
    finally:
        os.close(fd)
    return True


def open_private(path: Path, flags: int = os.O_WRONLY | os.O_CREAT | os.O_TRUNC) -> int:
    """A descriptor on ``path`` opened with ``flags``, the file made mode 0600 (a new one is
    created so; an existing one is narrowed). Raises OSError."""
    fd = os.open(path, flags, PRIVATE_FILE)
    if HAS_MODES:
        try:
            if stat.S_IMODE(os.fstat(fd).st_mode) & 0o077:
                os.fchmod(fd, PRIVATE_FILE)
        except OSError:
            os.close(fd)
            raise
    return fd


def _chmod_if_open(path: Path, mode: int) -> str | None:
    """Give ``path`` ``mode`` when it grants anything to the group or others (or is not
    readable and writable by its owner); a symbolic link is left alone. None when done or
    nothing to do, else why not."""
    if not HAS_MODES:
        return None
    try:
        info = path.lstat()
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"{path}: {exc.strerror or exc}"
    if stat.S_ISLNK(info.st_mode):
        return None
    current = stat.S_IMODE(info.st_mode)
    if stat.S_ISDIR(info.st_mode):
        # a folder shared on purpose (/tmp and the like) or the home folder itself is never
        # narrowed: other users' files live there
        if current & stat.S_ISVTX:
            return (f"{path}: a shared folder (sticky bit) is left as it is; keep the "
                    "workspace in a folder of its own")
        if path.resolve() in (Path.home().resolve(), Path(path.anchor or "/")):
            return (f"{path}: the home or top folder is left as it is; keep the workspace in "
                    "a folder of its own")
    owner = mode & 0o700
    if current & 0o077 == 0 and current & owner == owner:
        return None
    if hasattr(os, "geteuid") and info.st_uid != os.geteuid():
        return f"{path}: owned by another user; left as it is"
    try:
        os.chmod(path, mode)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"{path}: {exc.strerror or exc}"
    return None


def workspace_files(folder: Path) -> list[Path]:
    """The folders and files Casefile keeps in the workspace ``folder`` (the folder itself
    first): the database and its companions, the encryption journal and temporary copies,
    ``backups/`` and ``open-windows/`` with everything in them."""
    found: list[Path] = [folder]
    try:
        entries = list(folder.iterdir())
    except OSError:
        return found
    for entry in entries:
        if entry.name.startswith(TOP_PREFIXES):
            found.append(entry)
        elif entry.name in SUBFOLDERS and entry.is_dir() and not entry.is_symlink():
            found.append(entry)
            with contextlib.suppress(OSError):
                found.extend(entry.iterdir())
    return found


def tighten(folder: Path) -> list[str]:
    """Make the workspace ``folder`` owner-only: itself and its subfolders 0700, the files of
    :func:`workspace_files` 0600, changing only what is more open. Never changed: what another
    user owns (even when running as root), a folder with the sticky bit (``/tmp``), the home
    folder and the top folder. Returns one line per path that could not or may not be changed
    (empty when all is private, and always on Windows)."""
    if not HAS_MODES or not folder.is_dir():
        return []
    problems = []
    for path in workspace_files(folder):
        is_dir = path.is_dir() and not path.is_symlink()
        problem = _chmod_if_open(path, PRIVATE_DIR if is_dir else PRIVATE_FILE)
        if problem is not None:
            problems.append(problem)
    return problems
