"""Network interfaces from /sys/class/net: link speed (Mbit/s), state, virtual or physical."""

from __future__ import annotations

from advisor.probes.facts import FactLog, NicFacts
from advisor.probes.sysfs import FsRoot

NET = "/sys/class/net"
IFF_UP = 0x1


def read_nics(fs: FsRoot, log: FactLog) -> list[NicFacts]:
    """Every interface in /sys/class/net, loopback included.

    ``up`` follows ``ip link``: operstate "up", or "unknown" (loopback, some tunnels) with
    the interface administratively up and a carrier.
    """
    nics = []
    for name in fs.listdir(NET):
        base = f"{NET}/{name}"
        key = f"nics.{name}"
        nic = NicFacts(name=name)
        state, reason = fs.read(f"{base}/operstate")
        if state:
            nic.operstate = log.found(f"{key}.operstate", f"{base}/operstate", state)
        else:
            log.missing(f"{key}.operstate", reason)
        flags, _ = fs.read_int(f"{base}/flags")
        nic.admin_up = bool(flags is not None and flags & IFF_UP)
        carrier, _ = fs.read_int(f"{base}/carrier")
        nic.up = log.found(f"{key}.up", f"{base}/operstate, flags, carrier",
                           state == "up" or (state == "unknown" and nic.admin_up and carrier == 1))
        device = fs.realpath(base)
        nic.virtual = log.found(f"{key}.virtual", f"{base} -> {device or '?'}",
                                "/devices/virtual/" in device or not fs.exists(f"{base}/device"))
        speed, reason = fs.read_int(f"{base}/speed")
        if speed is not None and speed > 0:
            nic.speed_mbps = log.found(f"{key}.speed_mbps", f"{base}/speed", speed)
        elif not nic.up:
            log.missing(f"{key}.speed_mbps", f"{reason or f'{base}/speed is {speed}'}; the link is down",
                        f"{base}/speed")
        elif speed is not None:
            log.missing(f"{key}.speed_mbps", f"{base}/speed is {speed}: the driver reports no link "
                                             "speed (virtio and other virtual NICs do)", f"{base}/speed")
        else:
            log.missing(f"{key}.speed_mbps", f"{reason}; virtual interfaces have no link speed",
                        f"{base}/speed")
        mac, _ = fs.read(f"{base}/address")
        if mac:
            nic.mac = log.found(f"{key}.mac", f"{base}/address", mac)
        nics.append(nic)
    if not nics:
        log.missing("nics", f"{NET} is missing or empty")
    return nics
