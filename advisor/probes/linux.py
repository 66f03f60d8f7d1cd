"""The built-in Linux probe: /proc, /sys and a few live calls, never needing root.

``LinuxProbe(root="/")`` reads the kernel interface files under ``root``; tests point it at
a fake tree. Live calls (systemd-detect-virt, statvfs, access to /dev/kvm) only happen when
``root`` is the real "/". CPU and memory live here; disks and mounts in
:mod:`advisor.probes.linux_storage`, NICs in :mod:`advisor.probes.linux_net`, VM and
container detection in :mod:`advisor.probes.virt`.
"""

from __future__ import annotations

import os
import re
import sys

from advisor.probes.base import Probe
from advisor.probes.facts import UNKNOWN, CpuFacts, FactLog, HostFacts, MemoryFacts
from advisor.probes.sysfs import FsRoot, parse_cpu_list, parse_key_values
from advisor.progress import CancelToken, ProgressCallback, check, report

CPU = "/sys/devices/system/cpu"


class LinuxProbe(Probe):
    """Linux hosts: CPU, memory, disks, mounts, NICs, KVM, VM/container detection."""

    name = "linux"
    platforms = ("linux",)
    priority = 100

    def __init__(self, root: str | os.PathLike = "/") -> None:
        self.fs = FsRoot(root)

    def probe(self, progress: ProgressCallback | None = None,
              cancel: CancelToken | None = None) -> HostFacts:
        """Read this machine (or the tree under ``root``); missing entries become "unknown"."""
        from advisor.probes.linux_net import read_nics
        from advisor.probes.linux_storage import read_disks, read_mounts
        from advisor.probes.virt import detect_virtualization

        fs, log = self.fs, FactLog()
        facts = HostFacts(probe=self.name, platform=sys.platform if fs.is_real else "linux")
        steps = (("cpu", lambda: setattr(facts, "cpu", read_cpu(fs, log))),
                 ("memory", lambda: setattr(facts, "memory", read_memory(fs, log))),
                 ("disks", lambda: setattr(facts, "disks", read_disks(fs, log))),
                 ("mounts", lambda: setattr(facts, "mounts", read_mounts(fs, log))),
                 ("network interfaces", lambda: setattr(facts, "nics", read_nics(fs, log))),
                 ("virtualization", lambda: detect_virtualization(fs, log, facts)))
        facts.hostname = read_hostname(fs, log)
        for i, (label, step) in enumerate(steps):
            check(cancel)
            report(progress, i / len(steps), f"probing {label}")
            step()
        facts.kvm_available = kvm_available(fs, log)
        report(progress, 1.0, "probe done")
        return log.attach(facts)


def read_hostname(fs: FsRoot, log: FactLog) -> str:
    """The host name from /proc/sys/kernel/hostname (or /etc/hostname)."""
    for path in ("/proc/sys/kernel/hostname", "/etc/hostname"):
        text, _ = fs.read(path)
        if text:
            return log.found("hostname", path, text.split()[0])
    return log.missing("hostname", "neither /proc/sys/kernel/hostname nor /etc/hostname is readable")


def _cpuinfo_blocks(text: str) -> list[dict[str, str]]:
    return [parse_key_values(block) for block in re.split(r"\n\s*\n", text) if block.strip()]


