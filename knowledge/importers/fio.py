"""fio: ``--output-format=json`` and ``json+`` (fio 2.x keys in µs, fio 3.x ``*_ns`` keys), and the
default human-readable output (see :mod:`knowledge.importers.fio_text`).

Units as fio writes them: ``bw`` is KiB/s, ``iops`` operations per second, ``lat_ns`` nanoseconds
(fio 3) or ``lat`` microseconds (fio 2). Measurements: per direction (read, write, trim) with
I/O, ``throughput`` in KiB/s, ``iops`` in ops/s and ``latency`` (mean and clat p99) in ns (fio 3) or µs (fio 2), as written.
A group that fio reported as one entry (``group_reporting``, or one job) carries
``statistic=total`` and ``threads=numjobs``; a group written job by job gives each job
``statistic=per_job`` plus the group's sum (``statistic=total``).
"""

from __future__ import annotations

import json
import re

from knowledge.importers.base import ImporterError, ParsedFile, measurement, number, size_kib
from knowledge.userdb import SiteMeasurement

NAME = "fio"
DIRECTIONS = ("read", "write", "trim")

#: fio's rw= values -> (access_pattern, read share in % or None when the mix decides)
RW_PATTERNS = {
    "read": ("sequential", 100.0), "write": ("sequential", 0.0), "trim": ("sequential", 0.0),
    "randread": ("random", 100.0), "randwrite": ("random", 0.0), "randtrim": ("random", 0.0),
    "rw": ("sequential", None), "readwrite": ("sequential", None), "randrw": ("random", None),
    "trimwrite": ("sequential", 0.0), "randtrimwrite": ("random", 0.0),
}


def identify(text: str) -> float:
    """Confidence that ``text`` is fio JSON output."""
    head = text[:4096]
    if '"fio version"' in text[:65536] and "{" in text[:65536]:
        return 1.0
    if re.search(r'"jobs"\s*:\s*\[', head) and '"jobname"' in head:
        return 0.7
    return 0.0


def _object_pairs(duplicates: list[str]):
    def hook(pairs):
        obj = dict(pairs)
        if len(obj) != len(pairs):
            seen = set()
            for key, _ in pairs:
                if key in seen:
                    duplicates.append(key)
                seen.add(key)
        return obj
    return hook


def load_json(text: str, path: str, warnings: list[str]) -> dict:
    """The JSON document in ``text``: leading lines fio prints before the JSON (notes, errors)
    and trailing text are skipped with a warning; duplicate keys (old percentile blocks) keep the
    last value."""
    m = re.search(r"(?m)^[ \t]*\{", text)
    if m is None:
        raise ImporterError(path, "no JSON object found (expected fio --output-format=json)", line=1)
    start = m.end() - 1
    skipped = text[:start].count("\n")
    if skipped:
        first = text[:start].strip().splitlines()[0][:80] if text[:start].strip() else ""
        warnings.append(f"skipped {skipped} line(s) before the JSON output" + (f": {first!r}" if first else ""))
    duplicates: list[str] = []
    decoder = json.JSONDecoder(object_pairs_hook=_object_pairs(duplicates))
    try:
        doc, end = decoder.raw_decode(text, start)
    except json.JSONDecodeError as exc:
        raise ImporterError(path, f"invalid JSON: {exc.msg} (column {exc.colno})", line=exc.lineno) from exc
    except RecursionError as exc:
        raise ImporterError(path, "invalid JSON: nested too deeply") from exc
    if text[end:].strip():
        warnings.append(f"ignored text after the JSON output (from line {text.count(chr(10), 0, end) + 1})")
    if duplicates:
        warnings.append(f"{len(duplicates)} duplicate key(s) in the JSON (e.g. {duplicates[0]!r}; "
                        f"old fio percentile blocks): the last value was kept")
    if not isinstance(doc, dict):
        raise ImporterError(path, "the JSON document is not an object", line=1)
    return doc


def parse(text: str, path: str = "") -> ParsedFile:
    """Parse fio JSON/json+ output into site measurements."""
    warnings: list[str] = []
    doc = load_json(text, path, warnings)
    version = str(doc.get("fio version", ""))
    tool_version = version[4:] if version.startswith("fio-") else version
    if not version:
        warnings.append("no 'fio version' key: version unknown")
    jobs, key = _jobs_list(doc, path)
    global_opts = doc.get("global options") or {}
    if not isinstance(global_opts, dict):
        raise ImporterError(path, "'global options' is not an object", key="global options")
    groups = _groups(jobs, key, path)
    out: list[SiteMeasurement] = []
    no_io: list[str] = []
    params_jobs: list[dict] = []
    for gid, entries in groups.items():
        out += _group_measurements(gid, entries, key, global_opts, path, warnings, params_jobs, no_io)
    if not out:
        raise _no_io_error(groups, warnings, tool_version, key, path)
    params = {"format": "json", "jobs": params_jobs, "global_options": {k: str(v) for k, v in global_opts.items()}}
    for k in ("time", "timestamp"):
        if k in doc:
            params[k] = doc[k]
    # a run: one entry of the jobs list (a job, or a group fio reported as one with group_reporting);
    # an entry without I/O is skipped with a warning
    runs = sum(len(es) for es in groups.values())
    return ParsedFile(NAME, tool_version, params, out, warnings, path=path, format="fio-json",
                      runs_found=runs, skipped=[s for s in no_io])


