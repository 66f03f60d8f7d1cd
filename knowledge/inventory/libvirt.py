"""libvirt: ``virsh dumpxml DOMAIN`` domain XML, and the text of ``virsh list --all``,
``virsh dominfo DOMAIN`` and ``virsh nodeinfo`` (one command's output per file, or several
concatenated).

Domain XML is parsed with defusedxml: a document type declaration, entity declarations (XML
bombs) and external entities are refused. From a domain: vCPUs (the ``current`` count when
given), memory (``<memory>`` in its unit, KiB by default), the disks' ``<driver cache=...>``
(absent: the hypervisor's default), what backs each disk, and whether vCPUs are pinned
(``<cputune><vcpupin>`` or ``<vcpu cpuset=...>``).
"""

from __future__ import annotations

import re
from pathlib import Path

from knowledge.infra.errors import InputError
from knowledge.inventory.common import RowError, finite_value, normalize_uuid, parse_number
from knowledge.inventory.model import MIB, VM, Estate, Host, Source

#: bytes per unit of libvirt's memory units (formatdomain: "Memory Allocation")
UNITS = {"b": 1, "bytes": 1, "kb": 1000, "k": 1024, "kib": 1024, "mb": 1000**2, "m": 1024**2, "mib": 1024**2,
         "gb": 1000**3, "g": 1024**3, "gib": 1024**3, "tb": 1000**4, "t": 1024**4, "tib": 1024**4,
         "pb": 1000**5, "p": 1024**5, "pib": 1024**5, "eb": 1000**6, "e": 1024**6, "eib": 1024**6}

#: network disk protocols served by a distributed store
DISTRIBUTED = ("rbd", "gluster", "sheepdog", "vitastor")


def looks_like_domain_xml(head: str) -> bool:
    return bool(re.search(r"<domain[\s>]", head))


def looks_like_virsh_text(head: str) -> bool:
    return bool(re.search(r"^\s*Id\s+Name\s+State\s*$", head, re.M) or re.search(r"^CPU model:\s", head, re.M)
                or (re.search(r"^Name:\s", head, re.M) and re.search(r"^(UUID|CPU\(s\)):\s", head, re.M)))


def _bytes(value: str, unit: str | None, where: str, element: str) -> float:
    """A size in bytes (through the estate's one number check: finite, at most MAX_NUMBER units);
    ``element`` is an XML element's name in brackets (``<memory>``) or a virsh text's key (``Max memory``)."""
    try:
        n = finite_value(float(value))
    except (TypeError, ValueError) as exc:
        shown = f"{value[:20]!r}... ({len(value)} characters)" if len(str(value)) > 24 else repr(value)
        raise RowError(f"{where}: {element}: {shown} is not a size that fits ({exc})") from None
    factor = UNITS.get((unit or "KiB").strip().lower())
    if factor is None:
        raise RowError(f"{where}: {element}: unknown unit {str(unit)[:20]!r} (libvirt units: KiB, MiB, GiB, "
                       "TiB, PiB, EiB or their decimal kB, MB, GB, TB, PB, EB)")
    if n < 0:
        raise RowError(f"{where}: {element}: negative size {value}")
    return n * factor


