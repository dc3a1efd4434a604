"""Accepting a name joins the case's pending suggestions that write it another way.

Invented stories in two documents of one case (rules mode, no language model): the second
document names a person by surname only, a country by its abbreviation, an organisation by its
acronym. Accepting the full name in the first takes those in too, when nothing else in the case
could be meant; the undo gives them back as suggestions.
"""

from __future__ import annotations

from casefile.services import decisions
from casefile.services.changes import run_step
from tests.services.test_decisions import import_text, listing, names


def test_accepting_a_full_name_joins_its_surname_from_another_document(workspace, case_id
                                                                        ) -> None:
    import_text(workspace, case_id, "Sen. Maria Ortiz, D-Ore., called for an inquiry on "
                                    "Tuesday.", "one.txt")
    import_text(workspace, case_id, "The inquiry opened. Sen. Ortiz said the hearing would be "
                                    "public.", "two.txt")
    assert {"Maria Ortiz", "Ortiz"} <= set(names(listing(workspace, case_id), "person"))
    with workspace.transaction() as s:
        done = decisions.accept(s, case_id, "person", "Maria Ortiz")
    d = done.value
    assert d.mentions == 2 and "Ortiz" in done.message
    left = names(listing(workspace, case_id), "person")
    assert "Ortiz" not in left and "Maria Ortiz" not in left
    with workspace.transaction() as s:
        assert done.undo is not None
        run_step(s, done.undo)
    assert {"Maria Ortiz", "Ortiz"} <= set(names(listing(workspace, case_id), "person"))


def test_a_surname_two_people_share_is_not_joined(workspace, case_id) -> None:
    import_text(workspace, case_id, "Sen. Maria Ortiz, D-Ore., and Rep. Daniel Ortiz, D-Ore., "
                                    "called for an inquiry on Tuesday.", "one.txt")
    import_text(workspace, case_id, "The inquiry opened. Sen. Ortiz said the hearing would be "
                                    "public.", "two.txt")
    with workspace.transaction() as s:
        d = decisions.accept(s, case_id, "person", "Maria Ortiz").value
    assert d.mentions == 1
    assert "Ortiz" in names(listing(workspace, case_id), "person")


def test_same_thing_variants() -> None:
    same = decisions._same_thing
    assert same("place", "United States", "U.S.", ["United States", "U.S."])
    assert same("place", "US", "U.S.", ["US", "U.S."])
    assert not same("place", "United States", "UK", ["United States", "UK"])
    assert same("organization", "Andean Trade Council", "ATC", ["Andean Trade Council", "ATC"])
    assert not same("organization", "Andean Trade Council", "ATC",
                    ["Andean Trade Council", "Atlantic Tariff Commission", "ATC"])
    assert same("person", "Wu Tianming", "Wu", ["Wu Tianming", "Wu"])
    assert not same("person", "Wu Tianming", "Tian", ["Wu Tianming", "Tian"])
