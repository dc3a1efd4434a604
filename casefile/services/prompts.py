"""Questions a long service call asks its caller mid-way, typed by their answers.

A service that needs the user's word half-way through (an import needs a PDF's password, or a
published date for files that carry none) takes an :class:`Ask` callable and calls it with a
:class:`Question`; the caller answers on its own terms: the window posts the question to its
GUI thread and the worker waits for the reply (``casefile.ui.operations``, ``Job.ask``), a
script answers at once. ``None`` always means the user declined (or the job was cancelled
while asking). Nothing here imports Qt (ARCHITECTURE.md, "Layers").
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Generic, Protocol, TypeVar

A = TypeVar("A")


class Question(Generic[A]):
    """A question whose answer is an ``A`` (or None: declined)."""


class Ask(Protocol):
    """``ask(question) -> answer``, None when the user declined or the job was cancelled.
    Called on the service's own thread; it may block until the user answers."""

    def __call__(self, question: Question[A]) -> A | None: ...


@dataclass(frozen=True)
class PasswordQuestion(Question[str]):
    """The password of the encrypted PDF at ``path``; ``wrong`` when the last one given was
    wrong. Answer: the password."""

    path: Path
    wrong: bool = False


@dataclass(frozen=True)
class DateAnswer:
    """The published date given (None: "No date", the files get none) and whether it is for
    every file the question named (``for_all``) or for the first one only."""

    published: date | None
    for_all: bool = True


@dataclass(frozen=True)
class DateQuestion(Question[DateAnswer]):
    """"When was it published?" for ``files`` (new files of an import that carry no date of
    their own; the first is the one the prefill is about): ``suggested`` is the prefill and
    ``source`` where it comes from ("the file's modification date", "the page's metadata
    (...)"); ``position`` is ``(n, of)`` when the files are asked about one by one."""

    files: tuple[Path, ...]
    suggested: date
    source: str
    position: tuple[int, int] | None = None
