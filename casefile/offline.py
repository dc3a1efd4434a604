"""What keeps Casefile's dependencies from reporting home (ARCHITECTURE.md, "Nothing goes out").

Casefile makes no network connection of its own, but a dependency may: onnxruntime, under the
default OCR engine, writes a device id and a queued telemetry event under
``~/.cache/Microsoft/DeveloperTools/.onnxruntime/`` on its first inference unless the
``ORT_DISABLE_TELEMETRY`` environment variable is set before it loads. :func:`keep_offline`
sets that and the like-minded switches of other libraries (the Hugging Face hub, which a spaCy
model could reach through a transformers pipeline; the common ``DO_NOT_TRACK``). It runs when the
``casefile`` package is imported, so every process (the window, the CLI, import workers) has
them before any dependency loads; values the user set are overwritten on purpose (a reporter's
shell profile must not switch telemetry back on).
"""

from __future__ import annotations

import os

#: Environment switches that turn off a dependency's telemetry or network lookups.
OFFLINE_ENVIRONMENT: dict[str, str] = {
    "ORT_DISABLE_TELEMETRY": "1",
    "HF_HUB_OFFLINE": "1",
    "HF_HUB_DISABLE_TELEMETRY": "1",
    "TRANSFORMERS_OFFLINE": "1",
    "DO_NOT_TRACK": "1",
}


def keep_offline() -> None:
    """Set every switch of :data:`OFFLINE_ENVIRONMENT` in this process's environment (and so in
    the environment of the processes it starts)."""
    os.environ.update(OFFLINE_ENVIRONMENT)


def quiet_onnxruntime(module: object) -> None:
    """Turn off telemetry events of a loaded ``onnxruntime`` module (besides the environment
    switch, which it reads when it loads)."""
    disable = getattr(module, "disable_telemetry_events", None)
    if callable(disable):
        disable()
