"""The Linux probe on fake /proc and /sys trees: every fact, its source, and "unknown" with a
reason (never an exception) when entries are missing or unreadable."""

from __future__ import annotations

import json
import shutil

import pytest

from advisor.probes.facts import UNKNOWN
from advisor.probes.linux import LinuxProbe
from advisor.progress import Cancelled, CancelToken
from tests.advisor.probes import fake_host


@pytest.fixture()
def server_root(tmp_path):
    return fake_host.server(tmp_path / "root")


def test_cpu_topology_frequencies_and_governor(server_root):
    facts = LinuxProbe(root=server_root).probe()
    cpu = facts.cpu
    assert cpu.model == "Intel(R) Xeon(R) Gold 6230 CPU @ 2.10GHz"
    assert (cpu.sockets, cpu.cores, cpu.threads) == (2, 4, 8)
    assert (cpu.cores_per_socket, cpu.threads_per_core) == (2, 2)
    assert (cpu.base_mhz, cpu.max_mhz, cpu.current_mhz) == (2100.0, 3900.0, 2800.123)
    assert cpu.virtualization == "vmx"
    assert cpu.governor == "performance"
    assert cpu.numa_nodes == 2
    assert facts.sources["cpu.governor"].endswith("cpufreq/scaling_governor")
    assert facts.sources["cpu.sockets"].startswith("/sys/devices/system/cpu/cpu*/topology")
    assert facts.hostname == "rack12-node3"


def test_memory_and_hugepages_in_bytes(server_root):
    mem = LinuxProbe(root=server_root).probe().memory
    assert mem.total_bytes == 401408000 * 1024
    assert mem.available_bytes == 350000000 * 1024
    assert (mem.hugepages_total, mem.hugepages_free, mem.hugepage_size_bytes) == (512, 500, 2048 * 1024)


def test_disks_kind_rotational_and_how_sure(server_root):
    facts = LinuxProbe(root=server_root).probe()
    assert [d.name for d in facts.disks] == ["md0", "nvme0n1", "sda", "sdb", "sdc"]  # no loop0, ram0
    sda, nvme, md0, raid = facts.disk("sda"), facts.disk("nvme0n1"), facts.disk("md0"), facts.disk("sdc")
    assert (sda.size_bytes, sda.kind, sda.rotational, sda.rotational_confidence) == (
        7814037168 * 512, "hdd", True, "high")
    assert sda.model == "ATA ST4000NM0035-1V4" and sda.scheduler == "mq-deadline"
    assert (nvme.kind, nvme.rotational, nvme.rotational_confidence, nvme.transport) == (
        "nvme", False, "high", "nvme")
    assert nvme.scheduler == "none"
    assert (md0.transport, md0.rotational_confidence) == ("md", "medium") and "member" in md0.rotational_reason
    assert md0.scheduler == UNKNOWN and "scheduler" in facts.unknown["disks.md0.scheduler"]
    assert (raid.kind, raid.rotational_confidence) == ("ssd", "low") and "RAID" in raid.rotational_reason
    assert facts.sources["disks.sda.rotational"] == "/sys/block/sda/queue/rotational"


def test_mounts_keep_data_file_systems(server_root):
    facts = LinuxProbe(root=server_root).probe()
    assert {(m.mountpoint, m.fstype) for m in facts.mounts} == {
        ("/", "ext4"), ("/var/lib/libvirt", "xfs"), ("/srv/images", "nfs4")}
    assert all(m.size_bytes == UNKNOWN for m in facts.mounts)  # statvfs only on the live system


def test_nics_speed_state_and_virtual(server_root):
    facts = LinuxProbe(root=server_root).probe()
    eno1, eno2, lo = facts.nic("eno1"), facts.nic("eno2"), facts.nic("lo")
    assert (eno1.speed_mbps, eno1.up, eno1.virtual) == (10000, True, False)
    assert (eno2.speed_mbps, eno2.up) == (UNKNOWN, False)
    assert "link is down" in facts.unknown["nics.eno2.speed_mbps"]
    assert (lo.up, lo.virtual, lo.operstate) == (True, True, "unknown")  # as `ip link`: UNKNOWN + LOWER_UP


def test_bare_metal_server_is_not_a_vm_and_kvm_is_usable(server_root):
    facts = LinuxProbe(root=server_root).probe()
    assert facts.is_virtual_machine is False and facts.hypervisor == "none"
    assert facts.is_container is False and facts.container == "none"
    assert facts.kvm_available is True
    json.dumps(facts.to_dict())  # JSON-ready


