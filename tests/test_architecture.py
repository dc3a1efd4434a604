"""The rules of ARCHITECTURE.md that code can break: the layers (one test per forbidden arrow,
each with a self-test planting such an import), one way in for changes, one SQLite library per
file, and comments that cite only what is in the repository."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "casefile"


# -- the layers (ARCHITECTURE.md, "Layers"): one test per forbidden arrow --------------------

#: The layers of casefile, by the first part of a module's name under ``casefile`` (``cli``
#: is the cli package and ``__main__``, which starts it). Modules outside them
#: (errors, filenames, quoting, workers, offline) are shared by all and count as core.
LAYERS = ("ui", "cli", "services", "ingest", "extract", "export", "store")
CORE = frozenset({"services", "ingest", "extract", "export", "store", "shared"})
QT_MODULES = ("PySide6", "PyQt5", "PyQt6", "shiboken6")


def layer_of(module: str) -> str | None:
    """The layer of a dotted module name: one of :data:`LAYERS`, ``"shared"`` for another
    casefile module, ``"qt"`` for a Qt binding, None for anything else (stdlib, libraries)."""
    parts = module.split(".")
    if parts[0] in QT_MODULES:
        return "qt"
    if parts[0] != "casefile":
        return None
    if len(parts) == 1:
        return "shared"
    head = parts[1]
    if head in ("cli", "__main__"):
        return "cli"
    return head if head in LAYERS else "shared"


@dataclass(frozen=True)
class Imported:
    """One module imported by a source file: ``line``; ``in_function`` is True when the import
    runs only when a function runs (not when the module is imported)."""

    module: str
    line: int
    in_function: bool


def imported_names(node: ast.AST, here: list[str]) -> list[str]:
    """The modules an ``import`` or ``from ... import`` statement ``node`` names (none for any
    other node), relative ones resolved from the package ``here`` (its dotted parts). ``from a
    import b`` counts as ``a`` and ``a.b`` (b may be a module); ``*`` as ``a`` alone."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if not isinstance(node, ast.ImportFrom):
        return []
    base = node.module or ""
    if node.level:
        parent = here[:len(here) - node.level + 1]
        base = ".".join([*parent, *([base] if base else [])])
    return [n for n in [base] + [f"{base}.{a.name}" for a in node.names if a.name != "*"] if n]


def imports_of(source: str, module: str, *, package: bool = False) -> list[Imported]:
    """Every module ``source`` (the text of ``module``; ``package`` for an ``__init__``)
    imports: at its top, in ``if`` blocks (``TYPE_CHECKING`` ones too: a type hint across a
    forbidden arrow is a dependency all the same) and inside functions, relative imports
    resolved. ``from a import b`` counts as ``a`` and ``a.b`` (b may be a module)."""
    tree = ast.parse(source)
    here = module.split(".") if package else module.split(".")[:-1]
    found: list[Imported] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            found.extend(Imported(n, child.lineno, in_function)
                         for n in imported_names(child, here))
            visit(child, in_function or isinstance(
                child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda))

    visit(tree, False)
    return found


@dataclass(frozen=True)
class Arrow:
    """A dependency the architecture forbids: a module of a layer in ``sources`` importing a
    module of a layer in ``targets`` (at import time only, when ``at_import_time``)."""

    name: str
    sources: frozenset[str]
    targets: frozenset[str]
    at_import_time: bool = False


def _arrow(name: str, sources: str | frozenset[str], targets: str | frozenset[str], *,
           at_import_time: bool = False) -> Arrow:
    def as_set(value: str | frozenset[str]) -> frozenset[str]:
        return frozenset({value}) if isinstance(value, str) else value

    return Arrow(name, as_set(sources), as_set(targets), at_import_time)


