"""Per-case access for teams (PostgreSQL only): case members and row-level security.

``case_members`` holds who may do what in which case: ``(case_id, member, role)``, ``member`` a
database role name, ``role`` reader, editor or owner. Row-level security policies on every
table that holds a case's content let a database user see the rows of the cases they are a
member of, and change them only as an editor or owner; members are managed by owners. The
tables' owner (the workspace's creator) and superusers are not subject to the policies (a
table's owner bypasses row-level security unless it is forced), so they keep full access.

Tables with a ``case_id`` are checked on it; the kinds of an item (people, documents...) and
the rows hanging from one (a follow-up's status history, the Trash's rows, a document's bytes)
reach their case through their parent with an ``EXISTS`` subquery, which the parent's own
policies filter in turn.

The membership lookups are ``SECURITY DEFINER`` functions (a policy on a table cannot read a
table whose own policies read it back without recursing): ``casefile_cases(min_role)`` gives the
ids of the cases the session's user holds at least ``min_role`` in, ``casefile_check_write`` /
``casefile_check_owner`` answer true or raise one sentence (SQLSTATE 42501) naming the case and
the user's role, so a refused write says why instead of "new row violates row-level security
policy". Policies name ``session_user``, the user who logged in, as does the change log's actor
(a trigger sets it, whatever the client sends).

A new case makes the user who creates it its owner (trigger). Deleting a case needs its owner.
A user without any membership is told so when the workspace opens (``casefile_access()``).
Table privileges are granted per member by ``casefile_sync_grants(member)`` (SELECT for a
reader, SELECT/INSERT/UPDATE/DELETE when an editor or owner of some case), run by
``casefile team add`` / ``remove``; the database users themselves are created by the DBA.

SQLite: nothing (a workspace folder is single-user).

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-02 16:30:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: Tables checked on their own ``case_id`` column.
DIRECT = ("items", "passages", "evidence_links", "mentions", "relationships", "search_pg",
          "trash_entries")
#: Item kind tables (primary key = items.id).
KINDS = ("people", "organizations", "places", "events", "documents", "questions", "claims")

_FUNCTIONS = r"""
CREATE TABLE case_members (
    case_id integer NOT NULL,
    member varchar(63) NOT NULL,
    role varchar(10) NOT NULL CONSTRAINT ck_case_members_role
        CHECK (role IN ('reader', 'editor', 'owner')),
    added timestamp without time zone NOT NULL DEFAULT (now() AT TIME ZONE 'utc'),
    added_by varchar(63) NOT NULL DEFAULT session_user,
    CONSTRAINT pk_case_members PRIMARY KEY (case_id, member)
);
CREATE INDEX ix_case_members_member ON case_members (member);

CREATE FUNCTION casefile_is_admin() RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public AS $$
    SELECT coalesce((SELECT rolsuper OR rolbypassrls FROM pg_roles
                     WHERE rolname = session_user), false)
        OR pg_has_role(session_user, (SELECT relowner FROM pg_class
                                      WHERE oid = 'public.cases'::regclass), 'MEMBER')
$$;

-- VOLATILE: it must see the membership the trigger of a new case has just written (a STABLE
-- function reads with the snapshot of the statement that began before).
CREATE FUNCTION casefile_cases(min_role text) RETURNS SETOF integer
LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, public AS $$
    SELECT case_id FROM public.case_members
    WHERE member = session_user
      AND CASE min_role WHEN 'reader' THEN true
                        WHEN 'editor' THEN role IN ('editor', 'owner')
                        ELSE role = 'owner' END
$$;

CREATE FUNCTION casefile_case_role(a_case integer) RETURNS text
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public AS $$
    SELECT role FROM public.case_members WHERE case_id = a_case AND member = session_user
$$;

CREATE FUNCTION casefile_check_role(a_case integer, needed text, doing text) RETURNS boolean
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, public AS $$
DECLARE
    held text;
    title text;
BEGIN
    IF a_case IS NULL OR public.casefile_is_admin() THEN
        RETURN true;
    END IF;
    SELECT role INTO held FROM public.case_members
    WHERE case_id = a_case AND member = session_user;
    IF held = 'owner' OR (held = 'editor' AND needed = 'editor')
            OR (held IS NOT NULL AND needed = 'reader') THEN
        RETURN true;
    END IF;
    IF held IS NULL THEN
        RAISE EXCEPTION 'database user "%" is not a member of case %, so it cannot %',
            session_user, a_case, doing USING ERRCODE = '42501';
    END IF;
    SELECT c.title INTO title FROM public.cases c WHERE c.id = a_case;
    RAISE EXCEPTION 'database user "%" is % of case “%”, so it cannot % (an owner of the '
                    'case can make it % with: casefile team add % --case "%" --role %)',
        session_user, CASE held WHEN 'editor' THEN 'an editor' ELSE 'a reader' END,
        coalesce(title, a_case::text), doing, CASE needed WHEN 'owner' THEN 'an owner'
        ELSE 'an editor' END, session_user, coalesce(title, a_case::text), needed
        USING ERRCODE = '42501';
