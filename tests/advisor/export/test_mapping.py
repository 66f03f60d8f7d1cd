"""Every exported value maps back to the recommendation it came from, for every example scenario
and every target.

The exported files are read back with the platforms' parsers (ElementTree for libvirt XML,
Xen's libxlutil, the qm option parser, configparser, YAML) into ``(file, setting) -> value``.
Then (1) every value the manifest lists is found where it says, (2) every advice-bearing value
found in the files is in the manifest (nothing exported without a source), and (3) each value,
converted back to the recommendation's unit, agrees with the recommendation in the advice
(cache mode, io mode, T_VM and C_VM in microseconds, pinning, scheduler policy, vCPUs per
thread, RAM over-commit and reserve, governor).
"""

from __future__ import annotations

import math
import re
from collections import defaultdict

import defusedxml.ElementTree as ET
import pytest

from advisor.export import export_config
from advisor.export.check import (
    XlParser,
    check_qm,
    commands,
    parse_drive,
    parse_flavor_commands,
    parse_flavors_yaml,
    parse_nova_conf,
    parse_rtds_line,
)
from advisor.export.plan import US_PER_UNIT
from tests.advisor.examples import EXAMPLES as EXAMPLES_DIR
from tests.advisor.examples import SCENARIOS, TARGETS


# --- reading the files back ----------------------------------------------------------------------
def _cpuset(text: str) -> set[int]:
    out: set[int] = set()
    for part in text.split(","):
        a, _, b = part.partition("-")
        out |= set(range(int(a), int(b or a) + 1))
    return out


def _governor(rel: str, text: str, found: dict) -> None:
    for m in re.finditer(r"^\s*echo (\w+) > \"\$f\"$|^xenpm set-scaling-governor (\w+)$", text, re.M):
        found[(rel, "cpu frequency governor")] = m.group(1) or m.group(2)


def read_libvirt(files: dict[str, str]) -> dict:
    found: dict = {}
    for rel, text in files.items():
        if rel.endswith(".sh"):
            _governor(rel, text, found)
        if not rel.endswith(".xml"):
            continue
        root = ET.fromstring(text)
        disk = root if root.tag == "disk" else root.find("devices/disk")
        if disk is not None and (driver := disk.find("driver")) is not None:
            for attr in ("cache", "io"):
                if attr in driver.attrib:
                    found[(rel, f"disk/driver@{attr}")] = driver.get(attr)
        tune = root if root.tag == "cputune" else root.find("cputune")
        if tune is not None:
            for el in tune.findall("vcpupin"):
                found[(rel, f"cputune/vcpupin[{el.get('vcpu')}]@cpuset")] = el.get("cpuset")
            if (el := tune.find("emulatorpin")) is not None:
                found[(rel, "cputune/emulatorpin@cpuset")] = el.get("cpuset")
            if (el := tune.find("vcpusched")) is not None:
                found[(rel, "cputune/vcpusched@scheduler")] = el.get("scheduler")
            for name in ("period", "quota"):
                if (el := tune.find(name)) is not None:
                    found[(rel, f"cputune/{name}")] = el.text
    return found


def read_xen(files: dict[str, str]) -> dict:
    xl = XlParser()
    found: dict = {}
    for rel, text in files.items():
        if rel.endswith(".cfg"):
            values, problems = xl.parse(text, rel)
            assert not problems
            for key in ("cpus", "pool"):
                if key in values:
                    found[(rel, key)] = values[key]
            for disk in values.get("disk_parsed", []):
                found[(rel, "disk@backendtype")] = disk["backend"]
                if disk.get("direct_io_safe"):
                    found[(rel, "disk@direct-io-safe")] = "direct-io-safe"
        elif rel.endswith(".sh"):
            _governor(rel, text, found)
            for words in commands(text, "xl"):
                if words[1] == "create":
                    values, problems = xl.parse("\n".join(w for w in words[3:]) + "\n", rel)
                    assert not problems
                    if "cpus" in values:
                        found[(rel, f"xl create {values['name']} cpus")] = values["cpus"]
                if words[1] == "sched-rtds" and "-p" in words:
                    opts = parse_rtds_line(words)
                    found[(rel, f"xl sched-rtds -d {opts['domain']} -p")] = str(opts["period"])
                    found[(rel, f"xl sched-rtds -d {opts['domain']} -b")] = str(opts["budget"])
    return found


