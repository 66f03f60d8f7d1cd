"""The cost catalogue: the user's own prices of host models, storage and licences, the power
price and the years of operation. Capacity Advisor never invents a price: every figure of a
design's cost (:mod:`advisor.cost`) comes from here.

The catalogue is stored in the user database (:meth:`knowledge.userdb.UserDatabase.cost_catalogue`)
and exported/imported as YAML (JSON reads too). :func:`parse_catalogue` checks a whole document
and raises one :class:`~knowledge.infra.errors.InputError` naming the file and every bad field
(``costs.yaml: hosts[1].price: must be a number >= 0``).

Format (version 1; money in the catalogue's ``currency``, a label only)::

    version: 1
    name: My prices 2025
    currency: EUR
    years: 5                       # years of operation the opex is counted over
    power: {price_per_kwh: 0.2, pue: 1.5}
    rack: {price_per_unit_per_year: 100}     # optional: rack space per U and year
    hosts:                         # host models (the scenario's hosts.* fields plus prices)
      - name: 2U 2x20c 384G
        cpu: {model: Xeon Gold 6230, sockets: 2, cores_per_socket: 20, threads_per_core: 2, ghz: 2.1}
        ram_gib: 384
        disks: [{kind: ssd, count: 4, size_gb: 1920}]
        nic_gbps: 10
        price: 14000               # per host, bought once
        power_w: 450               # average draw at full load, W
        idle_w: 180                # optional: draw when idle (power then follows the CPU load)
        rack_units: 2
        support_per_year: 600      # optional hardware support per host and year
    storage:                       # shared storage: an array priced per TB, or nodes
      - {name: NFS filer, kind: nfs, network_gbps: 10, base_price: 8000, price_per_tb: 250,
         power_w: 400, rack_units: 2}
      - {name: Ceph node, kind: distributed, network_gbps: 25, price_per_node: 9000, tb_per_node: 20,
         copies: 3, min_nodes: 3, power_w: 350, rack_units: 1}
    licences:                      # for a hypervisor or a storage kind; summed when several apply
      - {name: ESXi subscription, hypervisor: VMware ESXi, per: core, min_cores_per_cpu: 16, per_year: 150}
      - {name: KVM support, hypervisor: KVM, per: socket, per_year: 400}

Licence ``per``: ``socket`` (CPUs of every host), ``core`` (cores of every CPU, at least
``min_cores_per_cpu`` each), ``host``, ``cluster`` (once) or ``node`` (storage nodes);
``price`` is paid once (capex), ``per_year`` every year (opex). An entry marked ``example: true``
is an example with a placeholder price, never a quote.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from knowledge.host_types import DEFAULT_GHZ, DISK_KINDS, HYPERVISORS, VIRTUALIZATION, Cpu, Disk
from knowledge.host_types import SHARED_KINDS as STORAGE_KINDS
from knowledge.infra import userdata
from knowledge.infra.errors import InputError
from knowledge.infra.reader import CheckedMapping, Problems

CATALOGUE_VERSION = 1
LICENCE_UNITS = ("socket", "core", "host", "cluster", "node")
#: the sections of a catalogue that hold named entries
SECTIONS = ("hosts", "storage", "licences")
#: the largest catalogue file read, bytes
MAX_FILE_BYTES = 4 * 1024 * 1024
#: no number of a catalogue may exceed this in size (a price of 1e308 EUR would make every total
#: over the years infinite); fields with a tighter bound say so
MAX_NUMBER = 1e12


@dataclass
class HostModel:
    """A host model on offer: the hardware (as the scenario's ``hosts`` describes it) and its prices."""

    name: str
    price: float
    power_w: float
    cpu: Cpu = field(default_factory=lambda: Cpu(virtualization="vmx"))
    ram_gib: float = 64.0
    disks: list[Disk] = field(default_factory=list)
    nic_gbps: float = 1.0
    rack_units: float = 1.0
    idle_w: float | None = None
    support_per_year: float = 0.0
    example: bool = False
    note: str = ""

    def describe(self) -> str:
        disks = ", ".join(f"{d.count}x {d.kind} {d.size_gb:g} GB" for d in self.disks) or "no local disks"
        return (f"{self.cpu.sockets}x {self.cpu.cores_per_socket} cores, {self.ram_gib:g} GiB, {disks}, "
                f"{self.nic_gbps:g} Gb/s")


@dataclass
class StorageProduct:
    """Shared storage on offer: an array priced per TB (``base_price`` + ``price_per_tb``) or
    nodes (``price_per_node``, ``tb_per_node`` each, ``copies`` of every byte, at least
    ``min_nodes``); ``power_w``, ``rack_units`` and ``support_per_year`` per array or node."""

    name: str
    kind: str
    network_gbps: float = 10.0
    base_price: float = 0.0
    price_per_tb: float | None = None
    price_per_node: float | None = None
    tb_per_node: float | None = None
    copies: int = 1
    min_nodes: int = 1
    power_w: float = 0.0
    rack_units: float = 0.0
    support_per_year: float = 0.0
    iops: float | None = None
    example: bool = False
    note: str = ""

    @property
    def per_node(self) -> bool:
        return self.price_per_node is not None


@dataclass
class Licence:
    """A licence or subscription for a hypervisor or a storage kind (see the module doc)."""

    name: str
    per: str
    hypervisor: str | None = None
    storage: str | None = None
    price: float = 0.0
    per_year: float = 0.0
    min_cores_per_cpu: int = 0
    example: bool = False
    note: str = ""


@dataclass
class Power:
    price_per_kwh: float = 0.0
    pue: float = 1.0


@dataclass
class Catalogue:
    """The whole cost catalogue (see the module doc)."""

    name: str = "cost catalogue"
    currency: str = "EUR"
    years: float = 5.0
    power: Power = field(default_factory=Power)
    rack_price_per_unit_per_year: float = 0.0
    hosts: list[HostModel] = field(default_factory=list)
    storage: list[StorageProduct] = field(default_factory=list)
    licences: list[Licence] = field(default_factory=list)
    version: int = CATALOGUE_VERSION
    note: str = ""

    @property
    def empty(self) -> bool:
        return not (self.hosts or self.storage or self.licences)

    def host(self, name: str) -> HostModel | None:
        return next((h for h in self.hosts if h.name == name), None)

    def storage_product(self, name: str) -> StorageProduct | None:
        return next((s for s in self.storage if s.name == name), None)

    def licences_for(self, hypervisor: str | None = None, storage: str | None = None) -> list[Licence]:
        """The licences that apply to ``hypervisor`` and to the storage ``kind`` (summed)."""
        return [lic for lic in self.licences
                if (lic.hypervisor is not None and lic.hypervisor == hypervisor)
                or (lic.storage is not None and lic.storage == storage)]

    @property
    def examples(self) -> int:
        """How many entries are examples with placeholder prices."""
        return sum(1 for sec in (self.hosts, self.storage, self.licences) for e in sec if e.example)

    def entries(self, section: str) -> list[Any]:
        by_section: dict[str, list[Any]] = {"hosts": self.hosts, "storage": self.storage, "licences": self.licences}
        return by_section[section]

    def settings(self) -> dict:
        """The catalogue's settings (everything but the named entries), in the file format."""
        out: dict[str, Any] = {"version": self.version, "name": self.name, "currency": self.currency,
                               "years": _plain(self.years),
                               "power": {"price_per_kwh": self.power.price_per_kwh, "pue": self.power.pue}}
        if self.rack_price_per_unit_per_year:
            out["rack"] = {"price_per_unit_per_year": self.rack_price_per_unit_per_year}
        if self.note:
            out["note"] = self.note
        return out

    def to_dict(self) -> dict:
        """The file format (None values and defaults that say nothing left out)."""
        out = self.settings()
        for section in SECTIONS:
            out[section] = [entry_to_dict(e) for e in self.entries(section)]
        return out


def entry_to_dict(entry) -> dict:
    """One host, storage or licence entry in the file format."""
    data = _drop(asdict(entry))
    if isinstance(entry, HostModel):
        data["cpu"] = _drop(asdict(entry.cpu))
    return data


def _drop(d: dict) -> dict:
    out = {}
    for k, v in d.items():
        if v is None or (k in ("example",) and v is False) or (k == "note" and not v):
            continue
        if k in ("support_per_year", "base_price", "min_cores_per_cpu") and not v:
            continue
        if isinstance(v, list):
            v = [_drop(x) if isinstance(x, dict) else x for x in v]
        elif isinstance(v, dict):
            v = _drop(v)
        out[k] = _plain(v)
    return out


def _plain(v):
    return int(v) if isinstance(v, float) and v.is_integer() and abs(v) < 1e15 else v


# --- validation ------------------------------------------------------------------------------
class _Problems(Problems):
    def __init__(self, source: str) -> None:
        super().__init__(limit=30)
        self.source = source

    def raise_if_any(self) -> None:
        if self.items:
            raise InputError(f"{self.source}: invalid cost catalogue:\n  " + self.listing())


_MISSING = object()


class _Reader(CheckedMapping):
    """Typed access to one mapping, reporting problems under ``path`` (the mapping's checks, a key
    given twice among them, are the shared reader's; the catalogue's fields follow its own rules)."""

    def __init__(self, data: Any, path: str, problems: _Problems, known: tuple[str, ...]):
        super().__init__(data, path, problems, known, root="catalogue", noun="field")

    def has(self, key: str) -> bool:
        return self.data.get(key) is not None

    def string(self, key: str, default: Any = _MISSING, choices: tuple[str, ...] | None = None,
               limit: int = 200) -> Any:
        value = self.data.get(key)
        if value is None:
            if default is _MISSING:
                self.problems.add(self.p(key), "is required")
                return ""
            return default
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            self.problems.add(self.p(key), "must be text")
            return default if default is not _MISSING else ""
        value = str(value).strip()
        if choices and value not in choices:
            self.problems.add(self.p(key), f"must be one of {', '.join(choices)}, not {value!r}")
            return default if default is not _MISSING else value
        if len(value) > limit or any(ord(c) < 32 and c not in "\t" for c in value):
            self.problems.add(self.p(key), f"at most {limit} characters, no control characters")
            return value[:limit]
        if default is _MISSING and not value:
            self.problems.add(self.p(key), "must not be empty")
        return value

    def number(self, key: str, default: Any = _MISSING, *, minimum: float | None = 0.0, maximum: float | None = None,
               integer: bool = False, positive: bool = False) -> Any:
        value = self.data.get(key)
        if value is None:
            if default is _MISSING:
                self.problems.add(self.p(key), "is required")
                return 0
            return default
        if isinstance(value, bool) or not isinstance(value, int | float):
            self.problems.add(self.p(key), "must be an integer" if integer else "must be a number")
            return default if default is not _MISSING else 0
        if abs(value) > MAX_NUMBER or (isinstance(value, float) and not math.isfinite(value)):
            shown = f"a {len(str(abs(value)))}-digit number" if isinstance(value, int) else f"{value:g}"
            self.problems.add(self.p(key), f"must be a finite number of at most {MAX_NUMBER:g}, not {shown}")
            return default if default is not _MISSING else 0
        if integer and value != int(value):
            self.problems.add(self.p(key), "must be an integer")
            return int(value)
        if positive and value <= 0:
            self.problems.add(self.p(key), "must be > 0")
        elif minimum is not None and value < minimum:
            self.problems.add(self.p(key), f"must be >= {minimum:g}")
        if maximum is not None and value > maximum:
            self.problems.add(self.p(key), f"must be <= {maximum:g}")
        return int(value) if integer else float(value)

    def boolean(self, key: str, default: bool = False) -> bool:
        value = self.data.get(key)
        if value is None:
            return default
        if not isinstance(value, bool):
            self.problems.add(self.p(key), "must be true or false")
            return default
        return value

    def items(self, key: str) -> list:
        value = self.data.get(key)
        if value is None:
            return []
        if not isinstance(value, list):
            self.problems.add(self.p(key), "must be a list")
            return []
        return value


def _host(data: Any, path: str, pr: _Problems) -> HostModel:
    r = _Reader(data, path, pr, ("name", "example", "note", "cpu", "ram_gib", "disks", "nic_gbps", "price",
                                 "power_w", "idle_w", "rack_units", "support_per_year"))
    c = _Reader(r.data.get("cpu", {}), f"{path}.cpu", pr, ("model", "sockets", "cores_per_socket",
                                                             "threads_per_core", "ghz", "virtualization"))
    if "cpu" not in r.data:
        pr.add(f"{path}.cpu", "is required (sockets, cores_per_socket, ...)")
    cpu = Cpu(model=c.string("model", ""), sockets=c.number("sockets", 1, integer=True, positive=True, maximum=16),
                  cores_per_socket=c.number("cores_per_socket", integer=True, positive=True, maximum=1024),
                  threads_per_core=c.number("threads_per_core", 1, integer=True, positive=True, maximum=8),
                  ghz=c.number("ghz", DEFAULT_GHZ, positive=True, maximum=20),
                  virtualization=c.string("virtualization", "vmx", VIRTUALIZATION))
    disks = []
    for i, d in enumerate(r.items("disks")):
        dr = _Reader(d, f"{path}.disks[{i}]", pr, ("kind", "count", "size_gb", "iops", "mb_s"))
        disks.append(Disk(kind=dr.string("kind", "ssd", DISK_KINDS),
                          count=dr.number("count", 1, integer=True, positive=True),
                          size_gb=dr.number("size_gb", positive=True),
                          iops=dr.number("iops", None, positive=True), mb_s=dr.number("mb_s", None, positive=True)))
    power = r.number("power_w", positive=True)
    idle = r.number("idle_w", None)
    if idle is not None and isinstance(power, float) and idle > power:
        pr.add(f"{path}.idle_w", f"must be <= power_w ({power:g})")
    return HostModel(name=r.string("name"), example=r.boolean("example"), note=r.string("note", "", limit=2000),
                     cpu=cpu, ram_gib=r.number("ram_gib", positive=True), disks=disks,
                     nic_gbps=r.number("nic_gbps", 1.0, positive=True), price=r.number("price"),
                     power_w=power, idle_w=idle, rack_units=r.number("rack_units", 1.0),
                     support_per_year=r.number("support_per_year", 0.0))


def _storage(data: Any, path: str, pr: _Problems) -> StorageProduct:
    r = _Reader(data, path, pr, ("name", "example", "note", "kind", "network_gbps", "base_price", "price_per_tb",
                                 "price_per_node", "tb_per_node", "copies", "min_nodes", "power_w", "rack_units",
                                 "support_per_year", "iops"))
    s = StorageProduct(name=r.string("name"), kind=r.string("kind", choices=STORAGE_KINDS),
                       example=r.boolean("example"), note=r.string("note", "", limit=2000),
                       network_gbps=r.number("network_gbps", 10.0, positive=True),
                       base_price=r.number("base_price", 0.0), price_per_tb=r.number("price_per_tb", None),
                       price_per_node=r.number("price_per_node", None),
                       tb_per_node=r.number("tb_per_node", None, positive=True),
                       copies=r.number("copies", 1, integer=True, positive=True, maximum=16),
                       min_nodes=r.number("min_nodes", 1, integer=True, positive=True),
                       power_w=r.number("power_w", 0.0), rack_units=r.number("rack_units", 0.0),
                       support_per_year=r.number("support_per_year", 0.0), iops=r.number("iops", None, positive=True))
    if (s.price_per_tb is None) == (s.price_per_node is None):
        pr.add(path, "give either price_per_tb (an array) or price_per_node with tb_per_node (nodes)")
    if s.price_per_node is not None and s.tb_per_node is None:
        pr.add(f"{path}.tb_per_node", "is required with price_per_node")
    return s


def _licence(data: Any, path: str, pr: _Problems) -> Licence:
    r = _Reader(data, path, pr, ("name", "example", "note", "hypervisor", "storage", "per", "price", "per_year",
                                 "min_cores_per_cpu"))
    lic = Licence(name=r.string("name"), per=r.string("per", choices=LICENCE_UNITS),
                  hypervisor=r.string("hypervisor", None, HYPERVISORS), storage=r.string("storage", None, STORAGE_KINDS),
                  price=r.number("price", 0.0), per_year=r.number("per_year", 0.0),
                  min_cores_per_cpu=r.number("min_cores_per_cpu", 0, integer=True),
                  example=r.boolean("example"), note=r.string("note", "", limit=2000))
    if lic.hypervisor is None and lic.storage is None:
        pr.add(path, "name the hypervisor or the storage kind the licence is for")
    if lic.hypervisor is not None and lic.storage is not None:
        pr.add(path, "a licence is for a hypervisor or for a storage kind, not both")
    if not r.has("price") and not r.has("per_year"):
        pr.add(path, "give price (paid once) and/or per_year (a subscription)")
    if lic.min_cores_per_cpu and lic.per != "core":
        pr.add(f"{path}.min_cores_per_cpu", "only applies to licences per core")
    if lic.per == "node" and lic.storage is None:
        pr.add(f"{path}.per", "node licences are for storage nodes: name the storage kind")
    return lic


def parse_catalogue(data: Any, source: str = "cost catalogue") -> Catalogue:
    """A validated :class:`Catalogue` from plain data; one InputError naming ``source`` and every
    bad field otherwise."""
    pr = _Problems(source)
    r = _Reader(data, "", pr, ("version", "name", "currency", "years", "power", "rack", "hosts", "storage",
                               "licences", "note"))
    version = r.number("version", CATALOGUE_VERSION, integer=True)
    if version != CATALOGUE_VERSION:
        pr.add("version", f"this program reads cost catalogue version {CATALOGUE_VERSION}, not {version}")
    p = _Reader(r.data.get("power") or {}, "power", pr, ("price_per_kwh", "pue"))
    rack = _Reader(r.data.get("rack") or {}, "rack", pr, ("price_per_unit_per_year",))
    cat = Catalogue(name=r.string("name", "cost catalogue"), currency=r.string("currency", "EUR", limit=12),
                    years=r.number("years", 5.0, positive=True, maximum=50), note=r.string("note", "", limit=4000),
                    power=Power(price_per_kwh=p.number("price_per_kwh", 0.0), pue=p.number("pue", 1.0, minimum=1.0,
                                                                                           maximum=5.0)),
                    rack_price_per_unit_per_year=rack.number("price_per_unit_per_year", 0.0))
    cat.hosts = [_host(d, f"hosts[{i}]", pr) for i, d in enumerate(r.items("hosts"))]
    cat.storage = [_storage(d, f"storage[{i}]", pr) for i, d in enumerate(r.items("storage"))]
    cat.licences = [_licence(d, f"licences[{i}]", pr) for i, d in enumerate(r.items("licences"))]
    for section in SECTIONS:
        seen: set[str] = set()
        for i, e in enumerate(cat.entries(section)):
            if e.name and e.name in seen:
                pr.add(f"{section}[{i}].name", f"{e.name!r} is used twice in {section}")
            seen.add(e.name)
    pr.raise_if_any()
    return cat


def parse_entry(section: str, data: Any, source: str = "entry"):
    """One entry of ``section`` (hosts, storage, licences), validated."""
    pr = _Problems(source)
    parse = {"hosts": _host, "storage": _storage, "licences": _licence}.get(section)
    if parse is None:
        raise InputError(f"{source}: unknown catalogue section {section!r} (known: {', '.join(SECTIONS)})")
    entry = parse(data, section, pr)
    pr.raise_if_any()
    return entry


_DISK_TEXT = re.compile(r"^\s*(\d+)\s*x\s*(" + "|".join(DISK_KINDS) + r")\s+([\d.]+)\s*(?:GB)?(?:\s+([\d.]+)\s*IOPS)?"
                        r"(?:\s+([\d.]+)\s*MB/s)?\s*$", re.IGNORECASE)


def disks_text(disks: list) -> str:
    """Local disk groups as one line: ``4x ssd 1920 GB, 2x hdd 4000 GB 150 IOPS 180 MB/s`` (the
    cost catalogue editor's cell; :func:`parse_disks_text` reads it back)."""
    out = []
    for d in disks:
        def get(key: str, d=d) -> Any:
            return d.get(key) if isinstance(d, dict) else getattr(d, key)

        text = f"{get('count')}x {get('kind')} {float(get('size_gb')):g} GB"
        if get("iops"):
            text += f" {float(get('iops')):g} IOPS"
        if get("mb_s"):
            text += f" {float(get('mb_s')):g} MB/s"
        out.append(text)
    return ", ".join(out)


def parse_disks_text(text: str):
    """The disk groups of :func:`disks_text`'s line as file-format mappings; text it cannot read is
    returned as it is, so that validation names the field."""
    text = text.strip()
    if not text or text.lower() in ("none", "no local disks"):
        return []
    out = []
    for part in text.split(","):
        m = _DISK_TEXT.match(part)
        if m is None:
            return text
        d: dict[str, Any] = {"kind": m.group(2).lower(), "count": int(m.group(1)), "size_gb": float(m.group(3))}
        if m.group(4):
            d["iops"] = float(m.group(4))
        if m.group(5):
            d["mb_s"] = float(m.group(5))
        out.append(d)
    return out


# --- files -----------------------------------------------------------------------------------
def read_catalogue_data(path: Path | str) -> Any:
    """The plain data of a catalogue file (.json, else YAML) with the safe read every user file
    shares (:mod:`knowledge.infra.userdata`); InputError when it cannot be read or parsed. Its
    mappings remember a key given twice: :func:`parse_catalogue` refuses it, as the scenario does."""
    path = Path(path)
    fmt = "json" if path.suffix.lower() == ".json" else "yaml"
    return userdata.read_user_data(path, "cost catalogue", MAX_FILE_BYTES, fmt)


def loads(text: str, fmt: str = "yaml", source: str = "cost catalogue") -> Any:
    """The data of catalogue text (``yaml`` or ``json``), see :func:`knowledge.infra.userdata.loads`."""
    return userdata.loads(text, fmt, source)


def load_catalogue(path: Path | str) -> Catalogue:
    """Read and validate a cost catalogue file."""
    return parse_catalogue(read_catalogue_data(path), str(Path(path)))


HEADER = ("# Capacity Advisor cost catalogue (format version 1): your own prices.\n"
          "# Import: capadvisor costs import FILE   Export: capadvisor costs export FILE\n")


def dumps_catalogue(cat: Catalogue, fmt: str = "yaml") -> str:
    """The catalogue as YAML (with a header comment) or JSON text."""
    data = cat.to_dict()
    if fmt == "json":
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    import yaml

    return HEADER + yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=110)


def example_path() -> Path:
    """The shipped example catalogue (placeholder prices)."""
    from knowledge.infra.paths import bundle_root

    return bundle_root() / "resources" / "examples" / "costs-example.yaml"
