"""Benchmarks: commands that print figures against the goals of docs/scaling.md and assert nothing."""
