"""Fuzz suite of issue #34 (bounded, in the default suite): hypothesis writes estate files of every
format, cost catalogues, replay suite files and scenarios whose names come from a hostile alphabet
(markup, comment and shell syntax, quotes, separators, control characters, long runs of dashes)
and whose numbers are hostile (nan, inf, 1e309, 400 digits, negative, text), and feeds them to the
real code.

Asserted for every example: nothing but a user-facing error escapes (no traceback); an estate that
imports gives a scenario the parser accepts; every exported XML file is well-formed, its comments
hold no ``--`` and every exported file lies inside the output folder (no file written elsewhere).
A fixed number of examples, derived from a fixed seed (reproducible), no per-example deadline."""

from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path

import defusedxml.ElementTree as ET
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from advisor.engine import advise
from advisor.export import TARGETS, export_to
from advisor.inventory import Inventory
from advisor.replay.suite import load_suite
from advisor.scenario import parse_scenario
from knowledge.costs import example_path, parse_catalogue
from knowledge.infra.errors import UserFacingError
from knowledge.inventory import read_inventory
from tests.advisor.examples import EXAMPLES
from tests.app import test_cli_kb
from tests.knowledge.rvtools_workbooks import write_sdk_style

kb_path = test_cli_kb.kb_path  # fixture: the compiled knowledge base
pytestmark = pytest.mark.timeout(900)

FUZZ = settings(max_examples=20, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

#: characters that break formats: markup, comments, CSV and shell syntax, controls, wide characters
HOSTILE = list("-<>&'\"!?[]{}()$`;|,:\\/ \t\n\r\x00\x01\x1b\x7f=#%*.~") + ["--", "---", "-->", "<!--", "]]>", "é",
                                                                             "\u202e", "\ufffe", "𝔘", "web"]
names = st.lists(st.sampled_from(HOSTILE), min_size=1, max_size=12).map("".join)
numbers = st.one_of(
    st.sampled_from([0, 1, 2, 4, 16, 1024, 4096, -1, 10**400, 1e308, 1e309, math.inf, -math.inf, math.nan, "nan",
                     "inf", "-0", "1e309", "9" * 400, "", " ", "x", "2,5", "16,384", True, None]),
    st.integers(-(10**15), 10**15),
    st.floats(allow_nan=True, allow_infinity=True),
)
vm_rows = st.lists(st.tuples(names, numbers, numbers, numbers, st.sampled_from(["poweredOn", "poweredOff", "", "x"])),
                   min_size=1, max_size=6)


def _text(v) -> str:
    if isinstance(v, float) and not math.isfinite(v):
        return str(v)
    return "" if v is None else str(v)


def _json_value(v):
    return v if not isinstance(v, float) or math.isfinite(v) else str(v)


def _files(tmp: Path, fmt: str, rows) -> list[Path]:
    if fmt == "rvtools-csv":
        out = io.StringIO()
        w = csv.writer(out)
        w.writerow(["VM", "Powerstate", "CPUs", "Memory", "Provisioned MiB"])
        for name, a, b, c, power in rows:
            w.writerow([name, power, _text(a), _text(b), _text(c)])
        p = tmp / "RVTools_tabvInfo.csv"
        p.write_text(out.getvalue(), encoding="utf-8", errors="surrogatepass")
        return [p]
    if fmt == "rvtools-xlsx":
        sheet = [["VM", "Powerstate", "CPUs", "Memory", "Provisioned MiB"]]
        sheet += [[name.replace("\x00", ""), power, a if isinstance(a, (int, float)) and not isinstance(a, bool)
                   and abs(a) < 1e300 else _text(a), _text(b), _text(c)] for name, a, b, c, power in rows]
        return [write_sdk_style(tmp / "estate.xlsx", {"vInfo": sheet})]
    if fmt == "liveoptics":
        sheet = [["VM Name", "Power State", "Virtual CPU", "Provisioned Memory (MiB)", "Virtual Disk Size (MiB)"]]
        sheet += [[name.replace("\x00", ""), power, _text(a), _text(b), _text(c)] for name, a, b, c, power in rows]
        return [write_sdk_style(tmp / "lo.xlsx", {"VMs": sheet, "ESX Hosts": [["Host Name"], ["esx"]]})]
    if fmt == "azure-migrate":
        out = io.StringIO()
        csv.writer(out).writerows([["*Server name", "*Cores", "*Memory (In MB)", "*OS name", "Disk 1 size (In GB)"]]
                                  + [[name, _text(a), _text(b), power, _text(c)] for name, a, b, c, power in rows])
        p = tmp / "azmigrate.csv"
        p.write_text(out.getvalue(), encoding="utf-8", errors="surrogatepass")
        return [p]
    if fmt == "proxmox":
        items = [{"type": "qemu", "vmid": i, "name": name, "maxcpu": _json_value(a), "maxmem": _json_value(b),
                  "maxdisk": _json_value(c), "status": "running"} for i, (name, a, b, c, _p) in enumerate(rows)]
        p = tmp / "pvesh.json"
        p.write_text(json.dumps(items, allow_nan=True), encoding="utf-8")
        return [p]
    if fmt == "openstack":
        servers = [{"ID": str(i), "Name": name, "Status": "ACTIVE",
                    "Flavor": {"vcpus": _json_value(a), "ram": _json_value(b), "disk": _json_value(c)}}
                   for i, (name, a, b, c, _p) in enumerate(rows)]
        p = tmp / "servers.json"
        p.write_text(json.dumps(servers), encoding="utf-8")
        return [p]
    if fmt == "libvirt":
        from xml.sax.saxutils import escape

        out = []
        for i, (name, a, b, _c, _p) in enumerate(rows):
            clean = "".join(ch for ch in name if ch in "\t\n\r" or ch >= " ") or f"d{i}"
            p = tmp / f"dom{i}.xml"
            p.write_text(f"<domain type='kvm'><name>{escape(clean)}</name><memory unit='KiB'>{escape(_text(b))}"
                         f"</memory><vcpu>{escape(_text(a))}</vcpu></domain>", encoding="utf-8")
            out.append(p)
        return out
    if fmt == "virsh":
        blocks = [f"Id:             {i}\nName:           {name.splitlines()[0] if name.strip() else 'x'}\n"
                  f"CPU(s):         {_text(a)}\nMax memory:     {_text(b)} KiB\nState:          running\n"
                  for i, (name, a, b, _c, _p) in enumerate(rows)]
        p = tmp / "dominfo.txt"
        p.write_text("\n".join(blocks), encoding="utf-8", errors="surrogatepass")
        return [p]
    out_t = io.StringIO()
    w = csv.writer(out_t)
    w.writerow(["name", "vcpus", "ram_gib", "disk_gb", "count"])
    for name, a, b, c, _p in rows:
        w.writerow([name, _text(a), _text(b), _text(c), "1"])
    p = tmp / "inventory.csv"
    p.write_text(out_t.getvalue(), encoding="utf-8", errors="surrogatepass")
    return [p]


FORMATS = ("rvtools-csv", "rvtools-xlsx", "liveoptics", "azure-migrate", "proxmox", "openstack", "libvirt", "virsh",
           "template")


@pytest.mark.parametrize("fmt", FORMATS)
def test_estate_files_of_every_format(tmp_path_factory, fmt):
    @FUZZ
    @given(rows=vm_rows)
    def check(rows):
        tmp = tmp_path_factory.mktemp(fmt)
        files = _files(tmp, fmt, rows)
        try:
            estate = read_inventory(files)
            data = Inventory(estate).to_scenario()
        except UserFacingError as exc:
            assert str(exc).strip()
            return
        parse_scenario(data, "imported scenario")  # an imported estate is always a valid scenario
        for w in estate.warnings:
            assert isinstance(w, str) and len(w) < 5000

    check()


@FUZZ
@given(path=st.sampled_from([("hosts", 0, "price"), ("hosts", 0, "ram_gib"), ("hosts", 0, "cpu", "sockets"),
                             ("hosts", 0, "disks", 0, "count"), ("years",), ("power", "price_per_kwh"),
                             ("hosts", 0, "name"), ("storage", 0, "name")]),
       value=st.one_of(st.sampled_from([10**400, 1e308, math.nan]), numbers, names))
def test_cost_catalogues(path, value):
    data = yaml.safe_load(example_path().read_text(encoding="utf-8"))
    node = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    try:
        parse_catalogue(data)
    except UserFacingError as exc:
        assert str(exc).strip()


@FUZZ
@given(body=st.one_of(
    st.recursive(st.one_of(numbers, names), lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(names, inner, max_size=3)), max_leaves=10),
    st.builds(lambda n, v: {"document": n, "experiments": [{"id": n, "value": v}]}, names, numbers)))
