"""Block devices from /sys/block and mounted file systems from /proc/self/mounts.

The kernel's rotational flag is only as good as what the device tells it: NVMe is flash,
virtio and Xen disks report what the hypervisor chose (virtio defaults to rotational),
device-mapper and md derive it from their members, hardware RAID volumes report the
controller's guess. :func:`read_disks` says how sure it is and why.
"""

from __future__ import annotations

import os
import re

from advisor.probes.facts import UNKNOWN, DiskFacts, FactLog, MountFacts
from advisor.probes.sysfs import FsRoot

BLOCK = "/sys/block"
RAID_WORDS = re.compile(r"PERC|LOGICAL VOLUME|MegaRAID|RAID|ServeRAID|Smart Array|LSI|AVAGO|Adaptec",
                        re.IGNORECASE)
#: file systems that hold no user data
PSEUDO_FS = frozenset("""proc sysfs devtmpfs devpts tmpfs cgroup cgroup2 securityfs pstore debugfs tracefs
    mqueue hugetlbfs configfs fusectl bpf autofs binfmt_misc rpc_pipefs nsfs efivarfs selinuxfs ramfs
    squashfs fuse.gvfsd-fuse fuse.portal overlay devfs""".split())
NETWORK_FS = frozenset("nfs nfs4 cifs smb3 ceph glusterfs fuse.glusterfs fuse.sshfs lustre gpfs 9p".split())


def _transport(fs: FsRoot, name: str) -> str:
    for prefix, transport in (("nvme", "nvme"), ("vd", "virtio"), ("xvd", "xen"), ("dm-", "dm"),
                              ("md", "md"), ("loop", "loop"), ("zram", "zram"), ("mmcblk", "mmc"),
                              ("sr", "optical"), ("nbd", "nbd"), ("rbd", "rbd")):
        if name.startswith(prefix):
            return transport
    device = fs.realpath(f"{BLOCK}/{name}")
    if "/usb" in device:
        return "usb"
    if "/virtio" in device:
        return "virtio"
    return "scsi" if name.startswith(("sd", "hd")) else UNKNOWN


def _rotational(transport: str, flag: bool, is_raid: bool, name: str) -> tuple[str, str, str]:
    """(kind, confidence, reason) for a disk whose queue/rotational flag is ``flag``."""
    by_flag = "hdd" if flag else "ssd"
    if transport == "nvme":
        return "nvme", "high", "NVMe devices are flash; the kernel marks them non-rotational"
    if transport == "zram":
        return "ram", "high", "zram is compressed RAM"
    if transport in ("virtio", "xen"):
        return by_flag, "low", (f"{transport} disks report the flag the hypervisor chose (virtio "
                                "defaults to rotational), not the storage behind them")
    if transport in ("dm", "md"):
        return by_flag, "medium", (f"{transport} derives the flag from its member devices "
                                   f"(/sys/block/{name}/slaves)")
    if transport in ("loop", "nbd", "rbd"):
        return by_flag, "low", f"a {transport} device reports a default, not the storage behind it"
    if is_raid:
        return by_flag, "low", "a hardware RAID volume reports what the controller chose"
    if transport == "usb":
        return by_flag, "medium", "USB bridges often hide the rotation rate of the disk"
    if transport == "optical":
        return "optical", "high", "optical drive"
    if transport == "mmc":
        return "ssd", "high", "eMMC/SD storage is flash"
    return by_flag, "high", "reported by the device itself (ATA/SCSI rotation rate)"


