"""User-path benchmarks: one module per path, each with
``measure(sizes, rounds) -> list[dict]`` (see scripts/bench.py); modules starting with "_" hold
shared helpers."""
