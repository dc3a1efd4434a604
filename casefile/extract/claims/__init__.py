"""Claims: sentences that report what someone says is so, with who said it and via whom.

One module a job (ARCHITECTURE.md, "Packages of one module a job"); the public names are
re-exported here, so ``from casefile.extract.claims import find_claims`` keeps working:

- ``sources``: the cue words of a claim, unnamed sources ("<modifier> sources told <outlet>",
  "according to <modifier> sources"), hedges and lead-in sentences;
- ``grammar``: the words and patterns a speaker is read by (speech verbs, the nouns describing
  a person, a body or a group), quotations blanked out, each person's pronouns;
- ``reader``: what the text says about its people and organisations (their mentions, also the
  untagged ones, and whom a pronoun or a description means);
- ``speakers``: the speaker of one sentence, from its grammar and the text before it;
- ``finding``: :func:`find_claims`, every claim of a text with its speaker and outlet.

A setting such as ``GROUP_REACH`` is read from the module that defines it (``grammar``).
"""

from __future__ import annotations

from casefile.extract.claims.finding import find_claims
from casefile.extract.claims.grammar import GROUP_REACH
from casefile.extract.claims.reader import DESCRIBED_REACH, SUBJECT_REACH
from casefile.extract.claims.sources import LEAD_IN_WORDS, UNNAMED_SOURCES, is_lead_in

__all__ = ["DESCRIBED_REACH", "GROUP_REACH", "LEAD_IN_WORDS", "SUBJECT_REACH", "UNNAMED_SOURCES",
           "find_claims", "is_lead_in"]
