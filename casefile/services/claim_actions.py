"""The claim action of the window: set a claim's status by hand for a reason, or clear that
override, returning :class:`Changes` with its undo :class:`Step` (which puts back the override
that was there, or clears it). The ChangeLog rows are those of ``services.claims``.

No Qt here.
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from casefile.services import claims, items
from casefile.services.changes import Changes, Step, action, changes, moved_on, next_doing


@action("claim.override")
def set_override(session: Session, claim_id: int, status: str | None,
                 reason: str | None = None, expected: list[str | None] | None = None,
                 doing: str = "") -> Changes:
    """Set the claim's status to ``status`` for ``reason`` (required), or with ``status``
    None clear the override so the status follows the evidence again. ``undo`` puts back the
    override the claim had (or clears it), expecting the one this call left. ``expected``:
    ``[status, reason]`` of the override the claim must have now, ``[None, None]`` for none
    (an undo or redo, named by ``doing``). Raises ConflictError when it has another (nothing
    is written), ValidationError for an unknown status, an
    empty reason or an item that is not a claim; NotFoundError when it is gone."""
    case_id = items.get_item(session, claim_id).case_id
    was = claims.assess_claim(session, claim_id)
    before = (was.status, was.reason) if was.overridden else (None, None)
    if expected is not None and list(before) != list(expected):
        raise moved_on(f"The status of “{items.get_item(session, claim_id).title}”", doing)
    if status is None:
        claims.clear_override(session, claim_id)
        label = "clear claim override"
    else:
        claims.override_status(session, claim_id, status, reason or "")
        label = f"set claim {status}"
    now = claims.assess_claim(session, claim_id)
    left = [now.status, now.reason] if now.overridden else [None, None]
    undo = Step("claim.override", {"claim_id": claim_id, "status": before[0],
                                   "reason": before[1], "expected": left,
                                   "doing": next_doing(doing)}, label=f"Undo {label}")
    how = f"set by hand: {now.reason}" if now.overridden else "follows the evidence"
    return changes(case_id, kinds={"claim"},
                   updated={claim_id}, label=label,
                   message=f"Claim status {now.status} ({how}).", undo=undo)
