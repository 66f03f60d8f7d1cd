"""A workload given as totals is exported as the VMs it was sized as (advisor.scenario.totals):
growth.yaml's erp (400 vCPUs, 2,048 GiB, 20 TB) is 128 VMs, 16 of 4 vCPUs and 112 of 3. Every
target's files, read as the platform reads them, provision exactly the sized vCPUs and RAM (and
libvirt's disks the sized bytes): before, every VM had the largest shape (512 vCPUs for 400)."""

from __future__ import annotations

import re
import shlex

import pytest

from advisor.export import export_config
from tests.advisor.examples import EXAMPLES

GROWTH = EXAMPLES / "growth.yaml"
pytestmark = pytest.mark.timeout(300)


def _libvirt(files: dict[str, str]) -> dict[str, list[tuple[int, int, int]]]:
    """Workload -> (vCPUs, RAM KiB, disk bytes) per VM: each group's domain.xml once per VM its
    header counts."""
    out: dict[str, list[tuple[int, int, int]]] = {}
    for path, text in files.items():
        if not path.endswith("/domain.xml"):
            continue
        n = int(re.search(r"for workload group .*?\((\d+) VMs?\)", text)[1])
        vcpus = int(re.search(r"<vcpu placement='static'>(\d+)</vcpu>", text)[1])
        ram = int(re.search(r"<memory unit='KiB'>(\d+)</memory>", text)[1])
        disk = int(re.search(r"a logical volume of (\d+) bytes", text)[1])
        name = re.search(r"<name>(.*)-\d+</name>", text)[1]
        out.setdefault(name, []).extend([(vcpus, ram, disk)] * n)
    return out


def _xen(files: dict[str, str]) -> dict[str, list[tuple[int, int]]]:
    """Workload -> (vCPUs, memory MiB) per VM: each ``xl create`` of create-vms.sh with its cfg."""
    out: dict[str, list[tuple[int, int]]] = {}
    for line in files["xen/create-vms.sh"].splitlines():
        if line.startswith("xl create "):
            args = shlex.split(line)
            cfg = files[args[2]]
            name = re.search(r'name="(.*)-\d+"', args[3])[1]
            out.setdefault(name, []).append((int(re.search(r"^vcpus = (\d+)$", cfg, re.M)[1]),
                                             int(re.search(r"^memory = (\d+)$", cfg, re.M)[1])))
    return out


def _proxmox(files: dict[str, str]) -> dict[str, list[tuple[int, int, int]]]:
    """Workload -> (cores, memory MiB, disk GiB) per VM: each call of a create_<group> function."""
    text = files["proxmox/create-vms.sh"]
    shapes = {m[1]: (int(m[3]), int(m[2]), int(m[4])) for m in re.finditer(
        r"^(create_\w+)\(\) \{.*\n  qm create .*--memory (\d+) .*--cores (\d+) .*--scsi0 '?[\w-]+:(\d+),", text,
        re.M)}
    out: dict[str, list[tuple[int, int]]] = {}
    for m in re.finditer(r"^(create_\w+) \d+ (\S+)-\d+$", text, re.M):
        out.setdefault(m[2], []).append(shapes[m[1]])
    return out


def _openstack(files: dict[str, str]) -> dict[str, list[tuple[int, int, int]]]:
    """Workload -> (vCPUs, RAM MiB, root disk GiB) per VM: each flavor of flavors.sh times the VMs
    the README's group table gives it (the flavors are listed in the table's order)."""
    flavors = [(int(m[1]), int(m[2]), int(m[3])) for m in re.finditer(
        r"^openstack flavor create --vcpus (\d+) --ram (\d+) --disk (\d+) ", files["openstack/flavors.sh"], re.M)]
    rows = [(r[1].split(",")[0], int(r[2])) for r in re.finditer(
        r"^\| ([^|]+?) \| (\d+) \| \d+ \|", files["openstack/README.md"], re.M)]
    out: dict[str, list[tuple[int, int]]] = {}
    for (name, n), shape in zip(rows, flavors, strict=True):
        out.setdefault(name, []).extend([shape] * n)
    return out


READERS = {"libvirt": _libvirt, "xen": _xen, "proxmox": _proxmox, "openstack": _openstack}


@pytest.mark.parametrize("target", READERS)
def test_exported_vms_provision_exactly_the_sized_totals(advice_of, target):
    advice = advice_of(GROWTH)
    erp = next(w for w in advice.scenario.workloads if w.name == "erp")
    assert (erp.vms, erp.vcpus, erp.fewer_vcpu_vms, erp.all_vcpus) == (128, 4, 112, 400)  # the sizing
    vms = READERS[target](export_config(advice, target).files)["erp"]
    assert len(vms) == 128
    assert sum(v[0] for v in vms) == erp.total_vcpus == 400  # before: 512
    ram_unit = 1024 * 1024 if target == "libvirt" else 1024  # KiB or MiB a GiB
    assert sum(v[1] for v in vms) == erp.total_ram_gib * ram_unit
    if target == "libvirt":
        assert sum(v[2] for v in vms) == erp.total_storage_tb * 10**12
    web = READERS[target](export_config(advice, target).files)["web"]
    assert len(web) == 60 and {v[0] for v in web} == {2}  # a workload of one shape stays one group


@pytest.mark.parametrize("target", ["proxmox", "openstack"])
def test_whole_gib_disks_add_up_to_the_storage_total(advice_of, target):
    """Proxmox and OpenStack size disks in whole GiB: erp's 20 TB (18,626.45 GiB) spread over its
    128 VMs, 67 of 146 GiB and 61 of 145, add up to the total less than 1 GiB over (before: every
    VM rounded up to 146 GiB, 18,688 GiB, 61.5 GiB over). web's VMs, each sized by itself (40 GB),
    keep their size rounded up (38 GiB)."""
    advice = advice_of(GROWTH)
    files = export_config(advice, target).files
    vms = READERS[target](files)
    erp = vms["erp"]
    sized = 20 * 10**12  # bytes of erp's total_storage_tb
    total = sum(v[2] for v in erp) * 2**30
    assert len(erp) == 128 and sized <= total < sized + 2**30
    assert {v[2] for v in erp} == {145, 146}
    assert sorted(v[:2] for v in erp) == sorted(v[:2] for v in _xen(export_config(advice, "xen").files)["erp"])
    assert {v[2] for v in vms["web"]} == {38}  # 40 GB = 37.25 GiB, never less than the VM asks
