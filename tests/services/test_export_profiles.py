"""Export profiles ("Safe exports"): internal, editor, legal, public. Under legal and
public a confidential person is "Source A" everywhere in the brief and the calendar (inside
quotes "[Source A]"), no contact detail is printed, and an export that leaks a protected string
anyway is refused with the string and the place named.

The case is the sample case of ``casefile demo``; the people are picked from it by what the data
says (the person named in the most of their own quotes), never by name."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest
from icalendar import Calendar

from casefile.errors import ValidationError
from casefile.export.brief_data import QuoteEntry
from casefile.export.pdf_check import ProtectedStringFoundError, normalize, pdf_places
from casefile.services import brief, calendar, evidence, items
from casefile.services.demo import build_demo
from casefile.services.disclosure import case_disclosure, disclosure_for, names_of
from casefile.store import Item, Person, Question

TODAY = date(2026, 11, 1)


def _flat(text: str) -> str:
    return " ".join(text.split())


def _named_in_own_quotes(s, person: Person) -> list[str]:
    """The person's evidence quotes that name them (title, alias or surname)."""
    names = names_of(person)
    return [ev.quote for ev in evidence.evidence_for(s, person.id)
            if ev.quote and any(re.search(rf"\b{re.escape(n)}\b", ev.quote, re.I)
                                for n in names)]


@pytest.fixture
def demo(sqlite_workspace):
    """The demo case with its most-quoted-by-name person (and the next one) confidential, and
    a contact detail on the first and on a person who is not confidential."""
    ws = sqlite_workspace
    with ws.transaction() as s:
        case_id, _ = build_demo(s, today=TODAY)
        people = items.list_items(s, case_id, "person")
        ranked = sorted(people, key=lambda p: (-len(_named_in_own_quotes(s, p)), p.id))
        source, second, open_person = ranked[0], ranked[1], ranked[-1]
        assert _named_in_own_quotes(s, source), "the demo has no person named in a quote"
        items.update_item(s, source.id, confidential=True, contact="cell +1 555 010 4477",
                          notes="Met at the diner on the old road.")
        items.update_item(s, second.id, confidential=True)
        items.update_item(s, open_person.id, contact="desk@ledger.example.org")
        info = {"case": case_id, "source": source.id, "second": second.id,
                "open": open_person.id, "names": sorted(names_of(source)),
                "withheld": sorted(names_of(source) | names_of(second)),
                "quotes": _named_in_own_quotes(s, source), "role": source.role}
    return ws, info


def _brief(ws, info, tmp_path: Path, profile: str | None, name: str = "brief.pdf") -> str:
    out = tmp_path / name
    with ws.transaction() as s:
        data = brief.export_brief(s, info["case"], out, profile=profile, today=TODAY)
    assert data.profile == (profile or "editor")
    return "\n".join(f"{place}: {text}" for place, text in pdf_places(out))


def test_public_brief_names_the_source_only_by_pseudonym(demo, tmp_path: Path) -> None:
    ws, info = demo
    every = _brief(ws, info, tmp_path, "public")
    folded = normalize(every)
    for name in (*info["withheld"], "555 010 4477", "desk@ledger.example.org"):
        assert not re.search(rf"(?<!\w){re.escape(normalize(name))}(?!\w)", folded), name
    flat = _flat(every)
    # the source is listed under its pseudonym, and its quotes read "[Source A]", without
    # the words that describe the source around the name (casefile.services.descriptions)
    assert re.search(r"text of page \d+: .*\bSource A\b", every, re.S)
    with ws.transaction() as s:
        shown = case_disclosure(s, info["case"], "public")
    for quote in info["quotes"]:
        expected = _flat(shown.quote(quote) or "")
        assert "[Source A]" in expected
        assert expected[:60] in flat, expected
    for described in shown.protected:  # whole words, as the export's self-check reads them
        assert not re.search(rf"(?<!\w){re.escape(normalize(described))}(?!\w)", folded), \
            described
    # public: no role, no notes of the source
    if info["role"]:
        assert not re.search(rf"Source A\s+Role: {re.escape(info['role'])}", every)
    assert "diner on the old road" not in every


def test_each_profile_prints_its_own_handling_mark(demo, tmp_path: Path) -> None:
    ws, info = demo
    public = _brief(ws, info, tmp_path, "public", "public.pdf")
    legal = _brief(ws, info, tmp_path, "legal", "legal.pdf")
    editor = _brief(ws, info, tmp_path, "editor", "editor.pdf")
    # a copy for outside the newsroom must not claim to be confidential or to stay inside it
    assert "CONFIDENTIAL" not in public and "reporting team" not in public
    assert "PRIVILEGED AND CONFIDENTIAL" in legal and "reporting team" not in legal
    assert "CONFIDENTIAL — contains unpublished reporting" in editor
    assert "share outside the reporting team" in editor


def test_legal_brief_keeps_the_sources_quotes_but_not_role_notes_or_name(
        demo, tmp_path: Path) -> None:
    ws, info = demo
    every = _brief(ws, info, tmp_path, "legal")
    assert "Source A" in every
    assert "diner on the old road" not in _flat(every)  # the source's own notes
    if info["role"]:
        assert not re.search(r"Source A\s+Role:", every)
        assert normalize(info["role"]) not in normalize(every)
    for name in info["names"]:
        assert normalize(name) not in normalize(every).replace("source a", ""), name


