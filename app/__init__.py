"""Capacity Advisor: entry points (CLI, GUI launcher, settings, plug-in loading)."""

__version__ = "0.1.0"
