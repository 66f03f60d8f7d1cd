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

import gc
import json
import re
from functools import lru_cache

from knowledge.importers.base import (
    ImporterError,
    ParsedFile,
    factor_levels,
    leveled_measurement,
    number,
    size_kib,
)
from knowledge.userdb import SiteMeasurement

NAME = "fio"
DIRECTIONS = ("read", "write", "trim")
#: the rates of a direction (metric, unit), its first two measurements; a group's totals sum them
RATES = (("throughput", "KiB/s"), ("iops", "ops/s"))

#: fio's rw= values -> (access_pattern, read share in % or None when the mix decides)
#: the keys of a job's shape (:func:`job_shape` without numjobs) that make its factor levels
SHAPE_KEYS = ("pattern", "share", "bs_read", "bs_write", "bs_trim", "depth", "direct")

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


def _decode(text: str, start: int) -> tuple[object, int, list[str]]:
    """The JSON value at ``start``, where it ends and its duplicate keys (in order).

    Fast path: the C decoder without a pairs hook, keeping every object it builds; then
    :func:`_may_have_duplicates` proves from counts that no object lost a key. Only when it cannot
    is the text decoded again with the pairs hook, which names every duplicate."""
    built: list[dict] = []
    keep = built.append

    def hook(obj: dict) -> dict:
        keep(obj)
        return obj

    doc, end = json.JSONDecoder(object_hook=hook).raw_decode(text, start)
    if not _may_have_duplicates(text, start, end, built, doc):
        return doc, end, []
    duplicates: list[str] = []
    doc, end = json.JSONDecoder(object_pairs_hook=_object_pairs(duplicates)).raw_decode(text, start)
    return doc, end, duplicates


def _may_have_duplicates(text: str, start: int, end: int, built: list[dict], doc: object) -> bool:
    """False only if no object in ``text[start:end]`` has a key twice.

    Every key in the text is followed by one ':' and the other ':' are inside strings, so
    colons - (colons inside some of the strings) >= keys in the text >= keys the objects kept
    (``built`` holds every object the decoder made, also those a duplicate key dropped). When the
    two ends are equal, no key was lost. The strings counted are where fio writes colons (the
    top level, e.g. ``time``, the options and the jobs); a colon escaped as \\u003a would count
    in the decoded string but not in the text, so such a file takes the slow path."""
    surplus = text.count(":", start, end) - sum(map(len, built))
    if surplus == 0:
        return False
    if text.find("\\", start, end) != -1 and text.find("\\u003", start, end) != -1:
        return True
    found = 0
    for obj in _string_holders(doc):
        found += "".join([*obj, *(v for v in obj.values() if type(v) is str)]).count(":")
        if found >= surplus:  # never above it: what is left are keys
            return False
    return True


def _string_holders(doc: object):
    """The objects in which fio writes text: the top level, the global options, each job and
    its options (each object once)."""
    if not isinstance(doc, dict):
        return
    yield doc
    if isinstance(doc.get("global options"), dict):
        yield doc["global options"]
    for key in ("jobs", "client_stats"):
        jobs = doc.get(key)
        for job in jobs if isinstance(jobs, list) else ():
            if isinstance(job, dict):
                yield job
                if isinstance(job.get("job options"), dict):
                    yield job["job options"]


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
    try:
        doc, end, duplicates = _decode(text, start)
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
    """Parse fio JSON/json+ output into site measurements.

    The cyclic garbage collector is paused meanwhile: a json+ file decodes to some 10^5 objects,
    none in a cycle, and each collection on the way would walk all of them again (about a tenth of
    the import's time for 50 MB)."""
    if not gc.isenabled():
        return _parse(text, path)
    gc.disable()
    try:
        return _parse(text, path)
    finally:
        gc.enable()


def _parse(text: str, path: str) -> ParsedFile:
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
    totals: dict[str, tuple[list[float], list[float]]] = {}
    shapes: set[tuple] = set()
    out: list[SiteMeasurement] = []
    for i, job in entries:
        where = f"{key}[{i}]"
        subject = f"fio job {job.get('jobname', '?')} (group {gid})" + (f" #{i}" if per_job else "")
        opts, text_only, shape_key, threads = _job_setup(job, global_opts, per_job, path, where, warnings)
        shapes.add(shape_key)
        params = {"jobname": job.get("jobname"), "groupid": gid}
        params.update(opts if text_only else {k: str(v) for k, v in opts.items()})  # text stays as it is
        params_jobs.append(params)
        got = _job_measurements(job, shape_key, threads, per_job, subject, path, where, totals)
        out.extend(got)
        if not got:
            err = job.get("error", 0)
            no_io.append(f"{where}: job {job.get('jobname')!r} did no I/O"
                         + (f" (fio error {err})" if err not in (0, "0", None) else "") + ": run skipped")
    if per_job:
        if len(shapes) == 1:
            out += _group_totals(gid, next(iter(shapes)), totals)
        else:
            warnings.append(f"group {gid}: jobs with different parameters; no group total computed")
    return out


def _job_setup(job: dict, global_opts: dict, per_job: bool, path: str, where: str, warnings: list[str]
               ) -> tuple[dict, bool, tuple, int | None]:
    """A job's options (the global ones, its own on top), whether every option is text, its shape
    (:func:`job_shape` without numjobs, as its values in :data:`SHAPE_KEYS` order) and the threads
    its figures are for; warns of missing options and fio's errors."""
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
    text_only = all(type(v) is str for v in opts.values())
    shape_key, numjobs = _shape(opts, text_only, has_opts, path, where)
    return opts, text_only, shape_key, 1 if per_job else numjobs


