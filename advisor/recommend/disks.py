"""What the hosts' storage delivers, in one place: per-disk IOPS and MB/s (given in the scenario,
else the site's figures for that kind of disk, else the per-kind defaults), and the shared-storage
kind behind each image backend. Used by the host count, cache mode, I/O block size and storage
decisions alike."""

from __future__ import annotations

#: per-disk defaults when the scenario gives none and no site measured that kind of disk
DISK_IOPS = {"hdd": 150.0, "ssd": 50_000.0, "nvme": 300_000.0}
DISK_MB_S = {"hdd": 150.0, "ssd": 500.0, "nvme": 2000.0}  # MB/s (10^6 B/s)
#: shared-storage kind behind each image backend (local_disk has none)
SHARED_KIND = {"nfs_file": "nfs", "nfs_root": "nfs", "iscsi": "iscsi", "distributed": "distributed"}


def disk_iops(ctx, d, reads_only: bool = False) -> tuple[float, str]:
    """(random IOPS of one disk of group ``d``, where the figure comes from: given|site|default)."""
    if d.iops:
        return float(d.iops), "given"
    site = ctx.calibration.disk_iops(d.kind, reads_only) if ctx.calibration else None
    return (float(site), "site") if site else (DISK_IOPS[d.kind], "default")


def disk_mb_s(ctx, d, reads_only: bool = False) -> tuple[float, str]:
    """(sequential MB/s of one disk of group ``d``, where the figure comes from: given|site|default)."""
    if d.mb_s:
        return float(d.mb_s), "given"
    site = ctx.calibration.disk_mb_s(d.kind, reads_only) if ctx.calibration else None
    return (float(site), "site") if site else (DISK_MB_S[d.kind], "default")
