"""What a user action changed, and how to take it back (ARCHITECTURE.md, "One way in for changes").

Every user action is one service function: a Session and plain values in, one transaction (the
caller's), and a :class:`Changes` out. ``Changes`` says what the views must refresh (kinds, item
ids, documents, evidence) and carries ``undo``: a :class:`Step` naming the service call that
reverses the action. Running that step returns a ``Changes`` whose ``undo`` is the redo step, so
the window's undo stack, the CLI and scripts all undo and redo through services only — the way
Anki's collection methods return ``OpChanges`` and its undo replays collection operations.

A Step holds only plain values (ints, strings, dates, lists, dicts and the snapshot dataclasses
of :mod:`casefile.services.editing`), so it can be kept in memory by the window and never holds a
Session or an ORM object. Step actions are looked up in a registry filled by :func:`action`, so a
Step can only run a function registered for it (no arbitrary import).

No Qt here.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import resources
from typing import Any, TypeVar

from sqlalchemy.orm import Session

from casefile.errors import CasefileError, ConflictError

F = TypeVar("F", bound=Callable[..., "Changes"])

_ACTIONS: dict[str, Callable[..., Changes]] = {}


@dataclass(frozen=True)
class Step:
    """A service call to run later: ``action`` names a function registered with
    :func:`action`; ``params`` are its keyword arguments (plain values); ``label`` says what the
    step does, for an undo menu ("Undo accept person “Scott Israel”")."""

    action: str
    params: Mapping[str, Any] = field(default_factory=dict)
    label: str = ""


@dataclass(frozen=True)
class Changes:
    """What one user action changed.

    ``case_id``: the case concerned (None when not tied to one). ``kinds``: item kinds whose rows
    were created, edited or deleted. ``created`` / ``updated`` / ``deleted``: item ids (documents
    are items too). ``documents``: documents whose text, passages or mentions changed (viewers
    refresh). ``evidence``: passages or evidence links changed. ``suggestions``: pending
    suggestions changed. ``cases``: the list of cases changed. ``label``: the action, for undo
    menus ("accept person “Scott Israel”"); ``message``: one sentence for the status line that
    names everything the action made ("Added person “Scott Israel” and organization “Broward
    County Sheriff's Office”."). ``value``: the action's own result (a new item's id, a
    Decision...). ``undo``: the Step that reverses this action (None: nothing to undo).
    ``watch``: the watch list or its hits changed.
    """

    case_id: int | None = None
    kinds: frozenset[str] = frozenset()
    created: frozenset[int] = frozenset()
    updated: frozenset[int] = frozenset()
    deleted: frozenset[int] = frozenset()
    documents: frozenset[int] = frozenset()
    evidence: bool = False
    suggestions: bool = False
    cases: bool = False
    label: str = ""
    message: str = ""
    value: Any = None
    undo: Step | None = None
    watch: bool = False

    @property
    def structural(self) -> bool:
        """True when rows appeared or disappeared (tables reload rather than patch rows)."""
        return bool(self.created or self.deleted or self.cases)

    def touches(self, kind: str) -> bool:
        """True when items of ``kind`` changed."""
        return kind in self.kinds

    def but(self, **values: Any) -> Changes:
        """A copy with some fields replaced (``Changes`` is frozen)."""
        return replace(self, **values)


def changes(
    case_id: int | None, *, kinds: Iterable[str] = (), created: Iterable[int] = (),
    updated: Iterable[int] = (), deleted: Iterable[int] = (), documents: Iterable[int] = (),
    evidence: bool = False, suggestions: bool = False, cases: bool = False, label: str = "",
    message: str = "", value: Any = None, undo: Step | None = None, watch: bool = False,
) -> Changes:
    """Build a :class:`Changes` from plain iterables."""
    return Changes(case_id, frozenset(kinds), frozenset(created), frozenset(updated),
                   frozenset(deleted), frozenset(documents), evidence, suggestions, cases,
                   label, message, value, undo, watch)


def action(name: str) -> Callable[[F], F]:
    """Register a service function under ``name`` so a :class:`Step` can name it.

    The function must take ``(session, **params)`` and return :class:`Changes`. Raises
    ValueError when the name is taken by another function."""
    def register(fn: F) -> F:
        known = _ACTIONS.get(name)
        if known is not None and known is not fn:
            raise ValueError(f"step action {name!r} is registered twice")
        _ACTIONS[name] = fn
        return fn
    return register


def run_step(session: Session, step: Step) -> Changes:
    """Run an undo or redo step in the caller's transaction; returns its Changes (whose
    ``undo`` reverses it again). Raises CasefileError for an unknown action, and whatever the
    service raises (NotFoundError, ConflictError when the data moved on since)."""
    _load_actions()
    fn = _ACTIONS.get(step.action)
    if fn is None:
        raise CasefileError(f"cannot undo or redo {step.label or step.action!r}: unknown step")
    return fn(session, **dict(step.params))


def moved_on(what: str, doing: str = "undo") -> ConflictError:
    """The refusal of an undo (``doing`` "undo") or redo ("redo") step whose rows another
    writer changed since the action: "WHAT was changed since (by another program); nothing
    was undone". A step never writes over a later change (ARCHITECTURE.md, "One way in for
    changes")."""
    done = "redone" if doing == "redo" else "undone"
    return ConflictError(f"{what} was changed since (by another program); nothing was {done}")


def next_doing(doing: str) -> str:
    """What the step an undo or redo returns will be: "redo" after an "undo" (or after the
    action itself, ``doing`` ""), else "undo"."""
    return "redo" if doing == "undo" else "undo"


_DECORATED = re.compile(r"^@action\(", re.MULTILINE)


@cache
def action_modules() -> tuple[str, ...]:
    """The modules of casefile.services that register step actions: those whose source
    applies :func:`action` (found by reading the package, so a new module of actions needs no
    list kept by hand; a test checks this finds every module that registers one). Where the
    package holds no sources (compiled only), every module of it."""
    package = resources.files(__package__ or "casefile.services")
    found, compiled = [], []
    for entry in sorted(package.iterdir(), key=lambda e: e.name):
        stem, _, suffix = entry.name.partition(".")
        if suffix == "py" and _DECORATED.search(entry.read_text(encoding="utf-8")):
            found.append(f"{__package__}.{stem}")
        elif suffix.endswith("pyc") and stem != "__init__":
            compiled.append(f"{__package__}.{stem}")
    return tuple(found) if found or not compiled else tuple(sorted(set(compiled)))


def _load_actions() -> None:
    """Import the service modules that register step actions (they register on import)."""
    for module in action_modules():
        importlib.import_module(module)


def registered_actions() -> dict[str, Callable[..., Changes]]:
    """Every registered step action, ``{name: function}`` (the modules of
    :func:`action_modules` imported first)."""
    _load_actions()
    return dict(_ACTIONS)
