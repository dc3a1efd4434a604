"""User-path benchmarks (issue 16): one module per path, each with ``measure(sizes, rounds)``."""
