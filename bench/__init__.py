"""Benchmarks of the generator and its pages (`make bench`): not tests.

Each figure is the median of repeated runs, next to a baseline measured in
the same run, and everything is written to docs/performance.md.
"""
