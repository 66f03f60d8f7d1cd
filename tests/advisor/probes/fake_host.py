"""Fake /proc and /sys trees with real-looking files, for probing without the real machine."""

from __future__ import annotations

import os
from pathlib import Path

CPUINFO_BLOCK = """processor\t: {n}
vendor_id\t: GenuineIntel
cpu family\t: 6
model\t\t: 85
model name\t: Intel(R) Xeon(R) Gold 6230 CPU @ 2.10GHz
cpu MHz\t\t: 2100.000
physical id\t: {pkg}
siblings\t: 4
core id\t\t: {core}
cpu cores\t: 2
flags\t\t: fpu vme de pse tsc msr pae mce cx8 apic sep mtrr vmx ssse3 sse4_1 sse4_2 avx avx2
"""

MEMINFO = """MemTotal:       401408000 kB
MemFree:        300000000 kB
MemAvailable:   350000000 kB
Buffers:          100000 kB
HugePages_Total:     512
HugePages_Free:      500
HugePages_Rsvd:        0
Hugepagesize:       2048 kB
"""

MOUNTS = """sysfs /sys sysfs rw,nosuid 0 0
proc /proc proc rw 0 0
/dev/md0 / ext4 rw,relatime 0 0
tmpfs /run tmpfs rw 0 0
/dev/nvme0n1p1 /var/lib/libvirt xfs rw 0 0
filer:/export/images /srv/images nfs4 rw 0 0
"""


def write(root: Path, logical: str, text: str) -> None:
    path = root / logical.lstrip("/")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def link(root: Path, logical: str, target: str) -> None:
    """A symlink at ``logical`` to the logical path ``target`` (kept inside ``root``)."""
    path = root / logical.lstrip("/")
    path.parent.mkdir(parents=True, exist_ok=True)
    real = root / target.lstrip("/")
    real.mkdir(parents=True, exist_ok=True)
    os.symlink(os.path.relpath(real, path.parent), path)


def block(root: Path, name: str, device: str, sectors: int, rotational: int | None,
          scheduler: str | None = "none [mq-deadline] kyber", model: str | None = None,
          vendor: str | None = None, dev: str = "8:0") -> None:
    """/sys/block/<name> -> <device>/block/<name> with size, queue files and device model."""
    target = f"{device}/block/{name}"
    link(root, f"/sys/block/{name}", target)
    write(root, f"{target}/size", f"{sectors}\n")
    write(root, f"{target}/dev", f"{dev}\n")
    if rotational is not None:
        write(root, f"{target}/queue/rotational", f"{rotational}\n")
    if scheduler is not None:
        write(root, f"{target}/queue/scheduler", f"{scheduler}\n")
    if model is not None:
        write(root, f"{target}/device/model", f"{model}\n")
    if vendor is not None:
        write(root, f"{target}/device/vendor", f"{vendor}\n")


def nic(root: Path, name: str, device: str, operstate: str, flags: str, carrier: str | None,
        speed: str | None, mac: str = "52:54:00:12:34:56") -> None:
    target = f"{device}/net/{name}"
    link(root, f"/sys/class/net/{name}", target)
    write(root, f"{target}/operstate", operstate + "\n")
    write(root, f"{target}/flags", flags + "\n")
    write(root, f"{target}/address", mac + "\n")
    if carrier is not None:
        write(root, f"{target}/carrier", carrier + "\n")
    if speed is not None:
        write(root, f"{target}/speed", speed + "\n")
    if "/virtual/" not in device:
        (root / target.lstrip("/") / "device").mkdir(parents=True, exist_ok=True)


def server(root: Path) -> Path:
    """A bare-metal 2-socket Xeon: 4 cores, 8 threads, HDD, NVMe, md RAID, 10 GbE, hugepages."""
    cpus = []
    n = 0
    for pkg in (0, 1):
        for core in (0, 1):
            for _thread in (0, 1):
                cpus.append((n, pkg, core))
                n += 1
    write(root, "/proc/cpuinfo", "\n".join(CPUINFO_BLOCK.format(n=n, pkg=p, core=c) for n, p, c in cpus))
    write(root, "/proc/meminfo", MEMINFO)
    write(root, "/proc/self/mounts", MOUNTS)
    write(root, "/proc/sys/kernel/hostname", "rack12-node3\n")
    write(root, "/proc/1/cgroup", "0::/init.scope\n")
    cpu = "/sys/devices/system/cpu"
    write(root, f"{cpu}/online", "0-7\n")
    for n, pkg, core in cpus:
        write(root, f"{cpu}/cpu{n}/topology/physical_package_id", f"{pkg}\n")
        write(root, f"{cpu}/cpu{n}/topology/core_id", f"{core}\n")
    freq = f"{cpu}/cpu0/cpufreq"
    write(root, f"{freq}/scaling_governor", "performance\n")
    write(root, f"{freq}/cpuinfo_max_freq", "3900000\n")
    write(root, f"{freq}/base_frequency", "2100000\n")
    write(root, f"{freq}/scaling_cur_freq", "2800123\n")
    write(root, "/sys/devices/system/node/online", "0-1\n")
    write(root, "/sys/class/dmi/id/sys_vendor", "Dell Inc.\n")
    write(root, "/sys/class/dmi/id/product_name", "PowerEdge R740\n")
    pci = "/sys/devices/pci0000:00"
    block(root, "sda", f"{pci}/0000:00:17.0/ata1/host0/target0:0:0/0:0:0:0", 7814037168, 1,
          model="ST4000NM0035-1V4", vendor="ATA")
    block(root, "sdb", f"{pci}/0000:00:17.0/ata2/host1/target1:0:0/1:0:0:0", 7814037168, 1,
          model="ST4000NM0035-1V4", vendor="ATA", dev="8:16")
    block(root, "nvme0n1", f"{pci}/0000:5e:00.0/nvme/nvme0", 3750748848, 0, scheduler="[none] mq-deadline",
          model="Dell Express Flash PM1725b", dev="259:0")
    block(root, "md0", "/sys/devices/virtual", 7813774336, 1, scheduler=None, dev="9:0")
    block(root, "loop0", "/sys/devices/virtual", 0, 0, dev="7:0")          # unattached: not a disk
    block(root, "ram0", "/sys/devices/virtual", 131072, 0, dev="1:0")       # RAM disk: lsblk hides it
    block(root, "sdc", f"{pci}/0000:18:00.0/host2/target2:2:0/2:2:0:0", 11718885376, 0,
          model="PERC H740P Mini", vendor="DELL", dev="8:32")
    nic(root, "eno1", f"{pci}/0000:3b:00.0", "up", "0x1003", "1", "10000")
    nic(root, "eno2", f"{pci}/0000:3b:00.1", "down", "0x1002", None, "-1", mac="52:54:00:12:34:57")
    nic(root, "lo", "/sys/devices/virtual", "unknown", "0x9", "1", None, mac="00:00:00:00:00:00")
    write(root, "/dev/kvm", "")
    return root
