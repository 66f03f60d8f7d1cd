"""OpenStack: ``openstack server list --long -f json`` with ``openstack flavor list -f json``;
also the Compute API's ``GET /servers/detail`` (``{"servers": [...]}``) and ``GET
/flavors/detail`` (``{"flavors": [...]}``) responses.

A server's vCPUs, RAM and disk come from its flavor: embedded in the server (Compute API 2.47
and later, or an expanded ``Flavor`` column) or looked up by flavor ID or name in the flavor
list given alongside. RAM in flavors is MiB, disks GB.
"""

from __future__ import annotations

from pathlib import Path

from knowledge.infra.errors import InputError
from knowledge.inventory.model import VM, Estate, Source

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
        return None
    if not isinstance(data, list) or not data or not all(isinstance(x, dict) for x in data):
        return None
    keys = set(_lower(data[0]))
    if {"vcpus", "ram"} <= keys and "name" in keys:
        return "flavors"
    if "id" in keys and "name" in keys and ("status" in keys or "flavor" in keys or "flavor name" in keys):
        return "servers"
    return None


def flavors(path: Path, data) -> dict[str, dict]:
    """Flavors by ID and by name: ``{"vcpus", "ram_mib", "disk_gb"}``."""
    rows = data["flavors"] if isinstance(data, dict) else data
    out: dict[str, dict] = {}
    for i, f in enumerate(rows):
        f = _lower(f)
        here = f"{path}: flavor {i} ({f.get('name', f.get('id', '?'))})"
        spec = {"vcpus": _int(f.get("vcpus"), here, "VCPUs"), "ram_mib": _float(f.get("ram"), here, "RAM"),
                "disk_gb": _float(f.get("disk"), here, "Disk") or None}
        for key in ("id", "name"):
            if f.get(key) not in (None, ""):
                out[str(f[key])] = spec
    return out


def read_servers(path: Path, data, estate: Estate, flavor_table: dict[str, dict], have_flavor_file: bool) -> Source:
    where = str(path)
    rows = data["servers"] if isinstance(data, dict) else data
    source = Source(where, "openstack-servers")
    missing: list[str] = []
    for i, s in enumerate(rows):
        s = _lower(s)
        name = str(s.get("name") or s.get("id") or f"server{i}")
        here = f"{where}: server {i} ({name})"
        flavor = s.get("flavor")
        spec: dict | None = None
        if isinstance(flavor, dict) and _FLAVOR_KEYS <= set(_lower(flavor)):  # embedded (API >= 2.47)
            fl = _lower(flavor)
            spec = {"vcpus": _int(fl.get("vcpus"), here, "flavor.vcpus"), "ram_mib": _float(fl.get("ram"), here, "flavor.ram"),
                    "disk_gb": _float(fl.get("disk"), here, "flavor.disk") or None}
        else:
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
        estate.vms.append(VM(
            name=name, source=where, platform="openstack", uid=str(s.get("id", "")),
            vcpus=spec["vcpus"] if spec else None, ram_mib=spec["ram_mib"] if spec else None,
            disk_gb=spec["disk_gb"] if spec else None, powered_on=on, host=str(host),
            cluster=str(s.get("availability zone") or s.get("os-ext-az:availability_zone") or "")))
        source.vms += 1
    if missing:
        estate.warnings.append(f"{where}: flavor not found in the flavor list for {len(missing)} server(s): "
                               f"{', '.join(missing[:5])}{' ...' if len(missing) > 5 else ''}; their vCPUs and RAM "
                               "are left to you")
    return source


def _int(v, here: str, fld: str) -> int:
    n = _float(v, here, fld)
    if n is None or n != int(n) or n < 0:
        raise InputError(f"{here}: field {fld}: {v!r} is not a vCPU count")
    return int(n)


def _float(v, here: str, fld: str) -> float | None:
    if v is None or v == "":
        return None
    if isinstance(v, bool):
        raise InputError(f"{here}: field {fld}: {v!r} is not a number")
    try:
        n = float(v)
    except (TypeError, ValueError):
        raise InputError(f"{here}: field {fld}: {v!r} is not a number") from None
    if n < 0:
        raise InputError(f"{here}: field {fld}: negative value {v!r}")
    return n