def read_proxmox(files: dict[str, str]) -> dict:
    found: dict = {}
    for rel, text in files.items():
        if not rel.endswith(".sh"):
            continue
        _governor(rel, text, found)
        fn = None
        for line in text.splitlines():
            if m := re.match(r"^(create_\w+)\(\) \{", line):
                fn = m.group(1)
            words = commands(line, "qm")
            if not words:
                continue
            opts = check_qm(words[0])
            if "scsi0" in opts:
                drive = parse_drive(opts["scsi0"])
                for k in ("cache", "aio"):
                    if k in drive:
                        found[(rel, f"{fn} scsi0 {k}")] = drive[k]
            if words[0][1] == "set":
                for k in ("affinity", "cpuunits", "cpulimit"):
                    if k in opts:
                        found[(rel, f"qm set {words[0][2]} --{k}")] = opts[k]
        if m := re.search(r'echo "(\d+) (\d+)" > "/sys/fs/cgroup/qemu\.slice/\$\{vmid\}\.scope/cpu\.max"', text):
            found[(rel, "cpu.max quota")], found[(rel, "cpu.max period")] = m.group(1), m.group(2)
        if m := re.search(r"chrt --fifo -p (\d+)", text):
            found[(rel, "chrt --fifo priority")] = m.group(1)
    return found


def read_openstack(files: dict[str, str]) -> dict:
    found: dict = {}
    for rel, text in files.items():
        if rel.endswith(".yaml") or rel.endswith("flavors.sh"):
            flavors = parse_flavors_yaml(text) if rel.endswith(".yaml") else parse_flavor_commands(text)
            for name, flavor in flavors.items():
                for k, v in flavor["extra_specs"].items():
                    found[(rel, f"{name} {k}")] = v
        elif rel.endswith(".conf"):
            cp = parse_nova_conf(text)
            for section in cp.sections():
                for key, value in cp.items(section, raw=True):
                    if key == "disk_cachemodes":
                        for part in value.split(","):
                            src, _, mode = part.strip().partition("=")
                            found[(rel, f"libvirt.disk_cachemodes {src}")] = mode
                    elif key in ("cpu_allocation_ratio", "ram_allocation_ratio", "reserved_host_memory_mb",
                                 "cpu_dedicated_set", "cpu_shared_set"):
                        found[(rel, f"{section}.{key}")] = value
        elif rel.endswith(".sh"):
            _governor(rel, text, found)
    return found


READERS = {"libvirt": read_libvirt, "xen": read_xen, "proxmox": read_proxmox, "openstack": read_openstack}


# --- mapping a value back to its recommendation ---------------------------------------------------
def _rt(rec, scenario):
    w = next(w for w in scenario.workloads if f"workload:{w.name}" == rec.scope)
    dedicated = bool(rec.details.get("dedicated_core"))
    share = 1.0 if dedicated else rec.details["analysis"]["share"]
    t_us = rec.value * US_PER_UNIT[w.realtime.time_unit]
    return w, dedicated, share, t_us


PERIODISH = ("cputune/period", "quota:cpu_period", "-p", "cpu.max period")
BUDGETISH = ("cputune/quota", "quota:cpu_quota", "-b", "cpu.max quota")


