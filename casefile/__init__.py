"""Casefile: an offline case-file organizer for reporters (see ARCHITECTURE.md)."""

from casefile.offline import keep_offline

__version__ = "0.1.0"

# Before any dependency loads (ARCHITECTURE.md, "Nothing goes out").
keep_offline()
