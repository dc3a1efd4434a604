"""The bundle's executable: the same program as the ``casefile`` command (the window with no
arguments, every subcommand with its arguments). Frozen by ``scripts/build_bundle.py``."""

import multiprocessing

if __name__ == "__main__":
    # Import and extraction workers are spawned processes: in a frozen program they start this
    # same executable, and freeze_support() runs the worker instead of the command line.
    multiprocessing.freeze_support()
    from casefile.cli import run

    run()
