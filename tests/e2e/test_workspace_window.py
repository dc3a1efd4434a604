"""``casefile gui`` on a folder that holds no workspace asks before creating one."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication, QMessageBox

from casefile.cli import main
from casefile.ui import app as app_module
from casefile.ui.main_window import MainWindow


@pytest.fixture(autouse=True)
def _temp_settings(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope,
                      str(tmp_path_factory.mktemp("settings")))
    yield


def _answer(monkeypatch: pytest.MonkeyPatch, questions: list[str],
            button: QMessageBox.StandardButton) -> None:
    def question(_parent, _title, text, *_a, **_k):
        questions.append(text)
        return button

    monkeypatch.setattr(QMessageBox, "question", question)


def _close_window_at_exec(monkeypatch: pytest.MonkeyPatch, shown: list[str]) -> None:
    def fake_exec(*_a):
        for w in QApplication.topLevelWidgets():
            if isinstance(w, MainWindow) and w.isVisible():
                shown.append(w.windowTitle())
                w.runner.shutdown()
                w.close()
        return 0

    monkeypatch.setattr(QApplication, "exec", fake_exec)


def test_no_leaves_nothing_and_prints_the_cli_line(qapp, tmp_path, monkeypatch, capsys):
    questions: list[str] = []
    _answer(monkeypatch, questions, QMessageBox.StandardButton.No)
    shown: list[str] = []
    _close_window_at_exec(monkeypatch, shown)
    typo = tmp_path / "Casefile-typo"
    assert main(["--workspace", str(typo), "gui"]) == 1
    assert len(questions) == 1 and "Create a new workspace here?" in questions[0]
    assert str(typo) in questions[0]
    assert shown == []
    assert not typo.exists()
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"casefile: no workspace at {typo}")


def test_yes_creates_the_workspace_and_opens_the_window(qapp, tmp_path, monkeypatch):
    questions: list[str] = []
    _answer(monkeypatch, questions, QMessageBox.StandardButton.Yes)
    shown: list[str] = []
    _close_window_at_exec(monkeypatch, shown)
    empty = tmp_path / "empty"
    empty.mkdir()  # an existing empty folder is no workspace either
    assert app_module.run_app(workspace=empty) == 0
    assert len(questions) == 1
    assert len(shown) == 1
    assert (empty / "casefile.sqlite3").is_file()


def test_an_existing_workspace_or_new_workspace_opens_without_asking(qapp, tmp_path,
                                                                      monkeypatch):
    questions: list[str] = []
    _answer(monkeypatch, questions, QMessageBox.StandardButton.No)
    shown: list[str] = []
    _close_window_at_exec(monkeypatch, shown)
    folder = tmp_path / "ws"
    assert main(["--workspace", str(folder), "--new-workspace", "gui"]) == 0
    assert (folder / "casefile.sqlite3").is_file()
    assert app_module.run_app(workspace=folder) == 0
    assert questions == [] and len(shown) == 2
