"""Prometheus ``query_range`` answers (``GET /api/v1/query_range``, saved as JSON): the envelope
``{"status": "success", "data": {"resultType": "matrix", "result": [{"metric": {labels},
"values": [[<unix_time>, "<sample_value>"], ...]}, ...]}}`` (Prometheus HTTP API, docs/querying/api.md;
the fixtures' SOURCES.md names the version read).

What a series measures comes from its ``__name__`` label:

- libvirt exporter: ``libvirt_domain_info_cpu_time_seconds_total`` (a counter of CPU seconds: its rate
  over the VM's vCPUs is the CPU busy %), ``libvirt_domain_info_memory_usage_bytes`` (over the VM's RAM);
  the VM is the ``domain`` label;
- node_exporter (a VM running its own exporter): ``node_cpu_seconds_total`` (busy % = 100 - the rate of
  the modes :data:`NOT_BUSY` (idle, iowait, steal) over the CPUs, as the node-mixin rule below defines
  it: time waiting for a disk or for the hypervisor is no CPU the VM used), ``node_memory_MemAvailable_bytes``
  with ``node_memory_MemTotal_bytes``;
  the node-mixin recording rules ``instance:node_cpu_utilisation:rate5m`` and
  ``instance:node_memory_utilisation:ratio`` (ratios 0-1; a site's rule of that name recorded in %,
  values above 1.5, is read as %); the VM is ``instance`` without its port (or ``nodename``);
- Tinkoff/libvirt-exporter's ``libvirt_domain_memory_stats_used_percent`` (already %);
- a computed expression (no ``__name__``) must be a percentage of the VM's vCPUs or RAM; the file's
  name says which (``cpu`` or ``mem`` in it); when every value of it in the file is at most 1 it is read
  as 0-1 fractions (x 100, with a warning), as the CSV reader does. ``rate(libvirt_domain_info_cpu_time_
  seconds_total[5m])`` gives busy cores: ``cores`` in the file's name says so, and a CPU file whose every
  VM stays at or below its vCPU count (some above 1) is read so, with a warning (``pct`` in the name: a
  percentage after all); the same rate x 100 (% of one core) above 100 is refused.

A series of a VM the inventory lacks is skipped with a warning; a file none of whose VMs is in the
inventory is refused.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from pathlib import Path

import numpy as np

from knowledge.infra.errors import InputError
from knowledge.inventory.common import FRACTION_AT_MOST, fraction_note
from knowledge.series.store import PCT_SLACK, SeriesFile, SeriesStore, stamp

#: labels naming the VM, most specific first
VM_LABELS = ("domain", "vm", "name", "nodename", "instance", "host")
LIBVIRT_CPU = "libvirt_domain_info_cpu_time_seconds_total"
LIBVIRT_MEM = "libvirt_domain_info_memory_usage_bytes"
#: already a percentage (Tinkoff/libvirt-exporter)
PERCENTS = {"libvirt_domain_memory_stats_used_percent": "mem_pct"}
NODE_CPU = "node_cpu_seconds_total"
#: the node_cpu_seconds_total modes that are not busy, as node-mixin's ``instance:node_cpu_utilisation:rate5m``
#: (``1 - avg(rate(node_cpu_seconds_total{mode=~"idle|iowait|steal"}))``) counts them; idle is one per CPU
NOT_BUSY = ("idle", "iowait", "steal")
NODE_AVAILABLE, NODE_TOTAL = "node_memory_MemAvailable_bytes", "node_memory_MemTotal_bytes"
#: recording rules of the node mixin: a ratio 0-1 -> metric
RATIOS = {"instance:node_cpu_utilisation:rate5m": "cpu_pct", "instance:node_memory_utilisation:ratio": "mem_pct"}
KNOWN = (LIBVIRT_CPU, LIBVIRT_MEM, NODE_CPU, NODE_AVAILABLE, NODE_TOTAL, *RATIOS, *PERCENTS)
#: a "ratio" rule whose values exceed this was recorded in % (some sites define the rule x 100)
RATIO_IN_PERCENT_ABOVE = 1.5
#: a busy-cores value may pass the VM's vCPU count by this much (rate over a scrape jitter)
CORES_SLACK = 0.05
#: the largest query_range answer read, bytes (every sample becomes Python objects while it is read)
MAX_BYTES = 512 * 1024 * 1024
#: the series with gaps a warning names (the rest are counted)
GAPS_LISTED = 5


def looks_like(head: str) -> bool:
    """Whether a JSON text starts like a Prometheus API answer."""
    h = head.lstrip()
    return h.startswith("{") and '"status"' in h[:4096] and any(k in h[:8192] for k in ('"resultType"', '"errorType"'))


def _load(path: Path) -> dict:
    from knowledge.infra.files import read_regular_text

    text = read_regular_text(path, "Prometheus answer", MAX_BYTES)
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        cut = " (the file ends before the JSON does: truncated?)" if text.rstrip()[-1:] not in ("}", "]") else ""
        raise InputError(f"{path}: line {exc.lineno} column {exc.colno}: not valid JSON: {exc.msg}{cut}") from exc
    if not isinstance(doc, dict) or "status" not in doc:
        raise InputError(f"{path}: line 1: not a Prometheus API answer (no 'status' field)")
    if doc["status"] != "success":
        raise InputError(f"{path}: field status: {doc['status']!r}: {doc.get('errorType', '')} {doc.get('error', '')}"
                         .rstrip())
    data = doc.get("data")
    kind = data.get("resultType") if isinstance(data, dict) else None
    if kind != "matrix" or not isinstance(data, dict):
        raise InputError(f"{path}: field data.resultType: {kind!r}; a range query's answer is a 'matrix' "
                         "(save the answer of /api/v1/query_range, not /api/v1/query)")
    if not isinstance(data.get("result"), list):
        raise InputError(f"{path}: field data.result: not a list of series")
    return data


def _vm_name(labels: dict, where: str) -> str:
    for k in VM_LABELS:
        if labels.get(k):
            return str(labels[k])
    raise InputError(f"{where}, field metric: no label naming the VM ({', '.join(VM_LABELS)})")


def _samples(entry: dict, where: str) -> tuple[np.ndarray, np.ndarray]:
    values = entry.get("values")
    if not isinstance(values, list):
        raise InputError(f"{where}, field values: not a list of [time, value] pairs")
    try:
        ts = np.array([float(v[0]) for v in values], dtype=np.float64)
        xs = np.array([float(v[1]) for v in values], dtype=np.float64)
    except (TypeError, ValueError, IndexError) as exc:
        raise InputError(f"{where}, field values: a sample is not [<unix_time>, \"<value>\"] ({exc})") from exc
    if np.isinf(xs).any():
        raise InputError(f"{where}, field values[{int(np.flatnonzero(np.isinf(xs))[0])}]: infinite value")
    return ts, xs


def _rate(ts: np.ndarray, xs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-second rate of a counter between samples (a reset leaves a gap)."""
    dt, dx = np.diff(ts), np.diff(xs)
    rate = np.where((dx >= 0) & (dt > 0), dx / np.where(dt > 0, dt, 1.0), np.nan)
    return ts[1:], rate


