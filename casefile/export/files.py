"""Writing an export file: owner-only, through a temporary file renamed into place.

Every export (the PDF brief, the CSV files and the .xlsx workbook, the FollowTheMoney file, the
calendar, the case archive) holds unpublished reporting, so :func:`write_private` gives the new
file mode 0600 on POSIX (read and write for its owner only, whatever the user's umask; the
temporary file comes from :func:`tempfile.mkstemp`, which creates it so) and a failed or
refused export leaves no half-written file and does not touch an existing one. On Windows the
mode is what the folder gives (mkstemp's file is not shared with other users either).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path

#: The mode of a written export file on POSIX (owner read and write).
PRIVATE_MODE = 0o600


def write_private(target: Path, write: Callable[[Path], object], *,
                  make_folder: bool = True) -> Path:
    """Write ``target`` by calling ``write(tmp)`` on a new empty owner-only file beside it
    (same folder, so the rename is atomic), then renaming it to ``target``; returns
    ``target``. ``write`` may raise to refuse the file (a self-check): the temporary file is
    removed and ``target`` left as it was. The folder is created first when ``make_folder``.

    Raises:
        OSError: the folder or the file cannot be written (callers turn it into their
            ExportError); whatever ``write`` raises.
    """
    folder = target.parent
    if make_folder:
        folder.mkdir(parents=True, exist_ok=True)
    handle, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=folder)
    os.close(handle)
    tmp = Path(name)
    try:
        write(tmp)
        os.chmod(tmp, PRIVATE_MODE)  # a writer that replaced the file may have reset it
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)
    return target
