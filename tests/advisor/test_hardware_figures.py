"""Figures for the scenario's hardware (issue 23, review items 5 and 11): the host CPU of the host
count and of the over-allocation card come from one busy-core model that moves with the CPU clock
and the request load; the boot time over network storage moves with the store's own disks."""

from __future__ import annotations

import copy
import math
from pathlib import Path

import pytest

from advisor.engine import advise
from advisor.hardware import DECLARED, DEFAULTS, DOCUMENTS, TESTBEDS
from advisor.scenario import load_scenario
from tests.knowledge import conftest as _kb_fixtures

kb_path, kb = _kb_fixtures.kb_path, _kb_fixtures.kb  # fixtures: the knowledge base compiled from the data

EXAMPLE = Path(__file__).resolve().parents[2] / "resources" / "examples" / "scenario.yaml"
NETWORK = ("nfs_file", "nfs_root")  # the network backends the example offers (NFS)


def example(**changes) -> dict:
    """The shipped example with ``ghz``, ``web_rps``, ``hosts`` (fixed count), ``store_disk``
    (kind of the hosts' disks, which the NFS store is built of), ``link`` (NFS Gb/s) changed."""
    sc = copy.deepcopy(load_scenario(EXAMPLE).to_dict())
    if "ghz" in changes:
        sc["hosts"]["cpu"]["ghz"] = changes["ghz"]
    if "web_rps" in changes:
        web = next(w for w in sc["workloads"] if w["name"] == "web")
        web["request_load_rps"] = changes["web_rps"]
    if "hosts" in changes:
        sc["preferences"].setdefault("fixed", {})["host_count"] = changes["hosts"]
    if "store_disk" in changes:
        for d in sc["hosts"]["disks"]:
            d["kind"] = changes["store_disk"]
            d.pop("iops", None)
            d.pop("mb_s", None)
    if "link" in changes:
        sc["hosts"]["shared_storage"][0]["network_gbps"] = changes["link"]
    return sc


def cpu_figures(advice) -> tuple[dict, dict, dict]:
    """(host count's figures, its host_cpu_utilization, the over-allocation card's chosen one)."""
    hc = advice.find("host_count")
    over = advice.find("vcpu_overallocation")
    return hc.expected, hc.expected["host_cpu_utilization"], over.expected["host_cpu_utilization"]


# --- A: one busy-core model (review item 5) ------------------------------------------------------
def test_host_cpu_moves_with_the_clock_and_both_cards_agree(kb):
    """Identical scenarios but for hosts.cpu.ghz 1.0 / 2.1 / 4.0: the same work needs fewer host
    cores' worth at a faster clock (hosts_for_cpu_load falls in proportion for CPU-intensity
    workloads), the host CPU on a fixed number of hosts falls, and the over-allocation card shows
    the host count's figure for the same hosts."""
    load, util = {}, {}
    for ghz in (1.0, 2.1, 4.0):
        figs, hosts, over = cpu_figures(advise(example(ghz=ghz, hosts=8), kb=kb))
        load[ghz], util[ghz] = figs["hosts_for_cpu_load"]["value"], hosts["value"]
        assert over["value"] == pytest.approx(hosts["value"], rel=1e-6), ghz
        assert over["active_hosts"] == figs["active_hosts"]["value"] == 7
        assert 0.0 < hosts["low"] <= hosts["value"] <= hosts["high"] <= 100.0
        assert any(h.startswith("CPU clock: ") for h in hosts["hardware"]), hosts["hardware"]
        assert hosts["basis"] == DECLARED and over["basis"] == DECLARED
    assert load[1.0] > load[2.1] > load[4.0]
    assert util[1.0] > util[2.1] > util[4.0]
    # busy core-GHz over the clock: four times the clock, up to four times fewer busy cores (the
    # pinned real-time cores stay whole, and at 1 GHz a high-intensity vCPU is a whole core)
    assert 2.0 < load[1.0] / load[4.0] <= 4.0 + 1e-9
    sc = example(ghz=1.0, hosts=8)
    sc["workloads"] = [w for w in sc["workloads"] if w["cpu_intensity"] != "high"]  # medium and low only
    at = {g: advise({**sc, "hosts": {**sc["hosts"], "cpu": {**sc["hosts"]["cpu"], "ghz": g}}}, kb=kb)
          .find("host_count").expected["hosts_for_cpu_load"]["value"] for g in (1.0, 4.0)}
    assert at[1.0] / at[4.0] == pytest.approx(4.0, rel=1e-3)


