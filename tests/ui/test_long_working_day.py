"""A long working day in the real window: 3,000 user actions while another process commits to
the same workspace every second or two. The window must live through it (a PySide6 release
that loses references to ``None`` ends such a day in "Fatal Python error: none_dealloc"), show
no error, keep up with the other process's rows, and its memory must stay bounded.

The actions are the day's ordinary ones, in a fixed pseudo-random order: select items in the
table (a mouse click), change section, switch tabs (Items, Follow-ups, Timeline, Claims and,
most often, Graph), select a node in the graph, accept a suggestion and undo it, search and
open a hit, open and close documents. The other process is a small Python writer on the
services: every 1–2 s it adds a person, organization or place to the window's case, or deletes
one it added.
"""

from __future__ import annotations

import gc
import os
import random
import resource
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import QApplication
from sqlalchemy import func, select

from casefile.services.demo import build_demo
from casefile.services.suggestions import suggest_for_document
from casefile.store import Item
from tests.ui.helpers import add_text_document

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]

#: User actions in the day (an accept and its undo count as two).
ACTIONS = 3000
#: Actions before the first memory reading: caches filled, every view built once.
WARM_UP = 300
#: Growth of the resident set from the end of the warm-up to the end of the day, in MiB.
RSS_GROWTH_LIMIT_MB = 150
#: References to ``None`` that may come and go while the window works (rows read, caches);
#: a release with the fault loses one on every Qt call that returns nothing, i.e. thousands.
NONE_TOLERANCE = 500
#: Actions between two checks of the references to ``None`` (a broken release then fails the
#: test before the count reaches zero and takes the process down).
CHECK_EVERY = 25

STORIES = (
    "Harbor Police Chief Nadia Ferreira said Tuesday that the department's review of the crash "
    "is expected to be released within a week. Ferreira declined to say whether Officer Tom "
    "Becker had been disciplined. Becker, 41, did not respond to a request for comment. "
    "It is unclear whether the city will pay for the repairs. Sen. Maria Ortiz, D-Ore., called "
    "for an inquiry in Harbor.",
    "Mayor Daniel Reyes of Port Alder said on Monday that the Alder Water Authority had "
    "overbilled 3,000 households. Authority spokeswoman Clara Jensen said the utility would "
    "refund the charges. Councilman Victor Hale asked the state auditor to review the contracts "
    "signed in Port Alder since 2019.",
    "The Northgate School Board voted 5-2 on Thursday to close Lindell Elementary. "
    "Superintendent Grace Okafor said the district could not afford repairs. Parent Sam "
    "Whitfield said families in Northgate were not consulted. It is not known whether the "
    "board will sell the building.",
)

#: The writer: argv is the workspace folder, the case id and a file whose existence says stop.
#: Prints one line per commit. Leaves when the test process is gone, too.
WRITER = textwrap.dedent("""
    import os, random, sys, time
    from pathlib import Path
    from casefile.services import items
    from casefile.store.conflicts import retry_on_conflict
    from casefile.store.workspace import open_workspace

    folder, case_id, stop = Path(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3])
    parent = os.getppid()
    ws = open_workspace(folder)
    rng = random.Random(25)
    made, n = [], 0
    print("ready", flush=True)

    def commit(victim):  # one transaction; None or the id of the item made
        with ws.transaction() as s:
            if victim is not None:
                items.delete_item(s, victim)
                return None
            kind = ("person", "organization", "place")[n % 3]
            return items.create_item(s, case_id, kind, f"Writer {kind} {n}").id

    while not stop.exists() and os.getppid() == parent:
        time.sleep(1.0 + rng.random())
        victim = made.pop(n % len(made)) if len(made) > 6 and n % 4 == 3 else None
        # as the CLI writes: again, from a fresh snapshot, when the window committed first
        new = retry_on_conflict(lambda: commit(victim))
        if new is not None:
            made.append(new)
        n += 1
        print(n, flush=True)
    ws.close()
""")


def rss_mb() -> float:
    """This process's resident set now, in MiB (/proc/self/status VmRSS; where there is no
    /proc, the peak from getrusage, in kilobytes on Linux)."""
    status = Path("/proc/self/status")
    if status.is_file():
        for line in status.read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _day_case(ws) -> tuple[int, list[int]]:
    """The sample case plus three short stories with stored suggestions (rules mode, no
    spaCy); returns (case id, document ids)."""
    with ws.transaction() as s:
        case_id = build_demo(s)[0]
    for n, story in enumerate(STORIES):
        doc_id = add_text_document(ws, case_id, story, f"story-{n}.txt", published="2024-03-08")
        with ws.transaction() as s:
            suggest_for_document(s, doc_id, mode="rules")
    with ws.transaction() as s:
        documents = list(s.scalars(select(Item.id).where(Item.case_id == case_id,
                                                         Item.kind == "document")))
    return case_id, documents