#: Every forbidden arrow of ARCHITECTURE.md, "Layers" (the list there is this one).
FORBIDDEN = (
    _arrow("ui -> ingest", "ui", "ingest"),
    _arrow("ui -> extract", "ui", "extract"),
    _arrow("ui -> cli", "ui", "cli"),
    _arrow("extract -> store", "extract", "store"),
    _arrow("ingest -> store", "ingest", "store"),
    _arrow("store -> services", "store", "services"),
    _arrow("export -> services", "export", "services"),
    _arrow("core -> Qt", CORE, frozenset({"qt", "ui"})),
    _arrow("core -> cli", CORE, "cli"),
    _arrow("cli -> ingest, extract", "cli", frozenset({"ingest", "extract"})),
    _arrow("cli -> ui, Qt at import time", "cli", frozenset({"ui", "qt"}), at_import_time=True),
    _arrow("store -> ingest, extract, export", "store",
           frozenset({"ingest", "extract", "export"})),
    _arrow("ingest -> extract, services, export", "ingest",
           frozenset({"extract", "services", "export"})),
    _arrow("extract -> services, export", "extract", frozenset({"services", "export"})),
    _arrow("shared -> any layer", "shared", frozenset(LAYERS)),
)


def package_sources(root: Path) -> dict[str, tuple[str, bool]]:
    """``{dotted module: (source, is a package __init__)}`` for every .py file under ``root``
    (the ``casefile`` folder)."""
    out: dict[str, tuple[str, bool]] = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root.parent).with_suffix("").parts
        package = parts[-1] == "__init__"
        name = ".".join(parts[:-1] if package else parts)
        out[name] = (path.read_text(encoding="utf-8"), package)
    return out


def crossings(sources: dict[str, tuple[str, bool]], arrow: Arrow) -> list[str]:
    """``["module line N: imported", ...]`` for each import in ``sources`` along ``arrow``."""
    found: list[str] = []
    for module, (source, package) in sources.items():
        if layer_of(module) not in arrow.sources:
            continue
        for imp in imports_of(source, module, package=package):
            if layer_of(imp.module) in arrow.targets and not (
                    arrow.at_import_time and imp.in_function):
                found.append(f"{module} line {imp.line}: {imp.module}")
    return sorted(set(found))


#: For each arrow, a module of its source layer and what it plants there.
PLANTED = {
    "ui -> ingest": ("ui/viewer.py", "def f():\n    from casefile.ingest.pdf import X\n"),
    "ui -> extract": ("ui/items.py", "from ..extract import model\n"),
    "ui -> cli": ("ui/app.py", "from casefile.cli.tables import x\n"),
    "extract -> store": ("extract/people.py", "import casefile.store.items\n"),
    "ingest -> store": ("ingest/pdf.py",
                        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                        "    from casefile.store import Document\n"),
    "store -> services": ("store/search/running.py", "from casefile import services\n"),
    "export -> services": ("export/sheets.py",
                           "class T:\n    def m(self):\n"
                           "        from casefile.services.sheets import Table\n"),
    "core -> Qt": ("errors.py", "from PySide6.QtCore import Qt\n"),
    "core -> cli": ("services/items.py", "from casefile.cli import main\n"),
    "cli -> ingest, extract": ("cli/importing.py",
                               "def cmd():\n    from casefile.extract import model\n"),
    "cli -> ui, Qt at import time": ("cli/trash.py", "from casefile.ui.app import run_app\n"),
    "store -> ingest, extract, export": ("store/__init__.py", "from .. import export\n"),
    "ingest -> extract, services, export": ("ingest/text.py",
                                            "from casefile.extract import people\n"),
    "extract -> services, export": ("extract/types.py",
                                    "from casefile.services.items import get_item\n"),
    "shared -> any layer": ("filenames.py", "def f():\n    from casefile.store import Item\n"),
}


def test_every_forbidden_arrow_has_a_planted_import() -> None:
    assert sorted(PLANTED) == sorted(a.name for a in FORBIDDEN)


