"""The benchmark plan that closes the loop: the smallest set of runs that would calibrate the
figures an advice depends on, a script that runs them in bounded time, and a README for the site.

Which figures depend on which site measurement is asked of the engine itself, never kept in a
second table: :func:`dependencies` advises once with invented site figures of the scenario's disk
kind and once more per site figure with that figure halved. A figure *is calibrated* by the site
when the engine labels it with a ``site:`` basis; it *depends on* a site figure when its value
moves with it (the host count, for one, reads the site's IOPS without a basis label of its own).

The runs (:func:`make_plan`):

- **fio**, one job file per needed run: per distinct I/O profile of the workloads (pattern,
  block size, read share), a pure-direction job for each direction the profile does (reads when
  the read share is above 0, writes when below 1; a mixed pattern needs random and sequential
  runs), with direct I/O (``direct=1``, libaio) so that the device class — not the page cache —
  is measured. A site figure is measured natively by a pure run (the documents' native runs were
  pure too); a job whose direction, pattern and block size another job already covers is left out;
- **sysbench fileio** (``--file-extra-flags=direct``) only for a needed site figure no fio job
  measures;
- **sysbench cpu**: the site's CPU rate (events per second), short; the plan says whether any
  figure of this advice uses it (today none: it is recorded with the site);
- **PostMark** for small-file workloads (random requests of at most 16 KiB at medium or high I/O
  intensity, not a database): recorded with the site; the plan says whether it calibrates anything;
- optional **fio profiles** (``PROFILES=1``): each reading-and-writing workload's own mix (its read
  share, pattern and request size): what it gets on the site's disk. They calibrate nothing: a
  mix measures each direction below what the device does alone, and the advice takes the best of
  each figure, so the pure runs decide.

``run-all.sh`` runs everything in bounded time (``SIZE`` per data file, ``RUNTIME`` seconds per
run, every run under ``timeout``), writes outputs that ``capadvisor import`` reads (fio JSON,
sysbench and PostMark text), removes its data files, and imports them when ``capadvisor`` is on
the PATH. Pure Python; no Qt.
"""

from __future__ import annotations

import math
import re
import shlex
from dataclasses import dataclass, field

from advisor.calibration import DEVICE_BANDS, Calibration
from advisor.expected import ExpectedFigure

#: the site figures a calibration reads (advisor.calibration.DISK_FIELDS)
SITE_FIGURES = ("seq_read_mib_s", "seq_write_mib_s", "rand_read_iops", "rand_write_iops", "rand_read_mib_s",
                "rand_write_mib_s")
#: (access pattern, direction) -> the site figures a pure run of it measures
MEASURES = {("sequential", "read"): ("seq_read_mib_s",), ("sequential", "write"): ("seq_write_mib_s",),
            ("random", "read"): ("rand_read_iops", "rand_read_mib_s"),
            ("random", "write"): ("rand_write_iops", "rand_write_mib_s")}
FIO_RW = {("sequential", "read"): "read", ("sequential", "write"): "write", ("random", "read"): "randread",
          ("random", "write"): "randwrite"}
SYSBENCH_MODE = {("sequential", "read"): "seqrd", ("sequential", "write"): "seqwr", ("random", "read"): "rndrd",
                 ("random", "write"): "rndwr"}
#: queue depth per pattern: deep enough for flash and NVMe, harmless for disks
IODEPTH = {"random": 32, "sequential": 8}
#: the largest request of a small-file workload (PostMark), KiB
SMALL_FILE_KIB = 16.0
#: defaults of run-all.sh (overridable by environment variables)
DEFAULT_SIZE = "4G"
DEFAULT_RUNTIME_S = 60
CPU_TIME_S = 10
LAYOUT_ALLOWANCE_S = 600  # fio lays out its data file before the timed part


