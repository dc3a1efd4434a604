"""Copies of one story: documents that share an origin though they are not the same file.

ARCHITECTURE.md, "Independent sources". Five syndicated copies of one wire story are one
source, not five. Two documents are *copies* when most of the shorter one's text is in the
longer one: of the shorter text's word shingles
(runs of :data:`SHINGLE_WORDS` words of :func:`normalised_text`), at least
:data:`MIN_CONTAINMENT` are also shingles of the other. A trimmed lead, another outlet's header
and footer, a changed headline or a paraphrased first paragraph keep a copy well above it; an
independent report of the same event, sharing names and a quote, stays far below (a quote of
20 words is 16 shingles of hundreds).

Boilerplate is not shared text: the lines both texts end with (a newsroom's footer: "About
us… All rights reserved") and the lines both start with (a masthead), up to
:data:`END_BLOCK_WORDS` words each, are left out of the comparison when what remains of each
text is still long enough to judge (:data:`MIN_SHINGLES`); two short stories sharing a
long footer are two stories. When what remains is too short (two copies differing only in
their headline), the whole texts are compared.

A wire service's credit in the first lines ("(AP) —", "By The Associated Press",
"(Reuters)") names the cluster ("5 copies of one AP story") but never joins documents by
itself: a wire sends hundreds of unrelated stories a day, and only shared text makes two of
them one story.

Candidates in a whole case come from MinHash locality-sensitive hashing
(``datasketch``), so a case of thousands of documents is not compared pair by pair; every
candidate pair is then checked exactly. A claim's few supporting documents are compared pair by
pair (:func:`copy_pairs`). Copies join transitively into clusters (:func:`copy_clusters`).

Pure functions over texts; no Qt. The database side is :mod:`casefile.services.duplicates`.
"""

from __future__ import annotations

import re
import unicodedata
import zlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from casefile.services.passages import fold_quotes, replace_chars

#: Words per shingle.
SHINGLE_WORDS = 5
#: Share of the shorter text's shingles the longer must hold for the two to be copies.
MIN_CONTAINMENT = 0.5
#: Texts with fewer shingles than this (16 words) are too short to call copies by their
#: words: a headline, a dateline and one sentence have that many; in a shorter text one shared
#: quote would be most of it.
MIN_SHINGLES = 12
#: Most words of the lines both texts end (or start) with that are taken as a header or a
#: footer and left out of the comparison.
END_BLOCK_WORDS = 200
#: At most this many words of a text are read (a 300-page PDF is compared by its start).
MAX_WORDS = 20_000
#: MinHash permutations and the LSH Jaccard threshold for candidate pairs (a trimmed copy of
#: half the original's length has a Jaccard similarity of 0.5; candidates are checked exactly).
NUM_PERM = 64
LSH_THRESHOLD = 0.3
#: How many characters of the start of a text are searched for a wire credit.
WIRE_HEAD_CHARS = 600

_DASHES = {c: "-" for c in "\u2010\u2011\u2012\u2013\u2014\u2015\u2212"}


def normalised_text(text: str) -> str:
    """``text`` as compared for "the same text republished": Unicode NFKC, typographic quotes
    and dashes made plain, case folded, every run of whitespace one space, ends stripped."""
    folded = replace_chars(fold_quotes(unicodedata.normalize("NFKC", text)), _DASHES).casefold()
    return " ".join(folded.split())


_WIRES = (
    ("AP", r"\(AP\)|\bBy\s+(?:The\s+)?Associated\s+Press\b|^\s*Associated\s+Press\b"),
    ("Reuters", r"\(Reuters\)|\bBy\s+Reuters\b|^\s*Reuters\b"),
    ("AFP", r"\(AFP\)|\bAgence\s+France[- ]Presse\b"),
    ("UPI", r"\(UPI\)|\bUnited\s+Press\s+International\b"),
    ("dpa", r"\(dpa\)"),
)
_WIRE_RES = tuple((name, re.compile(p, re.MULTILINE)) for name, p in _WIRES)


def wire_of(text: str) -> str | None:
    """The wire service credited in the first :data:`WIRE_HEAD_CHARS` characters of ``text``
    ("AP", "Reuters", "AFP", "UPI", "dpa"), or None."""
    head = text[:WIRE_HEAD_CHARS]
    for name, pattern in _WIRE_RES:
        if pattern.search(head):
            return name
    return None


@lru_cache(maxsize=64)
def shingles(text: str) -> frozenset[int]:
    """The text's word shingles (runs of :data:`SHINGLE_WORDS` words of its normalised
    form, at most :data:`MAX_WORDS` words), each as a 32-bit CRC. Cached by text: a case's
    claims share their documents."""
    return _shingles_of(re.findall(r"\w+", normalised_text(text))[:MAX_WORDS])


def _shingles_of(words: Sequence[str]) -> frozenset[int]:
    return frozenset(zlib.crc32(" ".join(words[i:i + SHINGLE_WORDS]).encode("utf-8"))
                     for i in range(max(0, len(words) - SHINGLE_WORDS + 1)))


