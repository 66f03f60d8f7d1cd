"""The probes on this machine, compared with what the system's own tools say
(nproc, /proc/meminfo, lsblk, ip link, systemd-detect-virt); a comparison is skipped only if
its tool is absent."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from advisor.probes.facts import UNKNOWN
from advisor.probes.linux import LinuxProbe
from advisor.probes.portable import PsutilProbe

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux probe")


@pytest.fixture(scope="module")
def facts():
    return LinuxProbe().probe()


def _tool(*cmd: str) -> str:
    if shutil.which(cmd[0]) is None:
        pytest.skip(f"{cmd[0]} is not installed")
    return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout


def _meminfo_kib(key: str) -> int:
    with open("/proc/meminfo") as fh:
        for line in fh:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    raise AssertionError(f"{key} not in /proc/meminfo")


def test_threads_match_the_online_cpus(facts):
    assert facts.cpu.threads == os.cpu_count()
    nproc_all = int(_tool("nproc", "--all").strip())
    assert facts.cpu.threads <= nproc_all
    assert int(_tool("nproc").strip()) <= facts.cpu.threads  # nproc honours the affinity mask


def test_topology_is_consistent(facts):
    cpu = facts.cpu
    assert cpu.sockets * cpu.cores_per_socket == cpu.cores
    assert cpu.cores * cpu.threads_per_core == cpu.threads
    assert cpu.virtualization in ("vmx", "svm", "none", UNKNOWN)


def test_memory_total_matches_proc_meminfo(facts):
    assert facts.memory.total_bytes == _meminfo_kib("MemTotal") * 1024
    assert 0 < facts.memory.available_bytes <= facts.memory.total_bytes


def test_disks_match_lsblk(facts):
    listed = json.loads(_tool("lsblk", "-b", "-d", "-o", "NAME,SIZE,ROTA", "-J"))["blockdevices"]
    probed = {d.name: d for d in facts.disks}
    for dev in listed:
        assert dev["name"] in probed, f"lsblk lists {dev['name']}, the probe does not"
        disk = probed[dev["name"]]
        assert disk.size_bytes == int(dev["size"])
        assert disk.rotational == (dev["rota"] in (True, 1, "1"))
    extra = set(probed) - {d["name"] for d in listed}
    assert all(probed[name].size_bytes in (0, UNKNOWN) for name in extra), extra


def test_nics_match_ip_link(facts):
    links = json.loads(_tool("ip", "-j", "link"))
    assert {link["ifname"] for link in links} == {n.name for n in facts.nics}
    for link in links:
        nic = facts.nic(link["ifname"])
        flags = set(link.get("flags", []))
        state = link.get("operstate", "UNKNOWN")
        assert nic.admin_up == ("UP" in flags), link["ifname"]
        assert nic.up == (state == "UP" or (state == "UNKNOWN" and {"UP", "LOWER_UP"} <= flags)), link["ifname"]
        if "address" in link and nic.mac != UNKNOWN:
            assert nic.mac == link["address"]
        assert nic.speed_mbps == UNKNOWN or nic.speed_mbps > 0


def test_virtualization_matches_systemd_detect_virt(facts):
    exe = shutil.which("systemd-detect-virt")
    if exe is None:
        pytest.skip("systemd-detect-virt is not installed")
    vm = subprocess.run([exe, "--vm"], capture_output=True, text=True).stdout.strip()
    assert facts.is_virtual_machine == (vm != "none")
    if vm != "none":
        assert facts.hypervisor == vm
    container = subprocess.run([exe, "--container"], capture_output=True, text=True).stdout.strip()
    if container != "none":
        assert facts.is_container is True and facts.container == container


def test_kvm_available_matches_dev_kvm(facts):
    assert facts.kvm_available == (os.path.exists("/dev/kvm") and os.access("/dev/kvm", os.R_OK | os.W_OK))


def test_every_fact_of_the_interface_has_a_source_or_a_reason(facts):
    data = facts.to_dict()
    for key in ("model", "sockets", "cores", "threads", "virtualization", "governor"):
        assert f"cpu.{key}" in data["sources"] or f"cpu.{key}" in data["unknown"]
    for key in ("total_bytes", "available_bytes"):
        assert f"memory.{key}" in data["sources"]
    for nic in facts.nics:
        assert f"nics.{nic.name}.speed_mbps" in data["sources"] or f"nics.{nic.name}.speed_mbps" in data["unknown"]
    assert "kvm_available" in data["sources"] and "is_virtual_machine" in data["sources"]
    json.dumps(data)


def test_root_mount_is_listed_with_sizes(facts):
    root = next(m for m in facts.mounts if m.mountpoint == "/")
    st = os.statvfs("/")
    assert root.size_bytes == st.f_blocks * st.f_frsize


def test_portable_probe_agrees_on_counts_and_memory(facts):
    portable = PsutilProbe().probe()
    assert portable.cpu.threads == facts.cpu.threads
    assert portable.memory.total_bytes == facts.memory.total_bytes
    assert {n.name for n in portable.nics} == {n.name for n in facts.nics}
    assert portable.hypervisor == UNKNOWN and "cannot tell" in portable.unknown["hypervisor"]
    assert any(m.mountpoint == "/" for m in portable.mounts)
