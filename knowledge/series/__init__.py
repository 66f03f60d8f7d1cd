"""Utilisation time series given beside the inventory files, joined to its VMs by name.

Formats (recognised from the content):

- ``series-csv``: the plain CSV ``vm, timestamp, cpu_pct, mem_pct[, iops, mbps]`` (or ``;``-separated,
  with decimal commas, as a spreadsheet saves it in such a locale)
  (:mod:`knowledge.series.plaincsv`, streamed);
- ``prometheus-json``: a saved Prometheus ``query_range`` answer (node_exporter, libvirt exporter;
  :mod:`knowledge.series.prometheus`).

A Live Optics workbook's ``VM Performance`` sheet holds each VM's average and peak, not samples: the
workbook reader takes them (:mod:`knowledge.inventory.collector_files`), as it takes the other
collectors' per-VM figures.

The samples land on one grid (:class:`~knowledge.series.store.SeriesStore`): a row per VM of the
inventory, a column per sampling step; every file must sample at the same step. Reducing them
(percentiles per VM and of the summed series, the trend) is the advisor's job
(``advisor/inventory/series.py``). Every problem is an InputError naming file, line (or entry) and
field.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from knowledge.infra.errors import InputError
from knowledge.series.store import METRICS, SeriesFile, SeriesStore, ip_list, join_keys

__all__ = ["FORMATS", "METRICS", "SeriesFile", "SeriesStore", "detect_series", "ip_list", "join_keys", "read_series"]

#: series format ids and what produces them (help texts and errors)
FORMATS = {
    "series-csv": "utilisation CSV: vm, timestamp, cpu_pct, mem_pct[, iops, mbps]",
    "prometheus-json": "a Prometheus query_range answer (JSON; node_exporter or libvirt exporter CPU and memory)",
}


def detect_series(path: Path | str) -> str | None:
    """The series format of ``path``, or None when it is not a series file (an inventory file)."""
    from knowledge.infra.files import check_regular, read_regular_head
    from knowledge.series import plaincsv, prometheus

    path = Path(path)
    check_regular(path, "series or inventory file")
    try:
        head = read_regular_head(path, 8192)
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from exc
    if head[:4] == b"PK\x03\x04" or b"\x00" in head[:64]:  # a workbook or another binary file
        return None
    text = head.decode("utf-8-sig", errors="replace")
    if prometheus.looks_like(text):
        return "prometheus-json"
    first = text.splitlines()[0] if text.strip() else ""
    if plaincsv.looks_like(first):
        return "series-csv"
    return None


def read_series(paths: Sequence[Path | str], names: Sequence[str], vcpus: Sequence[float] | None = None,
                ram_mib: Sequence[float] | None = None, cancel=None,
                ips: Sequence[str] | None = None) -> SeriesStore:
    """Read every series file onto one store whose rows are the VMs ``names`` (with their vCPUs and
    RAM, which turn CPU seconds and bytes into %, and their IP addresses, which a series naming VMs by
    IP (a Prometheus ``instance`` of a static target) joins on)."""
    from knowledge.inventory.common import check_cancel
    from knowledge.series import plaincsv, prometheus
    from knowledge.series.store import return_big_frees

    return_big_frees()
    store = SeriesStore(names, ips)
    cpus = np.asarray(vcpus, dtype=np.float64) if vcpus is not None else None
    ram = np.asarray(ram_mib, dtype=np.float64) if ram_mib is not None else None
    for p in paths:
        check_cancel(cancel)
        path = Path(p)
        fmt = detect_series(path)
        if fmt == "series-csv":
            store.files.append(plaincsv.read_csv(path, store))
        elif fmt == "prometheus-json":
            store.files.append(prometheus.read_prometheus(path, store, cpus, ram))
        else:
            raise InputError(f"{path}: not a utilisation series; supported: " + "; ".join(FORMATS.values()))
    return store
