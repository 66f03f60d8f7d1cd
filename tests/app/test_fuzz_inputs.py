"""Fuzz suite of the hostile-input issue (#19): scenario files (YAML, JSON, TOML), task sets of
``capadvisor rt`` and the settings file, mutated by hypothesis and fed to the real code.

Asserted for every example: the exit status is 0, 1, 2 or 3 (never an exception escaping: a
traceback fails the test), an error message names the file (and, for a scenario problem, the
field path), no temporary file is left beside an output, and an output file is either absent or
complete. Bounded: a fixed number of examples per test, a per-example deadline and the test's
timeout; the examples are derived from a fixed seed so that a run is reproducible. The importers
have their own fuzzers (tests/app/test_import_fuzz.py)."""

from __future__ import annotations

import copy
import json
import math
import re
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, event, given, seed, settings
from hypothesis import strategies as st

from advisor.scenario import dumps, load_scenario, to_toml
from app import settings as app_settings
from app.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "resources" / "examples"
BASES = {name: load_scenario(EXAMPLES / name).to_dict()
         for name in ("scenario.yaml", "small-lab.json", "cassandra-containers.toml")}
EXITS = {0, 1, 2, 3}
FUZZ = settings(max_examples=25, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

# --- hostile values ------------------------------------------------------------------------------
HUGE_INT = int("9" * 400)
hostile_scalars = st.one_of(
    st.sampled_from([0, -1, 1, 2**63, HUGE_INT, -HUGE_INT, 1e300, -1e300, 1e-300, 5e-324, math.inf, -math.inf,
                     math.nan, True, False, None, "", " ", "\x00", "\ud800", "a\nb", "../../x", "<script>", "é" * 300,
                     "1e300", "NaN", "ms", "hdd", "random", "none", "KVM"]),
    st.integers(min_value=-(10**20), max_value=10**20),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
)
hostile_values = st.recursive(hostile_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)), max_leaves=8)


def _paths(data, prefix=()):
    yield prefix
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _paths(v, (*prefix, i))


def _mutate(data, draw):
    data = copy.deepcopy(data)
    for _ in range(draw(st.integers(1, 3))):
        paths = [p for p in _paths(data) if p]
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        node = data
        for key in path[:-1]:
            node = node[key]
        action = draw(st.sampled_from(["replace", "replace", "delete", "deep"]))
        if action == "delete":
            del node[path[-1]]
        elif action == "deep":
            deep = 1
            for _ in range(draw(st.integers(50, 800))):
                deep = [deep]
            node[path[-1]] = deep
        else:
            node[path[-1]] = draw(hostile_values)
    return data


def _serialize(data, fmt: str) -> str | None:
    try:
        if fmt == "json":
            return json.dumps(data)
        if fmt == "yaml":
            return yaml.safe_dump(data, allow_unicode=True)
        return to_toml(data)
    except (ValueError, TypeError, RecursionError, UnicodeError, Exception):  # noqa: BLE001
        return None  # a value this format cannot hold: nothing to test


@st.composite
def scenario_files(draw):
    name = draw(st.sampled_from(sorted(BASES)))
    fmt = draw(st.sampled_from(["yaml", "json", "toml"]))
    data = _mutate(BASES[name], draw)
    text = _serialize(data, fmt)
    if text is None:
        text = dumps(load_scenario(EXAMPLES / name), fmt)
    cut = draw(st.sampled_from([None, None, None, "truncate", "bytes", "duplicate"]))
    if cut == "truncate":
        text = text[: draw(st.integers(0, len(text)))]
    elif cut == "bytes":
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.sampled_from(["\x00", "\ufeff", "{", "]", ":", "\n  -", "&a *a", "'"])) + text[at:]
    elif cut == "duplicate":
        lines = text.splitlines()
        if lines:
            i = draw(st.integers(0, len(lines) - 1))
            lines.insert(i, lines[i])
            text = "\n".join(lines)
    return fmt, text


def _run(args, capsys) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out = capsys.readouterr()
    return code, out.out, out.err


def _no_leftovers(folder: Path, keep: set[str]) -> None:
    extra = sorted(p.name for p in folder.iterdir() if p.name not in keep)
    assert not extra, f"files left behind: {extra}"


