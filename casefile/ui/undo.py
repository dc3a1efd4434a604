"""Undoable actions (QUndoCommand subclasses) over the services.

Every ``redo``/``undo`` is one service call run through the :class:`OperationRunner`, so it is
one transaction followed by one ``case_changed``. Deleted items and links come back under their
own ids (``services.editing.restore_item`` / ``restore_link``), so later commands in the stack
still name the right rows. A command whose call fails is made obsolete and leaves the stack.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QUndoCommand
from sqlalchemy.orm import Session

from casefile.errors import ConflictError
from casefile.services import editing, evidence, items
from casefile.services.editing import ItemSnapshot, LinkedSpan, LinkSnapshot
from casefile.ui.operations import OperationRunner, change

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


class CreateItemCommand(_ServiceCommand):
    """Create an item (optionally linking a span of a document to it, as its first passage).

    ``item_id`` is set after the first redo; undo deletes the item (and the link, and the
    passage if it was new), redo brings them back under the same ids.
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
        self._item_snap: ItemSnapshot | None = None
        self._link_snap: LinkSnapshot | None = None

    def _change(self, **kw: Any) -> Any:
        return change(self.case_id, kinds={self.kind}, evidence=self.span is not None,
                      label=self.text(), **kw)

    def _do(self) -> bool:
        if self.item_id is None:
            def create(s: Session) -> tuple[int, LinkedSpan | None]:
                item = items.create_item(s, self.case_id, self.kind, self.title, **self.fields)
                linked = None
                if self.span is not None:
                    doc_id, start, end = self.span
                    linked = editing.link_span(s, item.id, doc_id, start, end,
                                               relation=self.relation)
                return item.id, linked

            out = self.runner.run(create, change=lambda r: self._change(created={r[0]}),
                                  label=self.text())
            if out.ok and out.value is not None:
                self.item_id, self.linked = out.value
            return out.ok

        def restore(s: Session) -> None:
            assert self._item_snap is not None
            editing.restore_item(s, self._item_snap)
            if self._link_snap is not None:
                editing.restore_link(s, self._link_snap)

        return self.runner.run(restore, change=self._change(created={self.item_id}),
                               label=self.text()).ok

    def _undo(self) -> bool:
        assert self.item_id is not None
        item_id = self.item_id

        def remove(s: Session) -> None:
            if self.linked is not None:
                self._link_snap = editing.snapshot_link(s, self.linked.link_id)
                editing.unlink_span(s, self.linked.link_id,
                                    drop_unused_passage=self.linked.passage_created)
            self._item_snap = editing.snapshot_item(s, item_id)
            items.delete_item(s, item_id)

        return self.runner.run(remove, change=self._change(deleted={item_id}),
                               label=f"Undo {self.text()}").ok


class DeleteItemsCommand(_ServiceCommand):
    """Delete items (with their links); undo restores them under the same ids."""

    def __init__(self, runner: OperationRunner, case_id: int, ids: list[int],
                 kinds: set[str], label: str) -> None:
        super().__init__(runner, case_id, label)
        self.ids, self.kinds = list(ids), set(kinds)
        self._snaps: list[ItemSnapshot] = []

    def _do(self) -> bool:
        def remove(s: Session) -> None:
            snaps = []
            for item_id in self.ids:
                snaps.append(editing.snapshot_item(s, item_id))
                items.delete_item(s, item_id)
            self._snaps = snaps

        return self.runner.run(
            remove, change=change(self.case_id, kinds=self.kinds, deleted=self.ids,
                                  evidence=True, label=self.text()),
            label=self.text()).ok

    def _undo(self) -> bool:
        def restore(s: Session) -> None:
            for snap in reversed(self._snaps):
                editing.restore_item(s, snap)

        return self.runner.run(
            restore, change=change(self.case_id, kinds=self.kinds, created=self.ids,
                                   evidence=True, label=self.text()),
            label=f"Undo {self.text()}").ok


