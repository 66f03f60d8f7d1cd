"""A scenario skeleton whose ``hosts`` section is the probed machine.

The structure follows the shared scenario format (version 1; see advisor/scenario.py):
``hosts`` with count 1, reserve 0, cpu, ram_gib, disks, nic_gbps and shared_storage, and one
placeholder workload (the format needs at least one) for the user to replace. Facts the probe could not determine are left out (and
listed in a header comment in YAML and TOML). :func:`write_skeleton` picks YAML, TOML or JSON
from the file extension and writes atomically.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from advisor.probes.facts import UNKNOWN, VIRT_EXTENSIONS, HostFacts
from advisor.scenario.fields import SCENARIO_VERSION
from knowledge.host_types import DISK_KINDS

SCENARIO_DISK_KINDS = DISK_KINDS
#: block devices that are not physical disks of the host
NOT_PHYSICAL = ("dm", "md", "loop", "zram", "optical", "nbd", "rbd")
SHARED_FS = {"nfs": "nfs", "nfs4": "nfs", "ceph": "distributed", "glusterfs": "distributed",
             "fuse.glusterfs": "distributed", "lustre": "distributed", "gpfs": "distributed"}


def _known(value: object) -> bool:
    return value is not None and value != UNKNOWN


def _cores_per_socket_guess(cpu) -> int | None:
    sockets = cpu.sockets if _known(cpu.sockets) and cpu.sockets else 1
    if _known(cpu.cores) and cpu.cores:
        return max(int(cpu.cores) // int(sockets), 1)
    if _known(cpu.threads) and cpu.threads:
        tpc = cpu.threads_per_core if _known(cpu.threads_per_core) and cpu.threads_per_core else 1
        return max(int(cpu.threads) // int(tpc) // int(sockets), 1)
    return None


MB_PER_MIB = 1.048576


def bench_disk_figures(bench) -> tuple[float, float, str] | None:
    """(random IOPS, sequential MB/s, kind of device) of this machine's disk from a micro-benchmark
    run (:class:`advisor.probes.bench.BenchResult` or its dict): the lower of reads and writes;
    None when the run did not measure a device (buffered I/O, or figures beyond any one disk:
    the page cache)."""
    if bench is None:
        return None
    get = (lambda k: bench.get(k)) if isinstance(bench, dict) else (lambda k: getattr(bench, k, None))
    if not get("direct_io"):
        return None
    values: dict[tuple[str, str], float] = {}
    for m in get("measurements") or []:
        m = m if isinstance(m, dict) else m.__dict__
        op = (m.get("factors") or {}).get("operation", "")
        values[(m.get("metric", ""), op)] = float(m.get("value") or 0.0)
    iops = [values.get(("iops", op)) or 0.0 for op in ("random_read", "random_write")]
    seq = [values.get(("throughput", op)) or 0.0 for op in ("sequential_read", "sequential_write")]
    if not all(iops) or not all(seq):
        return None
    from advisor.calibration import device_class

    kind = device_class({"seq_read_mib_s": seq[0], "seq_write_mib_s": seq[1], "rand_read_iops": iops[0],
                         "rand_write_iops": iops[1]})
    if kind is None or kind == "cache":
        return None
    return min(iops), min(seq) * MB_PER_MIB, kind


def hosts_section(facts: HostFacts, bench=None) -> tuple[dict, list[str]]:
    """The scenario ``hosts`` dict for this machine (count 1, GiB, GB, Gbit/s) and notes on
    what was left out or is uncertain. With ``bench`` (a micro-benchmark run on this machine's
    disk, direct I/O), the disk group it measured gets its IOPS and MB/s (``source: probe``)."""
    notes: list[str] = []
    cpu_in = facts.cpu
    cpu: dict = {}
    for key, value in (("model", cpu_in.model), ("sockets", cpu_in.sockets),
                       ("cores_per_socket", cpu_in.cores_per_socket),
                       ("threads_per_core", cpu_in.threads_per_core)):
        if _known(value):
            cpu[key] = value
        else:
            notes.append(f"cpu.{key} unknown: {facts.unknown.get(f'cpu.{key}', 'not found')}")
    if "cores_per_socket" not in cpu:
        guess = _cores_per_socket_guess(cpu_in)
        if guess:
            cpu["cores_per_socket"] = guess
            notes.append(f"cpu.cores_per_socket {guess} is derived from the total core or thread count "
                         "(sockets or cores unknown)")
    mhz = next((v for v in (cpu_in.base_mhz, cpu_in.max_mhz, cpu_in.current_mhz) if _known(v)), None)
    if mhz:
        cpu["ghz"] = round(float(mhz) / 1000, 2)
        if not _known(cpu_in.base_mhz):
            notes.append("cpu.ghz is the maximum or current frequency, the base frequency is unknown")
    else:
        notes.append("cpu.ghz unknown: no frequency found")
    cpu["virtualization"] = cpu_in.virtualization if cpu_in.virtualization in VIRT_EXTENSIONS else UNKNOWN
    hosts: dict = {"count": 1, "reserve": 0, "cpu": cpu}
    if _known(facts.memory.total_bytes):
        hosts["ram_gib"] = round(int(facts.memory.total_bytes) / 2**30, 1)
    else:
        notes.append(f"ram_gib unknown: {facts.unknown.get('memory.total_bytes', 'not found')}")
    groups: Counter = Counter()
    for d in facts.disks:
        if d.transport in NOT_PHYSICAL or d.kind not in SCENARIO_DISK_KINDS or not _known(d.size_bytes):
            continue
        if not d.size_bytes:
            continue
        groups[(d.kind, round(int(d.size_bytes) / 1e9))] += 1
        if d.rotational_confidence != "high":
            notes.append(f"disk {d.name}: kind {d.kind} is a guess ({d.rotational_reason})")
    hosts["disks"] = [{"kind": k, "count": n, "size_gb": gb} for (k, gb), n in sorted(groups.items())]
    measured = bench_disk_figures(bench)
    if measured is not None:
        iops, mb_s, kind = measured
        # the benchmark ran on one disk: the only group, else the only group of the kind it measured
        fits = hosts["disks"] if len(hosts["disks"]) == 1 else [d for d in hosts["disks"] if d["kind"] == kind]
        if len(fits) == 1:
            fits[0].update(iops=round(iops), mb_s=round(mb_s, 1), source="probe")
        else:
            notes.append("disk figures of the benchmark not used: it is not clear which disk group it measured")
    elif bench is not None:
        notes.append("the benchmark did not measure a disk (buffered I/O or page cache): per-kind disk figures apply")
    speeds = [n.speed_mbps for n in facts.nics if not n.virtual and n.up and _known(n.speed_mbps)]
    if speeds:
        hosts["nic_gbps"] = max(int(s) for s in speeds) / 1000
    else:
        notes.append("nic_gbps unknown: no physical interface that is up reports a link speed")
    shared = []
    for m in facts.mounts:
        shared_kind = SHARED_FS.get(m.fstype)
        if shared_kind is None:
            continue
        entry: dict = {"kind": shared_kind}
        if "nic_gbps" in hosts:
            entry["network_gbps"] = hosts["nic_gbps"]
        if _known(m.size_bytes):
            entry["capacity_tb"] = round(int(m.size_bytes) / 1e12, 3)
        shared.append(entry)
    hosts["shared_storage"] = shared
    return hosts, notes


#: the scenario format needs a workload; this one is small and meant to be replaced
PLACEHOLDER_WORKLOAD = {
    "name": "replace-me", "vms": 1, "vcpus": 1, "ram_gib": 1, "cpu_intensity": "low",
    "io": {"pattern": "mixed", "read_share": 0.5, "intensity": "low", "block_size_kib": 4},
    "live_migration": False, "data_loss_tolerance": "any", "containerizable": False}


def skeleton(facts: HostFacts, name: str | None = None, bench=None) -> tuple[dict, list[str]]:
    """A whole scenario (version, name, hosts, a placeholder workload, default preferences)
    and notes (``bench``: see :func:`hosts_section`)."""
    hosts, notes = hosts_section(facts, bench)
    host = facts.hostname if _known(facts.hostname) else "this machine"
    notes = [*notes, "workloads: 'replace-me' is a placeholder; describe your workloads there"]
    workload = json.loads(json.dumps(PLACEHOLDER_WORKLOAD))  # a fresh copy
    return ({"version": SCENARIO_VERSION, "name": name or f"{host} (probed)", "hosts": hosts,
             "workloads": [workload],
             "preferences": {"open_source_only": False, "container_friendly": False}}, notes)


def render(data: dict, path: str | os.PathLike, notes: Sequence[str] = ()) -> str:
    """The text of ``data`` in the format the extension of ``path`` names (.yaml/.yml, .toml,
    else JSON), with ``notes`` as a header comment where the format allows."""
    suffix = Path(path).suffix.lower()
    header = "".join(f"# {n}\n" for n in ["Scenario skeleton written by `capadvisor probe`.", *notes])
    if suffix in (".yaml", ".yml"):
        import yaml

        return header + yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
    if suffix == ".toml":
        from advisor.scenario import to_toml

        return header + to_toml(data)
    return json.dumps(data, indent=2) + "\n"


def write_skeleton(facts: HostFacts, path: str | os.PathLike, name: str | None = None, bench=None) -> dict:
    """Write the scenario skeleton of ``facts`` to ``path`` atomically; returns the data."""
    from knowledge.infra.atomic import write_text_atomic

    data, notes = skeleton(facts, name, bench)
    write_text_atomic(Path(path), render(data, path, notes))
    return data