@lru_cache(maxsize=64)
def _lines(text: str) -> tuple[tuple[str, ...], ...]:
    """The text's non-empty lines, each as its words (normalised), at most :data:`MAX_WORDS`
    words in all."""
    out: list[tuple[str, ...]] = []
    total = 0
    for line in text.splitlines():
        words = tuple(re.findall(r"\w+", normalised_text(line)))
        if words:
            out.append(words[:MAX_WORDS - total])
            total += len(out[-1])
            if total >= MAX_WORDS:
                break
    return tuple(out)


def _common_end(a: Sequence[tuple[str, ...]], b: Sequence[tuple[str, ...]]) -> int:
    """How many lines ``a`` and ``b`` both start with, at most :data:`END_BLOCK_WORDS` words
    of them (whole lines)."""
    n = words = 0
    while n < min(len(a), len(b)) and a[n] == b[n] and words + len(a[n]) <= END_BLOCK_WORDS:
        words += len(a[n])
        n += 1
    return n


def body_shingles(a: str, b: str) -> tuple[frozenset[int], frozenset[int]] | None:
    """The shingles of ``a`` and ``b`` without the lines both start with and both end with
    (a header or footer of at most :data:`END_BLOCK_WORDS` words each), or None when there
    are no such lines or too little of either text is left to compare
    (:data:`MIN_SHINGLES`)."""
    la, lb = _lines(a), _lines(b)
    head = _common_end(la, lb)
    tail = _common_end(la[head:][::-1], lb[head:][::-1])
    if not head and not tail:
        return None
    rest_a = [w for line in la[head:len(la) - tail] for w in line]
    rest_b = [w for line in lb[head:len(lb) - tail] for w in line]
    sa, sb = _shingles_of(rest_a), _shingles_of(rest_b)
    if min(len(sa), len(sb)) < MIN_SHINGLES:
        return None
    return sa, sb


def containment(a: frozenset[int], b: frozenset[int]) -> float:
    """The share of the smaller set's shingles the other holds (0.0 for a text too short:
    fewer than :data:`MIN_SHINGLES`)."""
    small, large = (a, b) if len(a) <= len(b) else (b, a)
    if len(small) < MIN_SHINGLES:
        return 0.0
    return len(small & large) / len(small)


@dataclass(frozen=True)
class CopyPair:
    """Two documents found to be copies: their ids (``first`` < ``second``) and why (``"same
    text"`` with the containment as a share: ``"same text (92% shared)"``)."""

    first: int
    second: int
    reason: str


def copy_pairs(texts: Mapping[int, str]) -> list[CopyPair]:
    """Every pair of ``texts`` (document id -> text) that are copies (module docstring),
    comparing each pair; for a few documents (a claim's evidence)."""
    sets = {i: shingles(t) for i, t in texts.items()}
    ids = sorted(texts)
    out: list[CopyPair] = []
    for n, a in enumerate(ids):
        for b in ids[n + 1:]:
            pair = _pair(a, b, texts, sets)
            if pair is not None:
                out.append(pair)
    return out


def _pair(a: int, b: int, texts: Mapping[int, str],
          sets: Mapping[int, frozenset[int]]) -> CopyPair | None:
    share = containment(sets[a], sets[b])
    if share < MIN_CONTAINMENT:
        return None
    body = body_shingles(texts[a], texts[b])
    if body is not None:  # a shared header or footer is no shared story
        share = containment(*body)
        if share < MIN_CONTAINMENT:
            return None
    return CopyPair(min(a, b), max(a, b), f"same text ({share:.0%} shared)")


def candidate_pairs(sets: Mapping[int, frozenset[int]]) -> set[tuple[int, int]]:
    """Pairs of document ids whose shingle sets MinHash LSH puts in one bucket (Jaccard
    likely above :data:`LSH_THRESHOLD`); to be checked exactly."""
    from datasketch import MinHash, MinHashLSH

    lsh = MinHashLSH(threshold=LSH_THRESHOLD, num_perm=NUM_PERM)
    sketches = {}
    for doc_id, values in sets.items():
        if len(values) < MIN_SHINGLES:
            continue
        sketch = MinHash(num_perm=NUM_PERM)
        sketch.update_batch([v.to_bytes(4, "little") for v in values])
        sketches[doc_id] = sketch
        lsh.insert(str(doc_id), sketch)
    pairs: set[tuple[int, int]] = set()
    for doc_id, sketch in sketches.items():
        for other in lsh.query(sketch):
            o = int(other)
            if o != doc_id:
                pairs.add((min(doc_id, o), max(doc_id, o)))
    return pairs


def case_copy_pairs(texts: Mapping[int, str]) -> list[CopyPair]:
    """:func:`copy_pairs` for a whole case: LSH candidates checked exactly."""
    sets = {i: shingles(t) for i, t in texts.items()}
    pairs = candidate_pairs(sets)
    return [p for a, b in sorted(pairs) if (p := _pair(a, b, texts, sets)) is not None]


def copy_clusters(ids: Iterable[int], pairs: Sequence[CopyPair]) -> list[list[int]]:
    """The clusters of two or more documents that ``pairs`` join (transitively), each sorted,
    largest first (then by first id)."""
    parent = {i: i for i in ids}

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for p in pairs:
        ra, rb = find(p.first), find(p.second)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    groups: dict[int, list[int]] = {}
    for i in parent:
        groups.setdefault(find(i), []).append(i)
    clusters = [sorted(g) for g in groups.values() if len(g) > 1]
    return sorted(clusters, key=lambda g: (-len(g), g[0]))
