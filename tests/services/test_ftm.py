"""FollowTheMoney export and import: the demo case round trip, validation by the
followthemoney library and its ``ftm`` command, merging, undo, confidential people."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from followthemoney import model
from followthemoney.util import make_entity_id
from sqlalchemy import func, select

from casefile.cli import main
from casefile.errors import ValidationError
from casefile.services import cases, ftm_export, ftm_import, items
from casefile.services.changes import run_step
from casefile.services.demo import demo_title
from casefile.store import Blob, EvidenceLink, Item, Person
from casefile.store.evidence import Relationship
from casefile.store.workspace import open_workspace


def _read(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


def _normalised(entities: list[dict[str, Any]]) -> list[str]:
    """The entities with ids replaced by what they name: each reference becomes the schema and
    the properties of the entity it points to (recursively), so two exports of the same case
    made in different workspaces compare equal."""
    by_id = {e["id"]: e for e in entities}

    def label(entity_id: str, depth: int = 0) -> Any:
        e = by_id[entity_id]
        return [e["schema"], props(e, depth + 1)]

    def props(e: dict[str, Any], depth: int) -> dict[str, Any]:
        schema = model.get(e["schema"])
        out: dict[str, Any] = {}
        for name, values in e["properties"].items():
            prop = schema.get(name)
            if prop.type.name == "entity":
                out[name] = sorted(json.dumps(label(v, depth)) if depth < 3 else "ref"
                                   for v in values)
            else:
                out[name] = sorted(values)
        return out

    return sorted(json.dumps([e["schema"], props(e, 0)], sort_keys=True) for e in entities)


def test_round_trip_of_the_demo_case(workspace, demo, tmp_path: Path):
    first = tmp_path / "demo.ftm.json"
    with workspace.transaction() as s:
        done = ftm_export.export_ftm(s, demo, first)
        people = s.scalar(select(func.count()).select_from(Person))
        links = s.scalar(select(func.count()).select_from(EvidenceLink))
    entities = _read(first)
    assert done.total == len(entities) > 0
    schemata = {e["schema"] for e in entities}
    assert {"Person", "PublicBody", "PlainText", "Event", "Documentation", "Employment",
            "Note", "Address"} <= schemata
    assert sum(e["schema"] == "Person" for e in entities) == people
    assert sum(e["schema"] == "Documentation" for e in entities) == links
    for data in entities:  # every entity parses, validates and has its required properties
        proxy = model.get_proxy(data, cleaned=False)
        assert proxy.schema.validate(data) is None
        assert proxy.to_dict()["properties"] == data["properties"]  # values already clean
        for required in proxy.schema.required:
            assert data["properties"].get(required), (data["schema"], required)
    doc = next(e for e in entities if e["schema"] == "PlainText")
    with workspace.transaction() as s:
        original = s.scalars(select(Blob)).one()
        assert doc["properties"]["contentHash"] == [hashlib.sha1(original.data).hexdigest()]
        assert f"SHA-256: {original.sha256}" in doc["properties"]["summary"]
    quotes = {q for e in entities if e["schema"] == "Documentation"
              for q in e["properties"].get("summary", [])}
    assert "I could see their lights the whole time" in quotes

    # the same ids in a second export of the same case
    again = tmp_path / "again.ftm.json"
    with workspace.transaction() as s:
        ftm_export.export_ftm(s, demo, again)
    assert [e["id"] for e in _read(again)] == [e["id"] for e in entities]

    # into a new case of a new workspace, and out again: the same entities and properties
    other = open_workspace(tmp_path / "other-ws", create=True)
    with other.transaction() as s:
        case_id = cases.create_case(s, "Handed over").id
    with other.transaction() as s:
        result = ftm_import.import_file(s, case_id, first)
    assert result.value.merged == [] and len(result.value.created) == 20
    assert result.undo is not None
    second = tmp_path / "second.ftm.json"
    with other.transaction() as s:
        ftm_export.export_ftm(s, case_id, second)
    out = _read(second)
    assert {e["id"] for e in out}.isdisjoint({e["id"] for e in entities})  # other case key
    assert _normalised(out) == _normalised(entities)
    other.engine.dispose()


def test_the_ftm_command_reads_the_file(workspace, demo, tmp_path: Path):
    ftm = shutil.which("ftm") or str(Path(os.sys.executable).with_name("ftm"))
    if not Path(ftm).exists():
        if os.environ.get("CI"):
            pytest.fail("the ftm console script of followthemoney is missing")
        pytest.skip("the ftm console script is not installed here")
    path = tmp_path / "case.ftm.json"
    with workspace.transaction() as s:
        ftm_export.export_ftm(s, demo, path)
    run = subprocess.run([ftm, "validate", "-i", str(path), "-o", str(tmp_path / "v.json")],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    checked = {e["id"]: e["properties"] for e in _read(tmp_path / "v.json")}
    assert checked == {e["id"]: e["properties"] for e in _read(path)}
    agg = subprocess.run([ftm, "aggregate", "-i", str(path)], capture_output=True, text=True,
                         timeout=120)
    assert agg.returncode == 0, agg.stderr
    assert len(agg.stdout.splitlines()) == len(checked)


def _opensanctions_like(tmp_path: Path) -> Path:
    """A small file as OpenSanctions or Aleph would give it, made with the library."""
    person = model.make_entity("Person")
    person.id = "os-person-1"
    person.add("name", "RUTH  okonkwo")
    person.add("alias", "R. Okonkwo")
    person.add("position", "County sheriff")
    person.add("email", "ruth.okonkwo@example.org")
    company = model.make_entity("Company")
    company.id = "os-company-1"
    company.add("name", "Alder Creek Holdings Ltd")
    company.add("jurisdiction", "gb")
    directorship = model.make_entity("Directorship")
    directorship.id = make_entity_id("dir", person.id, company.id)
    directorship.add("director", person.id)
    directorship.add("organization", company.id)
    directorship.add("role", "non-executive director")
    sanction = model.make_entity("Sanction")
    sanction.id = "os-sanction-1"
    sanction.add("entity", company.id)
    sanction.add("authority", "Some authority")
    path = tmp_path / "os.ftm.json"
    path.write_text("".join(json.dumps(e.to_dict()) + "\n"
                            for e in (person, company, directorship, sanction)), "utf-8")
    return path


def test_a_person_already_in_the_case_is_merged_not_repeated_and_undo(workspace, demo,
                                                                       tmp_path: Path):
    path = _opensanctions_like(tmp_path)
    with workspace.transaction() as s:
        before = s.scalar(select(func.count()).select_from(Item).where(Item.case_id == demo))
        ruth = items.find_item(s, demo, "Ruth Okonkwo", "person").id
    with workspace.transaction() as s:
        result = ftm_import.import_file(s, demo, path)
    value = result.value
    assert [(m[0], m[1], m[3]) for m in value.merged] == [(ruth, "Ruth Okonkwo", "Person")]
    assert "Merged: Ruth Okonkwo ← RUTH okonkwo (Person)" in result.message
    assert value.skipped == {"Sanction": 1}
    with workspace.transaction() as s:
        named = [p for p in s.scalars(select(Person).where(Person.case_id == demo))
                 if "okonkwo" in p.title.casefold()]
        assert len(named) == 1  # merged, not a second Ruth Okonkwo
        person = named[0]
        assert person.role == "Sheriff"  # kept, not overwritten
        assert "R. Okonkwo" in person.aliases
        assert person.contact == "ruth.okonkwo@example.org"
        assert "FtM id: os-person-1" in (person.notes or "")
        company = items.find_item(s, demo, "Alder Creek Holdings Ltd", "organization")
        assert company.org_kind == "company" and company.jurisdiction == "United Kingdom"
        rel = s.scalars(select(Relationship).where(Relationship.source_id == ruth,
                                                   Relationship.target_id == company.id)).one()
        assert (rel.kind, rel.note) == ("part of", "director; non-executive director")
        assert s.scalar(select(func.count()).select_from(Item)
                        .where(Item.case_id == demo)) == before + 1
    # importing the same file again merges by FtM id: nothing new
    with workspace.transaction() as s:
        again = ftm_import.import_file(s, demo, path)
    assert again.value.created == [] and again.value.relationships == 0
    assert again.undo is not None
    # undo both imports: the case is as before, Ruth as she was
    with workspace.transaction() as s:
        run_step(s, again.undo)
    with workspace.transaction() as s:
        redo = run_step(s, result.undo)  # type: ignore[arg-type]
        person = s.get(Person, ruth)
        assert person is not None and person.aliases == ["Okonkwo"]
        assert person.contact is None and "FtM id" not in (person.notes or "")
        assert s.scalar(select(func.count()).select_from(Item)
                        .where(Item.case_id == demo)) == before
        assert s.scalar(select(func.count()).select_from(Relationship)
                        .where(Relationship.source_id == ruth, Relationship.kind == "part of")
                        ) == 0
    with workspace.transaction() as s:  # redo brings the company back
        assert redo.undo is not None
        run_step(s, redo.undo)
        items.find_item(s, demo, "Alder Creek Holdings Ltd", "organization")


def test_a_confidential_person_is_left_out_by_default(workspace, demo, tmp_path: Path):
    with workspace.transaction() as s:
        person = items.find_item(s, demo, "Teresa Lindqvist", "person")
        items.update_item(s, person.id, confidential=True, contact="+1 202 555 0142")
    out = tmp_path / "editor.ftm.json"
    with workspace.transaction() as s:
        ftm_export.export_ftm(s, demo, out)
    text = out.read_text("utf-8")
    assert "Lindqvist" not in text and "555 0142" not in text
    assert "[withheld]" in text  # her name in the article's text
    quotes = {q for e in _read(out) if e["schema"] == "Documentation"
              for q in e["properties"].get("summary", [])}
    assert quotes and "I could see their lights the whole time" not in quotes  # her evidence
    legal = tmp_path / "legal.ftm.json"
    with workspace.transaction() as s:
        ftm_export.export_ftm(s, demo, legal, profile="legal")
    names = {n for e in _read(legal) if e["schema"] == "Person"
             for n in e["properties"]["name"]}
    assert "Source A" in names and "Lindqvist" not in legal.read_text("utf-8")
    internal = tmp_path / "internal.ftm.json"
    with workspace.transaction() as s:
        ftm_export.export_ftm(s, demo, internal, include_confidential=True)
    her = next(e for e in _read(internal) if e["properties"].get("name") == ["Teresa Lindqvist"])
    assert her["properties"]["keywords"] == ["confidential"]


def test_cli_export_and_import_ftm(workspace, demo, tmp_path: Path, capsys, monkeypatch):
    if workspace.folder is None:
        pytest.skip("the CLI test runs on a workspace folder")
    ws = ["--workspace", str(workspace.folder)]
    out = tmp_path / "cli.ftm.json"
    assert main([*ws, "export", "ftm", "--case", demo_title(), "-o", str(out)]) == 0
    assert "entities to" in capsys.readouterr().out
    assert main([*ws, "case", "new", "From Aleph"]) == 0
    capsys.readouterr()
    monkeypatch.chdir(tmp_path)  # no file named "ftm" here
    assert main([*ws, "import", "ftm", str(out), "--case", "From Aleph"]) == 0
    printed = capsys.readouterr().out
    assert "20 items added, 0 entities merged" in printed
    assert main([*ws, "import", "ftm", str(out), "--case", "From Aleph"]) == 0
    assert "merged Person 'Ruth Okonkwo' into 'Ruth Okonkwo'" in capsys.readouterr().out
    bad = tmp_path / "bad.json"
    bad.write_text('{"id": "x", "schema": "NoSuchSchema", "properties": {}}\n', "utf-8")
    assert main([*ws, "import", "ftm", str(bad), "--case", "From Aleph"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("casefile: bad.json, entity 1: not a FollowTheMoney entity")
    assert "Traceback" not in err


def test_a_file_that_is_not_ftm_is_refused_whole(workspace, case_id, tmp_path: Path):
    path = tmp_path / "mixed.json"
    good = {"id": "p1", "schema": "Person", "properties": {"name": ["Jan Nowak"]}}
    path.write_text(json.dumps(good) + "\nnot json\n", "utf-8")
    with pytest.raises(ValidationError, match="line 2: not JSON"):
        ftm_import.read_ftm(path)
    with workspace.transaction() as s:
        assert s.scalar(select(func.count()).select_from(Item)) == 0


def test_a_file_named_ftm_is_still_a_document(workspace, case_id, tmp_path: Path, capsys,
                                              monkeypatch):
    if workspace.folder is None:
        pytest.skip("the CLI test runs on a workspace folder")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ftm").write_text("Notes from the hearing on the flood.\n", "utf-8")
    (tmp_path / "more.txt").write_text("A second note.\n", "utf-8")
    code = main(["--workspace", str(workspace.folder), "import", "ftm", "more.txt",
                 "--case", "Test case", "--no-suggest"])
    assert code == 0
    assert "2 " in capsys.readouterr().out
    with workspace.transaction() as s:
        assert s.scalar(select(func.count()).select_from(Item)
                        .where(Item.kind == "document")) == 2


def test_without_the_library_the_export_says_what_to_install(monkeypatch) -> None:
    import sys

    from casefile.errors import CasefileError
    from casefile.services.ftm_export import require_followthemoney

    monkeypatch.setitem(sys.modules, "followthemoney", None)  # as if not installed
    with pytest.raises(CasefileError, match=r"pip install 'casefile\[ftm\]'"):
        require_followthemoney()