def test_architecture_md_lists_exactly_the_forbidden_arrows() -> None:
    text = (PACKAGE.parent / "ARCHITECTURE.md").read_text(encoding="utf-8")
    table = text[text.index("| forbidden arrow | why |"):]
    listed = re.findall(r"^\| `([^`]+)` \|", table.split("\n\n")[0], re.MULTILINE)
    assert sorted(listed) == sorted(a.name for a in FORBIDDEN)


@pytest.fixture(scope="module")
def tree_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the casefile package's sources, to plant imports in."""
    root = tmp_path_factory.mktemp("tree") / "casefile"
    for path in PACKAGE.rglob("*.py"):
        copy = root / path.relative_to(PACKAGE)
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    return root


@pytest.mark.parametrize("arrow", FORBIDDEN, ids=lambda a: a.name)
def test_layer_rule_catches_a_planted_import(arrow: Arrow, tree_copy: Path) -> None:
    """Self-test: a copy of the tree with one forbidden import planted in it fails the rule,
    at the planted line; the same import inside a function is allowed only where the arrow is
    forbidden at import time alone."""
    where, planted = PLANTED[arrow.name]
    target = tree_copy / where
    before = target.read_text(encoding="utf-8")
    module = "casefile." + ".".join(Path(where).with_suffix("").parts).removesuffix(".__init__")
    line = before.count("\n") + 1 + planted.count("\n")
    try:
        assert crossings(package_sources(tree_copy), arrow) == []  # the copy holds the rule
        target.write_text(before + "\n" + planted, encoding="utf-8")
        found = crossings(package_sources(tree_copy), arrow)
        assert [f for f in found if f.startswith(f"{module} line {line}:")], found
        if arrow.at_import_time:  # the same import run by a function only is allowed
            target.write_text(before + "\ndef later():\n    " + planted, encoding="utf-8")
            assert crossings(package_sources(tree_copy), arrow) == []
    finally:
        target.write_text(before, encoding="utf-8")


@cache
def _tree_sources() -> dict[str, tuple[str, bool]]:
    return package_sources(PACKAGE)


@pytest.mark.parametrize("arrow", FORBIDDEN, ids=lambda a: a.name)
def test_layer_rule_holds(arrow: Arrow) -> None:
    sources = _tree_sources()
    assert sum(layer_of(m) in arrow.sources for m in sources) > 0  # the scan sees the layer
    assert crossings(sources, arrow) == []


def test_import_reader_resolves_every_form() -> None:
    source = ("import PySide6.QtCore\nfrom . import search\nfrom ..ingest.pdf import X\n"
              "def f():\n    import casefile.ui.app as app\n")
    assert [(i.module, i.line, i.in_function)
            for i in imports_of(source, "casefile.store.items")] == [
        ("PySide6.QtCore", 1, False), ("casefile.store", 2, False),
        ("casefile.store.search", 2, False), ("casefile.ingest.pdf", 3, False),
        ("casefile.ingest.pdf.X", 3, False), ("casefile.ui.app", 5, True)]
    assert imports_of("from .workspace import W\n", "casefile.store", package=True)[0] == \
        Imported("casefile.store.workspace", 1, False)
    assert [layer_of(m) for m in ("casefile.cli.trash", "casefile.cli", "casefile.errors",
                                  "casefile.ui.app", "shiboken6", "sqlalchemy")] == [
        "cli", "cli", "shared", "ui", "qt", None]


# -- the window never builds a multi-step change itself (ARCHITECTURE.md, "One way in for
# changes") --

#: Modules under casefile/ whose runner calls must each run ONE service action: a function or
#: lambda passed to ``runner.run`` / ``runner.apply`` / ``runner.start`` may call at most one
#: function of casefile.services (and not in a loop). Extend to every module under casefile/ui.
ONE_ACTION_MODULES = tuple(sorted(
    p.relative_to(PACKAGE).as_posix() for p in (PACKAGE / "ui").glob("*.py")
    if "runner." in p.read_text(encoding="utf-8")))
