"""The services: everything the window and the command line do to a case, Qt-free.

Where a user action goes (ARCHITECTURE.md, "One way in for changes"): one function, a Session
and plain values in, one transaction, a ``Changes`` out, registered with ``@action`` so undo
and redo can run it (:mod:`.changes`). A newcomer looks here first:

User actions (registered with ``@action``; the window's menus and the CLI call these)
    ``item_actions`` (create, edit, delete, merge items), ``evidence_actions`` (mark a span,
    link, unlink, change a relation), ``relationship_actions``, ``claim_actions`` (a claim's
    status by hand), ``followup_actions`` (a follow-up's status, answer), ``decisions``
    (accept, reject, merge suggestions), ``rejections`` (a rejected name suggested again),
    ``case_actions`` (rename, summary), ``trash`` (delete a case, restore, empty),
    ``reading`` (reading state, starred passages), ``published`` (a document's published
    date), ``table_import`` and ``ftm_import`` (people and organizations from files),
    ``team`` (members of a case).

Long jobs that commit in pieces (an import, OCR, suggestions, backups; each piece its own
transaction, so a cancel keeps what is done)
    ``documents`` (one file), ``batch`` (many files, a folder), ``ocr``, ``suggestions`` and
    ``suggest_pool``, ``backups``, ``encryption``, ``archive``, ``reindex``, ``demo``.

Read models (read-only: what views and the CLI list)
    ``views`` (section rows, choices, passages), ``cases``, ``claims`` (proposed statuses),
    ``questions`` (follow-up views), ``timeline``, ``graph`` (a package: building, layout,
    positions), ``search``, ``quick_open``, ``copies`` and ``duplicates``, ``page_geometry``,
    ``originals``, ``undated`` and ``dating`` (published dates), ``suggestion_models``.

Exports (a case written for a reader, through its ``Disclosure``)
    ``brief``, ``calendar``, ``sheets``, ``ftm_export``, ``disclosure`` and ``descriptions``
    (what a profile withholds).

Low-level writers (called by the actions above, never by the window or the CLI directly for
a user's change): ``items``, ``evidence``, ``passages``, ``relationships``, ``editing``,
``questions`` (its writers; its follow-up views are a read model), ``audit`` (the change
log), ``changes`` (``Changes``, ``Step``, the ``@action`` registry), ``lookup`` (a row by its
id, or the NotFoundError naming it).
"""
