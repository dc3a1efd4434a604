"""Edit ▸ Preferences…: the window's settings a reporter may change.

One setting so far, the **suggestion model**: blank for the default (the
``CASEFILE_SPACY_MODEL`` environment variable when set, else the en_core_web_sm pipeline that
installs with the app), or any installed spaCy pipeline: a package name
("en_core_web_lg") or the folder of a pipeline. It is stored in the window's QSettings under
:data:`MODEL_SETTING` and read by every suggestion run (:func:`suggestion_model`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QSettings
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from casefile.ui.actions import menu_named
from casefile.ui.widgets import folder_row

if TYPE_CHECKING:
    from casefile.ui.shell import WindowShell

#: QSettings key of the suggestion model ("" or missing: the default).
MODEL_SETTING = "suggestions/model"


def suggestion_model(settings: QSettings) -> str | None:
    """The suggestion model chosen in Preferences (a package name or a folder), or None for
    the default."""
    value = settings.value(MODEL_SETTING, "")
    text = str(value).strip() if value is not None else ""
    return text or None


def set_suggestion_model(settings: QSettings, model: str | None) -> None:
    """Store the suggestion model (None or blank: back to the default)."""
    text = (model or "").strip()
    if text:
        settings.setValue(MODEL_SETTING, text)
    else:
        settings.remove(MODEL_SETTING)
    settings.sync()


class PreferencesDialog(QDialog):
    """The Preferences dialog: ``model_edit`` (the suggestion model; blank = default), a
    Browse… button to pick a pipeline folder, and ``problem`` saying why a typed model cannot
    be used (OK is disabled while it cannot). :meth:`model` is the choice (None: default)."""

    def __init__(self, current: str | None, parent: QWidget | None = None) -> None:
        from casefile.services.suggestion_models import default_choice  # when first opened

        super().__init__(parent)
        self.setWindowTitle("Preferences")
        self.setObjectName("preferences_dialog")
        self.model_edit = QLineEdit(current or "")
        self.model_edit.setObjectName("suggestion_model_edit")
        self.model_edit.setPlaceholderText(f"default ({default_choice()})")
        self.model_edit.setToolTip(
            "The spaCy pipeline that suggests names in imported documents: blank for the "
            "default, an installed package name (e.g. en_core_web_lg) or a pipeline folder.")
        row = folder_row(self.model_edit, "Folder of a spaCy pipeline")
        hint = QLabel("Blank uses the model that installs with Casefile (or "
                      "CASEFILE_SPACY_MODEL when set). Another installed spaCy pipeline may "
                      "find names better: give its package name or its folder. New "
                      "suggestion runs use it.")
        hint.setWordWrap(True)
        self.problem = QLabel()
        self.problem.setObjectName("suggestion_model_problem")
        self.problem.setWordWrap(True)
        label = QLabel("Suggestion &model:")
        label.setBuddy(self.model_edit)
        form = QFormLayout()
        form.addRow(label, row)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel
                                        | QDialogButtonBox.StandardButton.RestoreDefaults)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.ok_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.defaults_button = self.buttons.button(
            QDialogButtonBox.StandardButton.RestoreDefaults)
        self.defaults_button.clicked.connect(self.model_edit.clear)
        self.model_edit.textChanged.connect(self._check)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(hint)
        layout.addWidget(self.problem)
        layout.addWidget(self.buttons)
        self.setMinimumWidth(460)
        self._check()
        self.model_edit.setFocus()

    def model(self) -> str | None:
        """The chosen suggestion model (None: the default)."""
        return self.model_edit.text().strip() or None

    def _check(self) -> None:
        from casefile.services.suggestion_models import check_model

        problem = check_model(self.model_edit.text())
        self.problem.setText(problem or "")
        self.problem.setVisible(problem is not None)
        self.ok_button.setEnabled(problem is None)


class PreferencesController:
    """Edit ▸ Preferences… of a window (``action``); :meth:`prompt` shows the dialog and
    stores the choice in the window's settings. ``dialog`` is the one shown last."""

    def __init__(self, window: WindowShell) -> None:
        self.window = window
        self.dialog: PreferencesDialog | None = None
        self.action = window.qt_window().addAction("&Preferences…")
        self.action.setObjectName("preferences_action")
        self.action.setShortcuts([QKeySequence("Ctrl+,")])
        self.action.setMenuRole(QAction.MenuRole.PreferencesRole)
        self.action.setStatusTip("Choose the spaCy model that suggests names")
        self.action.triggered.connect(lambda _checked=False: self.prompt())
        edit_menu = menu_named(window.menuBar(), "Edit")
        if edit_menu is not None:
            edit_menu.addSeparator()
            edit_menu.addAction(self.action)

    def prompt(self) -> bool:
        """Show Preferences (modal); on OK store the suggestion model and say it in the status
        bar. Returns True if the choice was stored."""
        settings = self.window.settings
        self.dialog = PreferencesDialog(suggestion_model(settings), self.window.qt_window())
        if self.dialog.exec() != QDialog.DialogCode.Accepted:
            return False
        chosen = self.dialog.model()
        set_suggestion_model(settings, chosen)
        self.window.notify(f"Suggestions will use {chosen or 'the default model'}.", 6000)
        return True


def install_preferences(window: WindowShell) -> PreferencesController:
    """Add Edit ▸ Preferences… (Ctrl+,) to the window; call after its menus are built."""
    return PreferencesController(window)