END $$;

CREATE FUNCTION casefile_check_write(a_case integer) RETURNS boolean
LANGUAGE sql STABLE AS $$
    SELECT public.casefile_check_role(a_case, 'editor', 'change it')
$$;

CREATE FUNCTION casefile_check_owner(a_case integer) RETURNS boolean
LANGUAGE sql STABLE AS $$
    SELECT public.casefile_check_role(a_case, 'owner', 'delete it or manage its members')
$$;

-- 'admin' (not subject to the policies), 'member' (of at least one case that exists or is in
-- the Trash) or 'none'.
CREATE FUNCTION casefile_access() RETURNS text
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public AS $$
    SELECT CASE
        WHEN public.casefile_is_admin() THEN 'admin'
        WHEN EXISTS (SELECT 1 FROM public.case_members m WHERE m.member = session_user
                     AND (EXISTS (SELECT 1 FROM public.cases c WHERE c.id = m.case_id)
                          OR EXISTS (SELECT 1 FROM public.trash_entries t
                                     WHERE t.case_id = m.case_id))) THEN 'member'
        ELSE 'none' END
$$;

-- Table privileges of ``a_member`` made to match their memberships: none without any,
-- SELECT as a reader only, SELECT/INSERT/UPDATE/DELETE (and the sequences) as an editor or
-- owner of some case; the policies then decide row by row.
CREATE FUNCTION casefile_sync_grants(a_member text) RETURNS text
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, public AS $$
DECLARE
    best text;
    t record;
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = a_member) THEN
        RETURN NULL;
    END IF;
    SELECT CASE WHEN bool_or(role IN ('editor', 'owner')) THEN 'editor' ELSE 'reader' END
    INTO best FROM public.case_members WHERE member = a_member;
    FOR t IN SELECT c.relname, c.relkind FROM pg_class c JOIN pg_namespace n
             ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind IN ('r', 'S')
    LOOP
        EXECUTE format('REVOKE ALL ON %s %I FROM %I',
                       CASE t.relkind WHEN 'S' THEN 'SEQUENCE' ELSE 'TABLE' END,
                       t.relname, a_member);
        IF best IS NULL THEN
            CONTINUE;
        ELSIF t.relkind = 'S' THEN
            IF best = 'editor' THEN
                EXECUTE format('GRANT USAGE, SELECT ON SEQUENCE %I TO %I', t.relname,
                               a_member);
            END IF;
        ELSIF best = 'editor' AND t.relname <> 'alembic_version' THEN
            EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON TABLE %I TO %I',
                           t.relname, a_member);
        ELSE
            EXECUTE format('GRANT SELECT ON TABLE %I TO %I', t.relname, a_member);
        END IF;
    END LOOP;
    RETURN coalesce(best, 'none');
END $$;

-- The change log names the user who logged in, whatever the client sends.
CREATE FUNCTION casefile_log_actor() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    NEW.actor := session_user;
    RETURN NEW;
END $$;
CREATE TRIGGER change_log_actor BEFORE INSERT OR UPDATE ON change_log
    FOR EACH ROW EXECUTE FUNCTION casefile_log_actor();

-- A new case (id not known to any membership) gets the user who creates it as its owner; a
-- case put back from the Trash keeps its members.
CREATE FUNCTION casefile_case_created() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
BEGIN
    IF public.casefile_is_admin() THEN
        RETURN NEW;
    END IF;
    IF NOT EXISTS (SELECT 1 FROM public.case_members WHERE case_id = NEW.id) THEN
        INSERT INTO public.case_members (case_id, member, role, added_by)
        VALUES (NEW.id, session_user, 'owner', session_user);
    ELSE
        PERFORM public.casefile_check_write(NEW.id);
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER cases_creator_owns BEFORE INSERT ON cases
    FOR EACH ROW EXECUTE FUNCTION casefile_case_created();

CREATE FUNCTION casefile_case_deleting() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM public.casefile_check_owner(OLD.id);
    RETURN OLD;
END $$;
CREATE TRIGGER cases_owner_deletes BEFORE DELETE ON cases
    FOR EACH ROW EXECUTE FUNCTION casefile_case_deleting();