RUNNER_METHODS = frozenset({"run", "apply", "start"})
_LOOPS = (ast.For, ast.AsyncFor, ast.While, ast.ListComp, ast.SetComp, ast.DictComp,
          ast.GeneratorExp)


def _dotted(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    return ""


def multi_step_runner_calls(source: str) -> list[str]:
    """Runner calls in ``source`` whose function or lambda calls more than one function of
    casefile.services (a call inside a loop counts as many): ``["line N: a, b", ...]``."""
    tree = ast.parse(source)
    modules: set[str] = set()  # names bound to casefile.services modules
    functions: set[str] = set()  # names bound to functions of casefile.services modules
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "casefile.services":
                modules |= {a.asname or a.name for a in node.names}
            elif node.module.startswith("casefile.services."):
                functions |= {a.asname or a.name for a in node.names}
        elif isinstance(node, ast.Import):
            modules |= {a.asname for a in node.names
                        if a.asname and a.name.startswith("casefile.services.")}
    defs = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]

    def service_calls(fn: ast.AST) -> list[str]:
        found: list[str] = []

        def visit(node: ast.AST, looped: bool) -> None:
            for child in ast.iter_child_nodes(node):
                inner = looped or isinstance(child, _LOOPS)
                if isinstance(child, ast.Call):
                    name = _dotted(child.func)
                    head = name.split(".")[0]
                    if (name in functions or (head in modules and "." in name)
                            or name.startswith("casefile.services.")):
                        found.extend([name, name] if inner else [name])
                visit(child, inner)

        visit(fn, False)
        return found

    def target(arg: ast.expr, line: int) -> ast.AST | None:
        if isinstance(arg, ast.Lambda):
            return arg
        name = arg.id if isinstance(arg, ast.Name) else (
            arg.attr if isinstance(arg, ast.Attribute) else None)
        before = [d for d in defs if d.name == name and d.lineno <= line]
        return before[-1] if before else None

    problems: list[str] = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in RUNNER_METHODS
                and _dotted(node.func.value).split(".")[-1].endswith("runner")):
            continue
        given = node.args[:1] + [k.value for k in node.keywords if k.arg == "fn"]
        for arg in given:
            fn = target(arg, node.lineno)
            calls = service_calls(fn) if fn is not None else []
            if len(calls) > 1:
                problems.append(f"line {node.lineno}: {', '.join(sorted(set(calls)))}")
    return problems


def test_multi_step_checker_sees_a_change_built_from_several_service_calls() -> None:
    built = '''
from casefile.services import editing, items
from casefile.services.questions import set_status

class C:
    def two_in_a_lambda(self):
        self.runner.run(lambda s: (items.create_item(s, 1), editing.link_span(s, 2)),
                        change=None)

    def two_in_a_def(self):
        def work(s):
            set_status(s, 1, "open")
            items.update_item(s, 1)
        self.runner.apply(work)

    def one_in_a_loop(self, ids):
        def remove(s):
            for i in ids:
                items.delete_item(s, i)
        runner.start(remove, label="delete", change=None)

    def one_action(self):
        self.runner.apply(lambda s: items.update_item(s, 1))
        self.runner.read(lambda s: (items.get_item(s, 1), items.get_item(s, 2)))
'''
    assert sorted(multi_step_runner_calls(built), key=lambda p: int(p.split()[1][:-1])) == [
        "line 7: editing.link_span, items.create_item",
        "line 14: items.update_item, set_status",
        "line 20: items.delete_item",  # one call site, run once per id
    ]


@pytest.mark.parametrize("module", ONE_ACTION_MODULES)
def test_ui_runs_one_service_action_per_runner_call(module: str) -> None:
    source = (PACKAGE / module).read_text(encoding="utf-8")
    assert "runner." in source  # the module really goes through the runner
    assert multi_step_runner_calls(source) == []


# -- casefile/ui: no import cycles, no reading another object's private members -------------