def _jobs_list(doc: dict, path: str) -> tuple[list, str]:
    """The list of jobs (``jobs``, or ``client_stats`` of a client/server run) and its key."""
    jobs = doc.get("jobs")
    key = "jobs"
    if jobs is None and "client_stats" in doc:
        jobs, key = doc["client_stats"], "client_stats"
    if not isinstance(jobs, list):
        raise ImporterError(path, "missing or invalid list of jobs", key=key)
    return jobs, key


def _groups(jobs: list, key: str, path: str) -> dict[object, list[tuple[int, dict]]]:
    """The jobs (with their index) by group id, the "All clients" summary left out."""
    groups: dict[object, list[tuple[int, dict]]] = {}
    for i, job in enumerate(jobs):
        if not isinstance(job, dict):
            raise ImporterError(path, "a job is not an object", key=f"{key}[{i}]")
        if job.get("jobname") == "All clients":
            continue
        gid = job.get("groupid", 0)
        groups.setdefault(gid if isinstance(gid, int | str) else repr(gid), []).append((i, job))
    if not groups:
        raise ImporterError(path, "no jobs in the file", key=key)
    return groups


def _group_measurements(gid: object, entries: list[tuple[int, dict]], key: str, global_opts: dict, path: str,
                        warnings: list[str], params_jobs: list[dict], no_io: list[str]) -> list[SiteMeasurement]:
    """The measurements of every job of one group and, when it has several jobs of one shape, the
    group's totals; the jobs' parameters go to ``params_jobs``, jobs without I/O to ``no_io``."""
    per_job = len(entries) > 1
    totals: dict[str, list[float]] = {}
    shapes: set[tuple] = set()
    out: list[SiteMeasurement] = []
    for i, job in entries:
        where = f"{key}[{i}]"
        subject = f"fio job {job.get('jobname', '?')} (group {gid})" + (f" #{i}" if per_job else "")
        opts, shape, threads = _job_setup(job, global_opts, per_job, path, where, warnings)
        shapes.add(tuple(sorted(shape.items())))
        params_jobs.append({"jobname": job.get("jobname"), "groupid": gid,
                            **{k: str(v) for k, v in opts.items()}})
        got = _job_measurements(job, shape, threads, per_job, subject, path, where, totals)
        out.extend(got)
        if not got:
            err = job.get("error", 0)
            no_io.append(f"{where}: job {job.get('jobname')!r} did no I/O"
                         + (f" (fio error {err})" if err not in (0, "0", None) else "") + ": run skipped")
    if per_job:
        if len(shapes) == 1:
            out += _group_totals(gid, dict(next(iter(shapes))), totals)
        else:
            warnings.append(f"group {gid}: jobs with different parameters; no group total computed")
    return out


def _job_setup(job: dict, global_opts: dict, per_job: bool, path: str, where: str, warnings: list[str]
               ) -> tuple[dict, dict, int]:
    """A job's options (the global ones, its own on top), its shape (:func:`job_shape` without
    numjobs) and the threads its figures are for; warns of missing options and fio's errors."""
    opts = dict(global_opts)
    job_opts = job.get("job options") or {}
    if not isinstance(job_opts, dict):
        raise ImporterError(path, "'job options' is not an object", key=f"{where}.job options")
    opts.update(job_opts)
    has_opts = bool(job_opts or global_opts)
    if not has_opts:
        warnings.append(f"{where}: no job options in the file: block size, pattern, queue depth "
                        "and direct I/O unknown")
    err = job.get("error", 0)
    if err not in (0, "0", None):
        warnings.append(f"{where}: fio reported error {err!r} for job {job.get('jobname')!r}")
    shape = job_shape(opts, has_opts, path, where)
    numjobs = shape.pop("numjobs")
    return opts, shape, 1 if per_job else numjobs


def _job_measurements(job: dict, shape: dict, threads: int, per_job: bool, subject: str, path: str, where: str,
                      totals: dict[str, list[float]]) -> list[SiteMeasurement]:
    """The measurements of every direction of one job; its rates are added to ``totals``."""
    out: list[SiteMeasurement] = []
    for direction in DIRECTIONS:
        stats = job.get(direction)
        if not isinstance(stats, dict):
            continue
        got = direction_measurements(stats, direction, shape, threads, per_job, subject,
                                     path, f"{where}.{direction}")
        out.extend(got)
        for m in got:
            if m.metric in ("throughput", "iops"):
                totals.setdefault(f"{direction}|{m.metric}|{m.unit}", []).append(m.value)
    return out


def _group_totals(gid: object, shape: dict, totals: dict[str, list[float]]) -> list[SiteMeasurement]:
    """The sums over the jobs of a group that all have ``shape`` (``statistic`` total)."""
    out = []
    for k, values in totals.items():
        direction, metric, unit = k.split("|")
        f = factors_for(shape, direction, len(values))
        f["statistic"] = "total"
        out.append(measurement(metric, sum(values), unit, f, f"fio group {gid}: sum of {len(values)} jobs"))
    return out