def read_cpu(fs: FsRoot, log: FactLog) -> CpuFacts:
    """CPU model, topology, frequencies (MHz), vmx/svm, governor and NUMA nodes."""
    cpu = CpuFacts()
    text, reason = fs.read("/proc/cpuinfo")
    blocks = _cpuinfo_blocks(text) if text else []
    first = next((b for b in blocks if "processor" in b), blocks[0] if blocks else {})
    if text is None:
        log.missing("cpu.model", reason)
        log.missing("cpu.vendor", reason)
    else:
        for key in ("model name", "cpu model", "Processor", "Hardware"):
            if first.get(key) or (blocks and blocks[-1].get(key)):
                value = first.get(key) or blocks[-1][key]
                cpu.model = log.found("cpu.model", f"/proc/cpuinfo: {key}", value)
                break
        else:
            log.missing("cpu.model", "/proc/cpuinfo names no model (e.g. ARM reports only part numbers)")
        if first.get("vendor_id"):
            cpu.vendor = log.found("cpu.vendor", "/proc/cpuinfo: vendor_id", first["vendor_id"])
        else:
            log.missing("cpu.vendor", "/proc/cpuinfo has no vendor_id")
    _read_topology(fs, log, cpu, blocks)
    _read_frequencies(fs, log, cpu, first)
    flags = set((first.get("flags") or first.get("Features") or "").split())
    if "vmx" in flags:
        cpu.virtualization = log.found("cpu.virtualization", "/proc/cpuinfo: flags (vmx)", "vmx")
    elif "svm" in flags:
        cpu.virtualization = log.found("cpu.virtualization", "/proc/cpuinfo: flags (svm)", "svm")
    elif "flags" in first:
        cpu.virtualization = log.found("cpu.virtualization",
                                       "/proc/cpuinfo: flags (neither vmx nor svm)", "none")
    else:
        log.missing("cpu.virtualization", "/proc/cpuinfo has no x86 flags line")
    gov, reason = fs.read(f"{CPU}/cpu0/cpufreq/scaling_governor")
    if gov:
        cpu.governor = log.found("cpu.governor", f"{CPU}/cpu0/cpufreq/scaling_governor", gov)
    else:
        log.missing("cpu.governor", f"{reason}: no cpufreq driver (usual inside a VM)")
    nodes, reason = fs.read("/sys/devices/system/node/online")
    if nodes:
        cpu.numa_nodes = log.found("cpu.numa_nodes", "/sys/devices/system/node/online",
                                   len(parse_cpu_list(nodes)))
    else:
        log.missing("cpu.numa_nodes", reason)
    return cpu