@dataclass(frozen=True)
class FigureRef:
    """One expected figure of the advice."""

    decision: str
    scope: str
    figure: str

    def __str__(self) -> str:
        from advisor.export.plan import one_line

        where = "cluster" if self.scope == "cluster" else one_line(self.scope.split(":", 1)[-1])
        return f"{self.decision} ({where}): {self.figure}"

    def to_dict(self) -> dict:
        return {"decision": self.decision, "scope": self.scope, "figure": self.figure}


@dataclass
class Dependencies:
    """Which figures of an advice the site would calibrate, and through which site figures."""

    device: str | None  # the disk kind the site's figures must come from
    calibrated: dict[FigureRef, list[str]] = field(default_factory=dict)  # figure -> site figures
    depends: dict[FigureRef, list[str]] = field(default_factory=dict)  # value moves, no site basis label
    documents: list[FigureRef] = field(default_factory=list)  # figures no site measurement changes
    reason: str | None = None  # why no disk figure can be calibrated

    def needed(self) -> set[str]:
        return {f for fields in (*self.calibrated.values(), *self.depends.values()) for f in fields}


def _figures(advice) -> dict[FigureRef, ExpectedFigure]:
    out = {}
    for r in advice.recommendations:
        for name, fig in r.expected.items():
            if isinstance(fig.value, int | float):
                out[FigureRef(r.decision, r.scope, name)] = fig
    return out


def probe_figures(kind: str, reads_faster: bool = True) -> dict[str, float]:
    """Invented site figures inside the band of ``kind`` (half the band's top), reads faster than
    writes or the other way round: only their effect on the advice is looked at, never their
    values (both ways, because a figure may read the lower of the two)."""
    seq_max, iops_max = next((s, i) for k, s, i in DEVICE_BANDS if k == kind)
    seq, iops = seq_max / 2, iops_max / 2
    r, w = (1.0, 0.8) if reads_faster else (0.8, 1.0)
    return {"seq_read_mib_s": seq * r, "seq_write_mib_s": seq * w, "rand_read_iops": iops * r,
            "rand_write_iops": iops * w, "rand_read_mib_s": iops * r * 4 / 1024, "rand_write_mib_s": iops * w * 4 / 1024}


def device_kind(scenario) -> str | None:
    """The disk kind whose figures calibrate the scenario: its hosts' (the first group's)."""
    return scenario.hosts.disks[0].kind if scenario.hosts.disks else None


def dependencies(scenario, kb=None, progress=None, cancel=None) -> Dependencies:
    """Ask the engine which figures of ``scenario``'s advice a site would calibrate."""
    from advisor.engine import advise
    from advisor.progress import check, report

    kind = device_kind(scenario)
    if kind is None:
        return Dependencies(None, reason="the scenario's hosts have no local disks: the site's disk figures "
                                         "calibrate nothing (the advice keeps the documents' figures)")
    report(progress, 0.0, "advising with the documents' figures")
    base = _figures(advise(scenario, kb=kb))
    deps = Dependencies(kind)
    moved: dict[FigureRef, list[str]] = {}
    site_labelled: set[FigureRef] = set()
    full: dict[FigureRef, ExpectedFigure] = {}
    steps = 2 * len(SITE_FIGURES)
    for k, reads_faster in enumerate((True, False)):
        probe = probe_figures(kind, reads_faster)
        full = _figures(advise(scenario, kb=kb, calibration=Calibration("plan", dict(probe))))
        site_labelled |= {ref for ref, fig in full.items() if str(fig.basis or "").startswith("site:")}
        for i, name in enumerate(SITE_FIGURES):
            check(cancel)
            report(progress, 0.05 + 0.9 * (k * len(SITE_FIGURES) + i) / steps, f"which figures {name} moves")
            changed = dict(probe)
            changed[name] = probe[name] / 2
            alt = _figures(advise(scenario, kb=kb, calibration=Calibration("plan", changed)))
            for ref, fig in full.items():
                other = alt.get(ref)
                if other is not None and not math.isclose(other.value, fig.value, rel_tol=1e-9,
                                                          abs_tol=1e-12):
                    if name not in moved.setdefault(ref, []):
                        moved[ref].append(name)
    for ref in full:
        if ref in site_labelled:
            deps.calibrated[ref] = sorted(moved.get(ref, []), key=SITE_FIGURES.index)
        elif ref in moved:
            deps.depends[ref] = sorted(moved[ref], key=SITE_FIGURES.index)
        elif ref in base:
            deps.documents.append(ref)
    report(progress, 1.0, "done")
    return deps