UI = PACKAGE / "ui"
UI_FILES = sorted(UI.glob("*.py"))


def _runtime_imports(tree: ast.Module, module: str) -> set[str]:
    """casefile.ui modules that ``module`` imports when it runs (at the top or inside a
    function); ``if TYPE_CHECKING:`` blocks are type hints only and left out."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(n) for child in node.body for n in ast.walk(child))
    found: set[str] = set()
    here = module.split(".")[:-1]
    for node in ast.walk(tree):
        if id(node) not in skipped:
            found.update(n for n in imported_names(node, here)
                         if n.startswith("casefile.ui.") and n != module)
    return found


def ui_import_graph(sources: dict[str, str]) -> dict[str, set[str]]:
    """``{module: modules of the same package it imports at run time}`` for casefile.ui
    sources given as ``{dotted name: source}``."""
    return {name: _runtime_imports(ast.parse(src), name) & set(sources)
            for name, src in sources.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle of ``graph`` as a path ``[a, b, …, a]``, or [] when there is none."""
    state: dict[str, int] = {}  # 1 on the path, 2 done
    path: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        path.pop()
        state[node] = 2
        return []

    for start in sorted(graph):
        if start not in state and (cycle := visit(start)):
            return cycle
    return []


def _ui_sources() -> dict[str, str]:
    return {f"casefile.ui.{p.stem}": p.read_text(encoding="utf-8") for p in UI_FILES
            if p.stem != "__init__"}


def test_cycle_finder_sees_a_cycle_also_through_a_function_local_import() -> None:
    sources = {
        "casefile.ui.a": "from casefile.ui.b import B\n",
        "casefile.ui.b": "def f():\n    from casefile.ui.c import C\n",
        "casefile.ui.c": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                         "    from casefile.ui.a import A\nimport casefile.ui.a\n",
        "casefile.ui.d": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                         "    from casefile.ui.a import A\n",
    }
    assert find_cycle(ui_import_graph(sources)) == [
        "casefile.ui.a", "casefile.ui.b", "casefile.ui.c", "casefile.ui.a"]
    sources["casefile.ui.c"] = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n" \
                               "    from casefile.ui.a import A\n"
    assert find_cycle(ui_import_graph(sources)) == []


def test_casefile_ui_has_no_import_cycle() -> None:
    graph = ui_import_graph(_ui_sources())
    assert len(graph) > 20 and graph["casefile.ui.main_window"]  # the scan sees the package
    assert find_cycle(graph) == []


#: Underscore names that are public by convention (namedtuple's API, PySide's enum values).
PUBLIC_UNDERSCORE = {"_replace", "_asdict", "_fields", "_make", "_value_", "_name_"}


def private_reads(source: str) -> list[str]:
    """``expr._name`` reads in ``source`` of a private member that the module did not define
    itself: not through ``self`` / ``cls``, and ``_name`` not a method or attribute that one of
    the module's own classes sets (``def _name``, ``self._name = …``, ``_name: T``)."""
    tree = ast.parse(source)
    own: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            own.add(node.name)
        elif (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
              and isinstance(node.value, ast.Name) and node.value.id in {"self", "cls"}):
            own.add(node.attr)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            own.add(node.target.id)
        elif isinstance(node, ast.Assign):
            own.update(t.id for t in node.targets if isinstance(t, ast.Name))
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute) or not node.attr.startswith("_"):
            continue
        name = node.attr
        if name.startswith("__") or name in PUBLIC_UNDERSCORE or name in own:
            continue
        if isinstance(node.value, ast.Name) and node.value.id in {"self", "cls"}:
            continue
        found.append(f"{ast.unparse(node)} (line {node.lineno})")
    return found


