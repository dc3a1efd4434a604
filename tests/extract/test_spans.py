"""The overlap checks of extraction (``SpanSet``) and long texts through the model in chunks."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from casefile.extract.model import load_pipeline, model_entities, text_chunks
from casefile.extract.spans import SpanSet
from tests.conftest import ARTICLE, SAMPLES
from tests.extract.conftest import needs_model


def test_touching_spans_do_not_overlap() -> None:
    spans = SpanSet([(10, 20)])
    assert not spans.overlaps(0, 10)
    assert not spans.overlaps(20, 30)
    assert spans.overlaps(19, 30)
    assert spans.overlaps(0, 11)


def test_a_span_inside_or_around_a_taken_one_overlaps() -> None:
    spans = SpanSet([(10, 20)])
    assert spans.overlaps(12, 15)  # contained
    assert spans.overlaps(10, 20)  # the same
    assert spans.overlaps(5, 25)  # containing


def test_a_span_across_several_taken_ones_and_the_gaps_between() -> None:
    spans = SpanSet([(0, 5), (10, 15), (20, 25)])
    assert spans.overlaps(3, 22)  # spanning several
    assert not spans.overlaps(5, 10)  # exactly a gap
    assert not spans.overlaps(15, 20)
    assert not spans.overlaps(25, 99)
    assert spans.overlaps(14, 21)


def test_added_spans_are_merged_when_they_overlap_or_touch() -> None:
    spans = SpanSet()
    for s, e in [(20, 25), (0, 5), (10, 15), (5, 10), (14, 21), (40, 41)]:
        spans.add(s, e)
    assert list(spans) == [(0, 25), (40, 41)]
    assert len(spans) == 2
    assert not spans.overlaps(25, 40)
    assert spans.overlaps(39, 41)


def test_empty_spans_take_nothing_and_overlap_nothing() -> None:
    spans = SpanSet([(5, 5), (9, 3)])
    assert len(spans) == 0
    assert not spans.overlaps(0, 100)
    spans.add(0, 10)
    assert not spans.overlaps(5, 5)


def test_answers_as_a_scan_of_every_span_would() -> None:
    rng = random.Random(4)
    for _ in range(300):
        added: list[tuple[int, int]] = []
        spans = SpanSet()
        for _ in range(rng.randrange(0, 30)):
            s = rng.randrange(0, 200)
            e = s + rng.randrange(1, 15)
            q = rng.randrange(0, 200)
            q_end = q + rng.randrange(1, 20)
            assert spans.overlaps(q, q_end) == any(q < e2 and s2 < q_end for s2, e2 in added)
            spans.add(s, e)
            added.append((s, e))


def test_long_texts_are_cut_only_at_blank_lines_or_line_breaks() -> None:
    text = ARTICLE.read_text(encoding="utf-8")
    chunks = text_chunks(text, 500)
    assert len(chunks) > 5
    assert "".join(text[s:e] for s, e in chunks) == text
    assert all(text[e - 1] == "\n" for _s, e in chunks[:-1])
    assert all(e - s <= 500 for s, e in chunks if "\n" in text[s:s + 500])
    assert text_chunks(text, len(text)) == [(0, len(text))]
    with pytest.raises(ValueError):
        text_chunks(text, 0)


@needs_model
@pytest.mark.nlp
@pytest.mark.parametrize("path", [ARTICLE, *sorted((SAMPLES / "articles").glob("*.txt"))[:4]],
                         ids=lambda p: p.stem)
def test_chunked_model_entities_are_those_of_one_pass(path: Path) -> None:
    nlp = load_pipeline()
    text = path.read_text(encoding="utf-8")
    whole = model_entities(nlp, text)
    assert len(text_chunks(text, 400)) > 5  # several paragraphs, each a chunk or more
    chunked = model_entities(nlp, text, chunk_chars=400)
    assert chunked == whole
    assert [text[e.start:e.end] for e in chunked] == [
        str(ent) for ent in nlp(text).ents]
