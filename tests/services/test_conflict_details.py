"""A refused stale save says what collided: for each field you changed, the value you started
from, yours, and the one the other writer stored, readable by a person (organization titles,
ISO dates, joined lists), plus the version to save on top of (SQLite and PostgreSQL)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from casefile.errors import ConflictError, NotFoundError
from casefile.services import items, views
from casefile.store import ChangeLog, Item, Person


def _second_writer_refused(workspace, item_id: int, theirs: Callable[[Session], object],
                           yours: Callable[[Session], object],
                           refused: type[Exception] = ConflictError) -> Any:
    """Two writers: two sessions, each in a transaction that has loaded all the item's fields,
    as an editor does (the loaded copies kept on the sessions' ``info``); ``theirs`` writes in
    the first and commits, then ``yours`` in the second must raise ``refused``; returns it."""
    first, second = workspace.sessions(), workspace.sessions()
    try:
        for session in (first, second):
            session.begin()
            session.info["loaded"] = items.get_item(session, item_id)
            views.item_fields(session, item_id)
        theirs(first)
        first.commit()
        with pytest.raises(refused) as caught:
            yours(second)
        second.rollback()
    finally:
        first.close()
        second.close()
    return caught.value


def test_second_writer_of_role_gets_both_values_and_the_first_save_stays(
        workspace, case_id) -> None:
    with workspace.transaction() as s:
        pid = items.create_item(s, case_id, "person", "Omar Haddad", role="Clerk").id
    err = _second_writer_refused(workspace, pid,
                                 lambda s: items.update_item(s, pid, role="County Clerk"),
                                 lambda s: items.update_item(s, pid, role="Deputy Clerk"))
    assert str(err) == ("person 'Omar Haddad' was changed by someone else since you opened it; "
                        "reload it and apply your change again")
    assert (err.item_id, err.title, err.kind, err.version) == (pid, "Omar Haddad", "person", 2)
    [role] = err.fields
    assert (role.name, role.base, role.yours, role.theirs) == (
        "role", "Clerk", "Deputy Clerk", "County Clerk")
    assert (role.base_text, role.yours_text, role.theirs_text) == (
        "Clerk", "Deputy Clerk", "County Clerk")
    assert not role.same
    with workspace.transaction() as s:
        stored = s.get(Person, pid)
        assert (stored.role, stored.version) == ("County Clerk", 2)
        updates = s.scalar(select(func.count()).select_from(ChangeLog)
                           .where(ChangeLog.action == "person.update"))
        assert updates == 1  # the refused save left no trace


def test_refused_save_with_an_old_version_names_organizations_by_title(
        workspace, case_id) -> None:
    with workspace.transaction() as s:
        county = items.create_item(s, case_id, "organization", "Broward County Sheriff's Office")
        city = items.create_item(s, case_id, "organization", "Coral Springs Police Department")
        school = items.create_item(s, case_id, "organization", "Broward County Public Schools")
        pid = items.create_item(s, case_id, "person", "Scot Peterson",
                                affiliation_id=county.id).id
        county_id, city_id, school_id = county.id, city.id, school.id
    with workspace.transaction() as s:  # the window loads the item...
        loaded = items.get_item(s, pid).version
    with workspace.transaction() as s:  # ...another reporter saves...
        items.update_item(s, pid, expected_version=loaded, affiliation_id=city_id)
    with pytest.raises(ConflictError) as caught, workspace.transaction() as s:
        items.update_item(s, pid, expected_version=loaded, loaded={"affiliation_id": county_id},
                          affiliation_id=school_id, role="School resource officer")
    by_name = {f.name: f for f in caught.value.fields}
    assert list(by_name) == ["role", "affiliation_id"]  # the editor's order
    aff = by_name["affiliation_id"]
    assert (aff.base, aff.yours, aff.theirs) == (county_id, school_id, city_id)
    assert (aff.base_text, aff.yours_text, aff.theirs_text) == (
        "Broward County Sheriff's Office", "Broward County Public Schools",
        "Coral Springs Police Department")
    role = by_name["role"]
    assert (role.yours_text, role.theirs_text, role.base_text) == (
        "School resource officer", "", None)  # not passed in ``loaded``: unknown
    assert caught.value.version == loaded + 1
    with workspace.transaction() as s:
        stored = s.get(Person, pid)
        assert (stored.affiliation_id, stored.role) == (city_id, None)


def test_dates_and_lists_read_as_iso_and_joined(workspace, case_id) -> None:
    with workspace.transaction() as s:
        qid = items.create_item(s, case_id, "question", "Ask the sheriff about the timeline",
                                due="2018-03-02").id
        pid = items.create_item(s, case_id, "person", "Omar Haddad", aliases=["O. Haddad"]).id
    [due] = _second_writer_refused(workspace, qid,
                                   lambda s: items.update_item(s, qid, due=date(2018, 3, 5)),
                                   lambda s: items.update_item(s, qid, due="2018-03-09")).fields
    assert (due.base_text, due.yours_text, due.theirs_text) == (
        "2018-03-02", "2018-03-09", "2018-03-05")
    assert due.theirs == date(2018, 3, 5)

    with workspace.transaction() as s:
        loaded = items.get_item(s, pid).version
    with workspace.transaction() as s:
        items.update_item(s, pid, aliases=["Haddad", "Omar H."])
    with pytest.raises(ConflictError) as caught, workspace.transaction() as s:
        items.update_item(s, pid, expected_version=loaded, loaded={"aliases": ["O. Haddad"]},
                          aliases=["O. Haddad", "Mr Haddad"])
    [aliases] = caught.value.fields
    assert (aliases.base_text, aliases.yours_text, aliases.theirs_text) == (
        "O. Haddad", "O. Haddad, Mr Haddad", "Haddad, Omar H.")


def test_same_value_saved_by_both_is_marked_same(workspace, case_id) -> None:
    with workspace.transaction() as s:
        pid = items.create_item(s, case_id, "person", "Omar Haddad", role="Clerk").id
        loaded = items.get_item(s, pid).version
    with workspace.transaction() as s:
        items.update_item(s, pid, role="County Clerk", notes="called 2018-02-20")
    with pytest.raises(ConflictError) as caught, workspace.transaction() as s:
        items.update_item(s, pid, expected_version=loaded, role="County Clerk", notes="met")
    same = {f.name: f.same for f in caught.value.fields}
    assert same == {"role": True, "notes": False}


def test_saving_an_item_another_writer_deleted_says_so(workspace, case_id) -> None:
    with workspace.transaction() as s:
        pid = items.create_item(s, case_id, "person", "Omar Haddad", role="Clerk").id
    err = _second_writer_refused(workspace, pid, lambda s: items.delete_item(s, pid),
                                 lambda s: items.update_item(s, pid, role="Deputy Clerk"),
                                 NotFoundError)
    assert "'Omar Haddad' was deleted by someone else" in str(err)
    with workspace.transaction() as s:
        assert s.get(Item, pid) is None
