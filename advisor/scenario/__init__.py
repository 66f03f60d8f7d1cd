"""The scenario: what the user wants to build, as typed, validated dataclasses.

A scenario file (YAML, TOML or JSON, same structure; the format is in ``docs/scenario-format.md``,
generated from the field table) describes the hosts, the workload groups and the preferences.
:func:`load_scenario` reads a file, :func:`parse_scenario` a plain mapping; both collect *every*
problem by path (``workloads[2].vcpus: must be >= 1``) and raise one
:class:`~knowledge.infra.errors.InputError` listing them all. :func:`save_scenario` writes YAML,
JSON or (a minimal) TOML.

The package: :mod:`~advisor.scenario.fields` (the field table: every field's kind, unit, default,
bounds, choices, label and tip, and the vocabularies), :mod:`~advisor.scenario.model` (the
dataclasses), :mod:`~advisor.scenario.reader` (the validating reader) and
:mod:`~advisor.scenario.files` (the file formats and the TOML writer).
"""

from advisor.scenario.fields import (
    ASSUMABLE,
    BALANCING_EVENTS,
    DEFAULT_DISK_GB,
    DISK_SOURCES,
    DISTRIBUTED_SYSTEMS,
    FIELD_MAX,
    FIELDS,
    IO_PATTERNS,
    LOSS_TOLERANCE,
    MAX_PROBLEMS_LISTED,
    MAX_SCENARIO_BYTES,
    MAX_WORKLOADS,
    MEASURABLE,
    OVERALLOCATION_LEVELS,
    SCENARIO_VERSION,
    TIME_UNITS,
    Field,
)
from advisor.scenario.files import dumps, format_of, load_scenario, read_scenario_data, save_scenario, to_toml
from advisor.scenario.model import (
    FIXABLE,
    TARGETS,
    CalibrationChoice,
    Cpu,
    Disk,
    Hosts,
    IOProfile,
    Preferences,
    Realtime,
    RtTask,
    Scenario,
    SharedStorage,
    Target,
    Workload,
)
from advisor.scenario.reader import parse_scenario
from knowledge.host_types import DISK_KINDS, HYPERVISORS, LEVELS, SHARED_KINDS, VIRTUALIZATION
from knowledge.infra.reader import MAX_NUMBER, MAX_TEXT, is_number, text_problem

__all__ = [
    "ASSUMABLE", "BALANCING_EVENTS", "DEFAULT_DISK_GB", "DISK_KINDS", "DISK_SOURCES", "DISTRIBUTED_SYSTEMS",
    "FIELDS", "FIELD_MAX", "FIXABLE", "HYPERVISORS", "IO_PATTERNS", "LEVELS", "LOSS_TOLERANCE", "MAX_NUMBER",
    "MAX_PROBLEMS_LISTED", "MAX_SCENARIO_BYTES", "MAX_TEXT", "MAX_WORKLOADS", "MEASURABLE",
    "OVERALLOCATION_LEVELS", "SCENARIO_VERSION", "SHARED_KINDS", "TARGETS", "TIME_UNITS", "VIRTUALIZATION",
    "CalibrationChoice", "Cpu", "Disk", "Field", "Hosts", "IOProfile", "Preferences", "Realtime", "RtTask",
    "Scenario", "SharedStorage", "Target", "Workload", "dumps", "format_of", "is_number", "load_scenario",
    "parse_scenario", "read_scenario_data", "save_scenario", "text_problem", "to_toml",
]