class EditItemCommand(_ServiceCommand):
    """Change fields of an item (autosave). ``before``/``after`` map field -> value.

    The first redo passes ``expected_version`` (optimistic locking) and ``before`` as the values
    loaded; ``version`` holds the item's version after the last successful run, and every undo
    and later redo expects it, so none of them writes over another writer's later save. When
    that first redo is refused because someone else saved the item meanwhile, ``conflict`` holds the
    :class:`~casefile.errors.ConflictError` (both values of each field); with
    ``handles_conflicts`` the caller shows it (``over``), otherwise it is reported through the
    runner's ``operation_failed`` like any other refusal. Consecutive edits of the same fields
    of the same item merge into one undo step, except into a save made ``over`` a conflict.
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

    def _apply(self, values: dict[str, Any], expected: int | None,
               loaded: dict[str, Any] | None, dialog: bool = False) -> bool:
        self.conflict = None

        def update(s: Session) -> int:
            try:
                return items.update_item(s, self.item_id, expected_version=expected,
                                         loaded=loaded, **values).version
            except ConflictError as exc:
                self.conflict = exc
                raise

        what = change(self.case_id, kinds={self.kind}, updated={self.item_id},
                      label=self.text())
        if not (self.handles_conflicts and dialog):
            out = self.runner.run(update, change=what, label=self.text())
        else:  # announce success and other refusals as the runner would; the caller shows
            blocked = self.runner.blockSignals(True)  # a conflict in its own dialog
            try:
                out = self.runner.run(update, change=what, label=self.text())
            finally:
                self.runner.blockSignals(blocked)
            if out.ok:
                self.runner.case_changed.emit(what)
            elif self.conflict is None:
                self.runner.operation_failed.emit(out.error or f"could not {self.text()}")
        if out.ok:
            self.version = out.value
        return out.ok

    def _do(self) -> bool:
        if self.version is None:  # the first save: a conflict may be shown in a dialog
            return self._apply(self.after, self.expected_version, self.before,
                               dialog=self.expected_version is not None)
        return self._apply(self.after, self.version, self.before)  # redo after an undo

    def _undo(self) -> bool:
        """Put ``before`` back, unless someone else saved the item since this command's last
        save: then the undo is refused (ConflictError, reported as a failed operation) and
        their values stay."""
        return self._apply(self.before, self.version, self.after)

    def id(self) -> int:
        return EDIT_COMMAND_ID

    def mergeWith(self, other: QUndoCommand) -> bool:
        if (not isinstance(other, EditItemCommand) or other.item_id != self.item_id
                or set(other.after) != set(self.after) or other.failed or not other.merges):
            return False
        self.after = dict(other.after)
        self.version = other.version
        return True


class LinkSpanCommand(_ServiceCommand):
    """Link a span of a document to an item; undo removes the link (and a passage it made)."""

    def __init__(self, runner: OperationRunner, case_id: int, item_id: int, kind: str,
                 document_id: int, start: int, end: int, relation: str, label: str) -> None:
        super().__init__(runner, case_id, label)
        self.item_id, self.kind = item_id, kind
        self.document_id, self.start, self.end, self.relation = document_id, start, end, relation
        self.linked: LinkedSpan | None = None
        self._snap: LinkSnapshot | None = None

    def _change(self) -> Any:
        return change(self.case_id, kinds={self.kind}, updated={self.item_id}, evidence=True,
                      label=self.text())

    def _do(self) -> bool:
        if self.linked is None:
            out = self.runner.run(
                lambda s: editing.link_span(s, self.item_id, self.document_id, self.start,
                                            self.end, relation=self.relation),
                change=self._change(), label=self.text())
            if out.ok:
                self.linked = out.value
            return out.ok
        snap = self._snap
        assert snap is not None
        return self.runner.run(lambda s: editing.restore_link(s, snap), change=self._change(),
                               label=self.text()).ok

    def _undo(self) -> bool:
        linked = self.linked
        assert linked is not None

        def remove(s: Session) -> None:
            self._snap = editing.snapshot_link(s, linked.link_id)
            editing.unlink_span(s, linked.link_id, drop_unused_passage=linked.passage_created)

        return self.runner.run(remove, change=self._change(), label=f"Undo {self.text()}").ok


class UnlinkCommand(_ServiceCommand):
    """Remove an evidence link (the passage stays); undo restores it under the same id."""

    def __init__(self, runner: OperationRunner, case_id: int, link_id: int, item_id: int,
                 kind: str, label: str) -> None:
        super().__init__(runner, case_id, label)
        self.link_id, self.item_id, self.kind = link_id, item_id, kind
        self._snap: LinkSnapshot | None = None

    def _change(self) -> Any:
        return change(self.case_id, kinds={self.kind}, updated={self.item_id}, evidence=True,
                      label=self.text())

    def _do(self) -> bool:
        def remove(s: Session) -> None:
            self._snap = editing.snapshot_link(s, self.link_id)
            evidence.unlink_evidence(s, self.link_id)

        return self.runner.run(remove, change=self._change(), label=self.text()).ok

    def _undo(self) -> bool:
        snap = self._snap
        assert snap is not None
        return self.runner.run(lambda s: editing.restore_link(s, snap), change=self._change(),
                               label=f"Undo {self.text()}").ok


class RelationCommand(_ServiceCommand):
    """Change an evidence link's relation (supports, contradicts, mentions, context)."""

    def __init__(self, runner: OperationRunner, case_id: int, link_id: int, item_id: int,
                 kind: str, before: str, after: str) -> None:
        super().__init__(runner, case_id, f"Relation {before} → {after}")
        self.link_id, self.item_id, self.kind = link_id, item_id, kind
        self.before, self.after = before, after

    def _set(self, relation: str) -> bool:
        return self.runner.run(
            lambda s: evidence.update_link(s, self.link_id, relation=relation),
            change=change(self.case_id, kinds={self.kind}, updated={self.item_id},
                          evidence=True, label=self.text()),
            label=self.text()).ok

    def _do(self) -> bool:
        return self._set(self.after)

    def _undo(self) -> bool:
        return self._set(self.before)
