"""Quotation marks around a passage (casefile.quoting): a passage that is itself a quotation
gets no second pair (it showed as ““I understand…”” in the link dialog, the evidence panel
and the undo label)."""

from __future__ import annotations

from casefile.quoting import quoted, self_quoted
from casefile.ui.items import quote_label


def test_a_plain_passage_is_put_in_curly_quotes_on_one_line():
    assert quoted("the pier\n  was   unsafe") == "“the pier was unsafe”"


def test_a_passage_that_is_a_quotation_keeps_its_own_marks_once():
    said = "“I understand that another agency has given us information,” the sheriff said."
    assert quoted(said) == said
    assert quoted("“We stayed outside.”") == "“We stayed outside.”"
    assert quoted("«Nous sommes restés dehors.»") == "«Nous sommes restés dehors.»"


def test_a_cut_quotation_is_closed_after_the_ellipsis():
    said = "“I understand that another agency has given us information,” the sheriff said."
    assert quoted(said, 40) == "“I understand that another agency has g…”"
    assert len(quoted("x" * 100, 40)) == 42  # 39 characters, "…", and the two marks


def test_undo_labels_follow_the_same_rule():
    assert quote_label("“We stayed outside,” he said", 20) == "“We stayed outside,…”"
    assert quote_label("   ") == "a passage"


def test_self_quoted_needs_both_marks():
    assert self_quoted("“whole”") and not self_quoted("“only opened") and not self_quoted("x")
