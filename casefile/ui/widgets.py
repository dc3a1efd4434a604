"""Small widgets the window's views share: the single-shot timer that waits for the last of
a burst, a wrapped label, a bar's flat button, a row of buttons at the left, a folder field."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Qt, QTimer, SignalInstance
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QToolButton,
    QWidget,
)


def debounce_timer(parent: QObject, ms: int, slot: Callable[[], object]) -> QTimer:
    """A single-shot timer of ``ms`` milliseconds, owned by ``parent``, that calls ``slot``
    when it fires. Each ``start()`` waits ``ms`` again, so a burst of changes (keys typed,
    a scroll) runs ``slot`` once, after the last; ``ms`` 0 runs it once the event loop is
    free."""
    timer = QTimer(parent)
    timer.setSingleShot(True)
    timer.setInterval(ms)
    timer.timeout.connect(slot)
    return timer


def wrapped_label(text: str = "", *, name: str = "", rich: bool = False) -> QLabel:
    """A label whose text wraps to its width (a long line never widens the window): shown as
    written (plain text: a name or quote from a document is never read as HTML), or as
    ``rich`` text built by Casefile itself; ``name`` is its object name."""
    label = QLabel(text)
    if name:
        label.setObjectName(name)
    label.setTextFormat(Qt.TextFormat.RichText if rich else Qt.TextFormat.PlainText)
    label.setWordWrap(True)
    return label


def flat_button(text: str, tip: str, on_click: Callable[[], object] | SignalInstance
                ) -> QToolButton:
    """A flat button of a bar (the find bar's Previous, Next and ✕, a notice's ✕): ``text``,
    ``tip`` as its tooltip, raised only under the mouse; a click calls (or emits)
    ``on_click``."""
    button = QToolButton()
    button.setText(text)
    button.setToolTip(tip)
    button.setAutoRaise(True)
    button.clicked.connect(on_click)
    return button


def row_at_left(*widgets: QWidget) -> QHBoxLayout:
    """``widgets`` side by side at the left of a row (a panel's buttons), the rest of the
    row empty."""
    row = QHBoxLayout()
    for widget in widgets:
        row.addWidget(widget)
    row.addStretch(1)
    return row


def folder_row(edit: QLineEdit, title: str, *, from_typed: bool = True) -> QHBoxLayout:
    """``edit`` (a folder's path) with a Browse… button after it, in a row: the button asks
    for a folder (a folder dialog titled ``title``, opening at the folder typed when
    ``from_typed``) and puts it in ``edit``; cancelled, ``edit`` stays as it was."""

    def browse() -> None:
        chosen = QFileDialog.getExistingDirectory(edit.window(), title,
                                                  edit.text() if from_typed else "")
        if chosen:
            edit.setText(chosen)

    button = QPushButton("Browse…")
    button.clicked.connect(browse)
    row = QHBoxLayout()
    row.addWidget(edit, 1)
    row.addWidget(button)
    return row
