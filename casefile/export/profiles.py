"""The export profiles: who an export is for (internal, editor, legal, public), defined once.

What each profile lets an export show is applied by :mod:`casefile.services.disclosure`; this
module is only the table (plain values, no database, so the CLI can offer the names without
loading anything).
"""

from __future__ import annotations

from dataclasses import dataclass

from casefile.errors import ValidationError


@dataclass(frozen=True)
class ExportProfile:
    """One audience of an export.

    ``confidential_items``: items and documents flagged confidential are printed as they are
    (else left out). ``pseudonyms``: confidential *people* are printed as "Source A"… with their
    quotes (else left out with the other confidential items and named "[withheld]").
    ``source_details``: a confidential person's role and affiliation are printed (only the
    internal profile: under the others they appear nowhere, not as fields, not as the
    source's edges in the brief's graph figure, and not in any text, with the clauses that
    describe them around their name; the rule is in :mod:`casefile.services.disclosure`,
    "What travels with a pseudonym", and :mod:`casefile.services.descriptions`).
    ``notes``: the reporter's notes on items and on evidence are printed. ``contact_details``:
    the contact details of people who are shown are printed where an export prints them (the
    calendar's "Ask:" line; the brief never prints contact details).
    """

    name: str
    label: str
    confidential_items: bool
    pseudonyms: bool
    source_details: bool
    notes: bool
    contact_details: bool
    #: What the brief's cover says about confidential material; None: the renderer's own line.
    cover_note: str | None = None
    #: The handling mark the brief prints on its cover (with ``marking_detail`` under it), in
    #: every page's header and footer and in its metadata Subject; None: no mark (a public copy
    #: must not claim to be confidential, nor tell its reader to keep it in the newsroom).
    marking: str | None = "CONFIDENTIAL — contains unpublished reporting"
    marking_detail: str = "Do not forward, print for others or share outside the reporting team."


_PSEUDONYM_NOTE = (
    "Confidential sources are named Source A, Source B… here (inside quotes as “[Source A]”); "
    "their names, aliases, roles, affiliations, contact details and the words that describe "
    "them (“[withheld]”), and the other items and documents flagged confidential, are left "
    "out of this brief."
)

#: The profiles, in the order menus offer them.
#:
#: * **internal** -- the reporting team's own copy: everything, confidential items and sources
#:   included (what ``--include-confidential`` always gave).
#: * **editor** -- for an editor reviewing the story: confidential items and documents left out,
#:   the names of the left-out people and organizations "[withheld]" where other text still
#:   names them, and what describes a left-out person with them (role, affiliation, the clause
#:   around the name, their contact details, identifying phrases). This is what the brief and
#:   the calendar did before profiles (the default).
#: * **legal** -- for a pre-publication legal review: the lawyer must see what each source
#:   supports, so confidential people stay in, as "Source A"… with their quotes; no name,
#:   alias, role, affiliation, describing clause, identifying phrase or contact detail of
#:   theirs (a role often names the one person who holds it), no contact detail of anyone.
#: * **public** -- for anyone outside the newsroom (a partner outlet, a published methods
#:   note): as legal, and also without the reporter's notes.
PROFILES: dict[str, ExportProfile] = {p.name: p for p in (
    ExportProfile("internal", "Internal: everything, confidential sources included",
                  confidential_items=True, pseudonyms=False, source_details=True, notes=True,
                  contact_details=True),
    ExportProfile("editor", "Editor: confidential items left out, their names [withheld]",
                  confidential_items=False, pseudonyms=False, source_details=False, notes=True,
                  contact_details=True),
    ExportProfile("legal", "Legal review: confidential people as Source A…, no contact details",
                  confidential_items=False, pseudonyms=True, source_details=False, notes=True,
                  contact_details=False, cover_note=_PSEUDONYM_NOTE,
                  marking="PRIVILEGED AND CONFIDENTIAL — for legal review",
                  marking_detail="Prepared for pre-publication legal review; do not forward "
                                 "outside the review."),
    ExportProfile("public", "Public: as legal, without the reporter's notes",
                  confidential_items=False, pseudonyms=True, source_details=False, notes=False,
                  contact_details=False, cover_note=_PSEUDONYM_NOTE, marking=None),
)}

#: The profile of an export that names none (what exports did before profiles).
DEFAULT_PROFILE = "editor"


def get_profile(
    profile: str | ExportProfile | None = None, *, include_confidential: bool = False,
) -> ExportProfile:
    """The profile named ``profile``; None gives "internal" when ``include_confidential`` is
    set (the flag exports took before profiles) and :data:`DEFAULT_PROFILE` otherwise.

    Raises:
        ValidationError: an unknown name, or ``include_confidential`` with a profile other
            than "internal".
    """
    if isinstance(profile, ExportProfile):
        chosen = profile
    elif profile is None:
        chosen = PROFILES["internal" if include_confidential else DEFAULT_PROFILE]
    elif profile in PROFILES:
        chosen = PROFILES[profile]
    else:
        raise ValidationError(
            f"no export profile {profile!r}; choose one of {', '.join(PROFILES)}")
    if include_confidential and not chosen.confidential_items:
        raise ValidationError(
            f"confidential material cannot be included in a {chosen.name!r} export; "
            "use the 'internal' profile")
    return chosen


#: The profile names, in the order menus offer them.
PROFILE_NAMES: tuple[str, ...] = tuple(PROFILES)

#: One help line naming every profile (CLI).
PROFILE_HELP = (
    "who the export is for: "
    + "; ".join(f"{p.name} ({p.label.split(': ', 1)[1]})" for p in PROFILES.values())
    + f"; default {DEFAULT_PROFILE}, what exports did before profiles"
)
