"""File ▸ Export brief…: the save dialog's file type is the export profile."""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtWidgets import QFileDialog

from casefile.export.pdf_check import normalize, pdf_places
from casefile.export.profiles import PROFILES
from casefile.services import items
from casefile.services.demo import build_demo
from casefile.services.disclosure import names_of
from casefile.ui.exporting import profile_filters, profile_of_filter


def _text(pdf: Path) -> str:
    return normalize(" ".join(text for _place, text in pdf_places(pdf)))


def test_the_file_type_chosen_is_the_profile_the_brief_is_written_under(
    make_window, ui_workspace, qtbot, monkeypatch, tmp_path: Path
) -> None:
    with ui_workspace.transaction() as s:
        case_id, _ = build_demo(s)
        person = max(items.list_items(s, case_id, "person"), key=lambda p: (len(p.title), p.id))
        items.update_item(s, person.id, confidential=True)
        names = names_of(person)
    window = make_window(case_id)
    offered: list[str] = []
    written: dict[str, Path] = {}
    for profile in ("public", "internal"):
        out = tmp_path / f"{profile}.pdf"
        written[profile] = out

        def save(_w, _title, _name, filters, out=out, profile=profile):
            offered.append(filters)
            return str(out), f"{PROFILES[profile].label} (*.pdf)"

        monkeypatch.setattr(QFileDialog, "getSaveFileName", save)
        with qtbot.waitSignal(window.runner.job_finished, timeout=60000) as done:
            window.export_action.trigger()
        assert done.args[0].outcome == "succeeded"
        assert f"Brief ({profile}) written to" in window.statusBar().currentMessage()
    # every profile is offered, editor (the default) first
    assert offered[0].split(";;") == profile_filters("editor")
    assert offered[0].split(";;")[0].startswith("Editor:") and len(PROFILES) == 4
    public, internal = _text(written["public"]), _text(written["internal"])
    assert "source a" in public and "source a" not in internal
    for name in names:
        assert normalize(name) in internal
        assert not re.search(rf"(?<!\w){re.escape(normalize(name))}(?!\w)", public), name


def test_an_unknown_file_type_gives_the_actions_default() -> None:
    assert profile_of_filter("PDF files (*.pdf)", "editor") == "editor"
    assert profile_of_filter(profile_filters("internal")[0], "editor") == "internal"
    assert profile_filters("internal")[0].startswith("Internal:")
