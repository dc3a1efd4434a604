"""Start-up loads only what the window needs: the ingesters, the exporters,
Alembic, reportlab and spaCy load when first used, not when the window opens."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: Libraries (and Casefile modules) the window must not load before the reporter uses them.
LAZY = ("reportlab", "alembic", "spacy", "trafilatura", "pdfminer", "pypdfium2", "docx",
        "icalendar", "casefile.export.brief", "casefile.ingest.html", "casefile.ingest.pdf",
        "casefile.extract.pipeline", "casefile.services.batch",
        "casefile.ui.timeline", "casefile.ui.claims_view", "onnxruntime", "cv2",
        "rapidocr_onnxruntime", "PIL", "casefile.ingest.ocr", "casefile.services.ocr",
        "sqlcipher3")


def _loaded_after(code: str, env: dict[str, str] | None = None) -> dict[str, object]:
    """Run ``code`` in a fresh interpreter; it must leave ``result``; returns it with the
    lazy modules found in sys.modules under "loaded"."""
    script = (f"import json, sys\n{code}\n"
              f"result['loaded'] = sorted(m for m in {LAZY!r} if m in sys.modules)\n"
              "print(json.dumps(result))\n")
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", **(env or {})}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_importing_the_main_window_loads_no_heavy_library() -> None:
    result = _loaded_after("import casefile.ui.main_window\nresult = {}")
    assert result["loaded"] == []


def test_opening_the_window_on_a_workspace_loads_no_heavy_library(tmp_path: Path) -> None:
    from casefile.services import cases
    from casefile.store.workspace import open_workspace

    ws = open_workspace(tmp_path / "ws")
    with ws.transaction() as s:
        cases.create_case(s, "Start-up")
    ws.close()
    # the command line's own way in, to the first event-loop turn after the window is shown
    code = ("from casefile.cli import main\n"
            f"result = {{'code': main(['--workspace', {str(tmp_path / 'ws')!r}, 'gui'])}}")
    result = _loaded_after(code, {"CASEFILE_EXIT_AFTER_SHOW": "1",
                                  "XDG_CONFIG_HOME": str(tmp_path / "config")})
    assert result["code"] == 0
    assert result["loaded"] == []


def _start_window(arguments: list[str], config: Path) -> dict[str, object]:
    """``casefile.cli.main(arguments)`` in a fresh interpreter, to the first turn after the
    window shows its case: what of the core was loaded at the frame's first paint
    ("at_paint"), the frame then ("frame") and the window ("window")."""
    code = (
        "from casefile.ui import startup\n"
        "core = ('sqlalchemy', 'casefile.store', 'casefile.services', 'casefile.ui.main_window')\n"
        "seen = {}\n"
        "made = startup.StartupFrame.__init__\n"
        "def frame_made(self):\n"
        "    made(self)\n"
        "    self.painted.insert(0, lambda: seen.update(\n"
        "        at_paint=sorted(m for m in core if m in sys.modules),\n"
        "        frame=[self.isVisible(), self.windowTitle(), self.statusBar().currentMessage(),\n"
        "               [a.text() for a in self.menuBar().actions()]]))\n"
        "startup.StartupFrame.__init__ = frame_made\n"
        "def shown(app):\n"
        "    from PySide6.QtWidgets import QApplication\n"
        "    (window,) = [w for w in QApplication.topLevelWidgets() if w.isVisible()]\n"
        "    seen['window'] = [type(window).__name__, window.windowTitle(),\n"
        "                      window.picker.navigator.item(0).text(),\n"
        "                      window.statusBar().currentMessage()]\n"
        "    app.quit()\n"
        "startup.quit_after_show = shown\n"
        "from casefile.cli import main\n"
        f"result = {{'code': main({arguments!r})}}\n"
        "result.update(seen)\n"
    )
    return _loaded_after(code, {"CASEFILE_EXIT_AFTER_SHOW": "1",
                                "XDG_CONFIG_HOME": str(config)})


def test_the_window_frame_is_painted_before_the_core_loads(tmp_path: Path) -> None:
    """``casefile gui`` paints its frame with PySide6 alone, then loads SQLAlchemy, the store,
    the services and the window's modules (casefile.ui.startup), and shows the case."""
    from casefile.services import cases, items
    from casefile.store.workspace import open_workspace
    from casefile.ui import startup
    from casefile.ui.main_window import OPENING_MESSAGE

    ws = open_workspace(tmp_path / "ws")
    with ws.transaction() as s:
        case_id = cases.create_case(s, "Start-up").id
        items.create_item(s, case_id, "person", "A Person")
    ws.close()
    result = _start_window(["--workspace", str(tmp_path / "ws"), "gui"], tmp_path / "config")
    assert result["code"] == 0
    assert result["at_paint"] == []
    assert result["frame"] == [True, "Casefile", startup.OPENING_TEXT, list(startup.MENU_TITLES)]
    kind, title, people, status = result["window"]  # the frame hidden, the window in its place
    assert (kind, title, people) == ("MainWindow", "Start-up — Casefile", "People (1)")
    assert status != OPENING_MESSAGE


