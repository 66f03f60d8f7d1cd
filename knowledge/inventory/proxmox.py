"""Proxmox VE: ``pvesh get /cluster/resources --output-format json`` (a JSON list), or the API's
``GET /api2/json/cluster/resources`` response (``{"data": [...]}``).

Entries of type ``qemu`` are VMs, ``lxc`` containers, ``node`` hosts (``maxcpu`` is the node's
logical CPU count; sockets and cores are not in this listing), ``storage`` the storages
(``shared``, ``plugintype``). Sizes are bytes.
"""

from __future__ import annotations

from pathlib import Path

from knowledge.infra.errors import InputError
from knowledge.infra.userdata import json_document
from knowledge.inventory.common import MAX_JSON_BYTES, RowError, checked
from knowledge.inventory.model import GB, MIB, VM, Estate, Host, Source

SHARED_KINDS = {"nfs": "nfs", "cifs": "nfs", "iscsi": "iscsi", "iscsidirect": "iscsi", "rbd": "distributed",
                "cephfs": "distributed", "glusterfs": "distributed", "zfs": "iscsi"}


def resources(data) -> list | None:
    """The resource list of a pvesh/API document, or None if it is not one."""
    if isinstance(data, dict) and isinstance(data.get("data"), list):
        data = data["data"]
    if isinstance(data, list) and data and all(isinstance(x, dict) for x in data) and \
            any("type" in x and ("vmid" in x or x.get("type") in ("node", "storage")) for x in data):
        return data
    return None


def read_pvesh(path: Path, data, estate: Estate) -> Source:
    where = str(path)
    items = resources(data)
    if items is None:
        raise InputError(f"{where}: not a Proxmox cluster resource list (expected pvesh get /cluster/resources "
                         "--output-format json)")
    source = Source(where, "proxmox-pvesh")
    for i, item in enumerate(items):
        try:
            _entry(i, item, where, estate, source)
        except RowError as exc:
            estate.leave_out(str(exc))
    return source


def _entry(i: int, item: dict, where: str, estate: Estate, source: Source) -> None:
    """One entry of the resource list: a VM, a container, a node or a storage."""
    kind = item.get("type")
    here = f"{where}: entry {i} ({str(item.get('id', kind))[:60]})"
    if kind in ("qemu", "lxc"):
        name = str(item.get("name") or f"{kind}-{item.get('vmid', i)}")
        here = f"{where}: entry {i} ({kind} {name[:60]!r})"
        vcpus = _num(item, "maxcpu", here)
        mem = _num(item, "maxmem", here)
        disk = _num(item, "maxdisk", here)
        used = _num(item, "disk", here)
        template = bool(item.get("template")) and str(item.get("template")) not in ("0", "false", "False")
        status = str(item.get("status", "")).lower()
        estate.vms.append(VM(
            name=name, source=where, platform="proxmox", uid=str(item.get("vmid", "")), where=f"entry {i}",
            vcpus=int(vcpus) if vcpus is not None else None, ram_mib=mem / MIB if mem is not None else None,
            disk_gb=disk / GB if disk else None, used_gb=used / GB if used and kind == "lxc" else None,
            powered_on=(status == "running") if status else None, template=template, container=kind == "lxc",
            host=str(item.get("node", ""))))
        source.vms += 1
    elif kind == "node":
        cpus = _num(item, "maxcpu", here)
        mem = _num(item, "maxmem", here)
        busy = _num(item, "cpu", here) if isinstance(item.get("cpu"), (int, float)) else None
        used = _num(item, "mem", here) if isinstance(item.get("mem"), (int, float)) else None
        estate.hosts.append(Host(
            name=str(item.get("node") or item.get("id", f"node{i}")), source=where, logical_cpus=int(cpus) if cpus else None,
            ram_mib=mem / MIB if mem else None,
            cpu_usage_pct=100 * busy if busy is not None else None,
            mem_usage_pct=100 * used / mem if used is not None and mem else None,
            hypervisor="Proxmox VE (KVM)"))
        source.hosts += 1
    elif kind == "storage":
        plugin = str(item.get("plugintype", "")).lower()
        shared = str(item.get("shared", "0")) in ("1", "True", "true")
        kind_ = SHARED_KINDS.get(plugin)
        if kind_ and (shared or plugin in ("rbd", "cephfs", "nfs", "iscsi", "glusterfs", "cifs")):
            if kind_ not in estate.shared_storage:
                estate.shared_storage.append(kind_)


def _num(item: dict, key: str, here: str) -> float | None:
    """A number of the resource list through the estate's one check (finite, >= 0, in range)."""
    v = item.get(key)
    if v is None or v == "":
        return None
    if isinstance(v, bool) or not isinstance(v, (int, float, str)):
        raise RowError(f"{here}: field {key!r}: {str(v)[:24]!r} is not a number")
    return checked(v, here, repr(key))


def _reject_constant(name: str):
    raise ValueError(f"{name} is not a number JSON allows")


def load_json(path: Path, text: str):
    """The JSON document (``NaN``/``Infinity`` literals, nesting deeper than the parser copes with
    and integers of thousands of digits refused, naming the file)."""
    if len(text) > MAX_JSON_BYTES:
        raise InputError(f"{path}: {len(text) / 2**20:.0f} MiB of JSON is more than the {MAX_JSON_BYTES // 2**20} MiB "
                         "a JSON estate export may be")
    return json_document(text, path, parse_constant=_reject_constant)