def test_host_cpu_moves_with_the_request_load(kb):
    """The example's web VMs at 300 and at 3,000 req/s: the thesis' CPU per request makes the
    busier web tier need more host CPU (both cards, same hosts) and more hosts."""
    low = advise(example(web_rps=300, hosts=8), kb=kb)
    high = advise(example(web_rps=3000, hosts=8), kb=kb)
    lo_figs, lo, lo_over = cpu_figures(low)
    hi_figs, hi, hi_over = cpu_figures(high)
    assert hi["value"] > lo["value"] and hi_figs["hosts_for_cpu_load"]["value"] > lo_figs["hosts_for_cpu_load"]["value"]
    assert hi_over["value"] == pytest.approx(hi["value"], rel=1e-6)
    assert lo_over["value"] == pytest.approx(lo["value"], rel=1e-6)
    assert hi["high"] >= hi["value"] >= hi["low"]
    # a web VM keeps at most its two vCPUs busy, whatever its load: 40 x 2 cores on 5 x 40 at most
    assert hi_figs["hosts_for_cpu_load"]["value"] <= lo_figs["hosts_for_cpu_load"]["value"] + 40 * 2 * 1.0 / (40 * 0.66)
    free_low = int(advise(example(web_rps=300), kb=kb).find("host_count").choice)
    free_high = int(advise(example(web_rps=3000), kb=kb).find("host_count").choice)
    assert free_high > free_low


def test_host_count_grows_when_cpu_load_exceeds_the_target(kb):
    """A slower clock, or a lower max_host_cpu_pct target, asks for more hosts; the host CPU on
    the recommended hosts then stays within the target, and the over-allocation card shows it."""
    counts = {ghz: int(advise(example(ghz=ghz), kb=kb).find("host_count").choice) for ghz in (1.0, 2.1, 4.0)}
    assert counts[1.0] > counts[2.1] > counts[4.0]
    sc = example()
    sc["preferences"]["targets"] = {"max_host_cpu_pct": 45}
    advice = advise(sc, kb=kb)
    _, hosts, over = cpu_figures(advice)
    assert int(advice.find("host_count").choice) > counts[2.1]
    assert over["value"] == pytest.approx(hosts["value"], rel=1e-6)
    # the target counts the 14 points live-migration sources climb by (doc 004 c5-C4) on top
    target = next(t for t in advice.targets if t.name == "max_host_cpu_pct")
    assert target.met and target.expected == pytest.approx(hosts["value"] + 14.0, rel=1e-3) and target.expected <= 45


def test_the_thesis_level_figure_has_its_own_name_and_says_what_it_counts(kb):
    """The over-allocation card's chapter 8 figure counts the request load only (the thesis' tests):
    it is ``thesis_host_cpu``, labelled so, and still moves with the clock (cores x clock) and the load."""
    from advisor.render import to_markdown

    figs = {}
    for ghz, rps in ((2.1, 300), (4.0, 300), (2.1, 3000)):
        rec = advise(example(ghz=ghz, web_rps=rps, hosts=8), kb=kb).find("vcpu_overallocation")
        figs[(ghz, rps)] = rec.expected["thesis_host_cpu"]
    assert figs[(4.0, 300)]["value"] < figs[(2.1, 300)]["value"] < figs[(2.1, 3000)]["value"]
    note = figs[(2.1, 300)]["note"]
    assert "request load only" in note and "host_cpu_utilization" in note and "req/s per host" in note
    advice = advise(example(), kb=kb)
    md = to_markdown(advice)
    assert "request load only" in md and "the host count's figure" in md


# --- B: boot time over network storage on the store's disks (review item 11) ---------------------
def boot_times(advice) -> dict[str, dict]:
    rec = advice.find("storage_backend")
    return {r.choice: r.expected["boot_time"] for r in (rec, *rec.alternatives) if "boot_time" in r.expected}


def test_network_boot_time_moves_with_the_stores_disks(kb):
    """The example's NFS store is built of disks like the hosts' (26 of them at its 50 TB): on HDDs
    (3,900 IOPS against the 13,700 the VMs ask) the boot waits far longer than on SSDs or NVMe;
    never shorter on slower disks; the figure names the store's disks and their source."""
    boots = {kind: boot_times(advise(example(store_disk=kind), kb=kb)) for kind in ("hdd", "ssd", "nvme")}
    for b in NETWORK:
        hdd, ssd, nvme = (boots[k][b] for k in ("hdd", "ssd", "nvme"))
        assert hdd["value"] >= ssd["value"] >= nvme["value"] > 0, b
        assert hdd["value"] > 2 * ssd["value"], b
        for kind, fig in (("HDD", hdd), ("SSD", ssd), ("NVMe", nvme)):
            assert any(h.startswith(f"NFS store, 26 x {kind} disk like the hosts' (assumed)") and
                       h.endswith("(per-kind default)") for h in fig["hardware"]), fig["hardware"]
            assert any(h == "NFS store link: 10 Gb/s (declared)" for h in fig["hardware"])
            assert fig["basis"] == DEFAULTS and "TB-STORE" in fig["testbed"]
    # declared per-disk figures are the store's too, and said to be declared
    sc = example()
    sc["hosts"]["disks"][0].update(iops=300, mb_s=150)  # SSDs that deliver like HDDs
    slow = boot_times(advise(sc, kb=kb))["nfs_file"]
    assert slow["value"] > boots["ssd"]["nfs_file"]["value"]
    assert any("300 IOPS each (declared)" in h for h in slow["hardware"]) and slow["basis"] == DECLARED


