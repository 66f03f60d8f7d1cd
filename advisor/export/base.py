"""What every target generator shares: the export result, and the README each export carries."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from advisor.export.confined import remove_stale, write_tree
from advisor.export.plan import ClusterPlan, ExportedValue, GroupPlan, Source, decimal_text
from advisor.text import md_escape
from knowledge.infra.errors import InputError
from knowledge.infra.files import read_regular_text

__all__ = ["Export", "Notes", "hash_comment", "previous_files", "readme", "realtime_text", "remove_stale",
           "write_files"]


class Notes(list):
    """Notes, each once (a VM-level problem met in several files of a target is one note)."""

    def append(self, note: str) -> None:
        if note not in self:
            super().append(note)


@dataclass
class Export:
    """The files of one target (relative path -> text) and the values written into them."""

    target: str
    plan: ClusterPlan
    files: dict[str, str] = field(default_factory=dict)
    values: list[ExportedValue] = field(default_factory=list)
    notes: list[str] = field(default_factory=Notes)

    def add(self, path: str, text: str) -> None:
        if path in self.files:
            raise ValueError(f"{path} written twice")
        self.files[path] = text

    def value(self, file: str, setting: str, value: object, src: Source | None, advised: str | None = None,
              conversion: str = "") -> str:
        """Record ``value`` (returned as written) as implementing ``src``."""
        text = str(value)
        if src is not None:
            self.values.append(ExportedValue(file, setting, text, src.decision, src.scope,
                                             advised if advised is not None else src.choice, conversion))
        return text

    @property
    def manifest_path(self) -> str:
        return f"{self.target}/export-manifest.json"

    def manifest(self) -> dict:
        """The machine-readable map of every exported value to its recommendation."""
        return {"format_version": 1, "target": self.target, "scenario": self.plan.scenario, "basis": self.plan.basis,
                "files": sorted(self.files), "values": [v.to_dict() for v in self.values],
                "notes": list(self.notes)}

    def write(self, out_dir: Path) -> list[Path]:
        """Write every file and the manifest under ``out_dir``; the paths. Files a previous export
        of this target wrote there (its manifest lists them) and this one does not write again
        are removed; nothing else is touched."""
        from knowledge.infra import jsonout

        previous = previous_files(Path(out_dir) / self.manifest_path, "files")
        files = dict(self.files)
        files[self.manifest_path] = jsonout.dumps(self.manifest(), indent=2) + "\n"
        written = write_files(out_dir, files, last=self.manifest_path)
        remove_stale(out_dir, previous, files, under=f"{self.target}/")
        return written


def write_files(out_dir: Path, files: dict[str, str], last: str | None = None) -> list[Path]:
    """Write ``files`` (relative path -> text) under ``out_dir``, confined to it and whole
    (:func:`advisor.export.confined.write_tree`; ``last``, the listing, moved into place last),
    shell scripts executable; the paths written."""
    return write_tree(out_dir, files, last)


def previous_files(listing: Path, key: str) -> list[str]:
    """The relative paths a previous run listed under ``key`` of its JSON file ``listing`` (none
    when there is no such file, it is reached through a link or it cannot be read: then nothing
    is removed)."""
    import json

    if any(p.is_symlink() for p in (listing, listing.parent)):
        return []
    try:
        data = json.loads(read_regular_text(listing, "listing", 64 * 1024 * 1024))
    except (InputError, ValueError, RecursionError):
        return []
    files = data.get(key) if isinstance(data, dict) else None
    return [f for f in files if isinstance(f, str)] if isinstance(files, list) else []


def hash_comment(src: Source | None, extra: list[str] | None = None, indent: str = "") -> str:
    """``#`` comment lines for ``src`` (and ``extra`` lines), or '' without a source."""
    lines = (src.lines() if src is not None else []) + list(extra or [])
    return "".join(f"{indent}# {line}\n" for line in lines)


def realtime_text(g: GroupPlan) -> str:
    rt = g.realtime
    assert rt is not None
    if rt.dedicated:
        return f"a dedicated core per vCPU (T_VM = C_VM = {rt.period_us} us)"
    return (f"budget C_VM = {rt.budget_us} us every period T_VM = {rt.period_us} us "
            f"(advised {rt.advised}; share {rt.budget_us / rt.period_us:.6f} >= {rt.share:.6f})"
            if rt.period_us and rt.budget_us else f"advised {rt.advised}")


def _names_escaped(text: str, plan: ClusterPlan) -> str:
    """``text`` (the export's own Markdown, with code spans) with the scenario's and the groups' names
    in it made inert: a name with markup (``<x>``, an open ``<!--``) stays text in any renderer."""
    for name in sorted({plan.scenario, *(g.name for g in plan.groups)}, key=len, reverse=True):
        if name and md_escape(name) != name:
            text = text.replace(name, md_escape(name))
    return text


def readme(export: Export, title: str, how_to: list[str], files: list[tuple[str, str]],
           groups: list[GroupPlan] | None = None) -> str:
    """The export's README: what was exported from which advice, per group (``groups``: the
    target's, default the plan's), and how to apply it."""
    p = export.plan
    out = [f"# {md_escape(title)}", "",
           f"Generated by `capadvisor export-config` from the advice for scenario **{md_escape(p.scenario)}** "
           f"(figures' basis: {p.basis}). Every setting in these files carries a comment naming the "
           "recommendation it implements and the documents it rests on; `export-manifest.json` maps each "
           "value back to its recommendation.", "",
           "Placeholders (bridge names, storage names, addresses, VM ids, CPU numbers) are examples: adapt "
           "them to your site before applying anything.", "", "## Cluster", ""]
    if p.hypervisor_src:
        out.append(f"- Hypervisor advised: **{p.hypervisor}** ({', '.join(p.hypervisor_src.citations[:2])})")
    if p.overalloc_per_core is not None:
        out.append(f"- vCPU over-allocation: at most {p.overalloc_per_core:g} vCPUs per physical core "
                   f"({decimal_text(p.overalloc_per_thread)} per hardware thread): at most "
                   f"{p.max_vcpus_per_host} vCPUs on a host of {p.cores} cores")
    if p.hosts is not None:
        out.append(f"- Hosts: {p.hosts} (sized with RAM over-commit {p.ram_overcommit:g})")
    if p.reserved_ram_gib is not None:
        out.append(f"- RAM kept for the hypervisor on each host: {p.reserved_ram_mib} MiB")
    out.append(f"- Images live on: **{p.backend}**")
    out += ["", "## Workload groups", "", "| group | VMs | vCPUs | RAM (MiB) | disk | cache | real time |",
            "|---|---|---|---|---|---|---|"]
    for g in p.groups if groups is None else groups:
        name = md_escape(g.label)
        if g.containers:
            out.append(f"| {name} | {g.vms} | - | - | - | - | runs as containers (not exported) |")
            continue
        rt = realtime_text(g) if g.realtime and g.realtime.period_us else "-"
        out.append(f"| {name} | {g.vms} | {g.vcpus} | {g.ram_mib} | {g.disk_gb:g} GB ({g.disk_gib} GiB) | "
                   f"{g.cache or '-'} | {rt} |")
    if export.notes or p.notes:
        out += ["", "## Notes", ""] + [f"- {_names_escaped(n, p)}" for n in [*p.notes, *export.notes]]
    out += ["", "## Files", ""] + [f"- `{f}`: {_names_escaped(what, p)}" for f, what in files]
    out += ["", "## How to apply", ""] + how_to + [""]
    return "\n".join(out)
