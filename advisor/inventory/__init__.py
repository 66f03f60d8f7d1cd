"""From today's estate to a scenario: VMs grouped into workload groups, hosts described, the
facts the exports do not carry filled with explicit, marked assumptions.

:class:`Inventory` holds an :class:`~knowledge.inventory.model.Estate` (read by
:mod:`knowledge.inventory`) and its grouping. The user may regroup (``auto``, ``size``,
``name-prefix``, ``cluster``), merge, split and rename groups; :meth:`Inventory.to_scenario`
then writes the scenario mapping, which :func:`advisor.scenario.parse_scenario` accepts.

Rules that keep the scenario honest:

- A group's VM count and RAM are the sums of its VMs (RAM per VM is the group mean), so the
  scenario's VM and RAM totals equal the estate's. Groups built here never mix vCPU counts, so
  the vCPU total is the estate's too; a merge the user asks for that mixes them sizes the group
  at the rounded mean and says how far the total moved.
- Fields no export carries (CPU and I/O intensity, I/O pattern, data loss tolerance, live
  migration) get defaults listed in the workload's ``assumed``; hosts the estate does not
  describe are assumed likewise and listed in ``estate.assumed``.
- What runs today (hypervisor, cache modes, pinning, vCPUs per core, host count) is kept in
  ``estate.today`` and each workload's ``today``; :func:`today_vs_advised` sets it next to the
  advice.

The modules, in the order they build on each other: :mod:`.today` (what runs and was measured
today), :mod:`.grouping` (the groups and the user's edits), :mod:`.assumptions` (defaults for what
no export says), :mod:`.writing` (:class:`Inventory`, the scenario mapping and file) and
:mod:`.advised` (today next to the advice).
"""

from advisor.figures.today_vs_advised import MARKS, WIDE_MARGIN, format_today, today_vs_advised
from advisor.inventory.assumptions import (
    ASSUMED_DISK_GB,
    ASSUMED_DISKS,
    ASSUMED_HOST,
    ASSUMED_NIC_GBPS,
    ASSUMED_WORKLOAD,
    json_text,
    marks_after_edit,
)
from advisor.inventory.grouping import AUTO_MAX_GROUPS, GROUP_BY, SPLIT_BY, Group, Profile, name_prefix
from advisor.inventory.today import DEFAULT_CACHE, Measured, today_rows
from advisor.inventory.writing import Inventory, import_inventory, scenario_yaml, write_scenario

__all__ = [
    "ASSUMED_DISKS", "ASSUMED_DISK_GB", "ASSUMED_HOST", "ASSUMED_NIC_GBPS", "ASSUMED_WORKLOAD", "AUTO_MAX_GROUPS",
    "DEFAULT_CACHE", "GROUP_BY", "MARKS", "SPLIT_BY", "WIDE_MARGIN", "Group", "Inventory", "Measured", "Profile",
    "format_today", "import_inventory", "json_text", "marks_after_edit", "name_prefix", "scenario_yaml",
    "today_rows", "today_vs_advised", "write_scenario",
]
