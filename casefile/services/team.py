"""The members of a case on a team workspace: add one with a role, remove one, list them
(``casefile team add|remove|list``, Case ▸ Members… in the window).

A member is a database user (created by the DBA: ``CREATE ROLE name LOGIN ...``) with a role
in a case: ``reader`` (sees the case), ``editor`` (also changes its content) or ``owner`` (also
deletes it and manages its members). PostgreSQL enforces the roles row by row
(ARCHITECTURE.md, "Teams: per-case access"): only an owner of the case (or the workspace's
owner) can add or remove its members, and the refusal is the server's one sentence. Adding or
removing a member also gives their database user the table privileges their roles need
(``casefile_sync_grants``). A case keeps at least one owner.

A SQLite workspace is single-user: each action here is refused in one line there.
No Qt here.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, insert, select, text, update
from sqlalchemy.orm import Session

from casefile.errors import CasefileError, NotFoundError, ValidationError
from casefile.services.audit import log_change
from casefile.services.cases import get_case
from casefile.services.changes import Changes, Step, action, changes, moved_on, next_doing
from casefile.store import Case, utcnow
from casefile.store.teams import CASE_MEMBERS, ROLES, access, is_team, session_user

_M = CASE_MEMBERS


class NotATeamWorkspaceError(CasefileError):
    """A member action asked of a SQLite workspace (single-user)."""

    def __init__(self) -> None:
        super().__init__("a workspace folder (SQLite) is single-user and has no members; case "
                         "members need a team workspace on PostgreSQL (casefile --db URL)")


@dataclass(frozen=True)
class Member:
    """One member of a case: ``user`` (the database user), ``role`` (reader, editor, owner),
    ``added`` (UTC) and ``added_by`` (the database user who added them)."""

    case_id: int
    case_title: str
    user: str
    role: str
    added: datetime
    added_by: str


def require_team(session: Session) -> None:
    """Raise NotATeamWorkspaceError unless the workspace is a team one (PostgreSQL)."""
    if not is_team(session.connection()):
        raise NotATeamWorkspaceError


def me(session: Session) -> str:
    """The database user of this session ("" on SQLite)."""
    return session_user(session.connection())


def my_role(session: Session, case_id: int) -> str | None:
    """What the user of this session may do in case ``case_id``: ``"owner"`` for the
    workspace's owner (and on SQLite, single-user), else their role there or None."""
    conn = session.connection()
    if access(conn) == "admin":
        return "owner"
    role = conn.scalar(select(_M.c.role).where(_M.c.case_id == case_id,
                                               _M.c.member == session_user(conn)))
    return str(role) if role is not None else None


def list_members(session: Session, case_id: int | None = None) -> list[Member]:
    """The members of case ``case_id`` (every case this user can see when None), by case
    title, then role (owners first), then user. Raises NotATeamWorkspaceError on SQLite,
    NotFoundError for a case this user cannot see."""
    require_team(session)
    query = (select(_M.c.case_id, Case.title, _M.c.member, _M.c.role, _M.c.added,
                    _M.c.added_by)
             .join(Case, Case.id == _M.c.case_id))
    if case_id is not None:
        get_case(session, case_id)
        query = query.where(_M.c.case_id == case_id)
    rows = session.execute(query).all()
    rank = {role: -i for i, role in enumerate(ROLES)}
    return sorted((Member(int(r[0]), r[1], r[2], r[3], r[4], r[5]) for r in rows),
                  key=lambda m: (m.case_title, rank.get(m.role, 0), m.user))


def _member(session: Session, case_id: int, user: str) -> Member | None:
    return next((m for m in list_members(session, case_id) if m.user == user), None)


def _check_user(session: Session, user: str) -> str:
    name = (user or "").strip()
    if not name:
        raise ValidationError("say which database user: casefile team add USER --case TITLE "
                              "--role reader|editor|owner")
    exists = session.connection().scalar(
        text("SELECT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = :n AND rolcanlogin)"),
        {"n": name})
    if not exists:
        raise ValidationError(f"there is no database user “{name}” that can log in; the "
                              "database's administrator creates it first (CREATE ROLE "
                              f"\"{name}\" LOGIN PASSWORD '…')")
    return name


def _owners(session: Session, case_id: int) -> int:
    return sum(1 for m in list_members(session, case_id) if m.role == "owner")


def _check_owner(session: Session, case_id: int) -> None:
    """The server's own refusal (one sentence naming the case and the user's role) when the
    user of this session may not manage the members of case ``case_id``; the policies would
    refuse the change anyway, a delete silently."""
    session.connection().execute(text("SELECT public.casefile_check_owner(:c)"),
                                 {"c": case_id})


def _sync_grants(session: Session, user: str) -> None:
    session.connection().execute(text("SELECT public.casefile_sync_grants(:u)"), {"u": user})


#: ``expected`` of :func:`add_member` and :func:`remove_member` when nothing is checked.
UNCHECKED = "(unchecked)"


