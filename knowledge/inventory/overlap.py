"""VMs that two files of one inventory both list (RVTools and Live Optics of one vCenter, an RVTools export
taken twice): counted once, never silently twice.

Two files describe the same VMs when they share a host (short host names, as vCenter names them in both)
or when a VM of one name carries the same id in both (two exports of one kind whose ids differ list two VMs). Then each VM name both list is one VM: the copy
measured best is kept (CPU percentiles over a collection, else a CPU usage %, else the file given first)
and a warning names the VMs, the files and the copy kept. A name in two files that share no host and no
id (two sites with a ``sql01`` each) stays two VMs, with a warning saying so.
"""

from __future__ import annotations

from knowledge.inventory.common import normalize_uuid
from knowledge.inventory.model import VM, WARNINGS_LISTED, Estate, Host


def _short(host: str) -> str:
    return host.strip().split(".")[0].lower()


def _rank(v: VM) -> int:
    """How well a copy is measured: percentiles over a collection, a CPU usage %, a snapshot in MHz, nothing."""
    return 3 if v.cpu_pcts else 2 if v.cpu_usage_pct is not None else 1 if v.cpu_usage_mhz is not None else 0


def _hosts_by_file(estate: Estate) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for v in estate.vms:
        if v.host:
            out.setdefault(v.source, set()).add(_short(v.host))
    for h in estate.hosts:
        out.setdefault(h.source, set()).add(_short(h.name))
    return out


def _same(a: VM, b: VM, hosts: dict[str, set[str]], formats: dict[str, str]) -> bool:
    ida, idb = normalize_uuid(a.uid), normalize_uuid(b.uid)
    if ida and ida == idb:
        return True
    if ida and idb and formats.get(a.source) == formats.get(b.source):
        return False  # two exports of one kind give the same kind of id: two ids, two VMs (two projects' 'web')
    return bool(hosts.get(a.source, set()) & hosts.get(b.source, set()))


def count_once(estate: Estate) -> None:
    """Drop the second copy of each VM two files of ``estate`` both list (see the module doc), with warnings."""
    order = {s: i for i, s in enumerate(dict.fromkeys(v.source for v in estate.vms))}
    by_name: dict[str, list[VM]] = {}
    for v in estate.vms:
        by_name.setdefault(v.name.strip().lower(), []).append(v)
    hosts, formats = _hosts_by_file(estate), {src.path: src.format for src in estate.sources}
    dropped: dict[tuple[str, str], list[str]] = {}  # (file kept, file dropped) -> names
    apart: dict[tuple[str, ...], list[str]] = {}     # files -> names kept as different VMs
    drop: set[int] = set()
    for copies in by_name.values():
        files = [v.source for v in copies]
        if len(set(files)) < 2 or len(set(files)) != len(files):
            continue  # one file's own VMs of one name are told apart by their ids (the readers check)
        if not all(_same(copies[0], c, hosts, formats) for c in copies[1:]):
            apart.setdefault(tuple(sorted(set(files), key=order.__getitem__)), []).append(copies[0].name)
            continue
        kept = max(copies, key=lambda v: (_rank(v), -order[v.source]))
        for c in copies:
            if c is not kept:
                drop.add(id(c))
                dropped.setdefault((kept.source, c.source), []).append(c.name)
    if drop:
        estate.vms = [v for v in estate.vms if id(v) not in drop]
        for s in estate.sources:
            s.vms -= sum(len(n) for (_k, d), n in dropped.items() if d == s.path)
        _hosts_once(estate, {(k, d) for k, d in dropped})
    estate.warnings += [_counted_once(k, d, names) for (k, d), names in dropped.items()]
    estate.warnings += [_kept_apart(files, names) for files, names in apart.items()]


def _hosts_once(estate: Estate, pairs: set[tuple[str, str]]) -> None:
    """The hosts two files of one estate both list (by short name), counted once: the copy with a CPU usage
    %, else the one of the file whose VMs were kept."""
    files = {f for pair in pairs for f in pair}
    seen: dict[str, Host] = {}
    drop: set[int] = set()
    for h in estate.hosts:
        if h.source not in files:
            continue
        first = seen.get(_short(h.name))
        if first is None or first.source == h.source:
            seen.setdefault(_short(h.name), h)
            continue
        keep_new = first.cpu_usage_pct is None and h.cpu_usage_pct is not None
        keep, other = (h, first) if keep_new else (first, h)
        seen[_short(h.name)] = keep
        drop.add(id(other))
        keep.aliases = [*keep.aliases, *([other.name] if other.name != keep.name else [])]
    if drop:
        estate.hosts = [h for h in estate.hosts if id(h) not in drop]
        for s in estate.sources:
            s.hosts = sum(1 for h in estate.hosts if h.source == s.path) if s.path in files else s.hosts


def _names(names: list[str]) -> str:
    more = len(names) - WARNINGS_LISTED
    return ", ".join(names[:WARNINGS_LISTED]) + (f" and {more} more" if more > 0 else "")


def _counted_once(kept: str, dropped: str, names: list[str]) -> str:
    return (f"{len(names)} VM(s) listed by both {kept} and {dropped} (the files share hosts or ids: one estate) "
            f"are counted once, as {kept} describes them (measured best, or given first), and so are the hosts "
            f"both list: {_names(names)}")


def _kept_apart(files: tuple[str, ...], names: list[str]) -> str:
    return (f"{len(names)} VM name(s) are in {' and '.join(files)}, which share no host and no id: taken as "
            f"different VMs and counted in each file: {_names(names)}; if the files describe one estate, give "
            f"only one of them (or remove the repeated VMs from one)")