def test_private_read_scanner() -> None:
    assert private_reads("def f(window):\n    window._show_evidence(1)\n") == [
        "window._show_evidence (line 2)"]
    assert private_reads("class A:\n    def __init__(self):\n        self._x = 1\n"
                         "def f(a):\n    return a._x + a.__class__.__name__\n") == []
    assert private_reads("def f(row):\n    return row._replace(a=1)\n") == []
    assert private_reads("def f(model):\n    return model._sort_column\n") == [
        "model._sort_column (line 2)"]
    assert private_reads("def f(model):\n    model._sort_column = 1\n") == [
        "model._sort_column (line 2)"]  # writing another object's private member is a read too


@pytest.mark.parametrize("path", [p for p in UI_FILES if p.stem != "__init__"],
                         ids=lambda p: p.name)
def test_ui_module_reads_no_private_member_of_another_module(path: Path) -> None:
    assert private_reads(path.read_text(encoding="utf-8")) == []



# -- controllers see the window as a Protocol (ARCHITECTURE.md, "The window") --

#: The modules that make the window itself: they may know MainWindow.
WINDOW_BUILDERS = frozenset({"main_window.py", "window_menus.py", "app.py", "startup.py"})


def window_couplings(source: str) -> list[str]:
    """Where ``source`` ties itself to the whole window: an import of
    ``casefile.ui.main_window`` (at any depth, under ``TYPE_CHECKING`` too), or a parameter
    named ``window`` annotated ``Any`` or not annotated at all."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module == "casefile.ui.main_window":
            found.append(f"imports MainWindow (line {node.lineno})")
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for arg in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]:
                if arg.arg != "window":
                    continue
                hint = ast.unparse(arg.annotation) if arg.annotation is not None else None
                if hint in {None, "Any", "typing.Any", "'Any'"}:
                    found.append(f"{node.name}(window: {hint}) (line {node.lineno})")
    return found


def test_window_coupling_scanner() -> None:
    assert window_couplings("def f(window: Any, x: int) -> None: ...\n") == [
        "f(window: Any) (line 1)"]
    assert window_couplings("def f(window): ...\n") == ["f(window: None) (line 1)"]
    assert window_couplings("if TYPE_CHECKING:\n"
                            "    from casefile.ui.main_window import MainWindow\n") == [
        "imports MainWindow (line 2)"]
    assert window_couplings("def f(window: WindowShell) -> None: ...\n") == []


@pytest.mark.parametrize("path", [p for p in sorted(UI.rglob("*.py"))
                                  if p.name not in WINDOW_BUILDERS],
                         ids=lambda p: str(p.relative_to(UI)))
def test_controllers_see_the_window_through_a_protocol(path: Path) -> None:
    """A controller is typed against :class:`casefile.ui.shell.WindowShell` (or a small
    ``Protocol`` extending it with the few other members it uses), never the whole window."""
    assert window_couplings(path.read_text(encoding="utf-8")) == []


# -- one SQLite library per process per file (casefile.store.db_files) --

#: Names a SQLite DB-API module goes by in casefile's code.
SQLITE_MODULES = frozenset({"sqlite3", "sqlcipher3", "dbapi2", "sqlcipher", "mod"})


def direct_sqlite_connects(source: str) -> list[int]:
    """Lines of ``source`` that call ``connect`` on a SQLite module directly (bypassing
    :func:`casefile.store.db_files.connect`, which records who holds the file)."""
    return [node.lineno for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "connect" and isinstance(node.func.value, ast.Name)
            and node.func.value.id in SQLITE_MODULES]


def test_connect_scanner_sees_direct_connects() -> None:
    assert direct_sqlite_connects("import sqlite3\nc = sqlite3.connect('x')\n") == [2]
    assert direct_sqlite_connects("c = db_files.connect('x')\nengine.connect()\n") == []


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")),
                         ids=lambda p: str(p.relative_to(PACKAGE)))
def test_sqlite_files_are_opened_only_through_db_files(path: Path) -> None:
    if path.relative_to(PACKAGE).as_posix() == "store/db_files.py":
        return
    assert direct_sqlite_connects(path.read_text(encoding="utf-8")) == []


# -- comments cite ARCHITECTURE.md, never issue numbers or files outside the repository --

#: What a maintainer holding only the repository cannot follow: an issue number, the design
#: page kept outside the repository, a path into the folder beside it.
OUTSIDE_REFERENCES = re.compile(
    r"\bissues?[\s#]+\d+|\bdesign\.md\b|\.\.[/\\]shared\b", re.IGNORECASE)


def outside_references(source: str) -> list[str]:
    """``["line N: the text found", ...]`` for each reference in ``source`` to something outside
    the repository (see :data:`OUTSIDE_REFERENCES`); N is the line where it starts (an "issue"
    wrapped before its number counts too)."""
    return [f"line {source.count(chr(10), 0, m.start()) + 1}: {' '.join(m.group(0).split())}"
            for m in OUTSIDE_REFERENCES.finditer(source)]


def test_outside_reference_scanner() -> None:
    planted = ('"""Status rules (issue 6; DESIGN.md "source grading").\n\n'
               'Scored on ../shared/samples/articles (see Issues #15).\n"""\n'
               "x = 1  # Tissue 5 of the design, design.mdx\n"
               "# ARCHITECTURE.md, \"Data model\"; the issue: 3 tries\n"
               "# a window that stays responsive (issue\n#   16)\n")
    assert outside_references(planted) == [
        "line 1: issue 6", "line 1: DESIGN.md", "line 3: ../shared", "line 3: Issues #15",
        "line 7: issue # 16"]


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")),
                         ids=lambda p: str(p.relative_to(PACKAGE)))