def _job_measurements(job: dict, shape_key: tuple, threads: int | None, per_job: bool, subject: str, path: str,
                      where: str, totals: dict[str, tuple[list[float], list[float]]]) -> list[SiteMeasurement]:
    """The measurements of every direction of one job (its shape's values in :data:`SHAPE_KEYS` order;
    ``where`` the job's place in the file); its :data:`RATES` are added to ``totals`` (per direction)."""
    out: list[SiteMeasurement] = []
    for direction in DIRECTIONS:
        stats = job.get(direction)
        if not isinstance(stats, dict):
            continue
        got = direction_measurements(stats, direction, shape_key, threads, per_job, subject, path, where)
        if got:  # the rates come first
            out.extend(got)
            rates = totals.get(direction)
            if rates is None:
                rates = totals[direction] = ([], [])
            rates[0].append(got[0].value)
            rates[1].append(got[1].value)
    return out


def _group_totals(gid: object, shape_key: tuple, totals: dict[str, tuple[list[float], list[float]]]
                  ) -> list[SiteMeasurement]:
    """The sums over the jobs of a group that all have one shape (``statistic`` total)."""
    out = []
    for direction, rates in totals.items():
        for (metric, unit), values in zip(RATES, rates, strict=True):
            levels = dict(_levels(shape_key, direction, len(values)), statistic="total")
            out.append(leveled_measurement(metric, sum(values), unit, levels,
                                           f"fio group {gid}: sum of {len(values)} jobs"))
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


def _shape(opts: dict, text_only: bool, has_opts: bool, path: str, where: str) -> tuple[tuple, int | None]:
    """:func:`job_shape` as (its values in :data:`SHAPE_KEYS` order, numjobs), from a cache when the
    options are all text (``text_only``), as fio writes them: the jobs of a file mostly share their
    options. A refusal always names this file and job."""
    if text_only:
        try:
            return _text_options_shape(tuple(opts.items()), has_opts)
        except ImporterError:
            pass  # raised again below, naming the file and the job
    return _shape_key(job_shape(opts, has_opts, path, where))


@lru_cache(maxsize=256)
def _text_options_shape(items: tuple[tuple[str, str], ...], has_opts: bool) -> tuple[tuple, int | None]:
    return _shape_key(job_shape(dict(items), has_opts, "", ""))


def _shape_key(shape: dict) -> tuple[tuple, int | None]:
    return tuple(shape[k] for k in SHAPE_KEYS), shape["numjobs"]


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


def direction_measurements(stats: dict, direction: str, shape_key: tuple, threads: int | None, per_job: bool,
                           subject: str, path: str, where: str) -> list[SiteMeasurement]:
    """Throughput, IOPS and latency of one direction of one job (empty if it did no I/O); the job's
    shape as its values in :data:`SHAPE_KEYS` order, ``where`` the job's place in the file."""
    done = "total_ios" if "total_ios" in stats else "io_bytes" if "io_bytes" in stats else None
    if done is not None and type(stats[done]) is int and stats[done] == 0:
        return []  # the usual idle direction, told before any key text is built
    where = f"{where}.{direction}"
    if done is not None and _num(stats, done, path, where) == 0:
        return []
    rate, mean, p99 = _level_sets(shape_key, direction, threads, per_job)  # formatted once, copied per figure
    (throughput, per_s), (iops, ops) = RATES
    out = [leveled_measurement(throughput, _num(stats, "bw", path, where), per_s, dict(rate), subject),
           leveled_measurement(iops, _num(stats, "iops", path, where), ops, dict(rate), subject)]
    if isinstance(stats.get("lat_ns"), dict):
        out.append(leveled_measurement("latency", _num(stats["lat_ns"], "mean", path, where, "lat_ns"), "ns",
                                       dict(mean), subject))
    elif isinstance(stats.get("lat"), dict):
        out.append(leveled_measurement("latency", _num(stats["lat"], "mean", path, where, "lat"), "us",
                                       dict(mean), subject))
    clat, unit, ckey = (stats.get("clat_ns"), "ns", "clat_ns") if "clat_ns" in stats \
        else (stats.get("clat"), "us", "clat")
    if isinstance(clat, dict) and isinstance(clat.get("percentile"), dict):
        if clat["percentile"].get("99.000000") is not None:
            out.append(leveled_measurement("latency", _num(clat["percentile"], "99.000000", path,
                                                           where, ckey, "percentile"),
                                           unit, dict(p99), subject))
    return out


def _num(obj: dict, key: str, path: str, *where: str) -> float:
    """``obj[key]`` as a finite number (:func:`number`); ``where`` are the parts of the key's place,
    joined only when it is not one."""
    value = obj.get(key)
    if (type(value) is int or type(value) is float) and value - value == 0:  # finite, not a bool
        return float(value)
    return number(value, path, key=".".join((*where, key)))


@lru_cache(maxsize=1024)
def _levels(shape: tuple, direction: str, threads: int | None) -> dict[str, str]:
    """The formatted factor levels of one direction of a job shape (its values in
    :data:`SHAPE_KEYS` order); cached: the jobs of a file mostly share a few shapes. Callers copy."""
    return factor_levels(factors_for(dict(zip(SHAPE_KEYS, shape, strict=True)), direction, threads))


@lru_cache(maxsize=1024)
def _level_sets(shape: tuple, direction: str, threads: int | None, per_job: bool
                ) -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    """:func:`_levels` with the statistic of a rate (per job or total), of the mean and of the p99
    latency. Callers copy."""
    levels = _levels(shape, direction, threads)
    return (dict(levels, statistic="per_job" if per_job else "total"), dict(levels, statistic="mean"),
            dict(levels, statistic="p99"))