def test_the_readmes_demo_open_paints_the_frame_before_building_the_sample(
        tmp_path: Path) -> None:
    """``casefile demo --open`` on a new workspace: the frame is up before the core loads and
    the sample case is built (behind it), then the window shows the sample case."""
    from casefile.ui import startup

    sample = json.loads((ROOT / "resources" / "demo" / "demo-case.json").read_text("utf-8"))

    result = _start_window(["--workspace", str(tmp_path / "ws"), "--new-workspace", "demo",
                            "--open"], tmp_path / "config")
    assert result["code"] == 0
    assert result["at_paint"] == []
    assert result["frame"] == [True, "Casefile", startup.OPENING_TEXT, list(startup.MENU_TITLES)]
    kind, title, people, _status = result["window"]
    assert (kind, title) == ("MainWindow", f"{sample['case']['title']} — Casefile")
    assert str(people).startswith("People (") and people != "People (0)"


def test_the_first_import_and_brief_load_what_they_need(tmp_path: Path) -> None:
    """What start-up leaves out still loads when used: an HTML import and a brief."""
    page = tmp_path / "page.html"
    page.write_text("<html><head><title>Budget</title></head><body><p>The council met on "
                    "Monday to discuss the budget of the harbor.</p></body></html>",
                    encoding="utf-8")
    code = (
        "from casefile.store.workspace import open_workspace\n"
        "from casefile.services import brief, cases, documents\n"
        f"ws = open_workspace({str(tmp_path / 'ws')!r})\n"
        "with ws.transaction() as s:\n"
        "    cid = cases.create_case(s, 'Lazy').id\n"
        f"    documents.import_file(s, cid, __import__('pathlib').Path({str(page)!r}))\n"
        f"    brief.export_brief(s, cid, __import__('pathlib').Path({str(tmp_path / 'b.pdf')!r}))\n"
        "result = {}"
    )
    result = _loaded_after(code)
    assert {"reportlab", "trafilatura", "casefile.export.brief"} <= set(result["loaded"])
    assert (tmp_path / "b.pdf").read_bytes().startswith(b"%PDF")


def test_the_schema_head_is_known_without_alembic() -> None:
    from casefile.store.workspace import _scripted_head, head_revision

    assert _scripted_head() == head_revision()


def test_the_core_loads_before_pyside6() -> None:
    """PySide6's import hook reads the source of every module imported after it; the store,
    the services and SQLAlchemy are imported before it (casefile.ui.preload)."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, "-X", "importtime", "-c", "import casefile.ui.app"],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    # -X importtime prints "import time: SELF | CUMULATIVE | NAME" as each import completes
    names = [line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines()
             if line.startswith("import time:") and "|" in line]
    assert "PySide6" in names and "casefile.store.items" in names
    after = names[names.index("PySide6") + 1:]
    late = [n for n in after if n.split(".")[0] == "sqlalchemy"
            or n.startswith(("casefile.store", "casefile.services"))]
    assert late == []


def test_a_command_line_import_sets_up_no_orm_mappers(tmp_path: Path) -> None:
    """``casefile import`` writes with plain statements: the ORM's mappers (about 25 ms of a
    cold process to set up) are never configured, and the files are imported."""
    from casefile.services import cases
    from casefile.store.workspace import open_workspace

    ws = open_workspace(tmp_path / "ws")
    with ws.transaction() as s:
        cases.create_case(s, "Mappers")
    ws.close()
    (tmp_path / "files").mkdir()
    (tmp_path / "files" / "memo.txt").write_text("Harbor memo\n\nThe budget vote.\n")
    (tmp_path / "files" / "page.html").write_text(
        "<html><head><title>Vote</title></head><body><article><p>"
        + "The harbor board met on Tuesday to vote on the budget. " * 8
        + "</p></article></body></html>")
    code = ("from casefile.cli import main\n"
            f"code = main(['--workspace', {str(tmp_path / 'ws')!r}, 'import', "
            f"{str(tmp_path / 'files')!r}, '--case', 'Mappers', '--no-suggest'])\n"
            "from casefile.store import Case\n"
            "result = {'code': code, 'configured': any(\n"
            "    m.configured for m in Case.__mapper__.registry.mappers)}")
    result = _loaded_after(code)
    assert result["code"] == 0
    assert result["configured"] is False
    ws = open_workspace(tmp_path / "ws")
    try:
        with ws.transaction(write=False) as s:
            assert cases.item_counts(s, cases.find_case(s, "Mappers").id)["document"] == 2
    finally:
        ws.close()


def test_loading_the_core_runs_no_collector_pass_over_it() -> None:
    """A command's core loads with the collector paused and is frozen before it resumes: no
    collection runs over what was loaded before it is frozen (that first pass walked every
    object just loaded, about 30-50 ms of every command)."""
    code = ("import gc\n"
            "passes = []\n"
            "gc.callbacks.append(lambda phase, info: passes.append(gc.get_freeze_count())"
            " if phase == 'start' else None)\n"
            "import casefile.collector\n"
            "from casefile.cli.common import load_core\n"
            "passes.clear()\n"
            "load_core()\n"
            "result = {'frozen_at_passes': list(passes), 'frozen': gc.get_freeze_count()}")
    result = _loaded_after(code)
    frozen = result["frozen"]
    assert isinstance(frozen, int) and frozen > 10_000  # the core, out of the collector's way
    assert result["frozen_at_passes"] in ([], [frozen]), "a pass ran before the freeze"
