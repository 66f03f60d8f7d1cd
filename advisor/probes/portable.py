"""The portable fallback probe: psutil and the standard library, on any platform.

It knows less than the Linux probe (no sockets, rotational flags, governor or hypervisor);
what it cannot tell is "unknown" with a reason, like any other probe.
"""

from __future__ import annotations

import os
import platform
import socket
import sys

from advisor.probes.base import Probe
from advisor.probes.facts import UNKNOWN, FactLog, HostFacts, MountFacts, NicFacts
from advisor.progress import CancelToken, ProgressCallback, check, report


class PsutilProbe(Probe):
    """Any platform psutil supports: CPU counts and frequency, memory, partitions, NICs."""

    name = "psutil"
    platforms = ("*",)
    priority = 0

    def probe(self, progress: ProgressCallback | None = None,
              cancel: CancelToken | None = None) -> HostFacts:
        """Read this machine through psutil; sizes in bytes, frequencies MHz, speeds Mbit/s."""
        import psutil

        log = FactLog()
        facts = HostFacts(probe=self.name, platform=sys.platform,
                          hostname=log.found("hostname", "socket.gethostname()", socket.gethostname()))
        steps = ((0.0, "probing cpu", _cpu), (0.3, "probing memory", _memory),
                 (0.5, "probing file systems", _mounts), (0.8, "probing network interfaces", _nics))
        for i, (fraction, message, step) in enumerate(steps):
            if i:
                check(cancel)
            report(progress, fraction, message)
            step(facts, log, psutil)
        _platform(facts, log, psutil)
        report(progress, 1.0, "probe done")
        return log.attach(facts)


def _cpu(facts: HostFacts, log: FactLog, psutil) -> None:
    """The CPU: model, threads and cores, frequencies."""
    cpu = facts.cpu
    model = platform.processor() or platform.machine()
    cpu.model = (log.found("cpu.model", "platform.processor()", model) if model
                 else log.missing("cpu.model", "platform.processor() is empty"))
    threads = psutil.cpu_count(logical=True)
    cores = psutil.cpu_count(logical=False)
    cpu.threads = (log.found("cpu.threads", "psutil.cpu_count(logical=True)", threads) if threads
                   else log.missing("cpu.threads", "psutil.cpu_count() returned None"))
    cpu.cores = (log.found("cpu.cores", "psutil.cpu_count(logical=False)", cores) if cores
                 else log.missing("cpu.cores", "psutil cannot count physical cores here"))
    if threads and cores and threads % cores == 0:
        cpu.threads_per_core = log.found("cpu.threads_per_core", "psutil.cpu_count", threads // cores)
    for key in ("sockets", "cores_per_socket", "virtualization", "governor", "numa_nodes", "vendor"):
        log.missing(f"cpu.{key}", "the portable psutil probe cannot read it")
    try:
        freq = psutil.cpu_freq()
    except Exception:  # noqa: BLE001 - psutil raises various errors on odd platforms
        freq = None
    if freq and freq.max:
        cpu.max_mhz = log.found("cpu.max_mhz", "psutil.cpu_freq().max", float(freq.max))
    else:
        log.missing("cpu.max_mhz", "psutil.cpu_freq() gives no maximum")
    if freq and freq.current:
        cpu.current_mhz = log.found("cpu.current_mhz", "psutil.cpu_freq().current", float(freq.current))
    else:
        log.missing("cpu.current_mhz", "psutil.cpu_freq() gives no current frequency")
    log.missing("cpu.base_mhz", "the portable psutil probe cannot read it")


def _memory(facts: HostFacts, log: FactLog, psutil) -> None:
    """Total and available memory."""
    vm = psutil.virtual_memory()
    facts.memory.total_bytes = log.found("memory.total_bytes", "psutil.virtual_memory().total", vm.total)
    facts.memory.available_bytes = log.found("memory.available_bytes",
                                             "psutil.virtual_memory().available", vm.available)
    for key in ("hugepages_total", "hugepages_free", "hugepage_size_bytes"):
        log.missing(f"memory.{key}", "the portable psutil probe cannot read it")


def _mounts(facts: HostFacts, log: FactLog, psutil) -> None:
    """The mounted file systems (psutil sees partitions, not block devices)."""
    log.missing("disks", "the portable psutil probe sees partitions (mounts), not block devices")
    for part in psutil.disk_partitions(all=False):
        mount = MountFacts(mountpoint=part.mountpoint, device=part.device, fstype=part.fstype)
        key = f"mounts.{part.mountpoint}"
        log.found(f"{key}.fstype", "psutil.disk_partitions()", part.fstype)
        try:
            usage = psutil.disk_usage(part.mountpoint)
            mount.size_bytes = log.found(f"{key}.size_bytes", "psutil.disk_usage()", usage.total)
            mount.free_bytes = log.found(f"{key}.free_bytes", "psutil.disk_usage()", usage.free)
        except OSError as exc:
            log.missing(f"{key}.size_bytes", f"psutil.disk_usage failed: {exc}")
        facts.mounts.append(mount)


def _nics(facts: HostFacts, log: FactLog, psutil) -> None:
    """The network interfaces: up or down, speed, MAC address."""
    addrs = psutil.net_if_addrs()
    for name, st in sorted(psutil.net_if_stats().items()):
        nic = NicFacts(name=name, up=bool(st.isup), admin_up=bool(st.isup),
                       operstate="up" if st.isup else "down")
        log.found(f"nics.{name}.up", "psutil.net_if_stats().isup", nic.up)
        if st.speed:
            nic.speed_mbps = log.found(f"nics.{name}.speed_mbps", "psutil.net_if_stats().speed", st.speed)
        else:
            log.missing(f"nics.{name}.speed_mbps", "psutil reports speed 0 (unknown or virtual)")
        mac = next((a.address for a in addrs.get(name, ()) if a.family == psutil.AF_LINK), None)
        if mac:
            nic.mac = log.found(f"nics.{name}.mac", "psutil.net_if_addrs()", mac)
        facts.nics.append(nic)


def _platform(facts: HostFacts, log: FactLog, psutil) -> None:
    """Virtualisation facts (not readable here) and /dev/kvm."""
    for key in ("is_virtual_machine", "hypervisor", "is_container", "container"):
        log.missing(key, "the portable psutil probe cannot tell")
    facts.kvm_available = (log.found("kvm_available", "/dev/kvm", os.access("/dev/kvm", os.R_OK | os.W_OK))
                           if sys.platform.startswith("linux")
                           else log.found("kvm_available", "sys.platform (KVM is Linux only)", False))
    facts.container = UNKNOWN
