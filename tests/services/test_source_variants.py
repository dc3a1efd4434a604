"""A confidential source written another way than stored is still withheld: a first name
alone, a surname with a space, a non-breaking hyphen or a line break for its hyphen, and a
phone number with other separators (what a newsroom's security editor tried first)."""

from __future__ import annotations

import pytest

from casefile.services.disclosure import disclosure_for
from casefile.store import Person


def _people() -> list[Person]:
    source = Person(id=1, case_id=1, kind="person", title="Marguerite Okonkwo-Lind",
                    aliases=[], confidential=True, contact="+1 503 555 0147")
    other = Person(id=2, case_id=1, kind="person", title="Victor Lusk", aliases=[],
                   confidential=False)
    return [source, other]


@pytest.mark.parametrize("profile", ["editor", "legal", "public"])
@pytest.mark.parametrize("written", [
    "It's Marguerite from the procurement office.",
    "Okonkwo Lind sat in the back row.",
    "Okonkwo\u2011Lind sat in the back row.",
    "Okonkwo-\nLind sat in the back row.",
    "Reach her at 503.555.0147 after six.",
    "Her mobile is (503) 555-0147.",
    "Call +1 (503) 555-0147.",
])
def test_another_spelling_of_the_source_is_withheld(profile: str, written: str) -> None:
    shown = disclosure_for(_people(), profile)
    out = shown.substitute(written) or ""
    for piece in ("Marguerite", "Okonkwo", "Lind", "503", "555", "0147"):
        assert piece not in out, (written, out)
    assert "[withheld]" in out or "Source A" in out


def test_a_first_name_a_shown_person_shares_is_left_to_them() -> None:
    source = Person(id=1, case_id=1, kind="person", title="Victor Hale", aliases=[],
                    confidential=True)
    other = Person(id=2, case_id=1, kind="person", title="Victor Lusk", aliases=[],
                   confidential=False)
    out = disclosure_for([source, other], "public").substitute("Victor Lusk met Victor Hale.")
    assert out == "Victor Lusk met Source A."
