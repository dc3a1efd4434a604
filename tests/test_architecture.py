"""The core never imports Qt (DESIGN.md, Architecture): only casefile/ui may."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "casefile"
QT_PREFIXES = ("PySide6", "PyQt5", "PyQt6", "shiboken6", "casefile.ui")


def qt_imports(source: str) -> list[str]:
    """Names of Qt (or casefile.ui) modules imported anywhere in ``source``."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.startswith(QT_PREFIXES)]
        elif (isinstance(node, ast.ImportFrom) and node.module and node.level == 0
              and node.module.startswith(QT_PREFIXES)):
            found.append(node.module)
    return found


def test_scanner_sees_qt_imports_in_any_form() -> None:
    assert qt_imports("import PySide6") == ["PySide6"]
    assert qt_imports("def f():\n    from PySide6.QtCore import Qt\n") == ["PySide6.QtCore"]
    assert qt_imports("from casefile.ui.app import run_app") == ["casefile.ui.app"]
    assert qt_imports("import sqlalchemy\nfrom casefile.store import Item") == []


CORE_FILES = sorted(
    p for p in PACKAGE.rglob("*.py")
    if "ui" not in p.relative_to(PACKAGE).parts and p.name != "cli.py"
)


@pytest.mark.parametrize("path", CORE_FILES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_core_module_does_not_import_qt(path: Path) -> None:
    assert qt_imports(path.read_text(encoding="utf-8")) == []


def test_cli_imports_the_gui_only_inside_the_gui_command() -> None:
    tree = ast.parse((PACKAGE / "cli.py").read_text(encoding="utf-8"))
    top_level = [n for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)]
    assert all(not qt_imports(ast.unparse(n)) for n in top_level)
    assert len(CORE_FILES) > 20  # the scan really covers the core


# -- the window never builds a multi-step change itself (DESIGN.md, "One way in for changes") --

#: Modules under casefile/ whose runner calls must each run ONE service action: a function or
#: lambda passed to ``runner.run`` / ``runner.apply`` / ``runner.start`` may call at most one
#: function of casefile.services (and not in a loop). Extend to every module under casefile/ui.
ONE_ACTION_MODULES = (
    "ui/undo.py",
    "ui/followups_view.py",
    "ui/claims_view.py",
    "ui/relationships.py",
)
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
