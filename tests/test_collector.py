"""The collector stays out of the way of loading: what ``loaded_and_frozen`` imports is frozen
before the collector resumes, so no collection pass walks the modules' objects (ARCHITECTURE.md,
"The window": cold start and responsiveness)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_loading_the_core_starts_no_collection_over_its_objects() -> None:
    code = (
        "import gc, json\n"
        "young = []\n"
        "gc.callbacks.append(lambda phase, info: phase == 'start' and info['generation'] == 0\n"
        "                    and young.append(len(gc.get_objects(0))))\n"
        "from casefile.collector import loaded_and_frozen\n"
        "loaded_and_frozen(['casefile.store.workspace', 'casefile.services.cases'])\n"
        "print(json.dumps({'young': young, 'frozen': gc.get_freeze_count()}))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["frozen"] > 40_000  # SQLAlchemy's and the models' objects
    assert max(result["young"], default=0) < 5_000  # ordinary passes only, none over them