def check_back(advice, value: str, setting: str, rec, pairs: dict) -> None:
    """Assert ``value`` (as exported at ``setting``) implements ``rec``."""
    sc = advice.scenario
    d = rec.decision
    if d == "cache_mode":
        if setting.endswith("aio") or setting.endswith("@io"):
            assert value == ("native" if rec.choice in ("none", "directsync") else "threads")
        elif "direct-io-safe" in setting:
            assert rec.choice in ("none", "directsync")
        elif setting.endswith("backendtype"):
            assert value == "qdisk"  # QEMU's backend: the only one with a host page cache to use or bypass
        else:
            assert value == rec.choice
    elif d == "cpu_governor":
        assert value == rec.choice
    elif d == "vcpu_overallocation":
        threads = rec.details["threads_per_core"]
        if setting.endswith("cpu_shared_set"):  # every thread of whole cores (Nova counts logical CPUs)
            cpus = _cpuset(value)
            assert cpus and max(cpus) < sc.hosts.cpu.cores * threads
            assert {c % sc.hosts.cpu.cores for c in cpus} == {c for c in cpus if c < sc.hosts.cpu.cores}
            assert len(cpus) == threads * len({c % sc.hosts.cpu.cores for c in cpus})
        else:
            assert float(value) * threads == pytest.approx(rec.value, abs=1e-12)
    elif d == "host_count":
        if setting.endswith("ram_allocation_ratio"):
            assert float(value) == sc.preferences.ram_overcommit
        else:  # reserved_host_memory_mb: host RAM the sizing did not offer to VMs
            kept = sc.hosts.ram_gib - rec.details["per_host_capacity"]["ram"] / sc.preferences.ram_overcommit
            assert int(value) == math.ceil(kept * 1024 - 1e-9)
    elif d == "vm_period_budget":
        w, dedicated, share, t_us = _rt(rec, sc)
        if setting.endswith(PERIODISH):
            p = int(value)
            assert p <= t_us + 1e-6 and (p > t_us - 1 or p == 1_000_000), (p, t_us)
            pairs["period"] = p
        elif setting.endswith(BUDGETISH):
            b = int(value) / (w.vcpus if setting == "cpu.max quota" else 1)
            p = pairs.get("period")
            assert p is not None, "the period comes before its budget"
            assert b / p >= share - 1e-12 and b - 1 < p * share + 1e-6 and b <= p
            assert not dedicated or b == p
        elif "vcpupin" in setting or setting.endswith(("--affinity", "cpus", "cpu_dedicated_set")):
            cpus = _cpuset(value)
            assert 0 not in cpus  # never the housekeeping core
            assert len(cpus) == (1 if "vcpupin" in setting else w.vcpus) or setting.endswith("cpu_dedicated_set")
        elif "emulatorpin" in setting:
            assert value == "0"
        elif setting.endswith(("vcpusched@scheduler", "chrt --fifo priority", "hw:cpu_realtime")):
            assert dedicated and value in ("fifo", "1", "yes")
        elif setting.endswith("--cpulimit"):
            assert share * w.vcpus <= float(value) < share * w.vcpus + 0.01 + 1e-9
        elif setting.endswith(("--cpuunits", "quota:cpu_shares")):
            assert value == "10000"
        elif setting.endswith("hw:cpu_policy"):
            assert value == "dedicated"
        elif setting.endswith("hw:emulator_threads_policy"):
            assert value == "share"  # on the shared set: no PCPU of the dedicated set taken per VM
        elif setting == "pool":
            assert value == "rt-pool"
        else:
            raise AssertionError(f"no rule maps {setting} back to {d}")
    else:
        raise AssertionError(f"{setting}: unexpected decision {d}")


def _is_budget(setting: str) -> bool:
    return setting.endswith(BUDGETISH)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda p: p.name)
def test_every_exported_value_maps_back_to_its_recommendation(advice_of, scenario, target):
    advice = advice_of(scenario)
    ex = export_config(advice, target)
    found = READERS[target](ex.files)
    manifest = {(v.file, v.setting): v for v in ex.values}
    assert len(manifest) == len(ex.values), "a setting recorded twice"
    # (1) the manifest says where each value is, and it is there
    for key, v in manifest.items():
        assert found.get(key) == v.value, f"{key}: manifest {v.value!r}, file {found.get(key)!r}"
    # (2) nothing advice-bearing in the files lacks a source
    assert set(found) == set(manifest), f"without a source: {set(found) - set(manifest)}"
    # (3) each value agrees with its recommendation
    pairs: dict = defaultdict(dict)
    for (file, setting), v in sorted(manifest.items(), key=lambda kv: _is_budget(kv[0][1])):  # periods first
        rec = advice.find(v.decision, v.scope)
        assert rec is not None, f"{setting}: no recommendation {v.decision} at {v.scope}"
        prefix = re.sub(r" -[pb]$| quota:cpu_(period|quota)$|/(period|quota)$| (period|quota)$", "", setting)
        check_back(advice, v.value, setting, rec, pairs[(file, prefix)])
    # every real-time VM gets cores of its own
    pins = defaultdict(list)
    for (file, setting), v in manifest.items():
        if setting.endswith("--affinity") or (setting.startswith("xl create") and setting.endswith(" cpus")):
            pins[file].append(_cpuset(v.value))
    for file, sets in pins.items():
        flat = [c for s in sets for c in s]
        assert len(flat) == len(set(flat)), f"{file}: two real-time VMs pinned to one core"
    # the decisions the advice makes for VMs all reach the files
    decisions = {v.decision for v in ex.values}
    assert "cache_mode" in decisions
    if advice.of("vm_period_budget"):
        assert "vm_period_budget" in decisions
    if target == "openstack":
        assert {"vcpu_overallocation", "host_count"} <= decisions