@pytest.mark.timeout(600)
@seed(19)
@FUZZ
@given(case=scenario_files())
def test_scenario_files_through_advise(case, tmp_path_factory, capsys):
    fmt, text = case
    folder = tmp_path_factory.mktemp("scenario")
    path = folder / f"s.{fmt}"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    out = folder / "advice.json"
    code, stdout, err = _run(["advise", path, "-o", out], capsys)
    event(f"advise exit {code}")
    assert code in EXITS, err
    assert "Traceback" not in err
    if code == 0:
        assert json.loads(out.read_text(encoding="utf-8"))["recommendations"]
    else:
        assert not out.exists()  # nothing half-written
        assert str(path) in err, err
        problems = re.findall(r"^  (\S.*?): ", err, flags=re.M)
        if "problem(s) in the scenario" in err:
            assert problems and all(p[0].isalpha() or p[0] == "_" or p.startswith("[") for p in problems), err
    _no_leftovers(folder, {path.name, out.name})


def _maybe(draw, good, bad):
    """Mostly a good value, sometimes a hostile one."""
    return draw(bad) if draw(st.integers(0, 3)) == 0 else draw(good)


@st.composite
def task_files(draw):
    fmt = draw(st.sampled_from(["csv", "json"]))
    n = draw(st.integers(1, 6))
    rows = []
    for i in range(n):
        period = _maybe(draw, st.floats(1.0, 1000.0), st.sampled_from(
            [1e9, 1e300, 0, -5, math.inf, math.nan, HUGE_INT, 1e-300, "2ms", "1e400", "x"]))
        wcet = _maybe(draw, st.just(0.01 * (period if isinstance(period, float) and math.isfinite(period) else 1)),
                      st.sampled_from([0, -1, 1e300, math.nan, "5us", 1e9]))
        name = _maybe(draw, st.just(f"t{i}"), st.sampled_from(["", "\ud800", "a,b", "t0", " "]))
        rows.append({"name": name, "period": period, "wcet": wcet})
    if fmt == "json":
        doc = {"unit": _maybe(draw, st.sampled_from(["ms", "us", "s"]), st.sampled_from(["hours", 5, None])),
               "tasks": rows}
        text = json.dumps(doc)
        if draw(st.integers(0, 5)) == 0:
            text = "[" * draw(st.integers(100, 5000)) + text
    else:
        text = "name,period,wcet\n" + "\n".join(f"{r['name']},{r['period']},{r['wcet']}" for r in rows)
    return fmt, text, draw(st.sampled_from([["--share", "0.5"], ["--period", "2"], [], ["--policy", "edf"],
                                            ["--share", "0.7", "--overhead", "0.01"], ["--vcpus", "2", "--share", "0.6"],
                                            ["--period", "1e300"], ["--share", "nan"], ["--curve", "50", "--share", "0.9"]]))


@pytest.mark.timeout(600)
@seed(19)
@FUZZ
@given(case=task_files())
def test_task_sets_through_rt(case, tmp_path_factory, capsys):
    fmt, text, args = case
    folder = tmp_path_factory.mktemp("rt")
    path = folder / f"tasks.{fmt}"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    code, stdout, err = _run(["rt", path, *args, "--format", "json"], capsys)
    event(f"rt exit {code}")
    assert code in EXITS, err
    assert "Traceback" not in err
    if code == 0:
        json.loads(stdout)
    elif code == 2:
        assert str(path) in err or "--" in err, err


settings_docs = st.one_of(
    st.dictionaries(st.sampled_from(["version", "theme", "font_pt", "workshop_font_pt", "whatif_debounce_ms",
                                     "auto_advise", "site", "last_dir", "max_recent", "extra", "dark_mode",
                                     "whatif_delay", "unknown"]), hostile_values, max_size=8),
    hostile_values,
)


@pytest.mark.timeout(300)
@seed(19)
@FUZZ
@given(doc=settings_docs, raw=st.sampled_from([None, "{", "[" * 5000, "\x00", "{\"version\": 3,", ""]))
def test_settings_files(doc, raw, tmp_path_factory):
    folder = tmp_path_factory.mktemp("settings")
    path = folder / "settings.json"
    try:
        text = raw if raw is not None else json.dumps(doc)
    except (ValueError, TypeError):
        text = "{"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    before = path.read_bytes()
    s = app_settings.load(path, environ={})
    for name, (lo, hi) in app_settings.LIMITS.items():
        value = getattr(s, name)
        assert math.isfinite(value) and lo <= value <= hi
    assert s.theme in app_settings.THEMES and isinstance(s.site, str) and isinstance(s.extra, dict)
    problem = app_settings.load_problem(s)
    event("settings kept" if problem else "settings read")
    try:
        app_settings.save(s, path)
    except app_settings.SettingsKept:
        assert problem is not None and path.read_bytes() == before
    else:
        assert problem is None
        assert app_settings.load_problem(app_settings.load(path, environ={})) is None
    _no_leftovers(folder, {"settings.json"})
