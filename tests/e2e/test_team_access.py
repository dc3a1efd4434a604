"""A team workspace on PostgreSQL, used by three database users as a newsroom would: reporter A
owns case 1, reporter B owns case 2 and reads case 1, an intern is in no case. Each runs the
real ``casefile`` command with a URL carrying their own credentials, and plain SQL: every list,
search, brief, export and ``SELECT`` gives exactly the cases they may see, B's writes to case 1
are refused in one line, and the change log names the database user, not $LOGNAME.

Needs CASEFILE_TEST_DB_URL (a superuser, as CI's: it creates the three database users).
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.exc import DBAPIError

from tests.conftest import PG_URL, _new_pg_database
from tests.e2e.cli_helpers import Run, casefile, pdf_text
from tests.team_helpers import connected, database_users, user_url

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.slow,
    pytest.mark.skipif(not PG_URL, reason="CASEFILE_TEST_DB_URL not set"),
]

DEMO = "Sample: Alder Creek flood response"
CASE1 = "Harbor dredging"
CASE2 = "Parks budget"
#: Words only in case 1's and only in case 2's own documents.
WORDS1 = ("dredging", "Marlow Finch")
WORDS2 = ("playground", "Odile Brack")

#: How to name each row of a case-scoped table, and which case it belongs to (read as the
#: workspace's owner). Every table of the schema but ``alembic_version`` must be here.
KEY = {"cases": "id::text", "search_pg": "item_id::text", "blobs": "sha256",
       "case_members": "case_id || '/' || member"}
DIRECT = ("items", "passages", "evidence_links", "mentions", "relationships", "trash_entries",
          "watch_hits", "watch_names")
KINDS = ("people", "organizations", "places", "events", "documents", "questions", "claims")
CASE_OF = {
    "cases": "SELECT id::text, id FROM cases",
    "search_pg": "SELECT item_id::text, case_id FROM search_pg",
    "case_members": "SELECT case_id || '/' || member, case_id FROM case_members",
    "blobs": "SELECT b.sha256, i.case_id FROM blobs b JOIN documents d ON d.sha256 = b.sha256 "
             "JOIN items i ON i.id = d.id",
    "question_status_changes": "SELECT t.id::text, i.case_id FROM question_status_changes t "
                               "JOIN items i ON i.id = t.question_id",
    "trash_rows": "SELECT t.id::text, e.case_id FROM trash_rows t "
                  "JOIN trash_entries e ON e.id = t.entry_id",
    "change_log": "SELECT id::text, case_id FROM change_log",
    **{t: f"SELECT id::text, case_id FROM {t}" for t in DIRECT},
    **{t: f"SELECT t.id::text, i.case_id FROM {t} t JOIN items i ON i.id = t.id" for t in KINDS},
}


@dataclass
class Team:
    """The workspace (``admin``: its owner's URL), the three users' names and URLs, the
    cases' ids."""

    admin: str
    users: dict[str, str]
    urls: dict[str, str]
    case1: int
    case2: int

    def run(self, who: str, *args: str, env: dict[str, str] | None = None) -> Run:
        """``casefile --db <who's URL> ARGS...`` in a subprocess."""
        return casefile(None, "--db", self.urls[who], *args, env=env)


def _ok(run: Run) -> Run:
    assert run.code == 0, run.err
    return run


def _refused(run: Run, *words: str) -> str:
    """The one line a refused command printed (exit 1, nothing on stdout)."""
    assert run.code == 1, (run.out, run.err)
    assert run.err.count("\n") == 1 and run.err.startswith("casefile: "), run.err
    assert "Traceback" not in run.err and "SELECT" not in run.err
    for word in words:
        assert word in run.err, run.err
    return run.err


@pytest.fixture(scope="module")
def team(pg_template: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Team]:
    with database_users("reporter_a", "reporter_b", "intern") as made:
        users = {"a": made["reporter_a"], "b": made["reporter_b"], "intern": made["intern"]}
        for admin in _new_pg_database(pg_template):
            urls = {who: user_url(admin, name) for who, name in users.items()}
            yield _build(Team(admin, users, urls, 0, 0), tmp_path_factory.mktemp("team"))


def _build(team: Team, tmp: Path) -> Team:
    """Two rich cases (the demo case and a copy of it through an archive), each with a document
    of its own, an item in the Trash and a follow-up history; members set as described."""
    def admin(*args: str) -> Run:
        return _ok(casefile(None, "--db", team.admin, *args))

    admin("demo")
    admin("archive", "export", "--case", DEMO, "-o", str(tmp / "demo.cfa"))
    admin("archive", "import", str(tmp / "demo.cfa"))
    listed = {c["title"]: c["id"] for c in json.loads(admin("case", "list", "--json").out)}
    copy = next(t for t in listed if t != DEMO)
    admin("case", "rename", DEMO, CASE1)
    admin("case", "rename", copy, CASE2)
    team.case1, team.case2 = listed[DEMO], listed[copy]
    admin("team", "add", team.users["a"], "--case", CASE1, "--role", "owner")
    admin("team", "add", team.users["b"], "--case", CASE2, "--role", "owner")
    # the owner of case 1, not the workspace's owner, lets B read it
    _ok(team.run("a", "team", "add", team.users["b"], "--case", CASE1, "--role", "reader"))
    for who, case, words in (("a", CASE1, WORDS1), ("b", CASE2, WORDS2)):
        # a watched name, which the note below mentions (a hit of each case)
        _ok(team.run(who, "watch", "add", words[1], "--kind", "person", "--case", case))
        note = tmp / f"{who}-note.txt"
        note.write_text(f"Interview note on the {words[0]} file. {words[1]} said the papers "
                        "were signed before the vote.\n", encoding="utf-8")
        _ok(team.run(who, "import", str(note), "--case", case,
                     env={"LOGNAME": "editor-in-chief", "USER": "editor-in-chief"}))
    # an item of each case in the Trash, deleted by its owner
    from casefile.services import item_actions
    from casefile.store import Item
    from casefile.store.workspace import open_workspace

    for who, case_id in (("a", team.case1), ("b", team.case2)):
        ws = open_workspace(db_url=team.urls[who])
        try:
            with ws.transaction() as s:
                place = s.query(Item).filter_by(case_id=case_id, kind="place").first()
                assert place is not None
                item_actions.delete(s, [place.id])
        finally:
            ws.close()
    return team


def _admin_rows(team: Team, table: str) -> list[tuple[str, int | None]]:
    with connected(team.admin) as conn:
        return [(str(k), c) for k, c in conn.execute(text(CASE_OF[table]))]


def test_every_table_of_the_schema_is_checked_row_by_row(team: Team) -> None:
    with connected(team.admin) as conn:
        tables = dict(conn.execute(text(
            "SELECT relname, relrowsecurity FROM pg_class c JOIN pg_namespace n "
            "ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND relkind = 'r'")).all())
    tables.pop("alembic_version")
    assert set(tables) == set(CASE_OF)
    assert [t for t, secured in tables.items() if not secured] == []


@pytest.mark.parametrize("table", sorted(CASE_OF))
def test_a_plain_select_as_each_user_sees_only_their_cases(team: Team, table: str) -> None:
    rows = _admin_rows(team, table)
    may = {"a": {team.case1}, "b": {team.case1, team.case2}}
    # rows of both cases exist, so a policy letting anything through would be seen
    assert {c for _k, c in rows} >= {team.case1, team.case2}, table
    for who, cases in may.items():
        with connected(team.urls[who]) as conn:
            seen = {str(k) for (k,) in conn.execute(
                text(f"SELECT {KEY.get(table, 'id::text')} FROM {table}"))}
            if table == "change_log":  # the rows without a case are their author's
                own = {str(k) for (k,) in conn.execute(text(
                    "SELECT id::text FROM change_log WHERE case_id IS NULL"))}
                assert own <= {str(k) for (k,) in conn.execute(text(
                    "SELECT id::text FROM change_log WHERE actor = session_user"))}
                seen -= own
        assert seen == {k for k, c in rows if c in cases}, (who, table)
    with connected(team.urls["intern"]) as conn:
        try:
            seen_by_intern = conn.execute(text(f"SELECT * FROM {table}")).all()
        except DBAPIError as exc:
            assert "permission denied" in str(exc.orig)
            seen_by_intern = []
    assert seen_by_intern == []


def _ids(team: Team, case_id: int) -> set[int]:
    with connected(team.admin) as conn:
        return {int(i) for (i,) in conn.execute(
            text("SELECT id FROM items WHERE case_id = :c"), {"c": case_id})}


def test_cases_items_and_search_give_each_user_their_cases(team: Team) -> None:
    cases = {who: {c["title"] for c in json.loads(_ok(team.run(who, "case", "list",
                                                               "--json")).out)}
             for who in ("a", "b")}
    assert cases == {"a": {CASE1}, "b": {CASE1, CASE2}}

    for who, title, case_id in (("a", CASE1, team.case1), ("b", CASE1, team.case1),
                                ("b", CASE2, team.case2)):
        listed = json.loads(_ok(team.run(who, "items", "--case", title, "--json")).out)
        assert {i["id"] for i in listed} == _ids(team, case_id)
    _refused(team.run("a", "items", "--case", CASE2), "no case titled")

    def hits(who: str, query: str) -> set[int]:
        found = json.loads(_ok(team.run(who, "search", query, "--json")).out)
        return {h["case_id"] for h in found}

    assert hits("a", WORDS1[0]) == {team.case1}
    assert hits("a", WORDS2[0]) == set()
    assert hits("a", "flood") == {team.case1}  # the demo text is in both cases
    assert hits("b", WORDS1[0]) == {team.case1}
    assert hits("b", WORDS2[0]) == {team.case2}
    assert hits("b", "flood") == {team.case1, team.case2}


def test_briefs_and_exports_hold_what_each_user_may_read(team: Team, tmp_path: Path) -> None:
    for who, title, words, other in (("a", CASE1, WORDS1, WORDS2), ("b", CASE1, WORDS1, WORDS2),
                                     ("b", CASE2, WORDS2, WORDS1)):
        stem = f"{who}-{title.split()[0]}"
        pdf = tmp_path / f"{stem}.pdf"
        _ok(team.run(who, "brief", "--case", title, "-o", str(pdf), "--profile", "internal"))
        folder = tmp_path / f"{stem}-csv"
        _ok(team.run(who, "export", "csv", "--case", title, "-o", str(folder),
                     "--profile", "internal"))
        ftm = tmp_path / f"{stem}.ftm.json"
        _ok(team.run(who, "export", "ftm", "--case", title, "-o", str(ftm),
                     "--profile", "internal"))
        with (folder / "documents.csv").open(encoding="utf-8-sig") as f:
            docs = list(csv.DictReader(f))
        for written in (pdf_text(pdf), "\n".join(d["title"] for d in docs),
                        ftm.read_text(encoding="utf-8")):
            assert words[0] in written and other[0] not in written, (who, title)
    for who, title in (("a", CASE2), ("intern", CASE1)):
        _refused(team.run(who, "brief", "--case", title, "-o", str(tmp_path / "x.pdf")))
        _refused(team.run(who, "export", "csv", "--case", title, "-o", str(tmp_path / "x")))
        assert not (tmp_path / "x.pdf").exists() and not (tmp_path / "x").exists()


def test_the_intern_in_no_case_is_told_so_in_one_line(team: Team) -> None:
    for args in (("case", "list"), ("items", "--case", CASE1), ("search", "flood"),
                 ("team", "list")):
        line = _refused(team.run("intern", *args), "not a member of any case",
                        team.users["intern"], "casefile team add")
        assert CASE1 not in line and CASE2 not in line


def test_a_readers_writes_are_refused_in_one_line_and_change_nothing(
        team: Team, tmp_path: Path) -> None:
    engine = create_engine(team.admin)

    def state() -> list[tuple]:
        with engine.connect() as conn:
            return [tuple(r) for r in conn.execute(text(
                "SELECT id, title, notes, confidential, version FROM items WHERE case_id = :c "
                "ORDER BY id"), {"c": team.case1})] + [tuple(r) for r in conn.execute(text(
                    "SELECT title, summary FROM cases WHERE id = :c"), {"c": team.case1})]

    try:
        before = state()
        person = next(i for i in json.loads(_ok(team.run(
            "b", "items", "--case", CASE1, "--kind", "person", "--json")).out))
        note = tmp_path / "b-note.txt"
        note.write_text("A note B should not be able to file in case 1.\n", encoding="utf-8")
        for args in (("case", "rename", CASE1, "Renamed by B"),
                     ("case", "edit", CASE1, "--summary", "B was here"),
                     ("item", str(person["id"]), "--confidential"),
                     ("import", str(note), "--case", CASE1, "--no-suggest")):
            _refused(team.run("b", *args), team.users["b"], "a reader", CASE1,
                     "casefile team add")
        _refused(team.run("b", "case", "delete", CASE1), "a reader", CASE1)
        _refused(team.run("b", "team", "add", team.users["intern"], "--case", CASE1,
                          "--role", "reader"), "a reader", CASE1)
        assert state() == before
        # what B owns, B changes
        _ok(team.run("b", "case", "edit", CASE2, "--summary", "B's own summary"))
    finally:
        engine.dispose()


def test_the_change_log_names_the_database_user(team: Team) -> None:
    with connected(team.admin) as conn:
        imports = dict(conn.execute(text(
            "SELECT case_id, actor FROM change_log WHERE action = 'document.import' "
            "AND data ->> 'filename' LIKE '%-note.txt'")).all())
        deletes = dict(conn.execute(text(
            "SELECT case_id, actor FROM change_log WHERE action = 'place.delete'")).all())
        actors = {r[0] for r in conn.execute(text("SELECT DISTINCT actor FROM change_log"))}
    assert imports == {team.case1: team.users["a"], team.case2: team.users["b"]}
    assert deletes == {team.case1: team.users["a"], team.case2: team.users["b"]}
    assert "editor-in-chief" not in actors  # $LOGNAME and $USER were set so for the imports