def _still(session: Session, case_id: int, title: str, user: str, expected: str | None,
           doing: str) -> None:
    """Refuse an undo or redo (``doing``) when ``user``'s role in the case is no longer
    ``expected`` (None: not a member): another owner changed the membership since."""
    if expected == UNCHECKED:
        return
    now = _member(session, case_id, user)
    if (now.role if now is not None else None) != expected:
        raise moved_on(f"The membership of {user} in case “{title}”", doing)


@action("team.add")
def add_member(session: Session, case_id: int, user: str, role: str, *,
               expected: str | None = UNCHECKED, doing: str = "") -> Changes:
    """Make database user ``user`` a member of case ``case_id`` with ``role`` (reader,
    editor, owner), or change the role of a member; their database user gets the table
    privileges their roles need. ``value`` is the Member; ``undo`` removes them again (or
    gives the old role back). Raises NotATeamWorkspaceError (SQLite), ValidationError (an
    unknown role or user, or the case's last owner made something else), NotFoundError (a
    case this user cannot see); the server refuses a user who is not an owner of the case
    (DBAPIError, one sentence). As an undo or redo step (``doing``) it carries the role it
    ``expected`` (None: not a member) and raises ConflictError, changing nothing, when another
    owner changed the membership since."""
    require_team(session)
    if role not in ROLES:
        raise ValidationError(f"a member's role is reader, editor or owner, not {role!r}")
    case = get_case(session, case_id)
    _check_owner(session, case_id)
    name = _check_user(session, user)
    _still(session, case_id, case.title, name, expected, doing)
    before = _member(session, case_id, name)
    if before is not None and before.role == role:
        return changes(case_id, label=f"add {name} to case “{case.title}”",
                       message=f"{name} is already {_a(role)} of case “{case.title}”.",
                       value=before)
    if before is not None and before.role == "owner" and _owners(session, case_id) == 1:
        raise ValidationError(f"{name} is the only owner of case “{case.title}”; make someone "
                              "else an owner first")
    conn = session.connection()
    if before is None:
        conn.execute(insert(_M).values(case_id=case_id, member=name, role=role,
                                       added=utcnow(), added_by=session_user(conn)))
        undo = Step("team.remove", {"case_id": case_id, "user": name, "expected": role,
                                    "doing": next_doing(doing)},
                    label=f"Undo add {name} to case “{case.title}”")
        said = f"Added {name} to case “{case.title}” as {_a(role)}."
    else:
        conn.execute(update(_M).where(_M.c.case_id == case_id, _M.c.member == name)
                     .values(role=role))
        undo = Step("team.add", {"case_id": case_id, "user": name, "role": before.role,
                                 "expected": role, "doing": next_doing(doing)},
                    label=f"Undo make {name} {_a(role)} of case “{case.title}”")
        said = f"{name} is now {_a(role)} of case “{case.title}” (was {_a(before.role)})."
    _sync_grants(session, name)
    log_change(session, "team.add", case_id=case_id, summary=name,
               data={"user": name, "role": role,
                     "from": before.role if before is not None else None})
    member = _member(session, case_id, name)
    return changes(case_id, label=f"add {name} to case “{case.title}”", message=said,
                   value=member, undo=undo)


@action("team.remove")
def remove_member(session: Session, case_id: int, user: str, *,
                  expected: str | None = UNCHECKED, doing: str = "") -> Changes:
    """Take database user ``user`` out of case ``case_id``; their table privileges shrink to
    what their other memberships need (none without any). ``value`` is the Member removed;
    ``undo`` adds them back with their role. Raises NotATeamWorkspaceError (SQLite),
    NotFoundError (not a member, or a case this user cannot see), ValidationError (the case's
    last owner); the server refuses a user who is not an owner of the case (DBAPIError).
    ``expected`` and ``doing`` as for :func:`add_member`."""
    require_team(session)
    case = get_case(session, case_id)
    _check_owner(session, case_id)
    name = (user or "").strip()
    _still(session, case_id, case.title, name, expected, doing)
    before = _member(session, case_id, name)
    if before is None:
        raise NotFoundError(f"“{name}” is not a member of case “{case.title}” (see: casefile "
                            f"team list --case \"{case.title}\")")
    if before.role == "owner" and _owners(session, case_id) == 1:
        raise ValidationError(f"{name} is the only owner of case “{case.title}”; make someone "
                              "else an owner first")
    session.connection().execute(
        delete(_M).where(_M.c.case_id == case_id, _M.c.member == name))
    _sync_grants(session, name)
    log_change(session, "team.remove", case_id=case_id, summary=name,
               data={"user": name, "role": before.role})
    undo = Step("team.add", {"case_id": case_id, "user": name, "role": before.role,
                             "expected": None, "doing": next_doing(doing)},
                label=f"Undo remove {name} from case “{case.title}”")
    return changes(case_id, label=f"remove {name} from case “{case.title}”",
                   message=f"Removed {name} ({before.role}) from case “{case.title}”.",
                   value=before, undo=undo)


def _a(role: str) -> str:
    return f"an {role}" if role[0] in "aeiou" else f"a {role}"
