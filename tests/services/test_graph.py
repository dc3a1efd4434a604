"""The relationship graph: what connects the items of a case, with its evidence;
a layout that does not pile up and stays put between opens."""

from __future__ import annotations

import itertools
import math
from datetime import date

import pytest
from sqlalchemy import select

from casefile.errors import ValidationError
from casefile.services import archive, graph, items
from casefile.services.demo import build_demo
from casefile.services.graph import positions as graph_positions
from casefile.store import EvidenceLink, Item, Passage, Person


def _titles(g: graph.CaseGraph) -> dict[int, str]:
    return {n.id: n.title for n in g.nodes}


def test_demo_graph_has_nodes_by_kind_and_edges_with_evidence(workspace, demo) -> None:
    with workspace.transaction() as s:
        g = graph.case_graph(s, demo)
        kinds = {n.kind for n in g.nodes}
        assert kinds == {"person", "organization", "place", "document"}
        titles = _titles(g)
        # every person's affiliation is an edge (as the typed "employed by" it is mirrored as)
        for person in s.scalars(select(Person).where(Person.case_id == demo)):
            if person.affiliation_id is not None:
                assert any({e.source, e.target} == {person.id, person.affiliation_id}
                           for e in g.edges), person.title
        together = [e for e in g.edges if e.relation == graph.QUOTED_TOGETHER]
        assert together
        for edge in together:  # its passages are the evidence of both ends, near each other
            linked = {(i, p) for i, p in s.execute(
                select(EvidenceLink.item_id, EvidenceLink.passage_id)
                .where(EvidenceLink.passage_id.in_(edge.passages)))}
            assert {i for i, _p in linked} >= {edge.source, edge.target}, (
                titles[edge.source], titles[edge.target])
        quoted_in = [e for e in g.edges if e.relation == graph.QUOTED_IN]
        doc = next(n.id for n in g.nodes if n.kind == "document")
        assert quoted_in and all(e.target == doc for e in quoted_in)
        # an edge's evidence is the passages the panel shows
        edge = max(together, key=lambda e: e.weight)
        views = graph.edge_evidence(s, edge)
        assert {v.passage_id for v in views} == set(edge.passages)
        assert all(v.quote for v in views)


def test_filters_by_kind_relation_and_date(workspace, demo) -> None:
    with workspace.transaction() as s:
        people = graph.case_graph(s, demo, graph.GraphFilter(kinds=frozenset({"person"})))
        assert {n.kind for n in people.nodes} == {"person"}
        assert all(e.relation != graph.QUOTED_IN for e in people.edges)
        typed = graph.case_graph(s, demo, graph.GraphFilter(
            relations=frozenset({"employed by"})))
        assert typed.edges and {e.relation for e in typed.edges} == {"employed by"}
        published = next(n.published for n in typed.nodes if n.kind == "document")
        assert published is not None
        before = graph.case_graph(s, demo, graph.GraphFilter(
            until=date(published.year - 1, 1, 1)))
        # nothing was published then: only undated connections (typed, affiliations) remain
        assert all(n.kind != "document" for n in before.nodes)
        assert all(not e.passages or e.relation in graph.EDGE_RELATIONS[:4]
                   for e in before.edges)
        assert {e.relation for e in before.edges} <= {"employed by", graph.AFFILIATION}
        with pytest.raises(ValidationError):
            graph.case_graph(s, demo, graph.GraphFilter(kinds=frozenset({"claim"})))


def test_layout_is_seeded_spread_out_and_kept_between_opens(workspace, demo) -> None:
    with workspace.transaction() as s:
        g, first, pinned = graph.graph_with_layout(s, demo)
        assert not pinned and set(first) == {n.id for n in g.nodes}
        again = graph.layout_graph(g)
        assert again == graph.layout_graph(g)  # seeded
        points = list(first.values())
        nearest = min(math.dist(a, b) for a, b in itertools.combinations(points, 2))
        assert nearest > graph.EDGE_LENGTH * 0.5  # no pile-up: labels have room
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        assert max(xs) - min(xs) > graph.EDGE_LENGTH * 2
        assert max(ys) - min(ys) > graph.EDGE_LENGTH * 2
        # a node dragged and pinned stays there; the rest do not move on the next open
        moved = g.nodes[0].id
        graph.save_layout(s, demo, {moved: (-900.0, 40.0)}, pinned={moved})
    with workspace.transaction() as s:
        _g, second, pinned = graph.graph_with_layout(s, demo)
        assert second[moved] == (-900.0, 40.0) and pinned == {moved}
        assert all(second[i] == pytest.approx(first[i], abs=0.1) for i in first if i != moved)
        # a new person is placed, the others stay
        new = items.create_item(s, demo, "person", "Nadia Example").id
        _g, third, _p = graph.graph_with_layout(s, demo)
        assert new in third
        assert all(third[i] == second[i] for i in second)
        # re-layout moves the unpinned, keeps the pinned
        _g, fourth, _p = graph.graph_with_layout(s, demo, relayout=True)
        assert fourth[moved] == (-900.0, 40.0)


