"""Items: create, edit, delete, list; every action is logged; stale saves conflict."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from casefile.errors import ConflictError, NotFoundError, ValidationError
from casefile.services import cases, items
from casefile.store import ChangeLog, Person
from casefile.store import search as search_backend


def test_person_with_affiliation_role_and_aliases(workspace, case_id) -> None:
    with workspace.transaction() as s:
        org = items.create_item(s, case_id, "organization", "Harbor Police Department",
                                org_kind="law enforcement agency")
        person = items.create_item(s, case_id, "person", "Nadia Ferreira", role="Lieutenant",
                                   affiliation_id=org.id, aliases=["Ferreira", " "])
        pid = person.id
    with workspace.transaction() as s:
        p = s.get(Person, pid)
        assert (p.name, p.role, p.aliases) == ("Nadia Ferreira", "Lieutenant", ["Ferreira"])
        assert p.affiliation is not None and p.affiliation.name == "Harbor Police Department"
        assert [i.title for i in items.list_items(s, case_id, "person")] == ["Nadia Ferreira"]
        assert cases.item_counts(s, case_id)["organization"] == 1


def test_every_action_writes_one_change_log_row(workspace, case_id) -> None:
    with workspace.transaction() as s:
        before = s.scalar(select(func.count()).select_from(ChangeLog))
        item = items.create_item(s, case_id, "place", "Harbor Bridge")
        items.update_item(s, item.id, title="Old Harbor Bridge")
        items.delete_item(s, item.id)
        actions = list(s.scalars(select(ChangeLog.action).order_by(ChangeLog.id)))[before:]
    assert actions == ["place.create", "place.update", "place.delete"]


@pytest.mark.parametrize("kind,title,fields,message", [
    ("person", "  ", {}, "needs a name"),
    ("robot", "R2", {}, "unknown item kind"),
    ("person", "A B", {"salary": 3}, "no field"),
    ("event", "Hearing", {"date": "next Tuesday"}, "must be a date"),
    ("event", "Hearing", {"precision": "fuzzy"}, "precision must be one of"),
    ("question", "Who paid?", {"status": "maybe"}, "status must be one of"),
    ("person", "A B", {"affiliation_id": 999999}, "affiliation_id must name"),
])
def test_bad_values_are_refused_and_nothing_is_stored(
    workspace, case_id, kind, title, fields, message
) -> None:
    with pytest.raises(ValidationError, match=message), workspace.transaction() as s:
        items.create_item(s, case_id, kind, title, **fields)
    with workspace.transaction() as s:
        assert items.list_items(s, case_id) == []


def test_reference_to_an_item_of_another_case_is_refused(workspace, case_id) -> None:
    with workspace.transaction() as s:
        other = cases.create_case(s, "Other story")
        org = items.create_item(s, other.id, "organization", "Elsewhere Agency")
    with pytest.raises(ValidationError), workspace.transaction() as s:
        items.create_item(s, case_id, "person", "Ana Lima", affiliation_id=org.id)


def test_second_of_two_concurrent_saves_gets_a_conflict_naming_the_item(workspace, case_id) -> None:
    with workspace.transaction() as s:
        pid = items.create_item(s, case_id, "person", "Omar Haddad", role="Clerk").id
    with workspace.transaction() as s:
        loaded_version = items.get_item(s, pid).version
    with workspace.transaction() as s:
        items.update_item(s, pid, expected_version=loaded_version, role="County Clerk")
    with pytest.raises(ConflictError, match="Omar Haddad"), workspace.transaction() as s:
        items.update_item(s, pid, expected_version=loaded_version, role="Deputy Clerk")
    with workspace.transaction() as s:
        assert s.get(Person, pid).role == "County Clerk"


def test_renamed_item_is_found_by_new_name_and_deleted_one_not_at_all(workspace, case_id) -> None:
    with workspace.transaction() as s:
        pid = items.create_item(s, case_id, "person", "Jonah Pike").id
    with workspace.transaction() as s:
        items.update_item(s, pid, title="Jonah Q. Pikestaff")
    with workspace.transaction() as s:
        assert [h.item_id for h in search_backend.search(s, "Pikestaff")] == [pid]
        assert search_backend.search(s, "Pike") == []
        items.delete_item(s, pid)
    with workspace.transaction() as s:
        assert search_backend.search(s, "Pikestaff") == []
        with pytest.raises(NotFoundError):
            items.get_item(s, pid)


def test_case_titles_are_unique_and_found_exactly(workspace) -> None:
    with workspace.transaction() as s:
        cases.create_case(s, "Port audit")
    with pytest.raises(ValidationError, match="already exists"), workspace.transaction() as s:
        cases.create_case(s, "Port audit")
    with pytest.raises(NotFoundError, match="no case titled 'Port'"), workspace.transaction() as s:
        cases.find_case(s, "Port")
