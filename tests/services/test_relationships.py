"""Relationships: listing both directions, validation, removal, and affiliation sync."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from casefile.errors import NotFoundError, ValidationError
from casefile.services import cases, items
from casefile.services.relationships import (
    AUTO_NOTE,
    add_relationship,
    list_relationships,
    remove_relationship,
)
from casefile.store import ChangeLog


def test_add_lists_both_directions_and_logs(workspace, case_id) -> None:
    with workspace.transaction() as s:
        org = items.create_item(s, case_id, "organization", "Harlan County Sheriff's Office")
        person = items.create_item(s, case_id, "person", "Dale Ruck")
        rel = add_relationship(s, person.id, org.id, "reports to", note="per memo")
        pid, oid, rid = person.id, org.id, rel.id
    with workspace.transaction() as s:
        [mine] = list_relationships(s, pid)
        assert (mine.id, mine.kind, mine.outgoing, mine.other_id) == (rid, "reports to", True, oid)
        assert mine.label == "reports to → Harlan County Sheriff's Office"
        assert (mine.other_kind, mine.note) == ("organization", "per memo")
        [theirs] = list_relationships(s, oid)
        assert (theirs.outgoing, theirs.other_title, theirs.label) == (
            False, "Dale Ruck", "reports to ← Dale Ruck")
        actions = list(s.scalars(select(ChangeLog.action)))
        assert "relationship.create" in actions


@pytest.mark.parametrize("case", ["kind", "self", "duplicate", "other case"])
def test_bad_relationships_are_refused(workspace, case_id, case) -> None:
    with workspace.transaction() as s:
        org = items.create_item(s, case_id, "organization", "County Board")
        person = items.create_item(s, case_id, "person", "Ann Lee")
        other = cases.create_case(s, "Other story")
        far = items.create_item(s, other.id, "organization", "Far Agency")
        add_relationship(s, person.id, org.id, "part of")
        pid, oid, fid = person.id, org.id, far.id
    args = {"kind": (pid, oid, "married to"), "self": (pid, pid, "related to"),
            "duplicate": (pid, oid, "part of"), "other case": (pid, fid, "related to")}[case]
    with pytest.raises(ValidationError), workspace.transaction() as s:
        add_relationship(s, *args)
    with workspace.transaction() as s:
        assert len(list_relationships(s, pid)) == 1


def test_remove_relationship(workspace, case_id) -> None:
    with workspace.transaction() as s:
        a = items.create_item(s, case_id, "organization", "A Corp")
        b = items.create_item(s, case_id, "organization", "B Holdings")
        rid = add_relationship(s, a.id, b.id, "part of").id
        aid = a.id
    with workspace.transaction() as s:
        remove_relationship(s, rid)
    with workspace.transaction() as s:
        assert list_relationships(s, aid) == []
        assert "relationship.delete" in list(s.scalars(select(ChangeLog.action)))
        with pytest.raises(NotFoundError):
            remove_relationship(s, rid)


def test_affiliation_creates_and_replaces_employed_by(workspace, case_id) -> None:
    with workspace.transaction() as s:
        first = items.create_item(s, case_id, "organization", "Harlan County Sheriff's Office")
        second = items.create_item(s, case_id, "organization", "State Police")
        person = items.create_item(s, case_id, "person", "Dale Ruck", affiliation_id=first.id)
        pid, first_id, second_id = person.id, first.id, second.id
    with workspace.transaction() as s:
        [rel] = list_relationships(s, pid)
        assert (rel.kind, rel.other_id, rel.note) == ("employed by", first_id, AUTO_NOTE)
        # a manual link survives affiliation changes
        add_relationship(s, pid, first_id, "reports to")
    with workspace.transaction() as s:
        items.update_item(s, pid, affiliation_id=second_id)
    with workspace.transaction() as s:
        got = {(r.kind, r.other_id) for r in list_relationships(s, pid)}
        assert got == {("employed by", second_id), ("reports to", first_id)}
        items.update_item(s, pid, role="Deputy")  # other edits leave links alone
        items.update_item(s, pid, affiliation_id=None)
    with workspace.transaction() as s:
        assert [(r.kind, r.other_id) for r in list_relationships(s, pid)] == [
            ("reports to", first_id)]


def test_affiliation_keeps_a_manual_employed_by(workspace, case_id) -> None:
    with workspace.transaction() as s:
        org = items.create_item(s, case_id, "organization", "Mill Co")
        person = items.create_item(s, case_id, "person", "Ed Bly")
        add_relationship(s, person.id, org.id, "employed by", note="payroll record")
        items.update_item(s, person.id, affiliation_id=org.id)
        rels = list_relationships(s, person.id)
    assert [(r.kind, r.note) for r in rels] == [("employed by", "payroll record")]