def test_another_process_committing_during_the_layout_does_not_fail_the_drawing(
        sqlite_workspace, monkeypatch) -> None:
    # The window lays the graph out in one transaction while other processes keep writing:
    # SQLite then refuses this snapshot's write (SQLITE_BUSY_SNAPSHOT, "database is locked").
    # The graph is drawn all the same; the positions are kept by the next drawing.
    from casefile.store.workspace import open_workspace

    ws = sqlite_workspace
    with ws.transaction() as s:
        case_id = build_demo(s)[0]
    other = open_workspace(db_url=ws.url)  # another process's connection
    layout = graph.layout_graph

    def layout_while_another_commits(*args, **kwargs):
        with other.transaction() as o:
            items.create_item(o, case_id, "place", "Port Alder")
        return layout(*args, **kwargs)

    monkeypatch.setattr(graph_positions, "layout_graph", layout_while_another_commits)
    try:
        # deferred, as the window's background job runs it (a write transaction would hold
        # the write lock from its start, and the other process would wait its turn instead)
        with ws.transaction(write=False) as s:
            g, positions, _p = graph.graph_with_layout(s, case_id)
            assert set(positions) == {n.id for n in g.nodes} and len(positions) > 5
            assert graph.saved_layout(s, case_id).positions == {}  # not kept this time
        monkeypatch.setattr(graph_positions, "layout_graph", layout)
        with ws.transaction() as s:
            g, again, _p = graph.graph_with_layout(s, case_id)
            assert len(again) == len(positions) + 1  # Port Alder too
            assert graph.saved_layout(s, case_id).positions == again
    finally:
        other.close()


def test_save_layout_refuses_nonsense_and_forgets_deleted_items(workspace, demo) -> None:
    with workspace.transaction() as s:
        person = s.scalar(select(Item.id).where(Item.case_id == demo, Item.kind == "person"))
        assert person is not None
        with pytest.raises(ValidationError):
            graph.save_layout(s, demo, {person: (math.nan, 0.0)})
        kept = graph.save_layout(s, demo, {person: (1.0, 2.0), 999999: (3.0, 4.0)},
                                 pinned={person, 999999})
        assert kept.positions == {person: (1.0, 2.0)} and kept.pinned == {person}


def test_archive_copy_keeps_the_graph_positions_of_its_items(workspace, demo, tmp_path) -> None:
    with workspace.transaction() as s:
        _g, positions, _p = graph.graph_with_layout(s, demo)
        person = s.scalar(select(Item.id).where(Item.case_id == demo, Item.kind == "person"))
        graph.save_layout(s, demo, {person: (11.0, 22.0)}, pinned={person})
        title = s.get(Item, person).title  # type: ignore[union-attr]
        archive.export_archive(s, demo, tmp_path / "case.cfarchive")
    with workspace.transaction() as s:
        copy = archive.import_archive(s, tmp_path / "case.cfarchive")
        kept = graph.saved_layout(s, copy.case_id)
        new_person = s.scalar(select(Item.id).where(Item.case_id == copy.case_id,
                                                    Item.title == title))
        assert kept.positions[new_person] == (11.0, 22.0) and kept.pinned == {new_person}
        assert len(kept.positions) == len(positions)


def test_passages_outside_the_range_drop_their_edges(workspace, demo) -> None:
    with workspace.transaction() as s:
        doc = s.scalar(select(Passage.document_id).where(Passage.case_id == demo))
        published = s.get(Item, doc).published  # type: ignore[union-attr]
        inside = graph.case_graph(s, demo, graph.GraphFilter(since=published, until=published))
        assert any(e.relation == graph.QUOTED_TOGETHER for e in inside.edges)


def test_brief_graph_follows_the_export_profile(workspace, demo) -> None:
    from casefile.services.brief import build_brief_data

    with workspace.transaction() as s:
        person = s.scalars(select(Person).where(Person.case_id == demo)).first()
        assert person is not None
        person.confidential = True
        name = person.title
        s.flush()
        editor = build_brief_data(s, demo, profile="editor")
        legal = build_brief_data(s, demo, profile="legal")
        internal = build_brief_data(s, demo, profile="internal")
    assert editor.graph is not None and legal.graph is not None and internal.graph is not None
    assert person.id not in {n.id for n in editor.graph.nodes}
    assert all(person.id not in (a, b) for a, b, _r, _w in editor.graph.edges)
    assert name not in {n.label for n in editor.graph.nodes}
    # legal names sources "Source A" but leaves them out of the figure: their edges place them
    assert person.id not in {n.id for n in legal.graph.nodes}
    assert not any(n.label.startswith("Source ") for n in legal.graph.nodes)
    assert {n.id: n.label for n in internal.graph.nodes}[person.id] == name
    assert {n.id for n in editor.graph.nodes} < {n.id for n in internal.graph.nodes}
    assert sum(c for _s, c in editor.followup_statuses) > 0
