"""Calibration to a site: the site's measured native figures, as the families take them.

The documents' *ratios* (guest vs native, mode vs mode, n VMs vs one) are always transferred onto
native figures (advisor/hardware.py): the scenario's declared hardware, else per-kind defaults.
Where the user database holds benchmark results imported for a site, the site's measured disk
figures take the place of the defaults for the disks of the kind the site measured (see
advisor/hardware.py and each family's ``_calibrate``, the same ratio transfer). This module turns
a site summary (:func:`knowledge.sites.summarize_site`) into those figures and says which site
and figures were used — or why they were not.

Units: MiB/s for sequential and random throughput, IOPS for random operations, events per
second for the CPU benchmark; :attr:`Calibration.seq_mb_s` converts to MB/s (10^6 B/s).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from knowledge.infra.errors import InputError

#: site-summary fields the families use (MiB/s or IOPS), in output order
DISK_FIELDS = ("seq_read_mib_s", "seq_write_mib_s", "rand_read_mib_s", "rand_write_mib_s",
               "rand_read_iops", "rand_write_iops")
MIB = 1.048576  # MB per MiB

#: device classes by what one device delivers at most (sequential MiB/s, random IOPS): the
#: project's own bands, from the per-kind defaults of the scenario format (HDD 150 MB/s and
#: 150 IOPS, SSD 500 MB/s and 50,000 IOPS, NVMe 2,000 MB/s and 300,000 IOPS) with room above
#: each; a figure beyond the last band is no single device's: a read from the page cache or RAM
DEVICE_BANDS = (("hdd", 300.0, 2_000.0), ("ssd", 800.0, 150_000.0), ("nvme", 8_000.0, 2_000_000.0))


def device_class(figures: dict[str, float]) -> str | None:
    """The kind of disk (``hdd``, ``ssd``, ``nvme``) whose figures these are, ``cache`` when they
    exceed what one device delivers (a page-cache or RAM-disk run), or None without figures.
    The fastest figure decides (a device is at least as fast as its best run)."""
    seq = max((figures[k] for k in ("seq_read_mib_s", "seq_write_mib_s") if k in figures), default=None)
    iops = max((figures[k] for k in ("rand_read_iops", "rand_write_iops") if k in figures), default=None)
    if seq is None and iops is None:
        return None
    for kind, seq_max, iops_max in DEVICE_BANDS:
        if (seq is None or seq <= seq_max) and (iops is None or iops <= iops_max):
            return kind
    return "cache"


@dataclass
class Calibration:
    """The figures a site contributes (empty: none; the scenario's hardware figures stand)."""

    site: str | None = None
    figures: dict[str, float] = field(default_factory=dict)
    unused: dict[str, float] = field(default_factory=dict)
    sources: dict[str, str] = field(default_factory=dict)  # figure -> "tool path" it came from
    device: str | None = None  # device_class of the site's disk figures
    rejected: str | None = None  # why the site's disk figures do not calibrate this scenario

    @property
    def basis(self) -> str:
        """``site:<name>`` when site figures calibrate the predictions, else ``documents``."""
        return f"site:{self.site}" if self.site and self.figures else "documents"

    def family_dict(self) -> dict | None:
        """The calibration dict the families' ``predict(..., calibration=)`` reads, or None."""
        if not self.figures:
            return None
        return {**self.figures, "site": self.site}

    @property
    def seq_mb_s(self) -> float | None:
        """The site's sequential disk bandwidth, MB/s (the lower of read and write), or None."""
        vals = [self.figures[k] for k in ("seq_read_mib_s", "seq_write_mib_s") if k in self.figures]
        return min(vals) * MIB if vals else None

    @property
    def rand_iops(self) -> float | None:
        """The site's random IOPS per device (the lower of read and write), or None."""
        vals = [self.figures[k] for k in ("rand_read_iops", "rand_write_iops") if k in self.figures]
        return min(vals) if vals else None

    def disk_iops(self, kind: str, reads_only: bool = False) -> float | None:
        """Random IOPS of one disk of ``kind`` from the site's figures (its random reads only, or
        the lower of reads and writes), or None when the site measured another kind of disk."""
        if kind != self.device or not self.figures:
            return None
        if reads_only and "rand_read_iops" in self.figures:
            return self.figures["rand_read_iops"]
        return self.rand_iops

    def disk_mb_s(self, kind: str, reads_only: bool = False) -> float | None:
        """Sequential MB/s of one disk of ``kind`` from the site's figures (its reads only, or the
        lower of reads and writes), or None when the site measured another kind of disk."""
        if kind != self.device or not self.figures:
            return None
        if reads_only and "seq_read_mib_s" in self.figures:
            return self.figures["seq_read_mib_s"] * MIB
        return self.seq_mb_s

    def to_dict(self) -> dict:
        """What the advice reports about its basis."""
        if not self.figures:
            why = (self.rejected or f"site {self.site!r} has no disk benchmark figures") if self.site \
                else "no site was given"
            out: dict[str, object] = {"basis": "documents", "site": self.site,
                   "note": f"no site figures were used ({why}): the documents' ratios were transferred onto the "
                           "scenario's hardware (its declared figures, else per-kind defaults)"}
            if self.site:
                out.update({"figures_not_used": dict(self.unused), "sources": dict(self.sources),
                            "device_class": self.device})
            return out
        return {"basis": self.basis, "site": self.site, "figures_used": dict(self.figures),
                "figures_not_used": dict(self.unused), "sources": dict(self.sources), "device_class": self.device,
                "note": "predictions transfer the documents' ratios onto these measured native figures"}


#: the most a disk's sequential read and write rates differ (flash that falls off its write cache
#: loses about a factor 30): a wider spread means the runs did not measure the same thing
MAX_READ_WRITE_SPREAD = 50.0


def _spread(figures: dict[str, float]) -> str | None:
    """A description of read and write figures too far apart for one disk, or None."""
    for read, write, unit in (("seq_read_mib_s", "seq_write_mib_s", "MiB/s"),
                              ("rand_read_iops", "rand_write_iops", "IOPS")):
        r, w = figures.get(read), figures.get(write)
        if r and w and max(r, w) / min(r, w) > MAX_READ_WRITE_SPREAD:
            return f"{read} {r:,.4g} {unit} against {write} {w:,.4g} {unit} ({max(r, w) / min(r, w):,.0f}x)"
    return None


def for_scenario(cal: Calibration, scenario) -> Calibration:
    """``cal`` as it applies to ``scenario``: the site's disk figures calibrate the advice only when
    they come from the kind of disk the hosts have (a site's NVMe figures say nothing of HDD
    hosts), and never when they exceed any one device (a buffered run that read the page cache).
    Otherwise the figures move to ``unused`` and ``rejected`` says why (basis: documents)."""
    if not cal.figures:
        return cal
    kinds = sorted({d.kind for d in scenario.hosts.disks})
    device = device_class(cal.figures)
    why = None
    spread = _spread(cal.figures)
    if device == "cache":
        why = (f"the disk figures of site {cal.site!r} exceed what one disk delivers (the benchmark most likely read "
               "the page cache: run fio with direct=1 or bonnie++ with a file twice the RAM)")
    elif spread is not None:
        why = (f"the disk figures of site {cal.site!r} cannot come from one kind of disk: {spread} (synchronous "
               "writes, or reads from the page cache, measure something else; import runs with direct I/O)")
    elif kinds and device not in kinds:
        why = (f"site {cal.site!r} measured {str(device).upper()}-class disks but the scenario's hosts have "
               f"{', '.join(k.upper() for k in kinds)}")
    # with several kinds of disk on the hosts, the figures stand for the matching disks only
    # (Calibration.disk_iops / disk_mb_s by kind)
    elif not kinds:
        why = "the scenario's hosts have no local disks to compare with the site's figures"
    if why is None:
        return Calibration(cal.site, dict(cal.figures), dict(cal.unused), dict(cal.sources), device)
    return Calibration(cal.site, {}, {**cal.figures, **cal.unused}, dict(cal.sources), device, why)


def documents_only() -> Calibration:
    """No site calibration (the scenario's hardware figures stand)."""
    return Calibration()


def from_summary(summary) -> Calibration:
    """A Calibration from a site summary (an object with the :data:`DISK_FIELDS` attributes,
    ``site``, optional ``cpu_events_per_s`` and ``sources``, a mapping figure -> source with
    ``tool`` and ``path``); missing or non-positive figures are left out."""
    figures = {}
    for name in DISK_FIELDS:
        value = getattr(summary, name, None)
        if value is not None and float(value) > 0:
            figures[name] = float(value)
    unused = {}
    cpu = getattr(summary, "cpu_events_per_s", None)
    if cpu:
        unused["cpu_events_per_s"] = float(cpu)  # no family has a native CPU-rate reference
    sources = {}
    for name, src in (getattr(summary, "sources", None) or {}).items():
        if name in figures or name in unused:
            sources[name] = " ".join(str(x) for x in (getattr(src, "tool", ""), getattr(src, "path", "")) if x) \
                or str(src)
    return Calibration(site=getattr(summary, "site", None), figures=figures, unused=unused, sources=sources)


def calibrate(userdb, site: str) -> Calibration:
    """The calibration of ``site`` in ``userdb`` (a :class:`knowledge.userdb.UserDatabase`).

    Raises :class:`InputError` when the site does not exist.
    """
    userdb.site(site)  # InputError "no site named ..." when unknown
    try:
        from knowledge.sites import summarize_site
    except ImportError as exc:
        raise InputError("site calibration needs knowledge.sites, which this build lacks") from exc
    return from_summary(summarize_site(userdb, site))