def test_replay_suite_files(tmp_path_factory, body):
    d = tmp_path_factory.mktemp("suite")
    try:
        text = yaml.safe_dump(body, allow_unicode=True)
    except yaml.YAMLError:
        return
    (d / "a.yaml").write_text(text, encoding="utf-8", errors="surrogatepass")
    try:
        load_suite(d)
    except UserFacingError as exc:
        assert str(exc).strip()


scenario_names = st.lists(st.sampled_from([c for c in HOSTILE if c not in ("\x00", "\x01", "\x1b", "\x7f", "\r",
                                                                           "\ufffe", "\t", "\n")]),
                          min_size=1, max_size=10).map("".join).filter(lambda s: s.strip())
scenario_names = st.one_of(st.sampled_from(["web---prod", "x ---> <evil/> <!-- y", "a-", "]]>&amp;"]), scenario_names)


@settings(max_examples=6, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(scenario_name=scenario_names, workload_names=st.lists(scenario_names, min_size=3, max_size=3))
def test_exports_are_well_formed_and_confined(kb_path, tmp_path_factory, scenario_name, workload_names):
    from knowledge.store import KnowledgeBase

    data = json.loads((EXAMPLES / "small-lab.json").read_text(encoding="utf-8"))
    data["name"] = scenario_name
    for w, name in zip(data["workloads"], workload_names, strict=True):
        w["name"] = name
    try:
        scenario = parse_scenario(data, "fuzzed")
    except UserFacingError:
        return  # two names alike, or a name the scenario refuses
    with KnowledgeBase.open(kb_path) as kb:
        advice = advise(scenario, kb=kb)
    base = tmp_path_factory.mktemp("export")
    out = base / "out"
    before = {p for p in base.rglob("*")}
    outcomes = export_to(advice, list(TARGETS), out, check=False)
    written = [p for o in outcomes for p in o.written]
    assert written and all(out.resolve() in p.resolve().parents for p in written)
    assert {p for p in base.rglob("*")} - before <= {out, *out.rglob("*")}
    for p in out.rglob("*.xml"):
        text = p.read_text(encoding="utf-8")
        ET.fromstring(text)
        for comment in text.split("<!--")[1:]:
            assert "--" not in comment.split("-->")[0], p
