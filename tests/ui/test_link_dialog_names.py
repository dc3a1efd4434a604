"""The "Link as evidence" dialog offers an item's other names as that item's, not as a second
person of the same kind ("Tony Rivera (person)" beside "Chief Anthony Rivera (person)")."""

from __future__ import annotations

from casefile.services.views import ItemChoice
from casefile.ui.dialogs import LinkDialog


def test_an_alias_is_offered_as_another_name_of_its_item_and_picks_it(qtbot):
    chief = ItemChoice(id=7, title="Chief Anthony “Tony” Rivera", kind="person",
                       aliases=("Tony Rivera",))
    other = ItemChoice(id=8, title="Harbor Police Department", kind="organization")
    dialog = LinkDialog("“We went in,” the chief said.", [chief, other])
    qtbot.addWidget(dialog)
    offered = dialog.completer.model().stringList()
    assert "Tony Rivera (person)" not in offered
    assert "Tony Rivera (another name of Chief Anthony “Tony” Rivera, person)" in offered
    dialog.item_edit.setText("Tony Rivera (another name of Chief Anthony “Tony” Rivera, person)")
    assert dialog.chosen_item() == chief
    dialog.item_edit.setText("tony rivera")  # typed, not picked
    assert dialog.chosen_item() == chief
    assert dialog.quote_label.text() == "“We went in,” the chief said."