def test_a_dedicated_core_maps_to_fifo_and_no_quota(advice_of):
    """A task set that needs a whole core: vcpusched fifo (libvirt), budget = period (RTDS),
    hw:cpu_realtime (Nova), SCHED_FIFO hook (Proxmox); never a CFS quota."""
    import copy

    import yaml

    from tests.advisor.examples import EXAMPLES

    sc = yaml.safe_load((EXAMPLES / "scenario.yaml").read_text())
    sc = copy.deepcopy(sc)
    rt = sc["workloads"][3]["realtime"]
    rt.pop("design_speed_ghz")
    rt["tasks"] = [{"name": "a", "period": 10, "wcet": 9.9}]
    advice = advice_of(sc)
    rec = advice.find("vm_period_budget", "workload:rtfunc")
    assert rec.details["dedicated_core"] is True
    for target in TARGETS:
        ex = export_config(advice, target)
        found = READERS[target](ex.files)
        pairs: dict = defaultdict(dict)
        for v in sorted(ex.values, key=lambda v: _is_budget(v.setting)):
            prefix = re.sub(r" -[pb]$", "", v.setting)
            check_back(advice, v.value, v.setting, advice.find(v.decision, v.scope), pairs[(v.file, prefix)])
            assert found[(v.file, v.setting)] == v.value
        settings = " ".join(v.setting for v in ex.values)
        assert "quota" not in settings.replace("quota:cpu_shares", "") or target == "xen"
    lv = export_config(advice, "libvirt").files["libvirt/rtfunc/rtfunc-01.domain.xml"]
    assert "scheduler='fifo'" in lv and "<quota>" not in lv
    assert "-p 10000 -b 10000" in export_config(advice, "xen").files["xen/rtds.sh"]


def _nova_inventory(text: str) -> dict:
    cp = parse_nova_conf(text)
    return {"ratio": float(cp.get("DEFAULT", "cpu_allocation_ratio")),
            "dedicated": _cpuset(cp.get("compute", "cpu_dedicated_set")) if cp.has_option("compute", "cpu_dedicated_set")
            else set(),
            "shared": _cpuset(cp.get("compute", "cpu_shared_set")) if cp.has_option("compute", "cpu_shared_set")
            else None}


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda p: p.name)
def test_nova_offers_the_advised_vcpus_per_host(advice_of, scenario):
    """Nova's own arithmetic on the exported nova.conf: VCPU = len(cpu_shared_set) x
    cpu_allocation_ratio (all logical CPUs without a [compute] section) equals the advised vCPUs per
    physical core x the cores not reserved for real time, and PCPU = len(cpu_dedicated_set) holds
    every real-time vCPU of a node (emulator threads do not take one: policy share)."""
    advice = advice_of(scenario)
    oa = advice.find("vcpu_overallocation")
    if oa is None or oa.value is None:
        pytest.skip("no over-allocation advised")
    sc = advice.scenario
    cores, threads = sc.hosts.cpu.cores, oa.details["threads_per_core"]
    ex = export_config(advice, "openstack")
    manifest = {(v.file, v.setting): v for v in ex.values}
    rt_vcpus = sum(g.vms * g.vcpus for g in ex.plan.realtime_groups() if g.rt_cpus and g.realtime.period_us)
    confs = [rel for rel in ex.files if rel.endswith(".conf")]
    assert confs
    for rel in confs:
        inv = _nova_inventory(ex.files[rel])
        ded, shared = inv["dedicated"], inv["shared"]
        if shared is None:  # no real-time VMs on these nodes: Nova uses every logical CPU
            assert not ded
            vcpu = cores * threads * inv["ratio"]
            assert vcpu == pytest.approx(oa.value * cores, rel=1e-12)
            continue
        assert (rel, "compute.cpu_shared_set") in manifest, "the shared set maps back to the over-allocation"
        assert not ded & shared
        assert len(ded) == rt_vcpus  # one PCPU per real-time vCPU, none for emulator threads
        vcpu = len(shared) * inv["ratio"]
        assert vcpu == pytest.approx(oa.value * (cores - len(ded)), rel=1e-12), (rel, len(shared), inv["ratio"])
        # the real-time cores' sibling threads run nothing
        siblings = {c + t * cores for c in ded for t in range(1, threads)}
        assert not siblings & shared
    flavors = parse_flavor_commands(ex.files["openstack/flavors.sh"])
    for flavor in flavors.values():
        if flavor["extra_specs"].get("hw:cpu_policy") == "dedicated":
            assert flavor["extra_specs"]["hw:emulator_threads_policy"] == "share"


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda p: p.name)
def test_libvirt_defines_every_real_time_vm_on_cores_of_its_own(advice_of, scenario):
    """One complete domain per real-time VM, each with its own name and its own vcpupin cores
    (the cores Xen's create-vms.sh and Proxmox's --affinity give the same VM)."""
    advice = advice_of(scenario)
    ex = export_config(advice, "libvirt")
    rt_vms = {vm: g for g in ex.plan.realtime_groups() if g.rt_cpus and g.realtime.period_us for vm in g.vm_names()}
    if not rt_vms:
        pytest.skip("no real-time VMs")
    pins: dict[str, set[int]] = {}
    for rel, text in ex.files.items():
        if not rel.endswith("domain.xml"):
            continue
        root = ET.fromstring(text)
        cpus = {c for el in root.findall("cputune/vcpupin") for c in _cpuset(el.get("cpuset"))}
        if cpus:
            name = root.findtext("name")
            assert name not in pins, f"{name} defined twice"
            pins[name] = cpus
    assert set(pins) == set(rt_vms)
    flat = [c for cpus in pins.values() for c in cpus]
    assert len(flat) == len(set(flat)), f"two real-time VMs pinned to one core: {pins}"
    xen = export_config(advice, "xen")
    for vm, g in rt_vms.items():
        assert pins[vm] == set(g.vm_cpus(g.vm_names().index(vm)))
        assert f"name=\"{vm}\"" in xen.files["xen/create-vms.sh"] or f"name='\"{vm}\"'" in xen.files["xen/create-vms.sh"]


