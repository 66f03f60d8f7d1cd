"""Benchmark-file importers (fio, bonnie++, sysbench, PostMark, IOzone): one module per tool,
chosen by :mod:`knowledge.importers.registry`."""

from __future__ import annotations


def parse_file(path, tool: str | None = None):
    """Read, detect and parse one benchmark file: :func:`knowledge.importers.registry.parse_file`."""
    from knowledge.importers.registry import parse_file as _parse_file

    return _parse_file(path, tool)
