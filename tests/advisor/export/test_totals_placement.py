"""The host count places a totals workload's VMs at their own sizes (growth.yaml's erp: 16 VMs of 4
vCPUs and 112 of 3), not every VM at the average 3.125 vCPUs: the advice's placement names each
host's VMs per shape (``vm_shapes``), the exports put each VM on the host that placement gives its
shape, and the vCPUs each host gets add up from the VMs placed there. Under placement constraints
(replicas over failure domains) the caps count a workload's VMs of every shape together."""

from __future__ import annotations

import math
import re
from collections import Counter

import pytest
import yaml

from advisor.export import export_config
from tests.advisor.examples import EXAMPLES

pytestmark = pytest.mark.timeout(300)


def _growth(**erp) -> dict:
    data = yaml.safe_load((EXAMPLES / "growth.yaml").read_text(encoding="utf-8"))
    data["workloads"][0].update(erp)
    return data


def _constrained() -> dict:
    """growth.yaml with erp's replicas (3) over three failure domains, one host failure to survive."""
    data = _growth(replication_factor=3)
    data["hosts"]["failure_domains"] = [{"name": "a", "hosts": 4}, {"name": "b", "hosts": 3},
                                        {"name": "c", "hosts": 3}]
    data["preferences"] = {"survive": {"hosts": 1}}
    return data


def _host_count(advice) -> dict:
    return advice.find("host_count").details


@pytest.mark.parametrize("order", ["dominant", "balanced"])
def test_the_packing_places_each_vm_shape_at_its_size(advice_of, order):
    """The first fit's placement, and the VMs spread over the hosts a throughput target adds."""
    data = _growth()
    if order == "balanced":
        data["preferences"] = {"targets": {"min_throughput_mb_s": 400}}
    details = _host_count(advice_of(data))
    assert details["packing_order"] == order
    groups = details["placement"]
    shapes: Counter = Counter()
    for g in groups:
        split = g["vm_shapes"]["erp"]  # before: no split, 39 erp VMs of 3.125 vCPUs a host
        assert sum(n for n, _ in split) == g["vms"]["erp"]
        for n, v in split:
            shapes[v] += n * g["hosts"]
        # the host's allocation, from the VMs placed there, within its cores at the advised 4 per core
        vcpus = sum(n * v for n, v in split) + 2 * g["vms"].get("web", 0)
        assert vcpus / 4 <= 64
    assert shapes == {4: 16, 3: 112}


def _libvirt_hosts(files: dict[str, str]) -> dict[str, Counter]:
    """Host -> vCPUs a VM -> VMs, as the libvirt export defines the domains on each host: every
    ``virsh define`` of hosts/<host>/define.sh read with its group's domain.xml."""
    vcpus = {path.split("/")[1]: int(re.search(r"<vcpu placement='static'>(\d+)</vcpu>", text)[1])
             for path, text in files.items() if path.endswith("/domain.xml") and path.count("/") == 2}
    out: dict[str, Counter] = {}
    for path, text in files.items():
        if path.startswith("libvirt/hosts/") and path.endswith("/define.sh"):
            host = path.split("/")[2]
            groups = re.findall(r"libvirt/([\w-]+)/domain\.xml", text)
            out[host] = Counter(vcpus[g] for g in groups)
    return out


def test_exported_vms_land_where_their_shape_was_placed(advice_of):
    advice = advice_of(_constrained())
    by_host = _host_count(advice)["placement_by_host"]
    exported = _libvirt_hosts(export_config(advice, "libvirt").files)
    placed_vcpus, exported_vcpus = 0, 0
    for h in by_host:
        want = Counter({v: n for n, v in h["vm_shapes"]["erp"]}) + Counter({2: h["vms"].get("web", 0)})
        got = exported[h["host"]]
        assert got == want, h["host"]  # per host: the VMs of each size the placement put there
        placed_vcpus += sum(n * v for v, n in want.items())
        exported_vcpus += sum(n * v for v, n in got.items())
        assert sum(n * v for v, n in got.items()) <= 256  # the host's vCPU limit (4 per core x 64 cores)
    assert placed_vcpus == exported_vcpus == 400 + 60 * 2
    every = sum(exported.values(), Counter())
    assert every == {4: 16, 3: 112, 2: 60}


@pytest.mark.parametrize(("factor", "domains"), [(4, False), (3, True)])
def test_the_replica_caps_count_every_shape_of_a_workload(advice_of, factor, domains):
    data = _constrained() if domains else _growth(replication_factor=factor)
    advice = advice_of(data)
    by_host = _host_count(advice)["placement_by_host"]
    cap = math.ceil(128 / factor)  # at most 1/factor of erp's VMs on a host (and in a domain)
    per_domain: Counter = Counter()
    for h in by_host:
        assert sum(n for n, _ in h["vm_shapes"]["erp"]) == h["vms"]["erp"] <= cap
        per_domain[h["domain"]] += h["vms"]["erp"]
    assert max(per_domain.values()) <= cap or not domains
    assert sum(per_domain.values()) == 128
    assert any(len(h["vm_shapes"]["erp"]) == 2 for h in by_host)  # both shapes share a host under one cap


def test_a_shape_no_host_holds_is_named_by_its_workload_once(advice_of):
    data = _growth()
    data["hosts"]["ram_gib"] = 17  # 15.99 GiB for guests: neither of erp's VM sizes (16.32 GiB) fits
    rec = advice_of(data).find("host_count")
    assert rec.choice == "infeasible"
    assert rec.details["unplaced"] == {"erp": ["ram"]}
    assert [p for p in rec.details["infeasible"] if "'erp'" in p] == [
        "one VM of workload 'erp' does not fit on any host, whatever the host count: RAM (guest RAM + 2 % overhead) "
        "16.32 GiB against 15.99 GiB per host (host RAM less the hypervisor's 0.5 GiB + 3 %)"]
