"""The runner's mode for jobs that commit in pieces: a typed question answered on the GUI
thread mid-job, and a cancel that keeps what committed, says so in its result and refreshes
the views with it."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from casefile.services import cases
from casefile.services.changes import changes
from casefile.services.prompts import Question
from casefile.store.case import Case
from casefile.ui.operations import OperationRunner


@dataclass(frozen=True)
class HowMany(Question[int]):
    """A test question: how many cases to make."""


@dataclass
class Made:
    case_ids: list[int] = field(default_factory=list)
    cancelled: bool = False


def test_a_question_mid_job_is_answered_on_the_gui_thread_and_cancel_keeps_the_pieces(
        ui_workspace, qtbot) -> None:
    runner = OperationRunner(ui_workspace)
    announced = []
    runner.case_changed.connect(announced.append)
    answered_on: list[threading.Thread] = []
    second_made, go_on = threading.Event(), threading.Event()

    def answer(question, reply) -> None:
        answered_on.append(threading.current_thread())
        reply(5 if isinstance(question, HowMany) else None)

    def work(transactions, job) -> Made:
        made = Made()
        wanted = job.ask(HowMany())
        assert wanted == 5
        for n in range(wanted):
            if job.cancelled:
                made.cancelled = True
                break
            with transactions() as session:  # one piece, committed on its own
                made.case_ids.append(cases.create_case(session, f"Piece {n}").id)
            job.progress(n + 1, wanted, f"Made piece {n}")
            if n == 1:
                second_made.set()
                go_on.wait(20)
        return made

    job = runner.start_pieces(
        work, label="Making pieces…", answer=answer, progress=False,
        change=lambda made: changes(None, cases=True, label="pieces") if made.case_ids else None)
    qtbot.waitUntil(second_made.is_set, timeout=20000)
    job.cancel()
    go_on.set()
    qtbot.waitUntil(lambda: job.done, timeout=20000)
    assert answered_on == [threading.main_thread()]
    assert job.outcome == "cancelled"
    assert isinstance(job.result, Made) and job.result.cancelled
    assert len(job.result.case_ids) == 2  # the two committed before the cancel stay
    with ui_workspace.transaction() as s:
        assert sorted(c.title for c in s.query(Case)) == ["Piece 0", "Piece 1"]
    assert len(announced) == 1 and announced[0].cases  # the views hear about them
    runner.shutdown()
