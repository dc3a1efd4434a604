"""A decision on a suggestion as a command on the window's undo stack (ARCHITECTURE.md, "One way
in for changes").
"""


from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from casefile.services.changes import Changes, Step
from casefile.ui.operations import Outcome
from casefile.ui.undo import ActionCommand

if TYPE_CHECKING:
    from casefile.ui.suggestions.panel import SuggestionsPanel


class DecisionCommand(ActionCommand):
    """One decision on the window's undo stack: an :class:`~casefile.ui.undo.ActionCommand`
    whose action already ran (the panel ran it to mark its rows in place, so the first
    ``redo`` runs nothing); undo and redo run the services' Steps like every other command,
    through :meth:`SuggestionsPanel.run_decision_step` so the rows are marked in place. A
    step that fails (e.g. the suggestion was decided again meanwhile) makes the command
    obsolete."""

    def __init__(self, panel: SuggestionsPanel, done: Changes,
                 keys: Sequence[tuple[str, str, str]], how: str) -> None:
        super().__init__(panel.runner, done.case_id or 0,
                         done.label[:1].upper() + done.label[1:] if done.label else "Decision")
        self.panel = panel
        self.keys = list(keys)
        self.how = how
        self._done = done

    def _first(self) -> Outcome[Changes]:
        return Outcome(True, self._done)

    def _run_step(self, step: Step, *, undoing: bool) -> Outcome[Changes]:
        return self.panel.run_decision_step(step, self.keys, None if undoing else self.how)

