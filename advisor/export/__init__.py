"""From advice to action: the settings the advice chose, as each platform's own configuration.

:func:`export_config` turns an :class:`~advisor.engine.Advice` into the files of one target
(libvirt, xen, proxmox, openstack): per workload group the cache mode, the vCPUs and their
pinning, the real-time period and budget in microseconds, and the cluster-wide
over-allocation and over-commit, each commented with the recommendation and citations it
implements. :mod:`advisor.export.plan` reads the advice and converts the units;
:mod:`advisor.export.check` validates the files with each platform's own parser or tool.
Pure Python (no Qt).
"""

from __future__ import annotations

from advisor.export import libvirt, openstack, proxmox, xen
from advisor.export.base import Export
from advisor.export.plan import ClusterPlan, ExportedValue, plan_from_advice

#: target name -> generator module (each has ``generate(plan) -> Export``)
TARGETS = {"libvirt": libvirt, "xen": xen, "proxmox": proxmox, "openstack": openstack}

__all__ = ["TARGETS", "ClusterPlan", "Export", "ExportedValue", "export_config", "plan_from_advice"]


def export_config(advice, target: str) -> Export:
    """The files of ``target`` for ``advice`` (an :class:`advisor.engine.Advice`)."""
    from knowledge.infra.errors import InputError

    if target not in TARGETS:
        raise InputError(f"unknown export target {target!r} (known: {', '.join(TARGETS)})")
    return TARGETS[target].generate(plan_from_advice(advice))
