"""Plug-in loading lives in :mod:`knowledge.infra.plugins` (the registries load their entry-point
groups themselves); re-exported here for existing callers."""

from __future__ import annotations

from knowledge.infra.plugins import PluginFailure, load_entry_points

__all__ = ["PluginFailure", "load_entry_points"]
