"""Undoable actions (QUndoCommand subclasses) over the service actions.

A command's first ``redo`` is ONE service action run through
:meth:`OperationRunner.apply` (one transaction, then one ``case_changed`` with the
:class:`~casefile.services.changes.Changes` the service returned). Every later ``undo`` /
``redo`` runs the :class:`~casefile.services.changes.Step` the previous run returned
(:meth:`OperationRunner.apply_step`): undo and redo are service calls too, and no command
assembles a change from several service calls. Deleted items and links come back under their
own ids, so later commands in the stack still name the right rows. A command whose call fails
is made obsolete and leaves the stack.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtGui import QUndoCommand
from sqlalchemy.orm import Session

from casefile.errors import ConflictError
from casefile.services import evidence_actions, item_actions
from casefile.services.changes import Changes, Step, changes
from casefile.services.editing import LinkedSpan
from casefile.ui.operations import OperationRunner, Outcome

if TYPE_CHECKING:
    from casefile.ui.shell import WindowShell

EDIT_COMMAND_ID = 1001


class _ServiceCommand(QUndoCommand):
    """Base: ``_do``/``_undo`` return True on success; failure makes the command obsolete."""

    def __init__(self, runner: OperationRunner, case_id: int, text: str) -> None:
        super().__init__(text)
        self.runner = runner
        self.case_id = case_id
        self.failed = False

    def redo(self) -> None:
        if not self._do():
            self.failed = True
            self.setObsolete(True)

    def undo(self) -> None:
        if not self._undo():
            self.failed = True
            self.setObsolete(True)

    def _do(self) -> bool:
        raise NotImplementedError

    def _undo(self) -> bool:
        raise NotImplementedError


class ActionCommand(_ServiceCommand):
    """One service action as an undo step: the first redo runs ``action(session) -> Changes``
    (a single service call) through the runner; undo runs the Step it returned, and each later
    redo or undo the Step the previous run returned. ``changes`` is the last run's Changes.
    Subclasses pass ``action=None`` and override :meth:`_first`."""

    def __init__(self, runner: OperationRunner, case_id: int, text: str,
                 action: Callable[[Session], Changes] | None = None) -> None:
        super().__init__(runner, case_id, text)
        self._action = action
        self._undo_step: Step | None = None  # runs on undo
        self._redo_step: Step | None = None  # runs on the next redo
        self._ran = False
        self.changes: Changes | None = None

    def _first(self) -> Outcome[Changes]:
        """Run the action the first time (one service call through ``runner.apply``)."""
        assert self._action is not None
        return self.runner.apply(self._action, label=self.text())

    def _took(self, changes: Changes) -> None:
        """Called after each successful run with the Changes it returned."""

    def _run_step(self, step: Step, *, undoing: bool) -> Outcome[Changes]:
        """Run an undo (``undoing``) or redo step: through ``runner.apply_step``; a command
        whose view marks rows in place around the call (the suggestions panel) overrides
        this, still running the one Step."""
        return self.runner.apply_step(step)

    def _finish(self, out: Outcome[Changes]) -> Changes | None:
        """After a run: its Changes (kept as ``changes``), or None when it failed."""
        if not out.ok or out.value is None:
            return None
        self.changes = out.value
        self._took(out.value)
        return out.value

    def _do(self) -> bool:
        if not self._ran:
            out = self._first()
        elif self._redo_step is None:  # the undo changed nothing: nothing to redo
            return True
        else:
            out = self._run_step(self._redo_step, undoing=False)
        done = self._finish(out)
        if done is None:
            return False
        self._ran = True
        self._undo_step = done.undo
        return True

    def _undo(self) -> bool:
        if self._undo_step is None:  # the action changed nothing: nothing to undo
            self._redo_step = None
            return True
        done = self._finish(self._run_step(self._undo_step, undoing=True))
        if done is None:
            return False
        self._redo_step = done.undo
        return True


def push_case_action(window: WindowShell, label: str,
                     action: Callable[[Session, int], Changes]) -> bool:
    """Run ``action(session, case_id)`` (one service call) on the window's open case as one
    :class:`ActionCommand` on its undo stack, named ``label``. Returns True when it ran; False
    when no case is open or it was refused (the runner has said why)."""
    case_id = window.case_id
    if case_id is None:
        return False
    command = ActionCommand(window.runner, case_id, label, lambda s: action(s, case_id))
    window.undo_stack.push(command)
    return not command.failed


class ImportedCommand(ActionCommand):
    """An import a background job already stored, as an undo step ("Import 3 documents"):
    the first redo runs nothing; undo deletes those documents
    (:func:`casefile.services.batch.undo_import_step`), redo brings them back."""

    def __init__(self, runner: OperationRunner, case_id: int, document_ids: list[int],
                 text: str) -> None:
        super().__init__(runner, case_id, text)
        self.document_ids = list(document_ids)

    def _first(self) -> Outcome[Changes]:
        from casefile.services.batch import undo_import_step

        step = undo_import_step(self.document_ids, self.text()[0].lower() + self.text()[1:])
        return Outcome(True, changes(self.case_id, label=self.text(), undo=step))


class CreateItemCommand(ActionCommand):
    """Create an item (optionally linking a span of a document to it, as its first passage),
    through ``item_actions.create``.

    ``item_id`` and ``linked`` are set after the first redo; undo deletes the item (and the
    link, and the passage if it was new), redo brings them back under the same ids.
    """

    def __init__(
        self, runner: OperationRunner, case_id: int, kind: str, title: str,
        fields: dict[str, Any] | None = None, *,
        span: tuple[int, int, int] | None = None, relation: str = "mentions",
    ) -> None:
        super().__init__(runner, case_id, f"New {kind} “{title}”")
        self.kind, self.title, self.fields = kind, title, dict(fields or {})
        self.span, self.relation = span, relation
        self.item_id: int | None = None
        self.linked: LinkedSpan | None = None

    def _first(self) -> Outcome[Changes]:
        return self.runner.apply(
            lambda s: item_actions.create(s, self.case_id, self.kind, self.title, self.fields,
                                          span=self.span, relation=self.relation),
            label=self.text())

    def _took(self, changes: Changes) -> None:
        if isinstance(changes.value, item_actions.NewItem) and self.item_id is None:
            self.item_id, self.linked = changes.value.item_id, changes.value.linked


class DeleteItemsCommand(ActionCommand):
    """Delete items (with their links) through ``item_actions.delete``; undo restores them
    under the same ids."""

    def __init__(self, runner: OperationRunner, case_id: int, ids: list[int],
                 kinds: set[str], label: str) -> None:
        super().__init__(runner, case_id, label)
        self.ids, self.kinds = list(ids), set(kinds)

    def _first(self) -> Outcome[Changes]:
        return self.runner.apply(lambda s: item_actions.delete(s, self.ids), label=self.text())


class EditItemCommand(ActionCommand):
    """Change fields of an item (autosave) through ``item_actions.edit``. ``before``/``after``
    map field -> value.

    The first redo passes ``expected_version`` (optimistic locking) and ``before`` as the values
    loaded; ``version`` holds the item's version after the last successful run, and every undo
    and later redo expects it (the service's undo Step carries it), so none of them writes over
    another writer's later save. When that first redo is refused because someone else saved
    the item meanwhile, ``conflict`` holds the :class:`~casefile.errors.ConflictError` (both
    values of each field); with ``handles_conflicts`` the caller shows it (``over``), otherwise
    it is reported through the runner's ``operation_failed`` like any other refusal.
    Consecutive edits of the same fields of the same item merge into one undo step, except
    into a save made ``over`` a conflict.
    """

    def __init__(
        self, runner: OperationRunner, case_id: int, item_id: int, kind: str,
        before: dict[str, Any], after: dict[str, Any], *, expected_version: int | None,
        label: str, handles_conflicts: bool = False, merges: bool = True,
    ) -> None:
        super().__init__(runner, case_id, label)
        self.item_id, self.kind, self.label = item_id, kind, label
        self.before, self.after = dict(before), dict(after)
        self.expected_version = expected_version
        self.version: int | None = None
        self.conflict: ConflictError | None = None
        self.handles_conflicts = handles_conflicts
        self.merges = merges

    def over(self, conflict: ConflictError) -> EditItemCommand:
        """A new command saving this command's values on top of the version stored now (the
        user chose "Use mine" after ``conflict``). Its undo restores the other writer's values;
        it does not merge into the edits before it, so each step stays visible. Only Python
        attributes are read: a refused command is already deleted by the undo stack."""
        theirs = conflict.theirs
        before = {name: theirs.get(name, self.before.get(name)) for name in self.after}
        return EditItemCommand(
            self.runner, self.case_id, self.item_id, self.kind, before, self.after,
            expected_version=conflict.version, label=f"{self.label} (mine over theirs)",
            handles_conflicts=self.handles_conflicts, merges=False)

    def _first(self) -> Outcome[Changes]:
        self.conflict = None
        expected, loaded = self.expected_version, self.before

        def save(s: Session) -> Changes:
            try:
                return item_actions.edit(s, self.item_id, self.after,
                                         expected_version=expected, loaded=loaded)
            except ConflictError as exc:
                self.conflict = exc
                raise

        if not (self.handles_conflicts and expected is not None):
            return self.runner.apply(save, label=self.text())
        # The caller shows a conflict in its own dialog: announce success and other
        # refusals as the runner would, but not the conflict.
        blocked = self.runner.blockSignals(True)
        try:
            out = self.runner.apply(save, label=self.text())
        finally:
            self.runner.blockSignals(blocked)
        if out.ok:
            self.runner.case_changed.emit(out.value)
        elif self.conflict is None:
            self.runner.operation_failed.emit(out.error or f"could not {self.text()}")
        return out

    def _took(self, changes: Changes) -> None:
        if isinstance(changes.value, int):
            self.version = changes.value

    def _undo(self) -> bool:
        """Put ``before`` back, unless someone else saved the item since this command's last
        save: then the undo is refused (ConflictError, reported as a failed operation) and
        their values stay."""
        return super()._undo()

    def id(self) -> int:
        return EDIT_COMMAND_ID

    def mergeWith(self, other: QUndoCommand) -> bool:
        if (not isinstance(other, EditItemCommand) or other.item_id != self.item_id
                or set(other.after) != set(self.after) or other.failed or not other.merges
                or self._undo_step is None or other._undo_step is None):
            return False
        self.after = dict(other.after)
        self.version = other.version
        self._undo_step = item_actions.merged_edit_undo(self._undo_step, other._undo_step)
        return True


class LinkSpanCommand(ActionCommand):
    """Link a span of a document to an item (``evidence_actions.link_span``); undo removes
    the link (and a passage it made), redo restores them under the same ids."""

    def __init__(self, runner: OperationRunner, case_id: int, item_id: int, kind: str,
                 document_id: int, start: int, end: int, relation: str, label: str) -> None:
        super().__init__(runner, case_id, label)
        self.item_id, self.kind = item_id, kind
        self.document_id, self.start, self.end, self.relation = document_id, start, end, relation
        self.linked: LinkedSpan | None = None

    def _first(self) -> Outcome[Changes]:
        return self.runner.apply(
            lambda s: evidence_actions.link_span(s, self.item_id, self.document_id, self.start,
                                                 self.end, relation=self.relation),
            label=self.text())

    def _took(self, changes: Changes) -> None:
        if isinstance(changes.value, LinkedSpan):
            self.linked = changes.value


class UnlinkCommand(ActionCommand):
    """Remove an evidence link (the passage stays) through ``evidence_actions.unlink``; undo
    restores it under the same id."""

    def __init__(self, runner: OperationRunner, case_id: int, link_id: int, item_id: int,
                 kind: str, label: str) -> None:
        super().__init__(runner, case_id, label)
        self.link_id, self.item_id, self.kind = link_id, item_id, kind

    def _first(self) -> Outcome[Changes]:
        return self.runner.apply(lambda s: evidence_actions.unlink(s, self.link_id),
                                 label=self.text())


class RelationCommand(ActionCommand):
    """Change an evidence link's relation (supports, contradicts, mentions, context) through
    ``evidence_actions.set_relation``; undo puts the previous one back."""

    def __init__(self, runner: OperationRunner, case_id: int, link_id: int, item_id: int,
                 kind: str, before: str, after: str) -> None:
        super().__init__(runner, case_id, f"Relation {before} → {after}")
        self.link_id, self.item_id, self.kind = link_id, item_id, kind
        self.before, self.after = before, after

    def _first(self) -> Outcome[Changes]:
        return self.runner.apply(
            lambda s: evidence_actions.set_relation(s, self.link_id, self.after),
            label=self.text())