def test_missing_sysfs_entries_are_unknown_with_a_reason(server_root):
    shutil.rmtree(server_root / "sys/devices/system/cpu/cpu0/cpufreq")
    (server_root / "dev/kvm").unlink()
    # an entry that cannot be read as a file (a directory where a file should be)
    size = server_root / "sys/devices/pci0000:00/0000:00:17.0/ata1/host0/target0:0:0/0:0:0:0/block/sda/size"
    size.unlink()
    size.mkdir()
    rot = server_root / "sys/devices/pci0000:00/0000:00:17.0/ata2/host1/target1:0:0/1:0:0:0/block/sdb"
    (rot / "queue/rotational").write_text("spinning?\n")
    facts = LinuxProbe(root=server_root).probe()
    assert facts.cpu.governor == UNKNOWN and "cpufreq" in facts.unknown["cpu.governor"]
    assert facts.cpu.max_mhz == UNKNOWN
    assert facts.cpu.base_mhz == 2100.0 and "model name" in facts.sources["cpu.base_mhz"]
    assert facts.disk("sda").size_bytes == UNKNOWN
    assert "cannot be read" in facts.unknown["disks.sda.size_bytes"]
    sdb = facts.disk("sdb")
    assert sdb.rotational == UNKNOWN and sdb.kind == UNKNOWN
    assert "not an integer" in facts.unknown["disks.sdb.rotational"]
    assert facts.kvm_available is False and "absent" in facts.sources["kvm_available"]


def test_an_empty_root_gives_unknowns_not_exceptions(tmp_path):
    facts = LinuxProbe(root=tmp_path).probe()
    for key in ("model", "sockets", "cores", "threads", "virtualization", "governor"):
        assert getattr(facts.cpu, key) == UNKNOWN
        assert f"cpu.{key}" in facts.unknown
    assert facts.memory.total_bytes == UNKNOWN and "/proc/meminfo" in facts.unknown["memory.total_bytes"]
    assert facts.disks == [] and facts.nics == [] and facts.mounts == []
    assert {"disks", "nics", "mounts"} <= set(facts.unknown)
    assert facts.is_virtual_machine == UNKNOWN and facts.is_container == UNKNOWN
    json.dumps(facts.to_dict())


def test_cpuinfo_fallback_without_sys_topology(server_root):
    shutil.rmtree(server_root / "sys/devices/system/cpu")
    cpu = LinuxProbe(root=server_root).probe().cpu
    assert (cpu.sockets, cpu.cores, cpu.threads) == (2, 4, 8)
    assert cpu.model.startswith("Intel")


def test_virtio_disk_and_nic_in_a_vm(tmp_path):
    root = tmp_path / "vm"
    fake_host.write(root, "/proc/cpuinfo", fake_host.CPUINFO_BLOCK.format(n=0, pkg=0, core=0)
                    .replace("vmx", "hypervisor"))
    fake_host.block(root, "vda", "/sys/devices/pci0000:00/0000:00:04.0/virtio2", 41943040, 1,
                    dev="252:0")
    fake_host.nic(root, "eth0", "/sys/devices/pci0000:00/0000:00:03.0/virtio1", "up", "0x1003", "1", "-1")
    fake_host.write(root, "/sys/class/dmi/id/sys_vendor", "QEMU\n")
    fake_host.write(root, "/sys/class/dmi/id/product_name", "Standard PC (Q35 + ICH9, 2009)\n")
    facts = LinuxProbe(root=root).probe()
    vda = facts.disk("vda")
    assert (vda.transport, vda.kind, vda.rotational_confidence) == ("virtio", "hdd", "low")
    assert "hypervisor" in vda.rotational_reason
    assert facts.nic("eth0").speed_mbps == UNKNOWN
    assert "no link speed" in facts.unknown["nics.eth0.speed_mbps"]
    assert facts.is_virtual_machine is True and facts.hypervisor == "qemu"
    assert facts.cpu.virtualization == "none"


def test_progress_is_reported_and_cancel_stops(server_root):
    seen = []
    LinuxProbe(root=server_root).probe(progress=lambda f, m: seen.append((f, m)))
    fractions = [f for f, _ in seen]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0 and len(seen) >= 5
    token = CancelToken()
    token.cancel()
    with pytest.raises(Cancelled):
        LinuxProbe(root=server_root).probe(cancel=token)
