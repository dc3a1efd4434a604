"""Which files an import takes (a folder walked in a stable order, hidden files skipped), and
starting the reader workers before the rest of Casefile loads.

Apart from :mod:`casefile.services.batch` so that ``casefile import`` can list its files and
start its reader workers (:func:`start_readers`) before the database layer is imported: this
module loads neither SQLAlchemy nor the readers themselves.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path


def _sort_key(name: str) -> tuple[str, str]:
    return (name.casefold(), name)


#: Whether this system's ``os.stat`` gives ``st_file_attributes`` (Windows).
_FILE_ATTRIBUTES = hasattr(os.stat_result, "st_file_attributes")


def is_hidden(path: Path) -> bool:
    """True for dot files, Office lock files (``~$...``) and files with Windows' hidden flag."""
    name = path.name
    if name.startswith(".") or name.startswith("~$"):
        return True
    if not _FILE_ATTRIBUTES:  # only Windows keeps a hidden flag: no stat elsewhere
        return False
    try:
        attributes = getattr(os.lstat(path), "st_file_attributes", 0)
    except OSError:
        return False
    return bool(attributes & getattr(stat, "FILE_ATTRIBUTE_HIDDEN", 0))


def iter_import_files(paths: Iterable[Path | str]) -> Iterator[Path]:
    """The files to import for ``paths``, in a stable order, each once.

    A file path is yielded as given (even a missing or hidden one: the import then says what is
    wrong with it). A folder is walked recursively, skipping hidden entries (see
    :func:`is_hidden`); a folder that cannot be listed is yielded itself, so the import reports
    it as failed instead of silently leaving it out. Duplicates (the same resolved path reached
    twice) are yielded once.
    """
    seen: set[Path] = set()

    def once(p: Path, key: Path | None = None) -> bool:
        if key is None:
            key = p.resolve() if p.exists() else p.absolute()
        if key in seen:
            return False
        seen.add(key)
        return True

    unreadable: list[Path] = []

    def note_unreadable(err: OSError) -> None:
        unreadable.append(Path(err.filename))

    for raw in paths:
        top = Path(raw)
        if not top.is_dir():
            if once(top):
                yield top
            continue
        for folder, dirnames, filenames in os.walk(top, onerror=note_unreadable):
            here = Path(folder)
            real = here.resolve()  # once per folder: a file's own resolve costs a stat a part
            dirnames[:] = sorted((d for d in dirnames if not is_hidden(here / d)), key=_sort_key)
            for name in sorted(filenames, key=_sort_key):
                file = here / name
                if is_hidden(file):
                    continue
                if once(file, None if os.path.islink(file) else real / name):
                    yield file
            yield from (bad for bad in _drain(unreadable) if once(bad))
        yield from (bad for bad in _drain(unreadable) if once(bad))


def _drain(items: list[Path]) -> list[Path]:
    taken = list(items)
    items.clear()
    return taken


def start_readers(paths: Iterable[Path | str]) -> None:
    """Start the reader worker processes for an import of ``paths`` now, without waiting for
    them, when its files hold enough slow ones (:meth:`casefile.ingest.pool.ReaderPool.expect`,
    guessed by name), so that they load their readers while this process loads the rest of
    Casefile; the import's :func:`casefile.services.batch.import_paths` then takes them
    (:func:`casefile.ingest.pool.take_early_pool`). Does nothing when workers are started
    already or when the files are few or light. :func:`casefile.ingest.pool.close_early_pool`
    stops them when no import took them."""
    from casefile.ingest.pool import start_early_pool

    start_early_pool([f.name for f in iter_import_files(paths)])


def close_readers() -> None:
    """Stop the workers :func:`start_readers` started when no import took them."""
    from casefile.ingest.pool import close_early_pool

    close_early_pool()
