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

__all__ = ["TARGETS", "ClusterPlan", "Export", "ExportOutcome", "ExportedValue", "export_config", "export_to",
           "plan_from_advice"]


def export_config(advice, target: str) -> Export:
    """The files of ``target`` for ``advice`` (an :class:`advisor.engine.Advice`)."""
    from knowledge.infra.errors import InputError

    if target not in TARGETS:
        raise InputError(f"unknown export target {target!r} (known: {', '.join(TARGETS)})")
    return TARGETS[target].generate(plan_from_advice(advice))


def export_to(advice, targets: list[str] | tuple[str, ...], out_dir, check: bool = True, progress=None,
              cancel=None) -> list:
    """Write the exports of ``targets`` under ``out_dir`` (``<out_dir>/<target>/``) and, with
    ``check``, validate them (:func:`advisor.export.check.check_files`); returns one
    :class:`ExportOutcome` per target. The GUI runs this in its worker."""
    from pathlib import Path

    from advisor.export.check import check_files
    from advisor.progress import check as check_cancel
    from advisor.progress import report

    out = []
    for i, target in enumerate(targets):
        check_cancel(cancel)
        report(progress, i / len(targets), f"writing the {target} configuration")
        ex = export_config(advice, target)
        written = ex.write(Path(out_dir))
        findings = check_files(ex.files) if check else []
        out.append(ExportOutcome(ex, written, findings))
    report(progress, 1.0, "done")
    return out


class ExportOutcome:
    """One target's export: what was written where, and what the checks found."""

    def __init__(self, export: Export, written: list, findings: list):
        self.export, self.written, self.findings = export, written, findings

    @property
    def target(self) -> str:
        return self.export.target

    @property
    def failed(self) -> list:
        return [f for f in self.findings if f.ok is False]

    @property
    def unchecked(self) -> list:
        return [f for f in self.findings if f.ok is None]

    def summary(self) -> str:
        ex = self.export
        checked = ("" if not self.findings else
                   f"; {len(self.findings) - len(self.failed) - len(self.unchecked)} checks passed"
                   + (f", {len(self.failed)} FAILED" if self.failed else "")
                   + (f", {len(self.unchecked)} not checked (tool missing)" if self.unchecked else ""))
        return (f"{ex.target}: {len(self.written)} files, {len(ex.values)} settings from "
                f"{len({(v.decision, v.scope) for v in ex.values})} recommendations{checked}")