def _no_io_error(groups: dict[object, list[tuple[int, dict]]], warnings: list[str], tool_version: str, key: str,
                 path: str) -> ImporterError:
    """The error for a file in which no job did any I/O, with fio's errors and what it said."""
    errors = sorted({str(j.get("error")) for _, es in groups.items() for _, j in es
                     if j.get("error") not in (0, "0", None)})
    said = next((w.split(": ", 1)[1] for w in warnings if w.startswith("skipped") and ": " in w), "")
    return ImporterError(path, f"fio{' ' + tool_version if tool_version else ''} JSON output in which no job did "
                               "any I/O" + (f" (fio reported error {', '.join(errors)}"
                                            + (f"; fio said {said}" if said else "") + ")" if errors else ""),
                         key=key)


def job_shape(opts: dict, has_opts: bool, path: str, where: str) -> dict:
    """Access pattern, read share, block sizes, queue depth, direct I/O and numjobs of a job's options."""
    def opt(*names):
        for n in names:
            if n in opts and opts[n] is not None:
                return str(opts[n]).strip()
        return None

    rw = opt("rw", "readwrite")
    if rw is not None:
        rw = rw.split(":")[0]  # rw=randread:8 (sequence offset) keeps the pattern
    pattern, share = RW_PATTERNS.get(rw or ("read" if has_opts else ""), (None, None))
    mix = opt("rwmixread")
    if mix is None and opt("rwmixwrite") is not None:
        mix = str(100 - number(opt("rwmixwrite"), path, key=f"{where}.job options.rwmixwrite"))
    if share is None and pattern is not None:
        share = number(mix, path, key=f"{where}.job options.rwmixread") if mix is not None else 50.0
    bs_text = opt("bs", "blocksize")
    bs: list[float | None] = [None, None, None]
    if bs_text is not None:
        parts = bs_text.split(",")
        for k in range(3):
            part = parts[min(k, len(parts) - 1)].strip() or parts[0].strip()
            bs[k] = size_kib(part, default_unit="B")
    elif has_opts and opt("bssplit", "bsrange", "blocksize_range") is None:
        bs = [4.0, 4.0, 4.0]  # fio's default block size is 4 KiB
    depth = opt("iodepth")
    direct = opt("direct")
    numjobs = opt("numjobs")
    return {
        "pattern": pattern, "share": share,
        "bs_read": bs[0], "bs_write": bs[1], "bs_trim": bs[2],
        "depth": number(depth, path, key=f"{where}.job options.iodepth") if depth is not None
        else (1.0 if has_opts else None),
        "direct": (direct not in ("0", "false")) if direct is not None else (False if has_opts else None),
        "numjobs": int(number(numjobs, path, key=f"{where}.job options.numjobs")) if numjobs is not None
        else (1 if has_opts else None),
    }


def factors_for(shape: dict, direction: str, threads: int | None) -> dict:
    """The vocabulary factors of one direction (block size in KiB, read share in %)."""
    return {"benchmark": "fio", "operation": direction, "access_pattern": shape["pattern"],
            "read_share": shape["share"], "block_size": shape.get(f"bs_{direction}"),
            "queue_depth": shape["depth"], "threads": threads,
            "direct_io": None if shape["direct"] is None else ("yes" if shape["direct"] else "no")}


def direction_measurements(stats: dict, direction: str, shape: dict, threads: int | None, per_job: bool,
                           subject: str, path: str, where: str) -> list[SiteMeasurement]:
    """Throughput, IOPS and latency of one direction of one job (empty if it did no I/O)."""
    def num(k, obj=stats, at=where):
        return number(obj.get(k), path, key=f"{at}.{k}")

    if "total_ios" in stats:
        if num("total_ios") == 0:
            return []
    elif "io_bytes" in stats and num("io_bytes") == 0:
        return []
    f = factors_for(shape, direction, threads)
    f["statistic"] = "per_job" if per_job else "total"
    out = [measurement("throughput", num("bw"), "KiB/s", f, subject),
           measurement("iops", num("iops"), "ops/s", f, subject)]
    lat_f = dict(f, statistic="mean")
    if isinstance(stats.get("lat_ns"), dict):
        out.append(measurement("latency", num("mean", stats["lat_ns"], f"{where}.lat_ns"), "ns",
                               lat_f, subject))
    elif isinstance(stats.get("lat"), dict):
        out.append(measurement("latency", num("mean", stats["lat"], f"{where}.lat"), "us", lat_f, subject))
    clat, unit, ckey = (stats.get("clat_ns"), "ns", "clat_ns") if "clat_ns" in stats \
        else (stats.get("clat"), "us", "clat")
    if isinstance(clat, dict) and isinstance(clat.get("percentile"), dict):
        p99 = clat["percentile"].get("99.000000")
        if p99 is not None:
            out.append(measurement("latency", number(p99, path, key=f"{where}.{ckey}.percentile.99.000000"),
                                   unit, dict(f, statistic="p99"), subject))
    return out