# --- the runs ---------------------------------------------------------------------------------
@dataclass
class Run:
    """One benchmark run of the plan."""

    name: str
    tool: str  # fio | fio-profile | sysbench-fileio | sysbench-cpu | postmark
    output: str  # results/<file>, what capadvisor import reads
    measures: list[str] = field(default_factory=list)  # site figures
    workloads: list[str] = field(default_factory=list)
    calibrates: list[FigureRef] = field(default_factory=list)
    why: str = ""
    job_file: str | None = None
    pattern: str | None = None
    direction: str | None = None
    block_kib: float | None = None
    read_share: float | None = None  # a workload's own mix (fio-profile)
    optional: bool = False  # run only with PROFILES=1

    def to_dict(self) -> dict:
        return {"name": self.name, "tool": self.tool, "output": self.output, "job_file": self.job_file,
                "optional": self.optional,
                "measures": list(self.measures), "workloads": list(self.workloads), "why": self.why,
                "calibrates": [c.to_dict() for c in self.calibrates]}


@dataclass
class BenchPlan:
    """The runs, what they calibrate, and the files that carry them out."""

    scenario: str
    site: str
    deps: Dependencies
    runs: list[Run]
    files: dict[str, str] = field(default_factory=dict)

    def to_dict(self) -> dict:
        d = self.deps
        return {"format_version": 1, "scenario": self.scenario, "site": self.site, "device_class": d.device,
                "files": sorted(self.files),
                "runs": [r.to_dict() for r in self.runs], "reason": d.reason,
                "calibrated": [{**k.to_dict(), "site_figures": v} for k, v in d.calibrated.items()],
                "depends": [{**k.to_dict(), "site_figures": v} for k, v in d.depends.items()],
                "documents_only": [k.to_dict() for k in d.documents]}

    def write(self, out_dir) -> list:
        """Write every file and plan.json under ``out_dir`` atomically (scripts executable); the paths.
        Job files of a previous plan there (its plan.json lists them) that this plan does not
        write again are removed; results and anything else stay."""
        from pathlib import Path

        from advisor.export.base import previous_files, remove_stale, write_files
        from knowledge.infra import jsonout

        listing = Path(out_dir) / "plan.json"
        previous = previous_files(listing, "files") or [
            r["job_file"] for r in _previous_runs(listing) if isinstance(r, dict) and isinstance(r.get("job_file"), str)]
        files = {**self.files, "plan.json": jsonout.dumps(self.to_dict(), indent=2) + "\n"}
        written = write_files(out_dir, files, last="plan.json")
        remove_stale(out_dir, [f for f in previous if f.startswith(("jobs/", "postmark/"))], files)
        return written