def read_disks(fs: FsRoot, log: FactLog) -> list[DiskFacts]:
    """Whole block devices as ``lsblk -d`` lists them: RAM disks (major 1) and empty loop
    devices are left out. Sizes in bytes."""
    disks = []
    for name in fs.listdir(BLOCK):
        base, key = f"{BLOCK}/{name}", f"disks.{name}"
        dev, _ = fs.read(f"{base}/dev")
        sectors, size_reason = fs.read_int(f"{base}/size")
        if (dev or "").startswith("1:") or (name.startswith("loop") and not sectors):
            continue
        disk = DiskFacts(name=name)
        if sectors is not None:
            disk.size_bytes = log.found(f"{key}.size_bytes", f"{base}/size (512-byte sectors)", sectors * 512)
        else:
            log.missing(f"{key}.size_bytes", size_reason)
        disk.transport = log.found(f"{key}.transport", f"device name and {base} link",
                                   _transport(fs, name))
        vendor, _ = fs.read(f"{base}/device/vendor")
        model, model_reason = fs.read(f"{base}/device/model")
        if model:
            text = f"{vendor} {model}" if vendor and not vendor.startswith("0x") else model
            disk.model = log.found(f"{key}.model", f"{base}/device/vendor, model", " ".join(text.split()))
        else:
            log.missing(f"{key}.model", f"{model_reason} (virtual and some NVMe devices name none)")
        flag, rot_reason = fs.read_int(f"{base}/queue/rotational")
        if flag is None:
            log.missing(f"{key}.rotational", rot_reason)
            log.missing(f"{key}.kind", f"{rot_reason}; the kind follows the rotational flag")
            disk.rotational_reason = rot_reason
            if disk.transport == "nvme":
                disk.kind, disk.rotational = "nvme", False
                disk.rotational_confidence, disk.rotational_reason = "high", "NVMe devices are flash"
        else:
            kind, confidence, why = _rotational(disk.transport, bool(flag),
                                                bool(RAID_WORDS.search(f"{vendor} {model}")), name)
            disk.rotational = log.found(f"{key}.rotational", f"{base}/queue/rotational", bool(flag))
            disk.kind = log.found(f"{key}.kind", f"{base}/queue/rotational and transport", kind)
            disk.rotational_confidence, disk.rotational_reason = confidence, why
        sched, reason = fs.read(f"{base}/queue/scheduler")
        chosen = re.search(r"\[([^\]]+)\]", sched or "")
        if chosen:
            disk.scheduler = log.found(f"{key}.scheduler", f"{base}/queue/scheduler", chosen.group(1))
        elif sched:
            disk.scheduler = log.found(f"{key}.scheduler", f"{base}/queue/scheduler", sched.split()[0])
        else:
            log.missing(f"{key}.scheduler", reason)
        disks.append(disk)
    if not disks:
        log.missing("disks", f"{BLOCK} is missing or lists no disks")
    return disks


def read_mounts(fs: FsRoot, log: FactLog) -> list[MountFacts]:
    """Mounted file systems holding data (pseudo file systems left out), sizes in bytes
    (sizes only on the live system)."""
    for path in ("/proc/self/mounts", "/proc/mounts"):
        text, reason = fs.read(path)
        if text is not None:
            break
    else:
        log.missing("mounts", reason)
        return []
    by_point: dict[str, MountFacts] = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) < 3:
            continue
        device, point, fstype = (p.replace("\\040", " ") for p in parts[:3])
        if fstype in PSEUDO_FS and point != "/":
            continue
        if not (device.startswith("/") or fstype in NETWORK_FS or fstype in ("zfs", "btrfs") or point == "/"):
            continue
        by_point[point] = MountFacts(mountpoint=point, device=device, fstype=fstype)
    mounts = sorted(by_point.values(), key=lambda m: m.mountpoint)
    for m in mounts:
        key = f"mounts.{m.mountpoint}"
        log.found(f"{key}.fstype", path, m.fstype)
        if not fs.is_real:
            log.missing(f"{key}.size_bytes", "sizes are read only on the live system (statvfs)")
            continue
        try:
            st = os.statvfs(m.mountpoint)
        except OSError as exc:
            log.missing(f"{key}.size_bytes", f"statvfs({m.mountpoint}) failed: {exc.strerror or exc}")
            continue
        m.size_bytes = log.found(f"{key}.size_bytes", f"os.statvfs({m.mountpoint})", st.f_blocks * st.f_frsize)
        m.free_bytes = log.found(f"{key}.free_bytes", f"os.statvfs({m.mountpoint})", st.f_bavail * st.f_frsize)
    return mounts


def mount_of(path: str, mounts: list[MountFacts]) -> MountFacts | None:
    """The mount holding ``path`` (longest mount point that is a prefix of it), or None."""
    path = os.path.realpath(path)
    best = None
    for m in mounts:
        point = m.mountpoint.rstrip("/") or "/"
        if (path == point or path.startswith(point + "/") or point == "/") and (
                best is None or len(point) > len(best.mountpoint.rstrip("/") or "/")):
            best = m
    return best