def test_pseudonyms_follow_item_ids_and_match_in_brief_and_calendar(demo) -> None:
    ws, info = demo
    with ws.transaction() as s:
        every = [i for i in s.query(Item).filter(Item.case_id == info["case"])]
        shown = disclosure_for(every, "public")
        first, second = sorted((info["source"], info["second"]))
        assert shown.pseudonyms == {first: "Source A", second: "Source B"}
        data = brief.build_brief_data(s, info["case"], profile="public", today=TODAY)
    people = [p.name for p in data.people]
    assert "Source A" in people and "Source B" in people


def test_editor_is_the_default_and_internal_is_include_confidential(demo) -> None:
    ws, info = demo
    with ws.transaction() as s:
        default = brief.build_brief_data(s, info["case"], today=TODAY)
        editor = brief.build_brief_data(s, info["case"], profile="editor", today=TODAY)
        internal = brief.build_brief_data(s, info["case"], profile="internal", today=TODAY)
        flagged = brief.build_brief_data(s, info["case"], include_confidential=True,
                                         today=TODAY)
        with pytest.raises(ValidationError, match="internal"):
            brief.build_brief_data(s, info["case"], profile="public",
                                   include_confidential=True)
        with pytest.raises(ValidationError, match="no export profile 'press'"):
            brief.build_brief_data(s, info["case"], profile="press")
    assert default == editor and internal == flagged
    source_title = info["names"][0]
    assert all(p.name != "Source A" for p in editor.people)
    assert len(editor.people) == len(internal.people) - 2  # both confidential people left out
    assert any(p.name in info["names"] for p in internal.people), source_title


def test_a_field_left_unsubstituted_is_refused_and_the_place_named(
    demo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws, info = demo
    out_dir = tmp_path / "out"
    out_dir.mkdir()

    def quote_unsubstituted(ev, number, shown) -> QuoteEntry:  # the quote text as stored
        return QuoteEntry(text=ev.quote or "", source_number=number, relation=ev.relation,
                          page=ev.page)

    monkeypatch.setattr(brief, "_quote", quote_unsubstituted)
    with ws.transaction() as s, pytest.raises(ProtectedStringFoundError) as caught:
        brief.export_brief(s, info["case"], out_dir / "brief.pdf", profile="public",
                           today=TODAY)
    with ws.transaction() as s:
        protected = case_disclosure(s, info["case"], "public").protected
    assert caught.value.found in protected
    assert re.fullmatch(r"text of page \d+", caught.value.place)
    assert caught.value.place in str(caught.value) and repr(caught.value.found) in str(
        caught.value)
    assert list(out_dir.iterdir()) == []


def _ics(ws, info, tmp_path: Path, profile: str | None) -> str:
    out = tmp_path / f"{profile}.ics"
    with ws.transaction() as s:
        q = items.create_item(s, info["case"], "question",
                              f"Call back about the {info['names'][-1]} statement",
                              question_kind="call back", due="2026-11-20",
                              ask_id=info["source"])
        other = items.create_item(s, info["case"], "question", "Ask for the desk log",
                                  question_kind="call back", due="2026-11-21",
                                  ask_id=info["open"])
        calendar.export_followups_ics(s, info["case"], out, profile=profile)
        items.delete_item(s, q.id)
        items.delete_item(s, other.id)
    cal = Calendar.from_ical(out.read_bytes())
    return "\n".join(f"{c['SUMMARY']}\n{c['DESCRIPTION']}" for c in cal.walk("VEVENT"))


def test_public_calendar_names_the_source_by_pseudonym_without_contacts(
    demo, tmp_path: Path
) -> None:
    ws, info = demo
    public = _ics(ws, info, tmp_path, "public")
    assert "Ask: Source A\n" in public + "\n"
    assert "Source A statement" in public
    for secret in (*info["names"], "555 010 4477", "desk@ledger.example.org"):
        assert secret.casefold() not in public.casefold(), secret
    editor = _ics(ws, info, tmp_path, "editor")
    assert "desk@ledger.example.org" in editor  # the editor's calendar keeps contact details
    assert "Ask: [withheld]" in editor and "Source A" not in editor


def test_a_calendar_that_leaks_is_refused_and_nothing_written(
    demo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws, info = demo
    out = tmp_path / "calendar.ics"
    monkeypatch.setattr(calendar, "_who", lambda item, by_id, shown: item.title if item else None)
    with ws.transaction() as s:
        items.create_item(s, info["case"], "question", "Call back", question_kind="call back",
                          due="2026-11-20", ask_id=info["source"])
    with ws.transaction() as s, pytest.raises(ProtectedStringFoundError) as caught:
        calendar.export_followups_ics(s, info["case"], out, profile="legal")
    assert caught.value.found in info["names"]
    assert re.fullmatch(r"DESCRIPTION of the entry due \d{4}-\d\d-\d\d", caught.value.place)
    assert "nothing was written" in str(caught.value)
    assert not out.exists()


def test_substitution_rules(demo) -> None:
    ws, info = demo
    with ws.transaction() as s:
        person = s.get(Person, info["source"])
        shown = disclosure_for(list(s.query(Item).filter(Item.case_id == info["case"])),
                               "legal")
        full, surname = person.title, person.title.split()[-1]
        assert not isinstance(person, Question)
    text = (f"{full.upper()} said; {surname}\u2019s car; {surname}'s boat; "
            f"{surname}ville; {' '.join(full.split())[:2]}")
    assert shown.substitute(text) == (
        f"Source A said; Source A\u2019s car; Source A's boat; {surname}ville; "
        f"{full[:2]}")
    assert shown.quote(f"{full} said") == "[Source A] said"
    broken = full.replace(" ", "\n  ", 1)  # a name broken across lines is one name
    assert shown.quote(broken) == "[Source A]"
    assert shown.substitute(None) is None
