"""What one VM or host of an estate may be for the scenario to plan it, and leaving out (with a
warning naming the VM, its file and row) the ones that cannot be imported, instead of refusing
the whole estate.

The ranges are the scenario's own bounds (``advisor.scenario.FIELD_MAX``: at most 4096 vCPUs and
1 PiB of RAM per VM, disks of at most 10^6 GB, hosts of at most 64 sockets and 1024 cores per
socket): a VM outside them would make the imported scenario invalid. Every limit of the estate
readers is in :func:`limits_table` (docs/limits.md, "Estate files", shows the same table).
"""

from __future__ import annotations

from pathlib import Path

from knowledge.inventory.common import (
    MAX_CELL_CHARS,
    MAX_FILE_BYTES,
    MAX_HOSTS,
    MAX_JSON_BYTES,
    MAX_NAME_CHARS,
    MAX_NUMBER,
    MAX_ROWS,
    MAX_TEXT_BYTES,
    MAX_VMS,
    MAX_XML_BYTES,
)
from knowledge.inventory.model import VM, Estate, Host

#: per VM: (field, low, high, what it is); a VM outside is left out (low bound exclusive for RAM)
VM_RANGES = (("vcpus", 1, 4096, "vCPUs"), ("ram_mib", 0, 1024**3, "MiB of memory"),
             ("disk_gb", 0, 1e6, "GB of disk"), ("used_gb", 0, 1e6, "GB of disk in use"),
             ("count", 1, 1_000_000, "VMs in one row"))
#: per host: (field, low, high, what it is)
HOST_RANGES = (("sockets", 1, 64, "sockets"), ("cores_per_socket", 1, 1024, "cores per socket"),
               ("threads_per_core", 1, 8, "threads per core"), ("logical_cpus", 1, 1024 * 64 * 8, "CPUs"),
               ("ghz", 0, 100, "GHz"), ("ram_mib", 0, 1024**3, "MiB of memory"))


def _limits() -> list[tuple[str, str]]:
    from knowledge.inventory.xlsx import (
        MAX_COLUMNS,
        MAX_PART_BYTES,
        MAX_RATIO,
        MAX_SHARED_BYTES,
        MAX_UNPACKED_BYTES,
    )

    mib = 2**20
    return [
        ("estate file (.xlsx workbook)", f"{MAX_FILE_BYTES // mib} MiB"),
        ("text export (CSV, virsh text)", f"{MAX_TEXT_BYTES // mib} MiB"),
        ("JSON export (Proxmox, OpenStack)", f"{MAX_JSON_BYTES // mib} MiB; NaN/Infinity and nesting too deep "
                                             "for the parser refused"),
        ("domain XML (virsh dumpxml)", f"{MAX_XML_BYTES // mib} MiB, no DTD or entities"),
        ("workbook part unpacked (a tab)", f"{MAX_PART_BYTES // mib} MiB"),
        ("shared strings unpacked", f"{MAX_SHARED_BYTES // mib} MiB"),
        ("all parts of a workbook unpacked", f"{MAX_UNPACKED_BYTES // mib} MiB"),
        ("compression ratio of a part over 16 MiB", f"{MAX_RATIO}:1"),
        ("columns of a tab", f"{MAX_COLUMNS:,} (A to XFD)"),
        ("rows of one tab or CSV file", f"{MAX_ROWS:,}"),
        ("VMs of all files together", f"{MAX_VMS:,}"),
        ("hosts of all files together", f"{MAX_HOSTS:,}"),
        ("characters in one cell or CSV field", f"{MAX_CELL_CHARS:,}"),
        ("characters in a VM or host name", f"{MAX_NAME_CHARS} (longer: that VM is left out with a warning)"),
        ("any number in an estate file", f"finite, at most {MAX_NUMBER:.0e} (nan, inf, 1e309: that row is left out "
                                         "with a warning naming file, row and field)"),
        ("one VM", ", ".join(f"{what} {_n(lo)}-{_n(hi)}" for _f, lo, hi, what in VM_RANGES)
         + " (outside: left out with a warning)"),
        ("one host", ", ".join(f"{what} {_n(lo)}-{_n(hi)}" for _f, lo, hi, what in HOST_RANGES)
         + " (outside: left out with a warning)"),
    ]


def _n(x: float) -> str:
    return f"{x:,.0f}"


def limits_table() -> str:
    """The limits as a Markdown table (docs/limits.md's, kept equal by a test)."""
    return "\n".join(["| estate input | limit |", "| --- | --- |"] + [f"| {a} | {b} |" for a, b in _limits()])


def _vm_problem(vm: VM) -> str | None:
    if len(vm.name) > MAX_NAME_CHARS:
        return f"a name of {len(vm.name):,} characters (at most {MAX_NAME_CHARS})"
    for fld, lo, hi, what in VM_RANGES:
        v = getattr(vm, fld)
        if v is None:
            continue
        low_ok = v > lo if fld == "ram_mib" else v >= lo
        if fld in ("disk_gb", "used_gb"):
            low_ok = v >= lo
        if not (low_ok and v <= hi):
            least = "more than" if fld == "ram_mib" else "at least"
            return f"{v:g} {what} (must be {least} {lo:g} and at most {hi:,.0f})"
    return None


def _host_problem(h: Host) -> str | None:
    if len(h.name) > MAX_NAME_CHARS:
        return f"a name of {len(h.name):,} characters (at most {MAX_NAME_CHARS})"
    for fld, lo, hi, what in HOST_RANGES:
        v = getattr(h, fld)
        if v is not None and not (lo <= v <= hi) and not (fld in ("ghz", "ram_mib") and v == 0):
            return f"{v:g} {what} (at most {hi:g})"
    return None


def admit(estate: Estate) -> None:
    """Leave out every VM and host the scenario could not plan (each named in a warning with its
    file and row), and refuse an estate larger than :data:`MAX_VMS` VMs or :data:`MAX_HOSTS` hosts."""
    from knowledge.infra.errors import InputError

    kept = []
    for vm in estate.vms:
        why = _vm_problem(vm)
        if why is None:
            kept.append(vm)
            continue
        shown = vm.name if len(vm.name) <= 60 else f"{vm.name[:40]}..."
        estate.leave_out(f"{Path(vm.source).name}{', ' + vm.where if vm.where else ''}: VM {shown!r}: {why}")
    estate.vms = kept
    hosts = []
    for h in estate.hosts:
        why = _host_problem(h)
        if why is None:
            hosts.append(h)
        else:
            estate.leave_out(f"{Path(h.source).name}: host {h.name[:60]!r}: {why}")
    estate.hosts = hosts
    if len(estate.vms) > MAX_VMS or len(estate.hosts) > MAX_HOSTS:
        raise InputError(f"{len(estate.vms):,} VMs and {len(estate.hosts):,} hosts: more than an estate import takes "
                         f"(at most {MAX_VMS:,} VMs and {MAX_HOSTS:,} hosts); import the clusters one by one")
