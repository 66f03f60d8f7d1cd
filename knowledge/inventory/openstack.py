"""OpenStack: ``openstack server list --long -f json`` with ``openstack flavor list -f json``;
also the Compute API's ``GET /servers/detail`` (``{"servers": [...]}``) and ``GET
/flavors/detail`` (``{"flavors": [...]}``) responses; and, for the hosts, ``openstack hypervisor
list --long -f json`` or ``GET /os-hypervisors/detail`` (``{"hypervisors": [...]}``: each compute
node's vCPUs, RAM, CPU topology and hypervisor type).

Hosts: the servers' ``Host`` column (``OS-EXT-SRV-ATTR:host`` in the API) names the compute
hosts the VMs run on; the hypervisor list describes them. A host only the servers name is
listed without hardware (the scenario assumes it and says so).

A server's vCPUs, RAM and disk come from its flavor: embedded in the server (Compute API 2.47
and later, or an expanded ``Flavor`` column) or looked up by flavor ID or name in the flavor
list given alongside. RAM in flavors is MiB, disks GB.
"""

from __future__ import annotations

from pathlib import Path

from knowledge.infra.errors import InputError
from knowledge.inventory.common import RowError, checked
from knowledge.inventory.model import VM, Estate, Host, Source

_FLAVOR_KEYS = {"vcpus", "ram"}


def _lower(d: dict) -> dict:
    return {str(k).strip().lower(): v for k, v in d.items()}


def kind(data) -> str | None:
    """``servers``, ``flavors`` or None for a parsed JSON document."""
    if isinstance(data, dict):
        if isinstance(data.get("servers"), list):
            return "servers"
        if isinstance(data.get("flavors"), list):
            return "flavors"
        if isinstance(data.get("hypervisors"), list):
            return "hypervisors"
        return None
    if not isinstance(data, list) or not data or not all(isinstance(x, dict) for x in data):
        return None
    keys = set(_lower(data[0]))
    if {"vcpus", "ram"} <= keys and "name" in keys:
        return "flavors"
    if "hypervisor hostname" in keys or "hypervisor_hostname" in keys:
        return "hypervisors"
    if "id" in keys and "name" in keys and ("status" in keys or "flavor" in keys or "flavor name" in keys):
        return "servers"
    return None


def flavors(path: Path, data) -> dict[str, dict]:
    """Flavors by ID and by name: ``{"vcpus", "ram_mib", "disk_gb"}``."""
    rows = data["flavors"] if isinstance(data, dict) else data
    out: dict[str, dict] = {}
    for i, f in enumerate(rows):
        if not isinstance(f, dict):
            raise InputError(f"{path}: flavor {i}: not a JSON object ({type(f).__name__})")
        f = _lower(f)
        here = f"{path}: flavor {i} ({f.get('name', f.get('id', '?'))})"
        spec = {"vcpus": _int(f.get("vcpus"), here, "VCPUs"), "ram_mib": _float(f.get("ram"), here, "RAM"),
                "disk_gb": _float(f.get("disk"), here, "Disk") or None}
        for key in ("id", "name"):
            if f.get(key) not in (None, ""):
                out[str(f[key])] = spec
    return out


def _embedded(s: dict, here: str) -> dict | None:
    """The flavor a server carries in itself (Compute API 2.47 and later), else None."""
    flavor = s.get("flavor")
    if isinstance(flavor, dict) and _FLAVOR_KEYS <= set(_lower(flavor)):
        fl = _lower(flavor)
        return {"vcpus": _int(fl.get("vcpus"), here, "flavor.vcpus"), "ram_mib": _float(fl.get("ram"), here, "flavor.ram"),
                "disk_gb": _float(fl.get("disk"), here, "flavor.disk") or None}
    return None


def read_servers(path: Path, data, estate: Estate, flavor_table: dict[str, dict], have_flavor_file: bool) -> Source:
    where = str(path)
    rows = data["servers"] if isinstance(data, dict) else data
    source = Source(where, "openstack-servers")
    missing: list[str] = []
    seen_hosts: list[str] = []
    for i, s in enumerate(rows):
        if not isinstance(s, dict):
            estate.leave_out(f"{where}: server {i}: not a JSON object ({type(s).__name__})")
            continue
        s = _lower(s)
        name = str(s.get("name") or s.get("id") or f"server{i}")
        here = f"{where}: server {i} ({name[:60]})"
        try:
            spec = _embedded(s, here)
        except RowError as exc:
            estate.leave_out(str(exc))
            continue
        flavor = s.get("flavor")
        if spec is None:
            refs = []
            if isinstance(flavor, dict):
                refs += [flavor.get("id"), flavor.get("original_name")]
            elif flavor not in (None, ""):
                refs.append(flavor)
            refs += [s.get("flavor id"), s.get("flavor name")]
            for ref in refs:
                if ref not in (None, "") and str(ref) in flavor_table:
                    spec = flavor_table[str(ref)]
                    break
            if spec is None:
                shown = next((str(r) for r in refs if r not in (None, "")), "?")
                if not have_flavor_file:
                    raise InputError(f"{here}: its flavor {shown!r} carries no vCPUs or RAM; add the flavor list "
                                     "(openstack flavor list --all -f json) to the files imported")
                missing.append(f"{name} (flavor {shown})")
        status = str(s.get("status", "")).upper()
        power = str(s.get("power state", s.get("os-ext-sts:power_state", ""))).lower()
        on = None
        if status:
            on = status == "ACTIVE"
        elif power:
            on = power in ("running", "1")
        host = s.get("host") or s.get("os-ext-srv-attr:host") or s.get("os-ext-srv-attr:hypervisor_hostname") or ""
        if host and str(host) not in seen_hosts:
            seen_hosts.append(str(host))
        estate.vms.append(VM(
            name=name, source=where, platform="openstack", uid=str(s.get("id", "")), where=f"server {i}",
            vcpus=spec["vcpus"] if spec else None, ram_mib=spec["ram_mib"] if spec else None,
            disk_gb=spec["disk_gb"] if spec else None, powered_on=on, host=str(host),
            cluster=str(s.get("availability zone") or s.get("os-ext-az:availability_zone") or "")))
        source.vms += 1
    known = {h.name for h in estate.hosts} | {a for h in estate.hosts for a in h.aliases}
    for name in seen_hosts:
        if name not in known:
            estate.hosts.append(Host(name=name, source=where))
            source.hosts += 1
    if seen_hosts and source.hosts:
        source.notes.append(f"{source.hosts} compute host(s) named by the servers' Host column; their hardware is "
                            "not in this file (add `openstack hypervisor list --long -f json` to describe them)")
    if missing:
        estate.warnings.append(f"{where}: flavor not found in the flavor list for {len(missing)} server(s): "
                               f"{', '.join(missing[:5])}{' ...' if len(missing) > 5 else ''}; their vCPUs and RAM "
                               "are left to you")
    return source