def test_a_stores_stated_iops_is_its_capacity(kb):
    """A store that states its IOPS boots on them: fewer IOPS, longer boot; the figure names them."""
    times = []
    for iops in (2_000, 20_000, 2_000_000):
        sc = example()
        sc["hosts"]["shared_storage"][0]["iops"] = iops
        fig = boot_times(advise(sc, kb=kb))["nfs_root"]
        assert f"NFS store: {iops:,} IOPS (declared)" in fig["hardware"]
        times.append(fig["value"])
    assert times[0] > times[1] >= times[2]


def test_the_link_still_bounds_the_network_boot(kb):
    """The link part holds with the store's disks counted: 40 Gb/s boots no slower than 10, 10 no
    slower than 1, and an oversubscribed 1 Gb/s link lengthens the boot beyond the idle boot."""
    boots = {g: boot_times(advise(example(link=g), kb=kb)) for g in (1, 10, 40)}
    for b in NETWORK:
        assert boots[1][b]["value"] >= boots[10][b]["value"] >= boots[40][b]["value"], b
    idle = advise(example(link=1), kb=kb).find("storage_backend")
    slow = next(r for r in (idle, *idle.alternatives) if r.choice == "nfs_file").expected["boot_slowdown"]
    assert slow["value"] > 3.0 and math.isfinite(boots[1]["nfs_file"]["value"])


def test_the_transfer_is_the_identity_on_doc_002s_store(kb):
    """Doc 002's testbed states no disks for its store (a SAN): a scenario whose store states
    neither its IOPS nor its capacity gets the documents' boot times back, basis documents; the
    testbed store the ratio divides by is sixteen of the testbed's disks."""
    from advisor.models import get_family

    bed = TESTBEDS["boot_store"]
    assert (bed.document, bed.testbed, bed.disks, bed.link_gbps) == ("002", "TB-STORE", 16, 1.0)
    sc = {"version": 1, "name": "doc 002 blades",
          "hosts": {"count": 5, "reserve": 0,
                    "cpu": {"sockets": 2, "cores_per_socket": 2, "ghz": 2.4, "virtualization": "svm"},
                    "ram_gib": 8, "disks": [{"kind": "hdd", "count": 1, "size_gb": 73}], "nic_gbps": 1,
                    "shared_storage": [{"kind": "nfs", "network_gbps": 1}]},
          "workloads": [{"name": "lamp", "vms": 1, "vcpus": 1, "ram_gib": 0.25, "cpu_intensity": "low",
                         "io": {"intensity": "low"}},
                        {"name": "iozone", "vms": 16, "vcpus": 1, "ram_gib": 0.25, "cpu_intensity": "low",
                         "io": {"pattern": "sequential", "read_share": 0.0, "intensity": "high",
                                "block_size_kib": 4}}]}
    fig = boot_times(advise(sc, kb=kb))["nfs_root"]
    fam = get_family("boot_time", kb)
    want = fam.predict([{"storage_backend": "nfs_root", "concurrent_vms": 16.0, "neighbour_load": "io"}]).mean[0]
    assert fig["value"] == pytest.approx(want, rel=1e-4) and fig["basis"] == DOCUMENTS
    # the same blades with a 10 TB store of their own disks: the store's disks enter
    sc["hosts"]["shared_storage"][0]["capacity_tb"] = 10
    sized = boot_times(advise(sc, kb=kb))["nfs_root"]
    assert sized["basis"] == DEFAULTS and any("137 x HDD disk" in h for h in sized["hardware"])


def test_the_boot_chart_reads_the_stores_disks_as_the_card_does(kb):
    """The boot-time chart's I/O-loaded NFS-root curve is drawn on the scenario's store: on HDDs it
    lies above the SSD store's where the neighbours load the store (16 VMs), and the caption says so."""
    from advisor.figures.charts import safe_chart
    from advisor.recommend.catalog import choice_label

    tops = {}
    for kind in ("hdd", "ssd"):
        sc = example(store_disk=kind)
        advice = advise(sc, kb=kb)
        spec = safe_chart("boot_time", kb, advice.scenario, advice, {})
        nfs_root = choice_label("storage_backend", "nfs_root")  # the legend names options as the cards do
        curve = next(c for c in spec.curves if c.name == nfs_root)
        tops[kind] = float(curve.mean[-1])
        assert "Store disks" in spec.caption and "the testbed's store" in spec.caption
        assert advice.find("storage_backend").details["store_speedup"]["nfs_root"] > 0
    assert tops["hdd"] > tops["ssd"]