def read_domain_xml(path: Path, text: str, estate: Estate) -> VM:
    """One ``virsh dumpxml`` domain."""
    import xml.etree.ElementTree as ET

    import defusedxml.ElementTree as DET
    from defusedxml import DefusedXmlException

    where = str(path)
    try:
        root = DET.fromstring(text, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except DefusedXmlException as exc:
        raise InputError(f"{where}: refused: the XML declares a document type, entities or external references "
                         f"({type(exc).__name__}); a domain from virsh dumpxml has none") from exc
    except ET.ParseError as exc:
        line, col = getattr(exc, "position", (0, 0))
        raise InputError(f"{where}: broken XML at line {line}, column {col + 1}: {exc}") from exc
    if root.tag != "domain":
        raise InputError(f"{where}: root element <{root.tag}> is not a libvirt <domain> (expected virsh dumpxml output)")
    name = (root.findtext("name") or "").strip()
    if not name:
        raise InputError(f"{where}: element <domain> has no <name>")
    mem_el = root.find("memory")
    if mem_el is None or not (mem_el.text or "").strip():
        raise InputError(f"{where}: domain {name}: element <memory> is missing")
    ram = _bytes(mem_el.text.strip(), mem_el.get("unit"), where, "element <memory>") / MIB
    vcpu_el = root.find("vcpu")
    if vcpu_el is None or not (vcpu_el.text or "").strip():
        raise InputError(f"{where}: domain {name}: element <vcpu> is missing")
    try:
        vcpus = int(vcpu_el.get("current") or vcpu_el.text.strip())
    except ValueError:
        raise InputError(f"{where}: domain {name}: element <vcpu>: {vcpu_el.text.strip()!r} is not a vCPU count") from None
    if vcpus < 1:
        raise InputError(f"{where}: domain {name}: element <vcpu>: {vcpus} vCPUs")
    tune = root.find("cputune")
    pinned = bool(vcpu_el.get("cpuset")) or (tune is not None and tune.find("vcpupin") is not None)
    caches: list[str] = []
    storage: list[str] = []
    ids: list[str] = []
    for disk in root.iterfind("devices/disk"):
        if disk.get("device", "disk") not in ("disk", "lun"):
            continue  # cdrom, floppy
        driver = disk.find("driver")
        caches.append((driver.get("cache") if driver is not None else None) or "default")
        storage.append(_backing(disk))
        target = disk.find("target")
        ids.append((target.get("dev") if target is not None else None) or f"disk{len(ids) + 1}")
    dom_id = root.get("id")
    hv = {"kvm": "KVM", "qemu": "QEMU (TCG)", "xen": "Xen", "lxc": "LXC", "test": "libvirt test driver"}
    return VM(name=name, source=where, platform="libvirt", uid=(root.findtext("uuid") or "").strip(), vcpus=vcpus,
              ram_mib=ram, powered_on=True if dom_id not in (None, "-1") else None, cache_modes=caches,
              disk_ids=ids, pinned=pinned, storage=storage, container=root.get("type") == "lxc",
              os=hv.get(root.get("type", ""), root.get("type", "")))


def _backing(disk) -> str:
    kind = disk.get("type", "file")
    src = disk.find("source")
    if kind == "network" and src is not None:
        proto = (src.get("protocol") or "").lower()
        if proto in DISTRIBUTED:
            return "distributed"
        if proto in ("iscsi", "nfs"):
            return proto
        return "network"
    dev = (src.get("dev") or src.get("file") or "") if src is not None else ""
    if "iscsi" in dev:
        return "iscsi"
    return "block" if kind == "block" else "file"


# --- virsh text ------------------------------------------------------------------------------
_KV = re.compile(r"^([A-Za-z][A-Za-z ()/_-]*?):\s*(.*)$")


def read_virsh_text(path: Path, text: str, estate: Estate) -> tuple[list[VM], list[Host]]:
    """VMs of ``virsh list --all`` tables and ``virsh dominfo`` blocks, hosts of ``virsh nodeinfo``."""
    where = str(path)
    lines = text.splitlines()
    listed: list[VM] = []
    info: list[dict[str, str]] = []
    nodes: list[dict[str, str]] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if re.match(r"^\s*Id\s+Name\s+State\s*$", line):
            i += 1
            if i < len(lines) and set(lines[i].strip()) <= {"-"}:
                i += 1
            while i < len(lines) and lines[i].strip():
                m = re.match(r"^\s*(\S+)\s+(\S+)\s+(.+?)\s*$", lines[i])
                if not m:
                    raise InputError(f"{where}: line {i + 1}: not a row of virsh list ({lines[i].strip()!r})")
                state = m.group(3).lower()
                listed.append(VM(name=m.group(2), source=where, platform="libvirt", powered_on=state == "running"
                                 if state in ("running", "shut off", "paused", "idle", "crashed", "pmsuspended",
                                              "in shutdown") or state.startswith("shut") else None))
                i += 1
            continue
        m = _KV.match(line)
        if m and m.group(1) in ("Id", "Name", "CPU model"):
            block: dict[str, str] = {}
            start = i
            while i < len(lines) and lines[i].strip():
                kv = _KV.match(lines[i])
                if kv:
                    block[kv.group(1).strip()] = kv.group(2).strip()
                    block[f"__line__:{kv.group(1).strip()}"] = str(i + 1)  # where each key stands, for messages
                i += 1
            block["__line__"] = str(start + 1)
            (nodes if "CPU model" in block else info).append(block)
            continue
        i += 1
    hosts = []
    for n, b in enumerate(nodes):
        try:
            hosts.append(_node(b, where, path, n, len(nodes)))
        except RowError as exc:  # that host left out, named; the rest read on
            estate.leave_out(str(exc))
    vms: dict[str, VM] = {}
    for vm in listed:
        vms.setdefault(vm.name, vm)
    for b in info:
        try:
            vm = _dominfo(b, where)
        except RowError as exc:
            estate.leave_out(str(exc))
            continue
        key = vm.name
        old = vms.get(key)
        if old is not None:  # dominfo is more precise than the list; keep the first dominfo seen
            if old.vcpus is None:
                old.vcpus, old.ram_mib, old.uid = vm.vcpus, vm.ram_mib, vm.uid
                old.powered_on = vm.powered_on if vm.powered_on is not None else old.powered_on
        else:
            vms[key] = vm
    if hosts and len(hosts) == 1:
        for vm in vms.values():
            vm.host = hosts[0].name
    return list(vms.values()), hosts


def _line(b: dict[str, str], key: str) -> str:
    """The line of ``key`` in a virsh text block (the block's first line when the key is not there)."""
    return b.get(f"__line__:{key}", b["__line__"])


def _dominfo(b: dict[str, str], where: str) -> VM:
    line = b["__line__"]
    name = b.get("Name", "").strip()
    if not name:
        raise InputError(f"{where}: dominfo block at line {line} has no 'Name:'")
    vcpus = ram = None
    if "CPU(s)" in b:
        try:
            vcpus = int(b["CPU(s)"])
        except ValueError:
            raise RowError(f"{where}: dominfo of {name[:40]} (line {_line(b, 'CPU(s)')}): "
                           f"'CPU(s): {b['CPU(s)'][:20]}' is not a count") from None
    key = "Max memory" if b.get("Max memory") else "Used memory"
    mem = b.get(key)
    if mem:
        m = re.match(r"^([\d.]+)\s*(\w+)?$", mem)
        here = f"{where}: dominfo of {name[:40]} (line {_line(b, key)})"
        if not m:
            raise RowError(f"{here}: '{key}: {mem[:20]}' is not a size")
        ram = _bytes(m.group(1), m.group(2) or "KiB", here, key) / MIB
    state = b.get("State", "").lower()
    return VM(name=name, source=where, platform="libvirt", uid=b.get("UUID", ""), vcpus=vcpus, ram_mib=ram,
              where=f"dominfo at line {line}",
              powered_on=(state == "running") if state else None)


def _node(b: dict[str, str], where: str, path: Path, n: int, total: int) -> Host:

    def num(key: str) -> float | None:
        v = b.get(key)
        if v is None:
            return None
        try:
            return parse_number(v.split()[0]) if v.split() else None
        except ValueError as exc:
            raise RowError(f"{where}: nodeinfo (line {_line(b, key)}): '{key}: {v[:24]}' is not a number "
                           f"({exc})") from None

    cpus, cells = num("CPU(s)"), num("NUMA cell(s)") or 1
    sockets, cores, threads = num("CPU socket(s)"), num("Core(s) per socket"), num("Thread(s) per core")
    if cpus and cores and threads and cpus % (cores * threads) == 0:
        total_sockets = cpus / (cores * threads)  # virsh prints sockets per NUMA cell
    else:
        total_sockets = (sockets or 1) * cells
    mem = b.get("Memory size", "")
    m = re.match(r"^([\d.]+)\s*(\w+)?$", mem)
    here = f"{where}: nodeinfo (line {_line(b, 'Memory size')})"
    ram = _bytes(m.group(1), m.group(2) or "KiB", here, "Memory size") / MIB if m else None
    mhz = num("CPU frequency")
    name = path.stem if total == 1 else f"{path.stem}-{n + 1}"
    return Host(name=name, source=where, cpu_model=b.get("CPU model", ""), sockets=int(total_sockets),
                cores_per_socket=int(cores) if cores else None, threads_per_core=int(threads) if threads else None,
                logical_cpus=int(cpus) if cpus else None, ghz=mhz / 1000 if mhz else None, ram_mib=ram,
                hypervisor="KVM (libvirt)")


def merge_libvirt(estate: Estate, vms: list[VM], source: Source) -> None:
    """Add libvirt VMs, merging the ones another file already described (same UUID, else same
    name) into one VM that keeps the union of their facts: every disk (by target device) with its
    cache mode and backing, pinning when any description pins, the state from whichever file
    says it. Where the descriptions disagree (vCPUs, RAM, one disk's cache mode) the merge
    keeps the larger size (or the first file's cache mode) and a note says so."""
    index: dict[str, VM] = {}
    for v in estate.vms:
        if v.platform == "libvirt":
            index[normalize_uuid(v.uid) or f"name:{v.name}"] = v
            index.setdefault(f"name:{v.name}", v)
    for vm in vms:
        key = normalize_uuid(vm.uid)
        old = index.get(key) if key else None
        if old is None:
            same_name = index.get(f"name:{vm.name}")
            if same_name is not None and not (key and same_name.uid and normalize_uuid(same_name.uid) != key):
                old = same_name
        if old is None:
            estate.vms.append(vm)
            index[key or f"name:{vm.name}"] = vm
            index.setdefault(f"name:{vm.name}", vm)
            source.vms += 1
            continue
        source.notes.append(f"{vm.name}: also described by {Path(old.source).name}; merged into one VM"
                            + "".join(f"; {c}" for c in _merge_into(old, vm)))


def _merge_into(old: VM, new: VM) -> list[str]:
    """Merge ``new`` (a later description of the same domain) into ``old``; the conflicts found
    (a disk whose cache mode one file does not state is no conflict: the stated mode is kept)."""
    conflicts = []
    there = Path(new.source).name
    for attr, label, fmt in (("vcpus", "vCPUs", lambda x: f"{x:g}"), ("ram_mib", "RAM", lambda x: f"{x:.6g} MiB")):
        a, b = getattr(old, attr), getattr(new, attr)
        if a is None:
            setattr(old, attr, b)
        elif b is not None and a != b:
            setattr(old, attr, max(a, b))
            conflicts.append(f"{label} differ: {fmt(a)} in the earlier file(s), {fmt(b)} in {there}; planned at "
                             f"{fmt(max(a, b))} (the larger)")
    for attr in ("uid", "host"):
        if not getattr(old, attr):
            setattr(old, attr, getattr(new, attr))
    if old.powered_on is None:
        old.powered_on = new.powered_on
    if new.pinned is not None:
        old.pinned = bool(old.pinned) or new.pinned
    if old.os in ("", "libvirt test driver") and new.os:
        old.os = new.os
    disks = {dev: i for i, dev in enumerate(old.disk_ids)}
    for dev, mode, backing in zip(new.disk_ids, new.cache_modes, new.storage, strict=True):
        i = disks.get(dev)
        if i is None:
            disks[dev] = len(old.disk_ids)
            old.disk_ids.append(dev)
            old.cache_modes.append(mode)
            old.storage.append(backing)
        elif old.cache_modes[i] == "default" and mode != "default":
            old.cache_modes[i] = mode
        elif mode not in ("default", old.cache_modes[i]):
            conflicts.append(f"disk {dev}: cache {old.cache_modes[i]} in the earlier file(s), {mode} in {there}; "
                             f"{old.cache_modes[i]} kept")
    if not new.disk_ids and new.cache_modes and not old.cache_modes:  # a source without disk names
        old.cache_modes, old.storage = list(new.cache_modes), list(new.storage)
    return conflicts