#: Nova's hypervisor_type as the hypervisor it is (QEMU is what Nova's libvirt driver reports for KVM)
HYPERVISOR_TYPES = {"qemu": "KVM/QEMU (libvirt)", "kvm": "KVM (libvirt)", "vmware vcenter server": "VMware ESXi (vCenter)",
                    "xen": "Xen", "hyperv": "Hyper-V", "ironic": "bare metal (Ironic)", "lxc": "LXC containers"}


def hypervisor_name(kind: str) -> str:
    """A Nova hypervisor_type as the hypervisor it names (the type as given when unknown here)."""
    return HYPERVISOR_TYPES.get(kind.strip().lower(), kind.strip())


def read_hypervisors(path: Path, data, estate: Estate) -> Source:
    """Compute hosts from ``openstack hypervisor list --long -f json`` or ``os-hypervisors/detail``;
    a host the servers already listed (by its service host or hypervisor hostname) is described."""
    where = str(path)
    rows = data["hypervisors"] if isinstance(data, dict) else data
    source = Source(where, "openstack-hypervisors")
    by_name = {h.name: h for h in estate.hosts}
    for i, raw in enumerate(rows):
        if not isinstance(raw, dict):
            estate.leave_out(f"{where}: hypervisor {i}: not a JSON object ({type(raw).__name__})")
            continue
        try:
            _hypervisor(i, _lower(raw), where, estate, by_name, source)
        except RowError as exc:
            estate.leave_out(str(exc))
    return source


def _hypervisor(i: int, h: dict, where: str, estate: Estate, by_name: dict[str, Host], source: Source) -> None:
    """One compute host of the hypervisor list (a bad number: RowError, that host left out)."""
    name = str(h.get("hypervisor hostname") or h.get("hypervisor_hostname") or h.get("id") or f"hypervisor{i}")
    here = f"{where}: hypervisor {i} ({name})"
    service = h["service"] if isinstance(h.get("service"), dict) else {}
    service_host = str(service.get("host") or h.get("host") or h.get("service host") or "")
    topo = (h.get("cpu_info") or {}).get("topology") if isinstance(h.get("cpu_info"), dict) else None
    topo = topo if isinstance(topo, dict) else {}
    vcpus = _float(h.get("vcpus"), here, "vcpus")
    ram = _float(h.get("memory_mb", h.get("memory mb")), here, "memory_mb")
    kind = str(h.get("hypervisor_type") or h.get("hypervisor type") or "")
    sockets, cores, threads = (_float(topo.get(k), here, f"cpu_info.topology.{k}") for k in
                               ("sockets", "cores", "threads"))
    host = by_name.get(service_host) or by_name.get(name)
    if host is None:
        host = Host(name=service_host or name, source=where)
        estate.hosts.append(host)
        by_name[host.name] = host
        source.hosts += 1
    host.aliases = sorted({*host.aliases, name, service_host} - {"", host.name})
    if sockets and cores:
        host.sockets, host.cores_per_socket = int(sockets), int(cores)
        host.threads_per_core = int(threads) if threads else None
    if vcpus:
        host.logical_cpus = int(vcpus)
    if ram:
        host.ram_mib = ram
    model = (h.get("cpu_info") or {}).get("model") if isinstance(h.get("cpu_info"), dict) else None
    if model:
        host.cpu_model = str(model)
    if kind:
        host.hypervisor = f"{hypervisor_name(kind)} (OpenStack Nova hypervisor type {kind})"
    if not host.source or host.source != where:
        host.source = where


def _int(v, here: str, fld: str) -> int:
    n = _float(v, here, fld)
    if n is None or n != int(n):
        raise RowError(f"{here}: field {fld}: {str(v)[:24]!r} is not a vCPU count")
    return int(n)


def _float(v, here: str, fld: str) -> float | None:
    """A number of the document through the estate's one check (finite, >= 0, in range)."""
    if v is None or v == "":
        return None
    if not isinstance(v, (int, float, str)):
        raise RowError(f"{here}: field {fld}: {str(v)[:24]!r} is not a number")
    return checked(v, here, fld)
