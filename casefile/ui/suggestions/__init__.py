"""The Suggestions panel (ARCHITECTURE.md, "Data model": Mentions; "The window"), one module a
job (ARCHITECTURE.md, "Packages of one module a job"):

- ``model``: the tree model (a group row per kind, a row per suggested name, handed to the view a
  chunk at a time), its columns and how a row reads;
- ``loading``: what the panel shows, read on a worker thread (a case opening, a job reading
  ahead) with the collector paused;
- ``dialogs``: accept as…, merge into…, rejected names;
- ``command``: a decision on the window's undo stack;
- ``panel``: the panel itself and :func:`install_suggestions_panel`.

The public names are re-exported here. A function replaced in a test is replaced in the
module that calls it (``read_contents`` in ``loading``).
"""

from casefile.ui.suggestions.command import DecisionCommand
from casefile.ui.suggestions.dialogs import MergeDialog, RejectedNamesDialog, RenameDialog
from casefile.ui.suggestions.loading import PanelContents, collector_paused, read_contents
from casefile.ui.suggestions.model import (
    COLUMNS,
    CONTEXT_COLUMN,
    DECIDED_MARKS,
    DETAILS_COLUMN,
    DETAILS_MIN_WIDTH,
    DETAILS_SHARE,
    ENTRY_ROLE,
    FETCH_ROWS,
    KIND_PLURAL,
    KIND_ROLE,
    KIND_SINGULAR,
    KIND_TITLES,
    MENTIONS_COLUMN,
    PREVIEW_LINES,
    ClaimRowDelegate,
    SuggestionsModel,
    claim_attribution,
    claim_speaker,
    entry_details,
    entry_label,
    event_cue,
    fit_claim_label,
)
from casefile.ui.suggestions.panel import SuggestionsPanel, install_suggestions_panel

__all__ = [
    "COLUMNS", "CONTEXT_COLUMN", "DECIDED_MARKS", "DETAILS_COLUMN", "DETAILS_MIN_WIDTH",
    "DETAILS_SHARE", "ENTRY_ROLE", "FETCH_ROWS", "KIND_PLURAL", "KIND_ROLE", "KIND_SINGULAR",
    "KIND_TITLES", "MENTIONS_COLUMN", "PREVIEW_LINES", "ClaimRowDelegate", "DecisionCommand",
    "MergeDialog", "PanelContents", "RejectedNamesDialog", "RenameDialog", "SuggestionsModel",
    "SuggestionsPanel", "claim_attribution", "claim_speaker", "collector_paused",
    "entry_details", "entry_label", "event_cue", "fit_claim_label",
    "install_suggestions_panel", "read_contents",
]
