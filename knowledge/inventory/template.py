"""Capacity Advisor's own inventory CSV template, for estates no supported tool exports.

Two kinds of file, told apart by their header (lines starting with ``#`` are comments):

VMs (``name,vcpus,ram_gib`` required)::

    name,vcpus,ram_gib,disk_gb,used_gb,count,powered_on,template,host,cluster,group,os,application,cache,pinned

``count`` lets one row stand for several identical VMs; ``group`` puts VMs in a named workload
group (otherwise they are grouped like any other estate); ``os`` is the guest operating system
(kept as a fact, it says nothing about the workload); ``application`` is what runs in the VMs
(e.g. cassandra, database, telecom, web: the advice's application rules read it); ``cache`` is
today's disk cache mode (none, writeback, writethrough, directsync, unsafe); ``powered_on``,
``template`` and ``pinned`` are yes/no. Hosts (``host,sockets,cores_per_socket,ram_gib`` required)::

    host,sockets,cores_per_socket,threads_per_core,ghz,ram_gib,cluster,cpu_model,hypervisor

Units: RAM in GiB, disks in GB (10^9 bytes), CPU clock in GHz. An example is in
resources/examples/inventory-vms.csv and inventory-hosts.csv.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from knowledge.infra.errors import InputError
from knowledge.inventory.common import (
    MAX_CELL_CHARS,
    MAX_ROWS,
    listing,
    norm_header,
    parse_bool,
    parse_number,
)
from knowledge.inventory.model import VM, Estate, Host, Source

VM_COLUMNS = ("name", "vcpus", "ram_gib", "disk_gb", "used_gb", "count", "powered_on", "template", "host",
              "cluster", "group", "os", "application", "cache", "pinned")
HOST_COLUMNS = ("host", "sockets", "cores_per_socket", "threads_per_core", "ghz", "ram_gib", "cluster", "cpu_model",
                "hypervisor")
VM_REQUIRED = ("name", "vcpus", "ram_gib")
HOST_REQUIRED = ("host", "sockets", "cores_per_socket", "ram_gib")
CACHE_MODES = ("none", "writeback", "writethrough", "directsync", "unsafe", "default")


def _rows(text: str, where: str = "inventory template") -> list[tuple[int, list[str]]]:
    """The rows of a template (blank and ``#`` lines left out), each with its line number; a broken
    row or more than :data:`MAX_ROWS` rows is an InputError naming the line."""
    out: list[tuple[int, list[str]]] = []
    reader = csv.reader(io.StringIO(text, newline=""))
    old = csv.field_size_limit(MAX_CELL_CHARS)
    try:
        for row in reader:
            if not row or not any(c.strip() for c in row) or row[0].lstrip().startswith("#"):
                continue
            if len(out) > MAX_ROWS:
                raise InputError(f"{where}: more than {MAX_ROWS:,} rows: larger than an estate file may be")
            out.append((reader.line_num, row))
    except csv.Error as exc:
        raise InputError(f"{where}: line {reader.line_num}: not a readable CSV row ({exc}; a field may have at "
                         f"most {MAX_CELL_CHARS:,} characters)") from None
    finally:
        csv.field_size_limit(old)
    return out


def _key(h: str) -> str:
    return norm_header(h).replace("_", "")


#: headers (normalised) that only our templates use: a file sharing two of them is a template,
#: even when a required column is missing (the reader then names it)
_MARKERS = {"vms": {_key(c) for c in VM_COLUMNS} - {"template", "host", "cluster", "os"},
            "hosts": {_key(c) for c in HOST_COLUMNS} - {"cluster", "cpumodel"}}


def template_family(text: str) -> tuple[str | None, int]:
    """``(kind, score)``: ``vms`` or ``hosts`` and the number of the template's own headers the
    first row shares (``(None, 0)`` when it is no template)."""
    try:
        rows = _rows(text[:65536])
    except InputError:
        return None, 0
    if not rows:
        return None, 0
    keys = {_key(h) for h in rows[0][1]}
    scores = {k: len(keys & m) for k, m in _MARKERS.items()}
    kind = max(scores, key=lambda k: scores[k])
    return (kind, scores[kind]) if scores[kind] >= 2 else (None, 0)


def template_kind(text: str) -> str | None:
    """``vms`` or ``hosts`` when ``text`` is one of our templates (complete or not), else None."""
    return template_family(text)[0]


def _columns(where: str, first: tuple[int, list[str]], kind: str, source: Source) -> dict[str, int]:
    """Column index by (lower-case) header; the required ones checked, unknown ones noted."""
    line0, header = first
    cols = {h.strip().lower(): i for i, h in enumerate(header)}
    known = VM_COLUMNS if kind == "vms" else HOST_COLUMNS
    required = VM_REQUIRED if kind == "vms" else HOST_REQUIRED
    missing = [c for c in required if c not in cols]
    if missing:
        raise InputError(f"{where}: line {line0}: the inventory template for {'VMs' if kind == 'vms' else 'hosts'} "
                         f"has no column {', '.join(repr(m) for m in missing)} (required: {', '.join(required)}; "
                         f"the header is: {listing(header, 20)})")
    unknown = [h for h in cols if h not in known]
    if unknown:
        source.notes.append(f"columns ignored: {listing(unknown)} (known: {', '.join(known)})")
    return cols


def read_template(path: Path, text: str, estate: Estate) -> Source:
    where = str(path)
    rows = _rows(text, where)
    kind = template_kind(text)
    if kind is None:
        raise InputError(f"{where}: not a Capacity Advisor inventory template (needs the columns "
                         f"{', '.join(VM_REQUIRED)} for VMs or {', '.join(HOST_REQUIRED)} for hosts)")
    source = Source(where, f"template-{kind}")
    cols = _columns(where, rows[0], kind, source)
    first = len(estate.vms)

    def cell(row, name):
        i = cols.get(name)
        return row[i].strip() if i is not None and i < len(row) else ""

    def num(row, n, name, required=False, integer=False):
        raw = cell(row, name)
        try:
            v = parse_number(raw)
        except ValueError as exc:
            raise InputError(f"{where}: line {n}, column {name}: {raw[:40]!r} is not a number ({exc})") from None
        if v is None and required:
            raise InputError(f"{where}: line {n}, column {name}: a value is required")
        if v is not None and (v < 0 or (integer and v != int(v))):
            raise InputError(f"{where}: line {n}, column {name}: {raw!r} is not a "
                             f"{'whole ' if integer else ''}number >= 0")
        return v

    def flag(row, n, name):
        raw = cell(row, name)
        try:
            return parse_bool(raw)
        except ValueError:
            raise InputError(f"{where}: line {n}, column {name}: {raw!r} is not yes or no") from None

    for n, row in rows[1:]:
        if kind == "vms":
            name = cell(row, "name")
            if not name:
                raise InputError(f"{where}: line {n}, column name: a value is required")
            vcpus = num(row, n, "vcpus", True, True)
            if vcpus < 1:
                raise InputError(f"{where}: line {n}, column vcpus: at least 1")
            count = num(row, n, "count", integer=True)
            cache = cell(row, "cache").lower()
            if cache and cache not in CACHE_MODES:
                raise InputError(f"{where}: line {n}, column cache: {cache!r} is not one of {', '.join(CACHE_MODES)}")
            disk, used = num(row, n, "disk_gb"), num(row, n, "used_gb")
            ram = num(row, n, "ram_gib", True)
            if ram <= 0:
                raise InputError(f"{where}: line {n}, column ram_gib: must be > 0")
            estate.vms.append(VM(
                name=name, source=where, platform="template", vcpus=int(vcpus), ram_mib=ram * 1024, where=f"line {n}",
                disk_gb=disk, used_gb=used, count=int(count) if count is not None else 1,
                powered_on=flag(row, n, "powered_on"), template=flag(row, n, "template") or False,
                host=cell(row, "host"), cluster=cell(row, "cluster"), group=cell(row, "group"), os=cell(row, "os"),
                application=cell(row, "application"),
                cache_modes=[cache] if cache else [], pinned=flag(row, n, "pinned")))
            source.vms += estate.vms[-1].count
        else:
            name = cell(row, "host")
            if not name:
                raise InputError(f"{where}: line {n}, column host: a value is required")
            threads = num(row, n, "threads_per_core", integer=True)
            ghz = num(row, n, "ghz")
            estate.hosts.append(Host(
                name=name, source=where, cluster=cell(row, "cluster"), cpu_model=cell(row, "cpu_model"),
                sockets=int(num(row, n, "sockets", True, True)), cores_per_socket=int(num(row, n, "cores_per_socket",
                                                                                          True, True)),
                threads_per_core=int(threads) if threads else None, ghz=ghz or None,
                ram_mib=num(row, n, "ram_gib", True) * 1024, hypervisor=cell(row, "hypervisor")))
            source.hosts += 1
    _warn_repeated(estate.vms[first:], where, estate)
    return source


def _warn_repeated(vms: list[VM], where: str, estate: Estate) -> None:
    """VM names the template lists on several lines: each line is counted (as the template says), but a
    warning names the lines, since a utilisation series of that name joins only the first."""
    lines: dict[str, list[str]] = {}
    for v in vms:
        lines.setdefault(v.name.lower(), []).append(v.where)
    repeated = [(v.name, lines[v.name.lower()]) for v in vms if len(lines.get(v.name.lower(), [])) > 1]
    seen: set[str] = set()
    for name, at in repeated:
        if name.lower() not in seen:
            seen.add(name.lower())
            estate.warnings.append(f"{where}: VM {name!r} is listed on {len(at)} lines ({', '.join(at)}): each is "
                                   f"counted as a VM of its own, and a utilisation series named {name!r} joins at most "
                                   f"the first ({at[0]}); give each VM its own name (or one line with a count)")
