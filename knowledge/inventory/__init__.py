"""Estate exports read into one :class:`~knowledge.inventory.model.Estate`.

Supported (each detected from the file's content, not its name):

- RVTools: the .xlsx workbook (tabs vInfo, vHost, vDisk, vPartition) or those tabs as CSV files;
- Live Optics (Optical Prime) and Nutanix Collector workbooks, Azure Migrate and AWS Migration Hub
  import CSVs (their columns: :mod:`knowledge.inventory.collectors`);
- libvirt: ``virsh dumpxml`` domain XML, ``virsh list --all`` / ``dominfo`` / ``nodeinfo`` text;
- Proxmox VE: ``pvesh get /cluster/resources --output-format json``;
- OpenStack: ``openstack server list --long -f json`` with ``openstack flavor list -f json``
  (or the Compute API's servers/detail and flavors/detail responses);
- Capacity Advisor's CSV template (see :mod:`knowledge.inventory.template`).

Every problem is an :class:`~knowledge.infra.errors.InputError` naming the file and the
column, element or entry. No Qt and no advisor import here: grouping the VMs into a scenario
is the advisor's job (advisor/inventory/).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from knowledge.infra.errors import InputError
from knowledge.inventory import collectors
from knowledge.inventory.common import MAX_XML_BYTES, ProgressFn, RowError, check_cancel, read_text, report
from knowledge.inventory.limits import admit
from knowledge.inventory.model import VM, Estate, Host, Source
from knowledge.inventory.overlap import count_once

__all__ = ["Estate", "Host", "Source", "VM", "FORMATS", "UnknownFormat", "detect", "read_inventory"]

#: format ids and what produces them (shown in help texts and errors)
FORMATS = {
    "rvtools-xlsx": "RVTools export (.xlsx with tabs vInfo, vHost, vDisk, vPartition)",
    "rvtools-csv": "RVTools tabs exported as CSV (RVTools_tabvInfo.csv, RVTools_tabvHost.csv, ...)",
    "libvirt-xml": "virsh dumpxml DOMAIN",
    "virsh-text": "virsh list --all / virsh dominfo DOMAIN / virsh nodeinfo",
    "proxmox-json": "pvesh get /cluster/resources --output-format json",
    "openstack-json": "openstack server list --long -f json, openstack flavor list -f json, openstack hypervisor "
                      "list --long -f json",
    "template-csv": "Capacity Advisor inventory template (CSV)",
    **{c.format: c.produces for c in collectors.ALL},
}


_COLLECTOR_FORMATS = {c.format for c in collectors.ALL}


class UnknownFormat(InputError):
    """A file of none of :data:`FORMATS` (a caller that reads other files beside the exports, such as
    utilisation series, names those too)."""


def _unknown(path: Path, what: str) -> InputError:
    return UnknownFormat(f"{path}: {what}; supported: " + "; ".join(FORMATS.values()))


def detect(path: Path) -> tuple[str, Any]:
    """``(format, parsed content)`` of one file; InputError when it is none of :data:`FORMATS`."""
    from knowledge.infra.files import check_regular, read_regular_head
    from knowledge.inventory import collector_files, libvirt, openstack, proxmox, rvtools, template

    path = Path(path)
    check_regular(path, "estate export")  # no FIFO, device or folder: refused before it is opened
    try:
        magic = read_regular_head(path, 4)
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from exc
    if magic == b"PK\x03\x04":
        return _workbook_format(path), None
    if magic[:4] == b"\xd0\xcf\x11\xe0":
        raise InputError(f"{path}: an old binary Excel (.xls) workbook; save it as .xlsx or export the tabs as CSV")
    text = read_text(path)
    stripped = text.lstrip()
    if not stripped:
        raise InputError(f"{path}: the file is empty")
    if stripped.startswith("<"):
        if len(text) > MAX_XML_BYTES:
            raise InputError(f"{path}: {len(text) / 2**20:.0f} MiB of XML is more than the {MAX_XML_BYTES // 2**20} "
                             "MiB a domain XML (virsh dumpxml) may be")
        if libvirt.looks_like_domain_xml(stripped[:4096]) or "<!DOCTYPE" in stripped[:4096] or "<!ENTITY" in stripped[:4096]:
            return "libvirt-xml", text
        raise _unknown(path, "XML, but not a libvirt <domain> (virsh dumpxml)")
    if stripped[0] in "[{":
        data = proxmox.load_json(path, text)
        if proxmox.resources(data) is not None:
            return "proxmox-json", data
        kind = openstack.kind(data)
        if kind:
            return f"openstack-json:{kind}", data
        raise _unknown(path, "JSON, but neither a Proxmox resource list nor OpenStack servers, flavors or "
                             "hypervisors")
    if libvirt.looks_like_virsh_text(text[:65536]):
        return "virsh-text", text
    # a CSV: our template or an RVTools tab, told apart by the family of its headers (so that a
    # file lacking a required column is still recognised, and the column named by its reader)
    kind, t_score = template.template_family(text)
    rows = rvtools.sniff_rows(text[: text.find("\n") + 1 if "\n" in text else len(text)])
    tab, r_score = rvtools.csv_family(path, [h.strip() for h in rows[0]]) if rows else (None, 0)
    collector, c_score = collectors.identify_csv(collector_files.csv_keys(rows[0])) if rows else (None, 0)
    if collector and c_score > max(t_score, r_score if r_score < 100 else 0):
        return collector.format, text
    if kind and t_score >= r_score:
        return "template-csv", text
    if tab:
        return "rvtools-csv", None
    raise _unknown(path, "format not recognised")


def _workbook_format(path: Path) -> str:
    """The format of an .xlsx workbook, from its sheet names; a known collector's workbook this
    program does not read, or a workbook of none, is refused saying which (never "not RVTools")."""
    from knowledge.inventory.xlsx import sheet_names

    names = sheet_names(path)
    kind, collector, advice = collectors.identify_workbook(names)
    if kind == "rvtools":
        return "rvtools-xlsx"
    if collector is not None:
        return collector.format
    if kind == "unsupported":
        raise InputError(f"{path}: {advice}")
    others = ", ".join(f"no {c.vms.sheet} sheet ({c.name})" for c in collectors.WORKBOOKS)
    raise InputError(f"{path}: no vInfo tab (RVTools), {others}: a workbook of no collector this program reads; "
                     f"its tabs are: {', '.join(names) or 'none'}; workbooks read: "
                     + "; ".join([FORMATS["rvtools-xlsx"]] + [c.produces for c in collectors.WORKBOOKS]))


def read_inventory(paths: Sequence[Path | str], progress: ProgressFn | None = None, cancel=None) -> Estate:
    """Read every file into one estate (RVTools CSV tabs and OpenStack servers/flavors are
    joined across files; the same libvirt domain described twice is counted once, and so is a VM two
    files of one estate both list: :mod:`knowledge.inventory.overlap`)."""
    from knowledge.inventory import collector_files, libvirt, openstack, proxmox, rvtools, template

    files: list[Path] = [Path(p) for p in paths]
    if not files:
        raise InputError("no inventory file given")
    estate = Estate()
    detected: list[tuple[Path, str, Any]] = []
    for i, path in enumerate(files):
        check_cancel(cancel)
        report(progress, 0.02 + 0.08 * i / len(files), f"looking at {path.name}")
        fmt, content = detect(path)
        detected.append((path, fmt, content))
    n = len(detected)
    csv_tabs = [p for p, f, _ in detected if f == "rvtools-csv"]
    flavor_docs = [(p, c) for p, f, c in detected if f == "openstack-json:flavors"]
    table: dict[str, dict] = {}
    for p, c in flavor_docs:
        table.update(openstack.flavors(p, c))
        estate.sources.append(Source(str(p), "openstack-flavors", notes=[f"{len(c['flavors'] if isinstance(c, dict) else c)} flavors"]))
    for i, (path, fmt, content) in enumerate(detected):
        check_cancel(cancel)
        base = 0.1 + 0.85 * i / n

        def sub(f: float, m: str, base=base) -> None:
            report(progress, base + 0.85 * f / n, m)

        sub(0.0, f"reading {path.name}")
        if fmt == "rvtools-xlsx":
            rvtools.read_xlsx(path, estate, sub, cancel)
        elif fmt == "libvirt-xml":
            source = Source(str(path), "libvirt-xml")
            try:
                libvirt.merge_libvirt(estate, [libvirt.read_domain_xml(path, content, estate)], source)
            except RowError as exc:
                estate.leave_out(str(exc))
            estate.sources.append(source)
        elif fmt == "virsh-text":
            vms, hosts = libvirt.read_virsh_text(path, content, estate)
            source = Source(str(path), "virsh-text", hosts=len(hosts))
            libvirt.merge_libvirt(estate, vms, source)
            estate.hosts += hosts
            estate.sources.append(source)
        elif fmt == "proxmox-json":
            estate.sources.append(proxmox.read_pvesh(path, content, estate))
        elif fmt == "openstack-json:servers":
            estate.sources.append(openstack.read_servers(path, content, estate, table, bool(flavor_docs)))
        elif fmt == "openstack-json:hypervisors":
            estate.sources.append(openstack.read_hypervisors(path, content, estate))
        elif fmt == "template-csv":
            estate.sources.append(template.read_template(path, content, estate))
        elif fmt in _COLLECTOR_FORMATS:
            collector = collectors.by_format(fmt)
            if collector in collectors.WORKBOOKS:
                estate.sources.append(collector_files.read_workbook(path, collector, estate, sub, cancel))
            else:
                estate.sources.append(collector_files.read_csv(path, content, collector, estate, cancel))
    if csv_tabs:
        rvtools.read_csv_tabs(csv_tabs, estate, lambda f, m: report(progress, 0.9 + 0.08 * f, m), cancel)
    count_once(estate)
    admit(estate)
    if not estate.vms and not estate.hosts:
        raise InputError(f"{', '.join(str(p) for p in files)}: no VMs and no hosts found"
                         + (f" that could be imported ({estate.left_out} left out: "
                            f"{'; '.join(w.removeprefix('left out: ') for w in estate.warnings[:3])})"
                            if estate.left_out else ""))
    report(progress, 1.0, f"read {len(estate.vms)} VMs and {len(estate.hosts)} hosts")
    return estate