def _read_topology(fs: FsRoot, log: FactLog, cpu: CpuFacts, blocks: list[dict[str, str]]) -> None:
    online_text, reason = fs.read(f"{CPU}/online")
    if online_text:
        online = parse_cpu_list(online_text)
        cpu.threads = log.found("cpu.threads", f"{CPU}/online", len(online))
    else:
        online = [int(b["processor"]) for b in blocks if b.get("processor", "").isdigit()]
        if online:
            cpu.threads = log.found("cpu.threads", "/proc/cpuinfo: processor entries", len(online))
        else:
            log.missing("cpu.threads", f"{reason} and /proc/cpuinfo lists no processors")
    packages: set[int] = set()
    cores: set[tuple[int, int]] = set()
    for n in online:
        pkg, _ = fs.read_int(f"{CPU}/cpu{n}/topology/physical_package_id")
        core, _ = fs.read_int(f"{CPU}/cpu{n}/topology/core_id")
        if pkg is None or core is None:
            packages, cores = set(), set()
            break
        packages.add(pkg)
        cores.add((pkg, core))
    source = f"{CPU}/cpu*/topology/physical_package_id, core_id"
    if not cores:  # fall back to /proc/cpuinfo
        pairs = {(b.get("physical id"), b.get("core id")) for b in blocks if "processor" in b}
        if pairs and all(p is not None and c is not None for p, c in pairs):
            packages = {int(p or 0) for p, _ in pairs}
            cores = {(int(p or 0), int(c or 0)) for p, c in pairs}
            source = "/proc/cpuinfo: physical id, core id"
    if cores:
        cpu.sockets = log.found("cpu.sockets", source, len(packages))
        cpu.cores = log.found("cpu.cores", source, len(cores))
        if len(cores) % len(packages) == 0:
            cpu.cores_per_socket = log.found("cpu.cores_per_socket", source, len(cores) // len(packages))
        else:
            log.missing("cpu.cores_per_socket", "sockets have different core counts")
        if isinstance(cpu.threads, int) and cpu.threads % len(cores) == 0:
            cpu.threads_per_core = log.found("cpu.threads_per_core", source, cpu.threads // len(cores))
        else:
            log.missing("cpu.threads_per_core", "threads are not a multiple of cores")
    else:
        why = "no CPU topology in /sys and no physical/core ids in /proc/cpuinfo"
        for key in ("sockets", "cores", "cores_per_socket", "threads_per_core"):
            log.missing(f"cpu.{key}", why)


def _read_frequencies(fs: FsRoot, log: FactLog, cpu: CpuFacts, first: dict[str, str]) -> None:
    freq = f"{CPU}/cpu0/cpufreq"
    khz, reason = fs.read_int(f"{freq}/cpuinfo_max_freq")
    if khz:
        cpu.max_mhz = log.found("cpu.max_mhz", f"{freq}/cpuinfo_max_freq", khz / 1000)
    else:
        log.missing("cpu.max_mhz", f"{reason}: no cpufreq driver (usual inside a VM)")
    khz, reason = fs.read_int(f"{freq}/base_frequency")
    at = re.search(r"@\s*([\d.]+)\s*GHz", cpu.model) if cpu.model != UNKNOWN else None
    if khz:
        cpu.base_mhz = log.found("cpu.base_mhz", f"{freq}/base_frequency", khz / 1000)
    elif at:
        cpu.base_mhz = log.found("cpu.base_mhz", "/proc/cpuinfo: model name (@ GHz)", float(at.group(1)) * 1000)
    else:
        log.missing("cpu.base_mhz", f"{reason}, and the model name states no frequency")
    khz, reason = fs.read_int(f"{freq}/scaling_cur_freq")
    if khz:
        cpu.current_mhz = log.found("cpu.current_mhz", f"{freq}/scaling_cur_freq", khz / 1000)
    elif first.get("cpu MHz"):
        cpu.current_mhz = log.found("cpu.current_mhz", "/proc/cpuinfo: cpu MHz", float(first["cpu MHz"]))
    else:
        log.missing("cpu.current_mhz", f"{reason}, and /proc/cpuinfo has no cpu MHz")


def read_memory(fs: FsRoot, log: FactLog) -> MemoryFacts:
    """RAM total and available (bytes) and huge pages from /proc/meminfo."""
    mem = MemoryFacts()
    text, reason = fs.read("/proc/meminfo")
    info = parse_key_values(text) if text else {}

    def kib(key: str) -> int | None:
        try:
            return int(info[key].split()[0]) * 1024
        except (KeyError, ValueError, IndexError):
            return None

    def count(key: str) -> int | None:
        try:
            return int(info[key].split()[0])
        except (KeyError, ValueError, IndexError):
            return None

    for attr, key, get in (("total_bytes", "MemTotal", kib), ("available_bytes", "MemAvailable", kib),
                           ("hugepages_total", "HugePages_Total", count),
                           ("hugepages_free", "HugePages_Free", count),
                           ("hugepage_size_bytes", "Hugepagesize", kib)):
        value = get(key)
        if value is not None:
            setattr(mem, attr, log.found(f"memory.{attr}", f"/proc/meminfo: {key}", value))
        else:
            log.missing(f"memory.{attr}", reason or f"/proc/meminfo has no {key}")
    return mem


def kvm_available(fs: FsRoot, log: FactLog) -> bool:
    """True if /dev/kvm exists and this user may open it read-write."""
    path = fs.path("/dev/kvm")
    if not path.exists():
        return log.found("kvm_available", "/dev/kvm (absent: no KVM module or no nesting)", False)
    if os.access(path, os.R_OK | os.W_OK):
        return log.found("kvm_available", "/dev/kvm (exists, read-write for this user)", True)
    return log.found("kvm_available", "/dev/kvm (exists, but this user may not open it; "
                                      "join the kvm group)", False)