class Day:
    """The user's actions on one window; ``made`` counts them (an accept and its undo: two)."""

    def __init__(self, window, qtbot, documents: list[int], rng: random.Random) -> None:
        self.window, self.qtbot, self.documents, self.rng = window, qtbot, documents, rng
        self.made = 0
        self.accepted = 0
        self.opened: list[int] = []
        self.tab_pages = [window.items.page, window.followups_view, window.case_views.timeline_tab,
                          window.case_views.claims_tab, window.case_views.graph_tab]
        self.actions: list[tuple[int, Callable[[], None]]] = [
            (12, self.select_row), (4, self.change_section), (16, self.switch_tab),
            (12, self.graph_node), (1, self.accept_and_undo), (12, self.search),
            (8, self.open_document),
        ]

    def step(self) -> None:
        """One action, then the events it posted (and the watch's poll when due), and the
        deletions it asked for (``deleteLater``), as the window's event loop does them."""
        weights = [w for w, _ in self.actions]
        action = self.rng.choices([a for _, a in self.actions], weights)[0]
        action()
        QApplication.processEvents()
        QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)

    def select_row(self) -> None:
        window = self.window
        if window.tabs.currentWidget() is not window.items.page:
            window.tabs.setCurrentWidget(window.items.page)
        rows = window.items.proxy.rowCount()
        if rows:
            index = window.items.proxy.index(self.rng.randrange(min(rows, 40)), 0)
            window.items.table.scrollTo(index)
            self.qtbot.mouseClick(window.items.table.viewport(), Qt.MouseButton.LeftButton,
                                  pos=window.items.table.visualRect(index).center())
        self.made += 1

    def change_section(self) -> None:
        navigator = self.window.picker.navigator
        navigator.setCurrentRow(self.rng.randrange(navigator.count()))
        self.made += 1

    def switch_tab(self) -> None:
        window = self.window
        if self.rng.random() < 0.5:  # the Graph by its shortcut, half the time
            self.qtbot.keyClick(window, Qt.Key.Key_G, Qt.KeyboardModifier.ControlModifier
                                | Qt.KeyboardModifier.ShiftModifier)
        else:
            window.tabs.setCurrentWidget(self.rng.choice(self.tab_pages))
        self.made += 1

    def graph_node(self) -> None:
        window = self.window
        window.tabs.setCurrentWidget(window.case_views.graph_tab)
        view = window.case_views.graph
        nodes = [item.node.title for item in view.nodes.values()]
        if nodes:
            view.find_node(self.rng.choice(nodes))
        self.made += 1

    def accept_and_undo(self) -> None:
        panel = self.window.suggestions_panel
        waiting = panel.waiting_entries()
        if waiting:
            entry = self.rng.choice(waiting)
            assert panel.select(entry.kind, entry.name)
            panel.accept_button.click()
            self.accepted += 1
            QApplication.processEvents()
            self.window.undo_action.trigger()
        self.made += 2

    def search(self) -> None:
        panel = self.window.search_panel
        panel.edit.setText(self.rng.choice(["Ferreira", "inquiry", "refund*", "school OR board",
                                            "Becker", "water"]))
        panel.run_search()
        if self.rng.random() < 0.3:
            panel.open_current()
        self.made += 1

    def open_document(self) -> None:
        window = self.window
        document = self.rng.choice(self.documents)
        window.open_document(document)
        if document not in self.opened:
            self.opened.append(document)
        if len(self.opened) > 2:  # the day's reader closes what she is done with
            window.documents.close(self.opened.pop(0))
        self.made += 1


def test_a_long_working_day_with_another_process_writing(make_window, ui_workspace, qtbot,
                                                         tmp_path: Path) -> None:
    case_id, documents = _day_case(ui_workspace)
    window = make_window(case_id)
    window.resize(1280, 800)
    foreign: list[object] = []
    window.runner.case_changed.connect(
        lambda ch: foreign.append(ch) if ch.label == "changes made in another window" else None)

    stop = tmp_path / "stop-writing"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        p for p in (str(REPO), os.environ.get("PYTHONPATH", "")) if p)}
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(ui_workspace.folder), str(case_id), str(stop)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert writer.stdout is not None
        assert writer.stdout.readline().strip() == "ready", writer.stderr.read()
        day = Day(window, qtbot, documents, random.Random(2026))
        gc.collect()
        none_before = sys.getrefcount(None)
        rss_start = none_start = 0.0
        checks = 0
        while day.made < ACTIONS:
            day.step()
            if day.made // CHECK_EVERY > checks:
                checks = day.made // CHECK_EVERY
                lost = none_before - sys.getrefcount(None)
                assert lost <= NONE_TOLERANCE, (
                    f"{lost} references to None lost after {day.made} actions: this PySide6 "
                    "would abort the window ('Fatal Python error: none_dealloc')")
            if not rss_start and day.made >= WARM_UP:
                gc.collect()
                rss_start, none_start = rss_mb(), sys.getrefcount(None)
        assert not writer.poll(), writer.stderr.read() if writer.stderr else ""
    finally:
        stop.touch()
        out, err = writer.communicate(timeout=30)
    assert writer.returncode == 0, err
    commits = len([line for line in out.splitlines() if line.strip().isdigit()])

    gc.collect()
    rss_end, none_end = rss_mb(), sys.getrefcount(None)
    print(f"\nlong working day: {day.made} actions ({day.accepted} accepted and undone), "
          f"{commits} commits by the other process, {len(foreign)} reloads for them; "
          f"RSS {rss_start:.0f} -> {rss_end:.0f} MiB; "
          f"references to None {none_start:.0f} -> {none_end:.0f}")

    assert commits >= 5 and foreign, "the other process's commits never reached the window"
    assert not window.messages, [box.text() for box in window.messages]
    # the window shows the other process's rows: its counts match the database's
    with ui_workspace.transaction() as s:
        people = s.scalar(select(func.count()).select_from(Item).where(
            Item.case_id == case_id, Item.kind == "person"))
    qtbot.waitUntil(lambda: window.picker.navigator.item(0).text() == f"People ({people})",
                    timeout=5000)
    assert none_end >= none_start - NONE_TOLERANCE
    assert rss_end - rss_start < RSS_GROWTH_LIMIT_MB