def test_a_period_below_one_millisecond_gets_no_cfs_limit_anywhere(advice_of):
    """rt_control_loops.json's task set (a 500 us loop) gives T_VM < 1 ms, which CFS bandwidth
    control cannot express: no target writes a CFS limit for it (Proxmox's --cpulimit would run over
    a 100 ms period and throttle the VM for tens of ms), the VM keeps its pinned core, and each
    manifest warns."""
    import copy
    import json

    import yaml

    from tests.advisor.examples import EXAMPLES

    sc = copy.deepcopy(yaml.safe_load((EXAMPLES / "scenario.yaml").read_text()))
    loops = json.loads((EXAMPLES / "rt_control_loops.json").read_text())
    rt = sc["workloads"][3]["realtime"]
    rt.pop("design_speed_ghz")
    rt["overhead"] = 0.01
    assert loops["tasks"][0]["period"] == "500us" and loops["tasks"][0]["wcet"] == "40us"
    rt["tasks"] = [{**t, "period": 0.5, "wcet": 0.04} if t["period"] == "500us" else t for t in loops["tasks"]]
    advice = advice_of(sc)
    rec = advice.find("vm_period_budget", "workload:rtfunc")
    assert rec.value * 1000 < 1000 and not rec.details.get("dedicated_core"), rec.value
    for target in TARGETS:
        ex = export_config(advice, target)
        settings = [v.setting for v in ex.values if v.scope == "workload:rtfunc"]
        if target == "xen":  # RTDS takes periods down to 10 us
            assert any(s.endswith(" -p") for s in settings)
            continue
        assert not [s for s in settings if "cpulimit" in s or "period" in s or s.endswith(("quota", "cpu.max quota"))], \
            (target, settings)
        assert any("below the shortest CFS period" in n for n in ex.manifest()["notes"]), target
        pinned = [s for s in settings if "affinity" in s or "vcpupin" in s or "cpu_dedicated_set" in s]
        assert pinned, (target, settings)
    px = export_config(advice, "proxmox")
    script = px.files["proxmox/create-vms.sh"]
    assert "--cpulimit" not in [w for line in script.splitlines() if "1301" in line for w in line.split()]
    assert "qm set 1301 --affinity 1 --cpuunits 10000" in script and "--hookscript" not in script
    assert "throttle" in " ".join(px.notes)
    assert not [f for f in px.files if "snippets" in f]


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda p: p.name)
def test_the_export_states_the_advice_basis(advice_of, scenario):
    """The basis each export names is the advice's own (e.g. "scenario hardware (per-kind
    defaults)"), not the site calibration's ("documents" without a site)."""
    advice = advice_of(scenario)
    for target in TARGETS:
        ex = export_config(advice, target)
        assert ex.manifest()["basis"] == advice.basis
        readme = next(t for f, t in ex.files.items() if f.endswith("README.md"))
        assert f"(figures' basis: {advice.basis})" in readme


def test_notes_are_not_repeated(advice_of):
    """A VM-level problem met in several files of one target is noted once."""
    from advisor.export.base import Notes

    notes = Notes()
    notes.append("a")
    notes.append("a")
    notes.append("b")
    assert notes == ["a", "b"]
    for target in TARGETS:
        ex = export_config(advice_of(EXAMPLES_DIR / "scenario.yaml"), target)
        assert len(ex.notes) == len(set(ex.notes))
