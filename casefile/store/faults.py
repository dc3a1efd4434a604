"""Named fault points for crash tests: ``CASEFILE_FAULT_AT=<step>`` makes the process kill
itself with SIGKILL when it reaches that step, as a power cut or ``kill -9`` would.

Used where a long file operation must survive being cut at each of its steps (encrypting a
workspace and changing its passphrase: :mod:`casefile.store.encryption` names its steps there).
Unset, or on a platform without SIGKILL, :func:`fault_point` does nothing.
"""

from __future__ import annotations

import os
import signal

#: The environment variable naming the step to die at.
FAULT_ENV = "CASEFILE_FAULT_AT"


def fault_point(step: str) -> None:
    """Kill this process at once (SIGKILL, no cleanup of any kind) when ``$CASEFILE_FAULT_AT``
    is ``step``."""
    if os.environ.get(FAULT_ENV) == step and hasattr(signal, "SIGKILL"):
        os.kill(os.getpid(), signal.SIGKILL)