def _previous_runs(listing) -> list:
    """The runs of an earlier plan.json (before it listed its files)."""
    import json

    try:
        data = json.loads(listing.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    runs = data.get("runs") if isinstance(data, dict) else None
    return runs if isinstance(runs, list) else []


def _kib_text(kib: float) -> str:
    """A request size as fio writes it (k = KiB, m = MiB)."""
    return f"{kib / 1024:g}m" if kib >= 1024 and kib % 1024 == 0 else f"{kib:g}k"


def _size_text(kib: float) -> str:
    """A request size for people: 4 KiB, 1 MiB."""
    return f"{kib / 1024:g} MiB" if kib >= 1024 and kib % 1024 == 0 else f"{kib:g} KiB"


def _directions(read_share: float) -> list[str]:
    return [d for d, ok in (("read", read_share > 0), ("write", read_share < 1)) if ok]


def _patterns(pattern: str) -> list[str]:
    return ["random", "sequential"] if pattern == "mixed" else [pattern]


#: applications that keep their data in a few large files (a database is no small-file workload)
DATABASES = re.compile(r"sql|postgres|maria|oracle|mongo|cassandra|redis|database|\bdb\b|-db\b|\bdb-", re.I)


def small_files(w) -> bool:
    """A workload of many small files (PostMark's kind of load): small random requests at medium
    or high intensity, and not a database (by its application or name)."""
    return (w.io.pattern == "random" and w.io.block_size_kib <= SMALL_FILE_KIB and w.io.intensity != "low"
            and not DATABASES.search(f"{w.application} {w.name}"))


def _refs_for(deps: Dependencies, figures: set[str], scope: str | None = None) -> list[FigureRef]:
    out = []
    for ref, fields in [*deps.calibrated.items(), *deps.depends.items()]:
        if set(fields) & figures and (scope is None or ref.scope in (scope, "cluster")):
            out.append(ref)
    return out


def make_plan(advice, kb=None, site: str = "site", progress=None, cancel=None) -> BenchPlan:
    """The benchmark plan for ``advice`` (an :class:`advisor.engine.Advice`)."""
    from advisor.export.plan import one_line

    sc = advice.scenario
    deps = dependencies(sc, kb=kb, progress=progress, cancel=cancel)
    needed = deps.needed()
    runs: list[Run] = []
    covered: dict[tuple[str, str, float], Run] = {}
    for w in sc.workloads:
        for pattern in _patterns(w.io.pattern):
            for direction in _directions(w.io.read_share):
                measures = [f for f in MEASURES[(pattern, direction)] if f in needed]
                if not measures:
                    continue
                key = (pattern, direction, float(w.io.block_size_kib))
                if key in covered:
                    covered[key].workloads.append(one_line(w.name))
                    continue
                name = f"fio-{pattern}-{direction}-{_kib_text(w.io.block_size_kib)}"
                run = Run(name, "fio", f"results/{name}.json", measures, [one_line(w.name)],
                          _refs_for(deps, set(measures)),
                          f"{pattern} {direction}s of {_size_text(w.io.block_size_kib)}, as {one_line(w.name)} does "
                          f"({w.io.pattern} I/O, {w.io.read_share:.0%} reads)", f"jobs/{name}.fio", pattern,
                          direction, float(w.io.block_size_kib))
                covered[key] = run
                runs.append(run)
    measured = {f for r in runs for f in r.measures}
    for (pattern, direction), fields in MEASURES.items():
        missing = [f for f in fields if f in needed and f not in measured]
        if missing:
            name = f"sysbench-fileio-{SYSBENCH_MODE[(pattern, direction)]}"
            runs.append(Run(name, "sysbench-fileio", f"results/{name}.txt", missing, [],
                            _refs_for(deps, set(missing)),
                            f"no workload does {pattern} {direction}s, but the advice reads the site's {', '.join(missing)}",
                            None, pattern, direction, 4.0 if pattern == "random" else 1024.0))
            measured |= set(missing)
    runs.append(Run("sysbench-cpu", "sysbench-cpu", "results/sysbench-cpu.txt", ["cpu_events_per_s"], [], [],
                    "the site's CPU rate, recorded with the site (no figure of this advice is calibrated by it yet)"))
    for w in sc.workloads:
        if small_files(w):
            name = f"postmark-{_slug(w.name)}"
            while any(r.name == name for r in runs):
                name += "-2"
            runs.append(Run(name, "postmark", f"results/{name}.txt", [], [one_line(w.name)], [],
                            f"{one_line(w.name)} works on many small files ({_size_text(w.io.block_size_kib)} random requests): "
                            "PostMark's file-system transaction rate, recorded with the site (no figure of this "
                            "advice is calibrated by it yet)", f"postmark/{name}.pmrc", None, None,
                            float(w.io.block_size_kib)))
    profiles: set[tuple] = set()
    for w in sc.workloads:
        profile = (w.io.pattern, float(w.io.block_size_kib), round(w.io.read_share * 100))
        if not 0 < w.io.read_share < 1 or profile in profiles or not any(r.tool == "fio" for r in runs):
            continue
        profiles.add(profile)
        name = f"profile-{w.io.pattern}-{_kib_text(w.io.block_size_kib)}-r{profile[2]}"
        runs.append(Run(name, "fio-profile", f"results/{name}.json", [], [one_line(w.name)], [],
                        f"the mix of {one_line(w.name)} ({w.io.pattern} I/O, {_size_text(w.io.block_size_kib)}, "
                        f"{profile[2]} % reads): what it gets on this disk; optional (PROFILES=1), the advice "
                        "calibrates from the pure runs", f"jobs/{name}.fio", w.io.pattern, None,
                        float(w.io.block_size_kib), w.io.read_share, optional=True))
    plan = BenchPlan(one_line(sc.name), one_line(site) or "site", deps, runs)
    plan.files = _files(plan, sc)
    return plan


def _slug(name: str) -> str:
    from advisor.export.plan import slug

    return slug(name)


# --- the files --------------------------------------------------------------------------------
def fio_job(run: Run) -> str:
    """A fio job file (one job) whose directory, size and runtime come from the environment."""
    bs = _kib_text(run.block_kib or 4)
    lines = [f"; capadvisor bench plan: {run.why}",
             f"; measures the site's {', '.join(run.measures)}" if run.measures else
             "; measures a workload's own mix; calibrates nothing (the advice reads the pure runs)",
             *[f"; feeds {ref}" for ref in run.calibrates[:12]],
             *([f"; ... and {len(run.calibrates) - 12} more figures (plan.json)"] if len(run.calibrates) > 12 else []),
             "; TARGET_DIR, SIZE and RUNTIME come from run-all.sh", "",
             "[global]", "ioengine=libaio", "direct=1", "directory=${TARGET_DIR}", "size=${SIZE}",
             "runtime=${RUNTIME}", "time_based=1", "ramp_time=1", "numjobs=1", "",
             f"[{run.name}]", *_rw_lines(run), f"bs={bs}",
             f"iodepth={IODEPTH['sequential' if run.pattern == 'sequential' else 'random']}", ""]
    return "\n".join(lines)


def _rw_lines(run: Run) -> list[str]:
    """fio's rw= (and the read share of a workload's own mix)."""
    if run.read_share is None:
        return [f"rw={FIO_RW[(str(run.pattern), str(run.direction))]}"]
    mix = [f"rwmixread={round(run.read_share * 100)}"]
    if run.pattern == "sequential":
        return ["rw=rw", *mix]
    if run.pattern == "mixed":  # half the requests random, half sequential
        return ["rw=randrw", *mix, "percentage_random=50"]
    return ["rw=randrw", *mix]


def postmark_config(run: Run) -> str:
    """A PostMark command file; run-all.sh replaces @LOCATION@ (a folder relative to its work
    folder), @FILES@ and @TRANSACTIONS@ (both grow with RUNTIME)."""
    bs = int((run.block_kib or 4) * 1024)
    return "\n".join(["set location @LOCATION@", "set number @FILES@", "set transactions @TRANSACTIONS@",
                      "set size 512 16384", f"set read {bs}", f"set write {bs}", "set buffering false",
                      "set report verbose", "run", "quit", ""])


def run_all(plan: BenchPlan) -> str:
    """The script that runs every run in bounded time and imports the outputs."""
    n_timed = sum(r.tool in ("fio", "sysbench-fileio", "postmark") for r in plan.runs)  # profiles: PROFILES=1
    q = shlex.quote
    out = [
        "#!/bin/bash",
        f"# Benchmark plan for scenario {plan.scenario}: {len(plan.runs)} runs (generated by capadvisor bench-plan)",
        "# Usage: ./run-all.sh [TARGET_DIR]   (a folder on a disk like the hosts' disks; default ./data)",
        "# Environment: SIZE (data per run, default " + DEFAULT_SIZE + "), RUNTIME (seconds per run, default "
        + str(DEFAULT_RUNTIME_S) + "),",
        "#   CPU_TIME (sysbench cpu seconds, default " + str(CPU_TIME_S) + "), SITE (default "
        + plan.site + "), IMPORT=0 to skip the import, PROFILES=1 to run the workloads' own mixes too",
        "set -u",
        'HERE=$(cd "$(dirname "$0")" && pwd)',
        'TARGET_DIR=$(realpath -m "${1:-${TARGET_DIR:-$HERE/data}}")',
        f'SIZE=${{SIZE:-{DEFAULT_SIZE}}}',
        f'RUNTIME=${{RUNTIME:-{DEFAULT_RUNTIME_S}}}',
        f'CPU_TIME=${{CPU_TIME:-{CPU_TIME_S}}}',
        f'LAYOUT=${{LAYOUT:-{LAYOUT_ALLOWANCE_S}}}',
        f'SITE=${{SITE:-{q(plan.site)}}}',
        'RESULTS=$(realpath -m "${RESULTS:-$HERE/results}")',
        "export TARGET_DIR SIZE RUNTIME",
        'mkdir -p "$TARGET_DIR" "$RESULTS" || exit 2',
        'WORK=$(mktemp -d "$TARGET_DIR/capadvisor-bench.XXXXXX") || exit 2',
        'trap \'rm -rf "$WORK"\' EXIT',
        'trap \'exit 130\' INT TERM',
        'failed=0',
        "",
        "# every run is bounded: RUNTIME seconds of measurement plus LAYOUT seconds to write its data",
        f'echo "capadvisor bench plan: {len(plan.runs)} runs, at most about '
        f'$(( ({n_timed} * (RUNTIME + LAYOUT) + CPU_TIME) / 60 + 1 )) minutes; data in $WORK"',
        "",
        "bounded() {  # bounded SECONDS OUTPUT COMMAND...: run COMMAND with a time limit, its output to OUTPUT",
        '  local limit=$1 output=$2; shift 2',
        '  echo "  $(date +%T) $(basename "$output")"',
        '  if ! timeout --kill-after=10 "$limit" "$@" > "$output.tmp" 2> "$output.err"; then',
        '    echo "  failed or timed out: $* (see $output.err)" >&2; failed=1; rm -f "$output.tmp"; return 1',
        "  fi",
        '  mv "$output.tmp" "$output"; rm -f "$output.err"',
        "}",
        "",
        # which kind of disk this is, capadvisor decides from the measured figures when it imports
        # them (the same bands the advice uses); the kernel's rotational flag is no guide (virtual
        # disks report rotating), so the script guesses nothing
        "# the disk under TARGET_DIR should be of the hosts' kind: " + (plan.deps.device or "none given"),
    ]
    if plan.deps.device:
        out.append(f'echo "the hosts have {plan.deps.device.upper()} disks: capadvisor import classifies the disk under '
                   '$TARGET_DIR from what it measures and the advice uses its figures only if it is of that kind"')
    out.append("")
    for r in plan.runs:
        out.append(f"# {r.name}: {r.why}")
        out += _run_lines(r)
        out.append("")
    out += [
        'echo "results in $RESULTS"',
        'if [ "${IMPORT:-1}" != "0" ] && command -v capadvisor > /dev/null; then',
        '  shopt -s nullglob',
        '  capadvisor import --site "$SITE" "$RESULTS"/*.json "$RESULTS"/*.txt || failed=1',
        "else",
        '  echo "import them with: capadvisor import --site $SITE $RESULTS/*.json $RESULTS/*.txt"',
        "fi",
        'exit "$failed"', ""]
    return "\n".join(out)


def _run_lines(r: Run) -> list[str]:
    """The lines of run-all.sh that run ``r`` (bounded) and leave its output in RESULTS."""
    out: list[str] = []
    res = f'"$RESULTS/{r.output.split("/", 1)[-1]}"'
    if r.tool in ("fio", "fio-profile"):
        # fio splits directory= at ':' (several directories): a ':' of the path is written '\\:'
        run = [f'bounded $((RUNTIME + LAYOUT)) {res} env TARGET_DIR="${{WORK//:/\\\\:}}" fio --output-format=json '
               f'"$HERE/{r.job_file}"', f'rm -f "$WORK"/{r.name}.*']
        out += run if not r.optional else ['if [ "${PROFILES:-0}" = "1" ]; then', *[f"  {x}" for x in run], "fi"]
    elif r.tool == "sysbench-fileio":
        mode = SYSBENCH_MODE[(r.pattern, r.direction)]  # type: ignore[index]
        opts = (f'--file-total-size="$SIZE" --file-test-mode={mode} --file-extra-flags=direct --file-num=4 '
                f'--file-block-size={int((r.block_kib or 4) * 1024)} --file-fsync-freq=0')
        out += [f'(cd "$WORK" && sysbench fileio {opts} prepare > /dev/null) || failed=1',
                f'bounded $((RUNTIME + LAYOUT)) {res} bash -c "cd \\"\\$1\\" && exec sysbench fileio '
                f'{opts.replace(chr(34), "")} --time=$RUNTIME run" _ "$WORK"',
                f'(cd "$WORK" && sysbench fileio {opts} cleanup > /dev/null)']
    elif r.tool == "sysbench-cpu":
        out.append(f'bounded $((CPU_TIME + 30)) {res} sysbench cpu --threads=1 --time="$CPU_TIME" run')
    elif r.tool == "postmark":
        # PostMark keeps file names in 80-character buffers: a short location, relative to the work folder
        out += ['mkdir -p "$WORK/pm"',
                f'sed -e "s|@LOCATION@|pm|" -e "s|@FILES@|$((RUNTIME * 50 + 100))|" '
                f'-e "s|@TRANSACTIONS@|$((RUNTIME * 250 + 500))|" "$HERE/{r.job_file}" > "$WORK/{r.name}.pmrc"',
                f'bounded $((RUNTIME + LAYOUT)) {res} bash -c \'cd "$1" && exec postmark "$2"\' _ "$WORK" '
                f'"$WORK/{r.name}.pmrc"',
                'rm -rf "$WORK/pm"']
    return out


def readme(plan: BenchPlan, sc) -> str:
    from advisor.text import md_escape as esc

    d = plan.deps
    site_arg = shlex.quote(plan.site)
    out = [f"# Benchmark plan for {esc(plan.scenario)}", "",
           "Generated by `capadvisor bench-plan`. These runs measure the native figures of your hardware that "
           "the advice transfers the documents' ratios onto; once imported, the advice says which of its "
           f"figures rest on your site (basis: site:{esc(plan.site)}) and which still on the documents.", ""]
    if d.device:
        out += [f"**Run it on a disk of the kind the hosts have ({d.device.upper()})**, in a folder with room for "
                "`SIZE` (default " + DEFAULT_SIZE + ") of data: the runs use direct I/O, so they measure the disk, "
                "not the page cache. Figures from another kind of disk, or faster than any one disk, are refused "
                "by the advice (it says why).", ""]
    else:
        out += [f"Note: {esc(d.reason)}.", ""]
    out += ["```sh", "./run-all.sh /path/on/the/disk            # all runs, then capadvisor import --site "
            + site_arg, "SIZE=8G RUNTIME=120 ./run-all.sh /data      # bigger and longer runs",
            "IMPORT=0 ./run-all.sh /data                # only run; import later:",
            f"capadvisor import --site {site_arg} results/*.json results/*.txt",
            f"capadvisor bench-plan SCENARIO --site {site_arg}   # which figures are now site-calibrated", "```",
            "", "Every run is bounded: `RUNTIME` seconds (default " + str(DEFAULT_RUNTIME_S) + ") of measurement "
            "plus time to lay out its data, each under `timeout`; the data files are removed at the end (also on "
            "Ctrl-C). Needs fio, sysbench and postmark (Debian: `apt-get install fio sysbench postmark`).", "",
            "## Runs", "", "| run | measures | for | why |", "|---|---|---|---|"]
    for r in plan.runs:
        out.append(f"| `{r.name}`{' (optional)' if r.optional else ''} | {esc(', '.join(r.measures) or '-')} | "
                   f"{esc(', '.join(r.workloads) or 'cluster')} | {esc(r.why)} |")
    out += ["", "## What the runs calibrate", ""]
    if d.calibrated:
        out += [f"- {esc(ref)}: from {esc(', '.join(fields) or 'the site figures')}" for ref, fields in d.calibrated.items()]
    else:
        out.append("- nothing (see the note above)")
    if d.depends:
        out += ["", "Figures that also use the site's figures (the host count reads the disks' IOPS):", ""]
        out += [f"- {esc(ref)}: {esc(', '.join(fields))}" for ref, fields in d.depends.items()]
    out += ["", "## What no site benchmark changes", "",
            "These figures rest on the documents' measurements or on the scenario's declared hardware:", ""]
    out += [f"- {esc(ref)}" for ref in d.documents] or ["- none"]
    return "\n".join(out) + "\n"


def _files(plan: BenchPlan, sc) -> dict[str, str]:
    files: dict[str, str] = {}
    for r in plan.runs:
        if r.tool in ("fio", "fio-profile") and r.job_file:
            files[r.job_file] = fio_job(r)
        elif r.tool == "postmark" and r.job_file:
            files[r.job_file] = postmark_config(r)
    files["run-all.sh"] = run_all(plan)
    files["README.md"] = readme(plan, sc)
    return files


# --- after the import -------------------------------------------------------------------------
@dataclass(frozen=True)
class FigureStatus:
    ref: FigureRef
    basis: str
    value: float
    unit: str

    @property
    def on_site(self) -> bool:
        return self.basis.startswith("site:")


def calibration_status(advice) -> list[FigureStatus]:
    """Every expected figure with a basis label, and its basis (``site:<name>``, ``documents``, ...)."""
    out = []
    for ref, fig in _figures(advice).items():
        if fig.basis:
            out.append(FigureStatus(ref, str(fig.basis), float(fig.value), str(fig.unit)))
    return out


def plan_scenario(scenario, site: str = "site", kb_path=None, progress=None, cancel=None) -> BenchPlan:
    """The plan for ``scenario`` with a knowledge base of its own (``kb_path``, default the shipped
    one), written nowhere: what the GUI lists before anything is written."""
    from advisor.engine import advise
    from advisor.progress import report
    from knowledge.store import KnowledgeBase

    with KnowledgeBase.open(kb_path) as kb:
        report(progress, 0.02, "advising")
        advice = advise(scenario, kb=kb, cancel=cancel)
        return make_plan(advice, kb=kb, site=site,
                         progress=lambda f, m="": report(progress, 0.05 + 0.9 * f, m), cancel=cancel)


def write_plan(scenario, out_dir, site: str = "site", kb_path=None, progress=None, cancel=None) -> BenchPlan:
    """:func:`plan_scenario`, written under ``out_dir``; the GUI runs this in its worker."""
    from advisor.progress import report

    plan = plan_scenario(scenario, site, kb_path, progress, cancel)
    plan.write(out_dir)
    report(progress, 1.0, "done")
    return plan