class _Reader:
    def __init__(self, path: Path, store: SeriesStore, vcpus: np.ndarray | None, ram_mib: np.ndarray | None):
        self.path, self.store, self.vcpus, self.ram_mib = path, store, vcpus, ram_mib
        self.file = SeriesFile(str(path), "prometheus-json")
        self.rows: set[int] = set()
        self.idle: dict[str, list] = defaultdict(list)       # instance -> [(ts, rate)] per CPU and NOT_BUSY mode
        self.cpus: dict[str, int] = defaultdict(int)          # instance -> CPUs (its idle series)
        self.memory: dict[str, dict[str, tuple]] = defaultdict(dict)  # instance -> {name: (ts, bytes)}
        self.computed: list[tuple] = []  # series without __name__: (metric, row, ts, values, where)
        #: series with samples missing inside them: (VM and metric, steps missing, the longest gap's start, end)
        self.gaps: list[tuple[str, int, float, float]] = []

    def read(self) -> SeriesFile:
        result = _load(self.path)["result"]
        if not result:
            raise InputError(f"{self.path}: field data.result: no series (the query matched nothing)")
        for i, entry in enumerate(result):
            where = f"{self.path}: data.result[{i}]"
            if not isinstance(entry, dict) or not isinstance(entry.get("metric"), dict):
                raise InputError(f"{where}: not a series ({{'metric': ..., 'values': ...}})")
            self._series(entry, where)
        self._node_cpu()
        self._node_memory()
        self._computed_series()
        self.file.vms = len(self.rows)
        self.file.metrics = self.store.metrics
        self.store.check_matched(self.file)
        note = self._gap_note()
        if note:
            self.file.warnings.append(note)
        return self.file

    def _series(self, entry: dict, where: str) -> None:
        labels = entry["metric"]
        name = str(labels.get("__name__", ""))
        vm = _vm_name(labels, where)
        ts, xs = _samples(entry, where)
        if len(ts) < 2:
            return
        if name == NODE_CPU:
            if labels.get("mode") in NOT_BUSY:
                self.idle[vm].append(_rate(ts, xs))
                self.cpus[vm] += labels.get("mode") == "idle"
            return
        if name in (NODE_AVAILABLE, NODE_TOTAL):
            self.memory[vm][name] = (ts, xs, where)
            return
        row = self._row(vm, where)
        if row < 0:  # not in the inventory: skipped (check_matched notes it)
            return
        metric, values, ts = self._convert(name, row, ts, xs, where)
        if not name:  # a computed percentage: 0-1 fractions are found over the whole file
            self.computed.append((metric, row, ts, values, where))
            return
        self._add(metric, row, ts, values, where)

    def _convert(self, name: str, row: int, ts, xs, where: str):
        if name == LIBVIRT_CPU:
            vcpus = float(self.vcpus[row]) if self.vcpus is not None and self.vcpus[row] > 0 else np.nan
            if np.isnan(vcpus):
                raise InputError(f"{where}: {name} needs the VM's vCPUs, which the inventory does not give")
            t1, rate = _rate(ts, xs)
            over = np.flatnonzero(rate > vcpus * (1.0 + PCT_SLACK / 100.0))
            if len(over):
                i = int(over[0])
                raise InputError(f"{where}, values[{i + 1}]: the CPU seconds counter grows by {xs[i + 1] - xs[i]:.6g} s "
                                 f"in {ts[i + 1] - ts[i]:g} s, more than the VM's {vcpus:g} vCPUs can use (a wrong "
                                 "value, or another VM's counter under this name?)")
            return "cpu_pct", 100.0 * rate / vcpus, t1
        if name == LIBVIRT_MEM:
            ram = float(self.ram_mib[row]) if self.ram_mib is not None and self.ram_mib[row] > 0 else np.nan
            if np.isnan(ram):
                raise InputError(f"{where}: {name} needs the VM's RAM, which the inventory does not give")
            return "mem_pct", 100.0 * xs / (ram * 1024 * 1024), ts
        if name in RATIOS:
            in_pct = bool(len(xs)) and float(np.nanmax(xs)) > RATIO_IN_PERCENT_ABOVE
            return RATIOS[name], xs if in_pct else 100.0 * xs, ts
        if name in PERCENTS:
            return PERCENTS[name], xs, ts
        if name:
            raise InputError(f"{where}, field metric.__name__: {name!r} is not a metric read here ({', '.join(KNOWN)}; "
                             "or a percentage computed by the query, without a metric name)")
        stem = self.path.name.lower()
        if ("cpu" in stem) == ("mem" in stem):
            raise InputError(f"{where}: a computed series (no __name__): is it CPU or memory %? put 'cpu' or "
                             f"'mem' in the file's name ({self.path.name})")
        return ("cpu_pct" if "cpu" in stem else "mem_pct"), xs, ts

    def _computed_series(self) -> None:
        """The computed series (no ``__name__``), which must be percentages: a metric whose every value
        in the file is at most 1 holds 0-1 fractions (as the recording rules' ratios) and is read x 100,
        with a warning naming it; a CPU series in busy cores (:meth:`_cores`) is read over each VM's vCPUs."""
        top: dict[str, float] = {}
        for metric, _row, _ts, values, _w in self.computed:
            if len(values) and not np.isnan(values).all():
                top[metric] = max(top.get(metric, 0.0), float(np.nanmax(values)))
        scale = {m: 100.0 for m, x in top.items() if 0 < x <= FRACTION_AT_MOST}
        self.file.warnings += [fraction_note(f"the computed {m} series (no __name__)", top[m]) for m in scale]
        cores = "cpu_pct" not in scale and self._cores()
        for metric, row, ts, values, where in self.computed:
            if metric == "cpu_pct" and cores:
                assert self.vcpus is not None
                values = 100.0 * values / float(self.vcpus[row])
            self._add(metric, row, ts, values * scale.get(metric, 1.0), where)

    def _cores(self) -> bool:
        """Whether the computed CPU series hold busy cores (``rate(libvirt_domain_info_cpu_time_seconds_total
        [5m])``), not % of the VM's vCPUs: declared by ``cores`` in the file's name (``pct``/``percent``:
        a percentage), else found when every VM stays at or below its vCPU count while some pass 1 (a
        warning says so). A CPU % of one core (the same rate x 100: some VM above 100) is refused."""
        stem = self.path.stem.lower()
        declared = "cores" in re.split(r"[^a-z]+", stem)
        if not declared and ("pct" in stem or "percent" in stem):
            return False
        top: dict[int, tuple[float, str]] = {}
        for metric, row, _ts, values, where in self.computed:
            if metric == "cpu_pct" and len(values) and not np.isnan(values).all():
                top[row] = max(top.get(row, (-1.0, where)), (float(np.nanmax(values)), where))
        cpus = self.vcpus
        if not top or cpus is None or any(cpus[r] <= 0 for r in top):
            if declared:
                raise InputError(f"{self.path}: busy cores (the file's name says 'cores') need each VM's vCPUs, "
                                 "which the inventory does not give")
            return False
        if declared:
            return True
        over = [(x, w, r) for r, (x, w) in top.items() if x > 100.0 + PCT_SLACK and x <= 100.0 * cpus[r] + PCT_SLACK]
        if over:
            x, where, r = over[0]
            raise InputError(f"{where}: the computed CPU series reaches {x:g} on a VM of {cpus[r]:g} vCPUs: a % of "
                             f"ONE core (rate({LIBVIRT_CPU}[5m]) * 100), not of the VM's vCPUs; divide it by the "
                             f"VM's vCPUs in the query, or save the raw counter {LIBVIRT_CPU}")
        if all(x <= cpus[r] + CORES_SLACK for r, (x, _w) in top.items()) and max(x for x, _w in top.values()) > 1.0:
            self.file.warnings.append(
                f"the computed CPU series (no __name__) never pass each VM's vCPU count ({len(top)} VMs, largest "
                f"{max(x for x, _w in top.values()):.4g}): read as busy cores (rate({LIBVIRT_CPU}[5m])) and divided "
                "by the VM's vCPUs; if they are % of the vCPUs of a nearly idle estate, put 'pct' in the file's "
                "name (or 'cores' to say they are busy cores)")
            return True
        return False

    def _row(self, vm: str, where: str) -> int:
        return int(self.store.resolve([vm], str(self.path), lambda _n: where.split(": ", 1)[1])[0])

    def _add(self, metric: str, row: int, ts: np.ndarray, values: np.ndarray, where: str) -> None:
        ok = ~np.isnan(ts)
        ts, values = ts[ok], values[ok]
        if len(ts) < 2:
            return
        step = float(np.median(np.diff(ts)))
        if not self.file.interval_s:
            self.file.interval_s = step
        self.store.set_interval(step, str(self.path))
        self.store.add(metric, np.full(len(ts), row, dtype=np.int64), ts, values, str(self.path),
                       lambda i: f"{where}, values[{i}]", "values")
        self.rows.add(row)
        self.file.samples += len(ts)
        self._gap(f"{self.store.names[row]} {metric}", ts[~np.isnan(values)])

    def _gap(self, series: str, ts: np.ndarray) -> None:
        """Note a series whose consecutive samples lie more than a step apart (a scrape or an exporter
        down, a counter reset): the steps missing and its longest gap."""
        step = self.store.interval or 0.0
        if step <= 0 or len(ts) < 2:
            return
        ts = np.sort(ts)
        skipped = np.rint(np.diff(ts) / step).astype(np.int64) - 1
        if (skipped > 0).any():
            i = int(np.argmax(skipped))
            self.gaps.append((series, int(skipped[skipped > 0].sum()), float(ts[i]), float(ts[i + 1])))

    def _gap_note(self) -> str:
        """The warning of a file whose series miss samples inside their span ("" when none does): how many
        series and steps, the longest gap and the series it is in, the series named."""
        if not self.gaps:
            return ""
        step = self.store.interval or 0.0
        name, _n, a, b = max(self.gaps, key=lambda g: g[3] - g[2])  # the first longest
        listed = ", ".join(g[0] for g in self.gaps[:GAPS_LISTED]) + (
            f" and {len(self.gaps) - GAPS_LISTED} more" if len(self.gaps) > GAPS_LISTED else "")
        missing = sum(g[1] for g in self.gaps)
        verb = "misses" if len(self.gaps) == 1 else "miss"
        return (f"{len(self.gaps)} series {verb} samples inside their span (gaps longer than the {step:g} s step): "
                f"{missing:,} step(s) missing in all; the longest, {int(round((b - a) / step)) - 1:,} step(s), in "
                f"{name} after {stamp(a)} (next sample {stamp(b)}); series with gaps: {listed}; each VM's median "
                "fills its missing steps (a scrape or the exporter down, or a counter reset?)")

    def _node_cpu(self) -> None:
        if self.idle:
            self.file.notes.append(f"{NODE_CPU}: busy = 100 % - the {', '.join(NOT_BUSY)} time per CPU (as node-mixin's "
                                   "instance:node_cpu_utilisation:rate5m; waiting for I/O or for the hypervisor is "
                                   "not CPU used)")
        for vm, parts in self.idle.items():
            where = f"{self.path}: {NODE_CPU} of {vm}"
            if not self.cpus[vm]:
                raise InputError(f"{where}: no mode=\"idle\" series; the busy % needs each CPU's idle time")
            common = parts[0][0]
            for ts, _r in parts[1:]:
                common = np.intersect1d(common, ts)
            idle = sum(np.interp(common, ts, r) for ts, r in parts) / self.cpus[vm]
            row = self._row(vm, where)
            if row >= 0:
                self._add("cpu_pct", row, common, np.clip(100.0 * (1.0 - idle), 0.0, 100.0), where)

    def _node_memory(self) -> None:
        for vm, pair in self.memory.items():
            if len(pair) < 2:
                missing = NODE_TOTAL if NODE_AVAILABLE in pair else NODE_AVAILABLE
                raise InputError(f"{next(iter(pair.values()))[2]}: {vm} has no {missing} series in this file; "
                                 "memory busy % needs both")
            (ta, a, where), (tt, t, _w) = pair[NODE_AVAILABLE], pair[NODE_TOTAL]
            common = np.intersect1d(ta, tt)
            used = 100.0 * (1.0 - np.interp(common, ta, a) / np.interp(common, tt, t))
            row = self._row(vm, where)
            if row >= 0:
                self._add("mem_pct", row, common, used, where)


def read_prometheus(path: Path, store: SeriesStore, vcpus: np.ndarray | None = None,
                    ram_mib: np.ndarray | None = None) -> SeriesFile:
    """Read one saved ``query_range`` answer onto ``store`` (``vcpus``/``ram_mib`` per store row turn
    CPU seconds and bytes into %); InputError naming file, series and field."""
    return _Reader(Path(path), store, vcpus, ram_mib).read()
