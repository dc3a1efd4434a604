"""The window's menus, tool bar, keyboard and status bar (ARCHITECTURE.md, "The window"): the
File, Edit and View menus over the controllers' entry points, the Reading, Case and Help menus
their controllers fill, the global shortcuts and the docks' View actions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDockWidget, QMenu

from casefile.ui.actions import undo_redo_actions
from casefile.ui.backup_restore import install_backup_restore
from casefile.ui.case_menu import install_case_menu, prompt_new_case
from casefile.ui.docks import focusing_view_action
from casefile.ui.help import HelpMenu
from casefile.ui.keyboard import GlobalShortcuts, install_tab_switching
from casefile.ui.reading import ReadingController
from casefile.ui.status_line import MessageBar, StatusLine
from casefile.ui.trash_dialog import install_trash
from casefile.ui.watch_list import install_watch_list
from casefile.ui.workspace_menu import install_workspace_actions

if TYPE_CHECKING:
    from casefile.services.encryption import EncryptionState
    from casefile.ui.backup_restore import BackupRestorer
    from casefile.ui.case_menu import CaseMenu
    from casefile.ui.main_window import MainWindow
    from casefile.ui.trash_dialog import TrashController
    from casefile.ui.watch_list import WatchListController


class MenuParts:
    """The parts of the window :func:`build_menus` and :func:`install_keyboard` set: its
    actions and menus, the Reading, Case and Help menus' controllers, File ▸ Restore from
    backup… and File ▸ Trash…, the docks by object name and their View actions."""

    new_case_action: QAction
    new_workspace_action: QAction
    encrypt_workspace_action: QAction
    encryption_state: EncryptionState | None
    import_action: QAction
    import_table_action: QAction
    import_ftm_action: QAction
    import_archive_action: QAction
    export_action: QAction
    export_confidential_action: QAction
    export_xlsx_action: QAction
    export_csv_action: QAction
    export_ftm_action: QAction
    export_archive_action: QAction
    undo_action: QAction
    redo_action: QAction
    find_action: QAction
    followups_action: QAction
    view_menu: QMenu
    reading: ReadingController
    case_menu: CaseMenu
    watch_list: WatchListController
    help: HelpMenu
    backup_restore: BackupRestorer
    trash: TrashController
    docks: dict[str, QDockWidget]
    dock_actions: dict[str, QAction]
    shortcuts: GlobalShortcuts



def build_menus(w: MainWindow) -> None:
    """The menu bar and tool bar of ``w``: sets its ``*_action`` attributes, ``view_menu``,
    ``reading``, ``case_menu``, ``help``, ``backup_restore`` and ``trash``."""
    menu = w.menuBar()
    file_menu = menu.addMenu("&File")
    w.new_case_action = file_menu.addAction("&New case…", lambda: prompt_new_case(w))
    w.picker.new_case_button.clicked.connect(lambda: prompt_new_case(w))
    file_menu.addSeparator()
    w.import_action = file_menu.addAction("&Import documents…", w.imports.prompt)
    w.import_action.setShortcut(QKeySequence("Ctrl+I"))
    import_menu = file_menu.addMenu("Import &from")
    w.import_table_action = import_menu.addAction(
        "&Spreadsheet of people or organizations…", w.spreadsheets.prompt_import)
    w.import_ftm_action = import_menu.addAction("&FollowTheMoney…", w.ftm.prompt_import)
    w.import_archive_action = file_menu.addAction("Import case a&rchive…",
                                                  w.archives.prompt_import)
    file_menu.addSeparator()
    w.export_action = file_menu.addAction("&Export brief…", w.exports.prompt)
    w.export_action.setShortcut(QKeySequence("Ctrl+E"))
    w.export_confidential_action = file_menu.addAction(
        "Export brief with &confidential sources…",
        lambda: w.exports.prompt(include_confidential=True))
    export_menu = file_menu.addMenu("Export &case as")
    w.export_xlsx_action = export_menu.addAction("&Excel workbook (.xlsx)…",
                                                 w.spreadsheets.prompt_xlsx)
    w.export_csv_action = export_menu.addAction("&CSV files…", w.spreadsheets.prompt_csv)
    w.export_ftm_action = export_menu.addAction("&FollowTheMoney (.ftm.json)…",
                                                w.ftm.prompt_export)
    w.export_archive_action = file_menu.addAction("Export case &archive…",
                                                  w.archives.prompt_export)
    file_menu.addSeparator()
    install_workspace_actions(w, file_menu)
    w.backup_restore = install_backup_restore(w, file_menu)
    w.trash = install_trash(w, file_menu)
    file_menu.addSeparator()
    quit_action = file_menu.addAction("&Quit", w.quit_requested)
    quit_action.setShortcut(QKeySequence.StandardKey.Quit)

    edit_menu = menu.addMenu("&Edit")
    w.undo_action, w.redo_action = undo_redo_actions(w, w.undo_stack, w.undo, w.redo)
    edit_menu.addActions([w.undo_action, w.redo_action])
    edit_menu.addSeparator()
    edit_menu.addActions([w.items.new_item_action, w.items.delete_action])
    edit_menu.addSeparator()
    w.find_action = QAction("&Find / filter", w)
    w.find_action.setShortcut(QKeySequence("Ctrl+F"))
    w.find_action.setStatusTip("Find in the open document, or filter the section table")
    w.find_action.triggered.connect(w.find_or_filter)
    edit_menu.addAction(w.find_action)

    w.view_menu = menu.addMenu("&View")
    w.followups_action = w.view_menu.addAction("&Follow-ups", w.show_followups)
    w.followups_action.setShortcut(QKeySequence("Ctrl+U"))
    w.view_menu.addAction(w.evidence.dock.toggleViewAction())
    w.reading = ReadingController(w, menu.addMenu("&Reading"))
    case_menu = menu.addMenu("&Case")
    w.case_menu = install_case_menu(w, case_menu)
    w.watch_list = install_watch_list(w, case_menu)
    ocr_action = case_menu.addAction("Read scans waiting for &OCR", w.ocr.run_waiting)
    ocr_action.setStatusTip("OCR the scanned pages of this case that were never read "
                            "(a run that was cancelled, or ended with the window)")
    suggest_action = case_menu.addAction("Suggest for documents never &read",
                                         w.suggestions.run_waiting)
    suggest_action.setStatusTip("Find names, dates, follow-ups and claims in the documents of "
                                "this case a suggestion run never reached (cancelled, ended "
                                "with the window, or imported with --no-suggest)")
    w.case_menu.actions = (*w.case_menu.actions, ocr_action, suggest_action)
    w.help = HelpMenu(w, menu.addMenu("&Help"))
    for action in (w.import_action, w.export_action, w.export_confidential_action,
                   w.items.new_item_action, w.items.delete_action, w.find_action,
                   w.followups_action, w.undo_action, w.redo_action):
        w.addAction(action)

    toolbar = w.addToolBar("Main")
    toolbar.setObjectName("main_toolbar")
    toolbar.setMovable(False)
    toolbar.addActions([w.import_action, w.export_action])
    toolbar.addSeparator()
    toolbar.addActions([w.undo_action, w.redo_action])


def install_keyboard(w: MainWindow) -> None:
    """Docks shown and focused from the View menu; global keys; tab switching; focus. Sets
    ``w.docks`` (object name -> dock), ``w.dock_actions``, ``w.shortcuts``."""
    docks = [d for d in w.findChildren(QDockWidget) if d.objectName().endswith("_dock")]
    w.docks = {d.objectName(): d for d in docks}
    w.dock_actions = {name: focusing_view_action(w, d) for name, d in w.docks.items()}
    w.view_menu.addSeparator()
    next_tab, previous_tab = install_tab_switching(w, w.tabs)
    w.view_menu.addActions([next_tab, previous_tab])
    w.shortcuts = GlobalShortcuts(w, [
        w.import_action, w.export_action, w.quick_open.action, w.followups_action,
        *[a for a in [w.search_panel.action] if a is not None], next_tab, previous_tab,
        *w.dock_actions.values()])


def build_status_bar(w: MainWindow) -> StatusLine:
    """The status bar: messages cut to fit, the case's counts, the workspace, the job bar."""
    w.setStatusBar(MessageBar(w))
    return StatusLine(w.statusBar(), w.runner, w.workspace.label)
