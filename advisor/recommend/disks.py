"""What the hosts' storage delivers, in one place: per-disk IOPS and MB/s (given in the scenario,
else the site's figures for that kind of disk, else the per-kind defaults of
:data:`advisor.hardware.PER_KIND`), and the shared-storage kind behind each image backend. Used by
the host count, cache mode, I/O block size and storage decisions alike; :func:`hardware_of` gives
the scenario's hardware with the source of every figure (:class:`advisor.hardware.Hardware`)."""

from __future__ import annotations

from advisor.hardware import PER_KIND, Hardware

#: per-disk defaults when the scenario gives none and no site measured that kind of disk
DISK_IOPS = {kind: d.iops for kind, d in PER_KIND.items()}
DISK_MB_S = {kind: d.mb_s for kind, d in PER_KIND.items()}  # MB/s (10^6 B/s)
#: HwFigure sources as the older (figure, where) pairs name them
_WHERE = {"declared": "given", "probe": "given", "defaults": "default", "assumed": "default"}


def hardware_of(ctx) -> Hardware:
    """The scenario's hardware of an engine context (built once per context)."""
    hw = getattr(ctx, "hardware", None)
    if hw is None or hw.scenario is not ctx.scenario:
        hw = Hardware(ctx.scenario, ctx.calibration)
        ctx.hardware = hw
    return hw


def disk_iops(ctx, d, reads_only: bool = False) -> tuple[float, str]:
    """(random IOPS of one disk of group ``d``, where the figure comes from: given|site|default)."""
    f = hardware_of(ctx).disk_iops(d, reads_only)
    return f.value, _WHERE.get(f.source, "site")


def disk_mb_s(ctx, d, reads_only: bool = False) -> tuple[float, str]:
    """(sequential MB/s of one disk of group ``d``, where the figure comes from: given|site|default)."""
    f = hardware_of(ctx).disk_mb_s(d, reads_only)
    return f.value, _WHERE.get(f.source, "site")
