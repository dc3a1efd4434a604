"""The window's suggestions and `casefile extract` give the same names for the same file and date
real articles of ../shared/samples/articles imported with Ctrl+I in the real window,
their published date typed into the date question, against the CLI run on the same file with
``--published`` the same date.
"""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from tests.conftest import SHARED
from tests.e2e.cli_helpers import casefile
from tests.ui.new_case import answer_new_case

ARTICLES = SHARED / "samples" / "articles"
KINDS = {"person": "people", "organization": "organizations", "place": "places"}


@pytest.mark.parametrize("stem", ["6ebac05f", "c7e39ac4", "8634d121"])
def test_window_and_cli_suggest_the_same_names(stem: str, make_window, qtbot, monkeypatch
                                               ) -> None:
    path = ARTICLES / f"{stem}.txt"
    published = json.loads((ARTICLES / f"{stem}-gold.json").read_text())["published"]
    window = make_window(suggest_after_import=True)
    answer_new_case(monkeypatch, "Corpus article")
    window.new_case_action.trigger()
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", lambda *a, **k: ([str(path)], "Documents"))
    qtbot.keyClick(window, Qt.Key.Key_I, Qt.KeyboardModifier.ControlModifier)
    dialog = window.imports.date_dialog
    assert dialog is not None and dialog.isVisible()
    dialog.date_edit.setText(published)
    qtbot.keyClick(dialog.date_edit, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.last_job.done, timeout=30000)
    suggesting = window.suggestions.last_job
    assert suggesting is not None
    qtbot.waitUntil(lambda: suggesting.done, timeout=120000)
    listing = window.suggestions_panel.listing
    assert listing is not None

    done = casefile(None, "extract", str(path), "--published", published, "--json")
    assert done.code == 0, done.err
    cli = json.loads(done.out)
    for kind, key in KINDS.items():
        in_window = sorted(e.name for e in listing.by_kind.get(kind, []))
        from_cli = sorted(e["name"] for e in cli[key])
        assert in_window == from_cli, kind
        assert from_cli, f"no {key} suggested"
