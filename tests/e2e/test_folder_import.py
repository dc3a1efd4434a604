"""Importing folders from the command line: every file accounted for, bad files never fatal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e.cli_helpers import casefile, row_counts
from tests.e2e.make_files import email_bytes, mixed_folder, pdf_bytes, truncated_pdf

CASE = "Harbor audit"




def new_workspace(tmp_path: Path, *files: Path) -> Path:
    """A workspace folder with the case, made in-process (quicker than ``casefile case new``);
    ``files`` are imported into it the same way."""
    from casefile.services.cases import create_case
    from casefile.services.documents import import_file
    from casefile.store.workspace import open_workspace

    ws = tmp_path / "ws"
    workspace = open_workspace(ws)
    try:
        with workspace.transaction() as session:
            case_id = create_case(session, CASE).id
            for file in files:
                import_file(session, case_id, file)
    finally:
        workspace.close()
    return ws


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    root = tmp_path_factory.mktemp("mixed") / "inbox"
    return root, mixed_folder(root)


def test_folder_of_200_mixed_files_lists_each_and_counts_add_up(
    mixed: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    root, expected = mixed
    ws = new_workspace(tmp_path)
    run = casefile(ws, "import", str(root), "--case", CASE, "--no-suggest", "--json")
    assert run.code == 0, run.err
    out = json.loads(run.out)
    listed = {Path(f["path"]).relative_to(root).as_posix(): f for f in out["files"]}
    assert len(out["files"]) == 200 == out["total"]
    assert {rel: f["status"] for rel, f in listed.items()} == expected  # hidden files skipped
    assert (out["imported"], out["already_there"], out["failed"]) == (120, 25, 55)
    for rel, f in listed.items():
        if f["status"] == "failed":
            assert f["error"] and "\n" not in f["error"], rel
        else:
            assert len(f["sha256"]) == 64 and f["document_id"] > 0, rel
    assert "is empty" in listed["bad/empty-000.txt"]["error"]
    assert "truncated" in listed["bad/cut-000.pdf"]["error"]
    # a duplicate points at the document its original made
    by_sha = {f["sha256"]: f["document_id"] for f in out["files"] if f["status"] == "imported"}
    for f in out["files"]:
        if f["status"] == "already there":
            assert f["document_id"] == by_sha[f["sha256"]]
    # 120 files + 5 PDFs attached to emails, each searchable
    assert row_counts(ws)["documents"] == 125
    hits = json.loads(casefile(ws, "search", "invoice", "--case", CASE, "--json").out)
    assert hits

    again = casefile(ws, "import", str(root), "--case", CASE, "--no-suggest")
    assert again.code == 0
    assert again.out.strip().splitlines()[-1] == "0 imported, 145 already there, 55 failed"
    failures = again.err.strip().splitlines()
    assert len(failures) == 55
    assert all(line.startswith(f"casefile: {root}") for line in failures), failures[:3]
    assert row_counts(ws)["documents"] == 125


def test_folder_with_only_bad_files_exits_1_and_stores_nothing(tmp_path: Path) -> None:
    ws = new_workspace(tmp_path)
    bad = tmp_path / "bad"
    (bad / "deeper").mkdir(parents=True)
    (bad / "empty.txt").write_bytes(b"")
    (bad / "noise.pdf").write_bytes(bytes(range(256)) * 8)
    (bad / "deeper" / "cut.pdf").write_bytes(truncated_pdf(["Page one", "Page two"]))
    (bad / ".hidden.txt").write_text("a hidden note is not imported")
    before = row_counts(ws)
    run = casefile(ws, "import", str(bad), "--case", CASE, "--no-suggest")
    assert run.code == 1
    assert run.out.strip().splitlines()[-1] == "0 imported, 0 already there, 3 failed"
    assert len(run.err.strip().splitlines()) == 3 and "Traceback" not in run.err
    assert row_counts(ws) == before

    empty = tmp_path / "nothing-here"
    empty.mkdir()
    (empty / ".DS_Store").write_bytes(b"\x00")
    run = casefile(ws, "import", str(empty), "--case", CASE)
    assert run.code == 1
    assert run.err.strip() == (f"casefile: no files to import in {empty} "
                               "(hidden files are skipped)")


def test_truncated_pdf_is_refused_and_changes_no_table(tmp_path: Path) -> None:
    good = tmp_path / "memo.txt"
    good.write_text("Port director Sam Reed signed the memo on May 2.\n")
    ws = new_workspace(tmp_path, good)
    cut = tmp_path / "police-report.pdf"
    cut.write_bytes(truncated_pdf(["Incident 18-0214", "Deputy remained outside."]))
    before = row_counts(ws)
    run = casefile(ws, "import", str(cut), "--case", CASE)
    assert run.code == 1
    assert run.err == ("casefile: police-report.pdf is truncated (the file ends too early) "
                       "and cannot be read\n")
    assert run.out.strip().splitlines()[-1] == "0 imported, 0 already there, 1 failed"
    assert row_counts(ws) == before


def test_pdf_attached_to_an_email_is_found_by_search_in_the_case(tmp_path: Path) -> None:
    ws = new_workspace(tmp_path)
    mail = tmp_path / "from-press-office.eml"
    mail.write_bytes(email_bytes(
        "Attached is the incident report you asked for.",
        attachment=("incident-18-0214.pdf",
                    pdf_bytes(["Incident 18-0214", "Deputy Quarrington remained outside."])),
    ))
    run = casefile(ws, "import", str(mail), "--case", CASE, "--no-suggest", "--json")
    assert run.code == 0, run.err
    entry = json.loads(run.out)["files"][0]
    [child] = entry["attachments"]
    assert child["title"] and child["status"] == "imported"
    hits = json.loads(casefile(ws, "search", "Quarrington", "--case", CASE, "--json").out)
    assert [h["item_id"] for h in hits] == [child["document_id"]]
    assert "Quarrington" in hits[0]["snippet"]


def test_folder_of_web_pages_read_by_workers_started_before_the_core_loads(
        tmp_path: Path) -> None:
    """``casefile import`` starts its reader workers before loading the database layer; the
    import takes them, stores every page as a page read here would be stored, and no worker
    outlives the command, nor when the import fails before it begins (unknown case)."""
    import multiprocessing

    from scripts.bench_paths.importing import make_corpus
    from tests.e2e.case_rows import case_rows

    def workers() -> set[int]:
        """This process's live children (an earlier test may hold the process's suggestion
        pool, which lives as long as the process, by design)."""
        return {p.pid for p in multiprocessing.active_children() if p.pid is not None}

    before = workers()
    pages = make_corpus(tmp_path / "pages", 12, "html")
    early = new_workspace(tmp_path / "early")
    done = casefile(early, "import", str(tmp_path / "pages"), "--case", CASE, "--no-suggest",
                    "--json")
    assert done.code == 0, done.err
    assert json.loads(done.out)["imported"] == len(pages)
    assert workers() <= before
    from casefile.services.batch import import_paths
    from casefile.services.cases import find_case
    from casefile.store.workspace import open_workspace

    rows = []
    for folder in (early, new_workspace(tmp_path / "here")):
        ws = open_workspace(folder)
        try:
            if folder != early:  # the same pages read in this process only
                with ws.transaction() as s:
                    case_id = find_case(s, CASE).id
                import_paths(ws.transaction, case_id, [tmp_path / "pages"], workers=0)
            with ws.transaction(write=False) as s:
                rows.append(case_rows(s, CASE))
        finally:
            ws.close()
    assert rows[0] == rows[1]
    refused = casefile(early, "import", str(tmp_path / "pages"), "--case", "No such case",
                       "--no-suggest")
    assert refused.code == 1
    assert workers() <= before
