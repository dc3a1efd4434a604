"""The reporter's decisions on suggestions: list them, accept, accept under another name, merge
into an existing item, reject.

A *suggestion* is one suggested name of one kind in a case, with all its pending mentions (the
Mentions of status "suggested" sharing ``kind`` and ``name``, in any document of the case): the
reporter decides once for "Maria Lopez", not once per occurrence. Every decision is one user
action in the caller's transaction and writes one ChangeLog row (``suggestion.accept``,
``suggestion.merge``, ``suggestion.reject``) besides the rows of the items it creates.

What a decision does with the mentions (ARCHITECTURE.md, "Data model"):

- person / organization / place: each mention becomes a Passage (an existing passage with the
  same span is reused) linked to the item as "mentions" evidence; the Mention gets the item's id
  and status "confirmed".
- event: an Event with the suggested date and precision; its sentence is "supports" evidence.
- question (a follow-up): a Question with its kind (the extractor's "open question" is the
  store's "question") and due date; its sentence is "context" evidence.
- claim: a Claim with its statement, attributed to the case's Person or Organization of the
  suggested speaker's name (else the name is kept as ``attributed_to_text``) and via the
  case's Organization of the suggested outlet's name; its sentence is "supports" evidence.
- reject: status "rejected"; ``suggest_for_document`` passes the rejected names of every case of
  the workspace to the extractor, so the name is not suggested again in any case (except one
  that holds an item of that name) until the reject is undone.
- merge: for a person, organization or place the suggested name becomes an alias of the
  target, so the next document's mention of it is linked to the target at once; the undo
  takes the alias back.

Each decision has two faces: ``accept_suggestion`` / ``merge_suggestion`` /
``reject_suggestion`` return the :class:`Decision` (what scripts and tests read), and the user
actions :func:`accept`, :func:`accept_as`, :func:`merge` and :func:`reject` return
:class:`~casefile.services.changes.Changes` (value: the Decision; message: one sentence naming
everything made) with an ``undo`` Step. The undo (``suggestion.undo``) removes every item,
passage and evidence link the decision made, takes back the alias or role it added and puts
the mentions back to "suggested"; its own ``undo`` is the redo step (``suggestion.redo``),
which brings the same rows back under the same ids.

The jobs live in sibling modules, re-exported here so ``from casefile.services import
decisions`` and ``decisions.accept(...)`` keep working: :mod:`~casefile.services.suggestion_list`
(the kinds, :class:`SuggestionEntry`, :func:`list_suggestions`: the list grouped by the
database), :mod:`~casefile.services.decision_making` (:class:`Decision`, the decisions, tying
mentions to items) and :mod:`~casefile.services.decision_steps` (the undoable user actions and
their undo and redo). A function replaced in a test is replaced in the module that calls it.

No Qt here; the window calls these through its operation runner.
"""

from __future__ import annotations

from casefile.errors import ConflictError, NotFoundError, ValidationError
from casefile.services.decision_making import (
    BYLINE_ROLE,
    UNNAMED,
    Decision,
    _pending_variants,
    _same_thing,
    accept_suggestion,
    find_named_item,
    find_suggestion,
    link_mention,
    merge_suggestion,
    name_key,
    reject_suggestion,
    tie_mention,
)
from casefile.services.decision_steps import (
    accept,
    accept_as,
    merge,
    redo_decision,
    reject,
    undo_decision,
)
from casefile.services.suggestion_list import (
    FOLLOWUP_KIND_MAP,
    KIND_WORDS,
    RELATION_FOR_KIND,
    SNIPPET_SENTENCE_LIMIT,
    SNIPPET_WIDTH,
    SUGGESTION_KINDS,
    TITLE_LIMIT,
    SuggestionEntry,
    SuggestionList,
    context_snippet,
    last_suggestion_mode,
    list_suggestions,
    pending_at_least,
    question_kind_of,
    read_again_later,
    suggestion_keys,
    variant_of,
)

__all__ = [
    "BYLINE_ROLE", "ConflictError", "NotFoundError", "ValidationError", "FOLLOWUP_KIND_MAP",
    "KIND_WORDS", "RELATION_FOR_KIND",
    "SNIPPET_SENTENCE_LIMIT", "SNIPPET_WIDTH", "SUGGESTION_KINDS", "TITLE_LIMIT", "UNNAMED",
    "Decision", "SuggestionEntry", "SuggestionList", "_pending_variants", "_same_thing",
    "accept", "accept_as", "accept_suggestion", "context_snippet", "find_named_item",
    "find_suggestion", "last_suggestion_mode", "link_mention", "list_suggestions", "merge",
    "merge_suggestion", "name_key", "pending_at_least", "question_kind_of", "read_again_later",
    "redo_decision",
    "reject",
    "reject_suggestion", "suggestion_keys", "tie_mention", "undo_decision", "variant_of",
]
