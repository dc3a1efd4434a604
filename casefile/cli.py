"""Command line front end (placeholder, being written)."""


def main(argv: list[str] | None = None) -> int:
    return 0