"""

_READ = "case_id IN (SELECT public.casefile_cases('reader'))"
_EDIT = "case_id IN (SELECT public.casefile_cases('editor'))"


def _policies(table: str, read: str, write_check: str, delete: str,
              insert_check: str | None = None) -> list[str]:
    """Row-level security on ``table``: SELECT where ``read``; INSERT (when ``insert_check``,
    by default ``write_check``) and UPDATE (of a row that can be read) when ``write_check``
    (which raises a sentence when refused); DELETE where ``delete``."""
    return [
        f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY",
        f"CREATE POLICY casefile_read ON {table} FOR SELECT USING ({read})",
        f"CREATE POLICY casefile_insert ON {table} FOR INSERT "
        f"WITH CHECK ({insert_check or write_check})",
        f"CREATE POLICY casefile_update ON {table} FOR UPDATE USING ({read}) "
        f"WITH CHECK ({write_check})",
        f"CREATE POLICY casefile_delete ON {table} FOR DELETE USING ({delete})",
    ]


def _via(parent: str, key: str, own: str, check: str) -> str:
    """A row of a child table reaching its case through ``parent``: ``EXISTS`` a parent row
    (filtered by the parent's own policies) whose id is the child's ``own`` column and that
    passes ``check`` (an expression over the parent's ``case_id``, or TRUE)."""
    return f"EXISTS (SELECT 1 FROM {parent} p WHERE p.{key} = {own} AND {check})"


def _child_policies(table: str, own: str, parent: str) -> list[str]:
    """Row-level security on ``table``, whose rows reach their case through ``parent`` (its
    ``id`` held in ``own``): a row is read where its parent row can be, written where the
    parent's case can be, deleted by an editor of that case."""
    return _policies(table, _via(parent, "id", own, "TRUE"),
                     _via(parent, "id", own, "public.casefile_check_write(p.case_id)"),
                     _via(parent, "id", own,
                          "p.case_id IN (SELECT public.casefile_cases('editor'))"))


def statements() -> list[str]:
    """Every statement of the upgrade after the functions, in order."""
    out: list[str] = []
    for table in DIRECT:
        out += _policies(table, _READ, "public.casefile_check_write(case_id)", _EDIT)
    for table in KINDS:
        out += _child_policies(table, f"{table}.id", "items")
    out += _child_policies("question_status_changes", "question_status_changes.question_id",
                           "items")
    out += _child_policies("trash_rows", "trash_rows.entry_id", "trash_entries")
    # the change log: a workspace-wide row (no case: a case deleted, the Trash emptied, an
    # archive imported) is seen by the user who made it; a reader's exports are logged too
    # (the actor is always the user who logged in: trigger above)
    out += _policies("change_log",
                     f"{_READ} OR (case_id IS NULL AND actor = session_user)",
                     "case_id IS NULL OR public.casefile_check_write(case_id)", _EDIT,
                     insert_check="case_id IS NULL OR public.casefile_check_role(case_id, "
                                  "'reader', 'export it')")
    # a case: any member may start one (the trigger makes them its owner); deleting one needs
    # its owner (trigger, so the refusal says so)
    readable = "id IN (SELECT public.casefile_cases('reader'))"
    out += _policies("cases", readable, "public.casefile_check_write(id)", readable,
                     insert_check="TRUE")
    # original bytes: seen through a document that can be seen; stored by any member (one
    # file may be imported into several cases: ``INSERT ... ON CONFLICT DO NOTHING``)
    out += [
        "ALTER TABLE blobs ENABLE ROW LEVEL SECURITY",
        "CREATE POLICY casefile_read ON blobs FOR SELECT USING "
        "(EXISTS (SELECT 1 FROM documents d WHERE d.sha256 = blobs.sha256))",
        "CREATE POLICY casefile_insert ON blobs FOR INSERT WITH CHECK (TRUE)",
    ]
    # the members: seen by the case's members, managed by its owners
    out += _policies("case_members", _READ, "public.casefile_check_owner(case_id)",
                     "case_id IN (SELECT public.casefile_cases('owner'))")
    return out


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(_FUNCTIONS)
    for statement in statements():
        op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    for table in (*DIRECT, *KINDS, "question_status_changes", "trash_rows", "change_log",
                  "cases", "blobs"):
        for name in ("casefile_read", "casefile_insert", "casefile_update", "casefile_delete"):
            op.execute(f"DROP POLICY IF EXISTS {name} ON {table}")
        op.execute(f"ALTER TABLE {table} DISABLE ROW LEVEL SECURITY")
    op.execute("DROP TRIGGER IF EXISTS change_log_actor ON change_log")
    op.execute("DROP TRIGGER IF EXISTS cases_creator_owns ON cases")
    op.execute("DROP TRIGGER IF EXISTS cases_owner_deletes ON cases")
    op.execute("DROP TABLE case_members")
    for fn in ("casefile_log_actor()", "casefile_case_created()", "casefile_case_deleting()",
               "casefile_sync_grants(text)", "casefile_access()", "casefile_check_owner(integer)",
               "casefile_check_write(integer)", "casefile_check_role(integer, text, text)",
               "casefile_case_role(integer)", "casefile_cases(text)", "casefile_is_admin()"):
        op.execute(f"DROP FUNCTION IF EXISTS {fn}")
