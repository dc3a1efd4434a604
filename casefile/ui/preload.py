"""The Qt-free modules the window reads through, imported before PySide6 (cold start).

See ARCHITECTURE.md, "The window".

Once PySide6 is loaded, its ``__feature__`` import hook reads the source text of every module
imported after it (``inspect.getsource``, to look for ``from __feature__ import``), about 0.4 ms
a module. Importing the store, the services the window calls and SQLAlchemy's ORM and SQLite
dialect first keeps ~150 modules out of that hook: 0.1-0.2 s of a cold start on this machine.
``tests/test_startup_imports.py`` checks that none of them is left to load after PySide6.

Importing this module has no other effect; it must never import Qt.
"""

from __future__ import annotations

from casefile.collector import loaded_and_frozen

#: Imported in this order by :func:`load`; each pulls in what it needs of the store.
MODULES = (
    "sqlalchemy.orm",
    "sqlalchemy.dialects.sqlite",
    "casefile.store",
    "casefile.store.workspace",
    "casefile.store.encryption",
    "casefile.store.watch",
    "casefile.services.case_actions",
    "casefile.services.cases",
    "casefile.services.claim_actions",
    "casefile.services.claims",
    "casefile.services.decisions",
    "casefile.services.editing",
    "casefile.services.evidence",
    "casefile.services.evidence_actions",
    "casefile.services.ftm_import",
    "casefile.services.followup_actions",
    "casefile.services.item_actions",
    "casefile.services.items",
    "casefile.services.prompts",
    "casefile.services.published",
    "casefile.services.questions",
    "casefile.services.quick_open",
    "casefile.services.reading",
    "casefile.services.duplicates",
    "casefile.services.watch_list",
    "casefile.services.watch_files",
    "casefile.services.rejections",
    "casefile.services.relationship_actions",
    "casefile.services.search",
    "casefile.services.suggestions",
    "casefile.services.table_import",
    "casefile.services.team",
    "casefile.services.timeline",
    "casefile.services.trash",
    "casefile.services.views",
    "casefile.services.waiting",
)


def load() -> None:
    """Import :data:`MODULES` (a no-op for those already imported) and finish the models'
    mappers, with the garbage collector paused, then move what they made into its permanent
    generation (``gc.freeze``): collections walking SQLAlchemy's long-lived objects cost a
    cold start about 0.1 s of CPU otherwise, and every later full collection of the window's
    life walks fewer objects. When every module is
    loaded already (a test process), nothing is paused or frozen."""
    loaded_and_frozen(MODULES, then=_configure_models)


def _configure_models() -> None:
    from casefile.store.base import configure_models

    configure_models()  # not at the window's first read, on the GUI thread


load()
