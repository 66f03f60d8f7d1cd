"""Site summaries: the native figures of a site's imported benchmarks, for calibration.

A site's figure is the best (highest) of its measurements that fit the figure: e.g. the
sequential read throughput is the highest ``throughput`` in a data-rate unit with
``operation=read`` and ``access_pattern=sequential`` over all its imports (fio, bonnie++ block
reads, sysbench, IOzone). Per-job rows of a multi-job fio run are skipped (their group total
counts instead). Each figure names the tool, file and measurement it came from.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from knowledge.userdb import SiteMeasurement, UserDatabase

MIB = 1048576.0


@dataclass(frozen=True)
class FigureRule:
    """Which measurements a figure is taken from, and how to express it (``scale`` divides value_si)."""

    metric: str
    operations: tuple[str, ...]
    access_pattern: str | None
    data_rate: bool
    scale: float
    unit: str


#: SiteSummary field -> the rule that fills it
FIGURES: dict[str, FigureRule] = {
    "seq_read_mib_s": FigureRule("throughput", ("read",), "sequential", True, MIB, "MiB/s"),
    "seq_write_mib_s": FigureRule("throughput", ("write",), "sequential", True, MIB, "MiB/s"),
    "rand_read_iops": FigureRule("iops", ("read", "seek"), "random", False, 1.0, "ops/s"),
    "rand_write_iops": FigureRule("iops", ("write",), "random", False, 1.0, "ops/s"),
    "rand_read_mib_s": FigureRule("throughput", ("read",), "random", True, MIB, "MiB/s"),
    "rand_write_mib_s": FigureRule("throughput", ("write",), "random", True, MIB, "MiB/s"),
    "cpu_events_per_s": FigureRule("throughput", ("cpu",), None, False, 1.0, "ops/s"),
}


@dataclass(frozen=True)
class FigureSource:
    """Where a site figure came from."""

    tool: str
    path: str
    import_id: int | None
    measurement_id: int | None
    metric: str
    value: float
    unit: str
    subject: str
    factors: dict[str, str]

    def __str__(self) -> str:
        return f"{self.tool} {self.metric} {self.value:g} {self.unit} ({self.subject}; {self.path})"


@dataclass
class SiteSummary:
    """A site's native figures (None when no import measures them); units in the field names:
    MiB/s (2^20 B/s), I/O operations per second, sysbench CPU events per second."""

    site: str
    seq_read_mib_s: float | None = None
    seq_write_mib_s: float | None = None
    rand_read_iops: float | None = None
    rand_write_iops: float | None = None
    rand_read_mib_s: float | None = None
    rand_write_mib_s: float | None = None
    cpu_events_per_s: float | None = None
    sources: dict[str, FigureSource] = field(default_factory=dict)

    def figures(self) -> dict[str, float | None]:
        """Figure name -> value, in :data:`FIGURES` order."""
        return {name: getattr(self, name) for name in FIGURES}

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass
class SiteComparison:
    """Two sites side by side; ``ratios[figure]`` is b / a (None when either is missing or a is 0)."""

    a: SiteSummary
    b: SiteSummary
    ratios: dict[str, float | None]

    def as_dict(self) -> dict:
        return {"a": self.a.as_dict(), "b": self.b.as_dict(), "ratios": self.ratios}


def _fits(m: SiteMeasurement, rule: FigureRule) -> bool:
    if m.metric != rule.metric or m.value_si is None:
        return False
    if m.factors.get("statistic") == "per_job":
        return False
    if m.factors.get("operation") not in rule.operations:
        return False
    if rule.access_pattern is not None and m.factors.get("access_pattern") != rule.access_pattern:
        return False
    return m.unit.endswith("B/s") == rule.data_rate


def summarize_site(db: UserDatabase, site: str) -> SiteSummary:
    """The native figures of ``site`` from all its imports (an unknown site is an InputError)."""
    db.site(site)
    paths = {rec.id: rec.path for rec in db.imports(site)}
    summary = SiteSummary(site)
    measurements = db.site_measurements(site)
    for name, rule in FIGURES.items():
        best = max((m for m in measurements if _fits(m, rule) and m.value_si is not None),
                   key=lambda m: m.value_si or 0.0, default=None)
        if best is None or best.value_si is None:
            continue
        setattr(summary, name, best.value_si / rule.scale)
        summary.sources[name] = FigureSource(best.tool, paths.get(best.import_id or 0, ""), best.import_id, best.id,
                                             best.metric, best.value, best.unit, best.subject,
                                             dict(best.factors))
    return summary


def compare_sites(db: UserDatabase, a: str, b: str) -> SiteComparison:
    """The summaries of sites ``a`` and ``b`` and the ratio b / a of each figure."""
    sa, sb = summarize_site(db, a), summarize_site(db, b)
    ratios: dict[str, float | None] = {}
    for name in FIGURES:
        va, vb = getattr(sa, name), getattr(sb, name)
        ratios[name] = vb / va if va and vb is not None else None
    return SiteComparison(sa, sb, ratios)