def test_module_cites_nothing_outside_the_repository(path: Path) -> None:
    """Comments and docstrings cite ARCHITECTURE.md sections by their titles instead."""
    found = outside_references(path.read_text(encoding="utf-8"))
    assert found == [], f"{path.relative_to(PACKAGE.parent)}: {found}"


ARCHITECTURE = PACKAGE.parent / "ARCHITECTURE.md"
#: ``ARCHITECTURE.md, "Section title"`` (the title may wrap onto a comment's next line).
SECTION_CITATION = re.compile(r'ARCHITECTURE\.md,?\s+(?:#\s*)?"([^"]+)"')


def cited_sections(source: str) -> list[str]:
    """The ARCHITECTURE.md section titles ``source`` cites, whitespace and ``#`` folded."""
    return [" ".join(m.group(1).replace("#", " ").split())
            for m in SECTION_CITATION.finditer(source)]


def test_section_citation_scanner() -> None:
    assert cited_sections('"""See ARCHITECTURE.md, "One way in\n    for changes"."""\n'
                          '# (ARCHITECTURE.md, "The\n# window")\nARCHITECTURE.md\n') == [
        "One way in for changes", "The window"]


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")),
                         ids=lambda p: str(p.relative_to(PACKAGE)))
def test_cited_architecture_sections_exist(path: Path) -> None:
    titles = {line.lstrip("#").strip() for line in
              ARCHITECTURE.read_text(encoding="utf-8").splitlines() if line.startswith("##")}
    assert "Data model" in titles  # the headings were read
    missing = [t for t in cited_sections(path.read_text(encoding="utf-8")) if t not in titles]
    assert missing == [], f"{path.relative_to(PACKAGE.parent)} cites no such section: {missing}"


# -- module sizes (ARCHITECTURE.md, "Layers": packages of one module a job) -----------------

#: The window's shell stays a shell; no module grows past what one reader holds in mind.
MAIN_WINDOW_LINES = 450
MODULE_LINES = 800


def test_the_window_shell_and_every_module_stay_small() -> None:
    sizes = {path.relative_to(PACKAGE.parent).as_posix():
             len(path.read_text(encoding="utf-8").splitlines())
             for path in PACKAGE.rglob("*.py")}
    assert sizes["casefile/ui/main_window.py"] <= MAIN_WINDOW_LINES
    assert {p: n for p, n in sizes.items() if n > MODULE_LINES} == {}
