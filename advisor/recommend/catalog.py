"""The decision catalogue: every decision of the engine declared once.

An entry names the decision, its human title, the decisions it runs after (it reads their
choices through ``ctx.facts`` / ``ctx.chosen``), its recommender module, the charts that show
it (:func:`advisor.figures.registry.of_decision`, declared with the charts) and whether the one-glance summary (what-if banner,
design summary) shows it. Its rules are the rules of :mod:`advisor.rules` whose ``decision`` is
the entry's name. The engine runs :func:`order`; the CLI, the GUI panels, the report and the
tests read the entries instead of keeping their own lists.

Adding a decision: write ``advisor/recommend/<name>.py`` with ``DECISION = "<name>"`` and
``recommend(ctx) -> list[Recommendation]``, rules with ``decision="<name>"`` in a table of
:mod:`advisor.rules`, and add one :class:`Decision` below.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType

# imported statically so that frozen builds carry every recommender
from advisor.recommend import (
    cache_mode,
    cpu_governor,
    disk_placement,
    host_count,
    hypervisor,
    image_transfer,
    io_block_size,
    load_balancing,
    storage_backend,
    vcpu_overallocation,
    vm_period_budget,
)
from advisor.text import fmt_value, unit_for


@dataclass(frozen=True)
class Decision:
    """One decision of the engine (see the module doc)."""

    name: str
    title: str
    recommender: ModuleType
    after: tuple[str, ...] = ()
    #: shown in one-glance summaries (the what-if banner, the design summary)
    headline: bool = False
    #: unit of the recommendation's ``value`` when the card shows it next to the choice
    value_unit: str = ""
    #: how the choices read for people, where the engine's names are identifiers: (choice, label)
    labels: tuple[tuple[str, str], ...] = ()

    @property
    def rules(self) -> list:
        """The rules of :mod:`advisor.rules` that decide this decision (in evaluation order)."""
        from advisor.rules import rules_for

        return list(rules_for(self.name))


#: every decision, in the order the engine runs them when ``after`` leaves a choice
CATALOG: tuple[Decision, ...] = (
    Decision("hypervisor", "Hypervisor", hypervisor, headline=True),
    Decision("vcpu_overallocation", "vCPU over-allocation", vcpu_overallocation, after=("hypervisor",),
             headline=True,
             value_unit="vCPUs per core"),
    Decision("storage_backend", "Storage backend for VM images", storage_backend, after=("hypervisor",),
             headline=True,
             labels=(("local_disk", "local disk"), ("nfs_file", "NFS, image files"),
                     ("nfs_root", "NFS root file system"), ("iscsi", "iSCSI"),
                     ("distributed", "distributed storage"))),
    Decision("host_count", "Number of hosts", host_count, after=("vcpu_overallocation", "storage_backend"),
             headline=True, value_unit="hosts"),
    Decision("cache_mode", "KVM disk cache mode", cache_mode,
             after=("hypervisor", "storage_backend", "host_count"), headline=True),
    Decision("vm_period_budget", "Real-time VM period and budget", vm_period_budget, after=("hypervisor",),
             headline=True),
    Decision("image_transfer", "Image transfer", image_transfer, after=("storage_backend",)),
    Decision("disk_placement", "Disk placement", disk_placement, after=("hypervisor", "storage_backend")),
    Decision("cpu_governor", "CPU frequency governor", cpu_governor, after=("hypervisor",)),
    Decision("io_block_size", "I/O block size", io_block_size, after=("storage_backend",)),
    Decision("load_balancing", "Load balancing (automatic migration)", load_balancing,
             after=("hypervisor", "storage_backend", "host_count")),
)



def get(name: str) -> Decision | None:
    """The catalogue entry of ``name`` (None for a name the engine does not decide)."""
    return next((d for d in CATALOG if d.name == name), None)


def title(name: str) -> str:
    """The human title of decision ``name`` (a readable form of an unknown name)."""
    d = get(name)
    return d.title if d else name.replace("_", " ").capitalize()


def headline() -> tuple[str, ...]:
    """The decisions a one-glance summary shows, in engine order."""
    return tuple(d.name for d in ordered() if d.headline)


def ordered(catalog: tuple[Decision, ...] | None = None) -> tuple[Decision, ...]:
    """The entries of ``catalog`` (default :data:`CATALOG`) in the order the engine runs them."""
    entries = {d.name: d for d in (CATALOG if catalog is None else catalog)}
    return tuple(entries[n] for n in order(tuple(entries.values())))


def order(catalog: tuple[Decision, ...] | None = None) -> tuple[str, ...]:
    """The decisions in an order where each runs after everything in its ``after``; among those
    ready at once, catalogue order. Raises ValueError for an unknown ``after`` or a cycle."""
    catalog = CATALOG if catalog is None else catalog
    names = [d.name for d in catalog]
    for d in catalog:
        unknown = [a for a in d.after if a not in names]
        if unknown:
            raise ValueError(f"decision {d.name!r} runs after unknown decision(s) {', '.join(unknown)}")
    done: list[str] = []
    pending = list(catalog)
    while pending:
        ready = next((d for d in pending if all(a in done for a in d.after)), None)
        if ready is None:
            raise ValueError("the decisions' 'after' form a cycle: " + ", ".join(d.name for d in pending))
        done.append(ready.name)
        pending.remove(ready)
    return tuple(done)


def choice_label(decision: str, choice: str) -> str:
    """A choice of ``decision`` as people read it (``nfs_file`` -> ``NFS, image files``); a choice
    without a label is already readable and comes back as it is."""
    d = get(decision)
    return dict(d.labels).get(choice, choice) if d is not None else choice


def choice_text(decision: str, choice: str, value: float | None) -> str:
    """The choice as a card, the what-if summary and the report show it (with its value when the
    catalogue gives the value a unit, e.g. ``"little · 2.5 vCPUs per core"``, ``"8 hosts"``)."""
    d = get(decision)
    label = choice_label(decision, choice)
    if d is not None and d.value_unit and isinstance(value, int | float):
        unit = unit_for(value, d.value_unit)
        if choice == fmt_value(value):
            return f"{label} {unit}"
        return f"{label} · {fmt_value(value)} {unit}"
    return label
