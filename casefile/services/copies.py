"""Copies of one story: documents that share an origin though they are not the same file.

ARCHITECTURE.md, "Independent sources". Five syndicated copies of one wire story are one
source, not five. Two documents are *copies* when

1. most of the shorter one's text is in the longer one: of the shorter text's word shingles
   (runs of :data:`SHINGLE_WORDS` words of :func:`normalised_text`),
   at least :data:`MIN_CONTAINMENT` are also shingles of the other. A trimmed lead, another
   outlet's header and footer, a changed headline or a paraphrased first paragraph keep a copy
   well above it; an independent report of the same event, sharing names and a quote, stays
   far below (a quote of 20 words is 16 shingles of hundreds);
2. or both carry the same wire service's credit in their first lines ("(AP) —", "By The
   Associated Press", "(Reuters)"): a wire's stories are one origin, as an outlet's are.

Candidates for (1) in a whole case come from MinHash locality-sensitive hashing
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

from casefile.services.passages import fold_quotes

#: Words per shingle.
SHINGLE_WORDS = 5
#: Share of the shorter text's shingles the longer must hold for the two to be copies.
MIN_CONTAINMENT = 0.5
#: Texts with fewer shingles than this are too short to call copies by their words.
MIN_SHINGLES = 20
#: At most this many words of a text are read (a 300-page PDF is compared by its start).
MAX_WORDS = 20_000
#: MinHash permutations and the LSH Jaccard threshold for candidate pairs (a trimmed copy of
#: half the original's length has a Jaccard similarity of 0.5; candidates are checked exactly).
NUM_PERM = 64
LSH_THRESHOLD = 0.3
#: How many characters of the start of a text are searched for a wire credit.
WIRE_HEAD_CHARS = 600

_DASHES = str.maketrans({c: "-" for c in "\u2010\u2011\u2012\u2013\u2014\u2015\u2212"})


def normalised_text(text: str) -> str:
    """``text`` as compared for "the same text republished": Unicode NFKC, typographic quotes
    and dashes made plain, case folded, every run of whitespace one space, ends stripped."""
    folded = fold_quotes(unicodedata.normalize("NFKC", text)).translate(_DASHES).casefold()
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
    words = re.findall(r"\w+", normalised_text(text))[:MAX_WORDS]
    return frozenset(zlib.crc32(" ".join(words[i:i + SHINGLE_WORDS]).encode("utf-8"))
                     for i in range(max(0, len(words) - SHINGLE_WORDS + 1)))


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
    text"`` with the containment as a share, or ``"same wire (AP)"``)."""

    first: int
    second: int
    reason: str


def copy_pairs(texts: Mapping[int, str]) -> list[CopyPair]:
    """Every pair of ``texts`` (document id -> text) that are copies (module docstring),
    comparing each pair; for a few documents (a claim's evidence)."""
    sets = {i: shingles(t) for i, t in texts.items()}
    wires = {i: wire_of(t) for i, t in texts.items()}
    ids = sorted(texts)
    out: list[CopyPair] = []
    for n, a in enumerate(ids):
        for b in ids[n + 1:]:
            pair = _pair(a, b, sets, wires)
            if pair is not None:
                out.append(pair)
    return out


def _pair(a: int, b: int, sets: Mapping[int, frozenset[int]],
          wires: Mapping[int, str | None]) -> CopyPair | None:
    share = containment(sets[a], sets[b])
    if share >= MIN_CONTAINMENT:
        return CopyPair(min(a, b), max(a, b), f"same text ({share:.0%} shared)")
    if wires[a] is not None and wires[a] == wires[b]:
        return CopyPair(min(a, b), max(a, b), f"same wire ({wires[a]})")
    return None


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
    """:func:`copy_pairs` for a whole case: LSH candidates checked exactly, plus the pairs
    sharing a wire credit."""
    sets = {i: shingles(t) for i, t in texts.items()}
    wires = {i: wire_of(t) for i, t in texts.items()}
    pairs = candidate_pairs(sets)
    by_wire: dict[str, list[int]] = {}
    for i, w in wires.items():
        if w is not None:
            by_wire.setdefault(w, []).append(i)
    for members in by_wire.values():
        members.sort()
        pairs.update((members[0], m) for m in members[1:])
    out = [p for a, b in sorted(pairs) if (p := _pair(a, b, sets, wires)) is not None]
    return out


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
