"""VM and container detection from fake trees (systemd-detect-virt is only asked on "/")."""

from __future__ import annotations

import pytest

from advisor.probes.facts import UNKNOWN, FactLog, HostFacts
from advisor.probes.sysfs import FsRoot
from advisor.probes.virt import detect_virtualization
from tests.advisor.probes import fake_host

X86_FLAGS = "processor\t: 0\nflags\t\t: fpu vme sse2 {extra}\n"


def detect(root, files: dict[str, str]):
    for path, text in files.items():
        fake_host.write(root, path, text)
    facts, log = HostFacts(probe="test", platform="linux"), FactLog()
    detect_virtualization(FsRoot(root), log, facts)
    return log.attach(facts)


@pytest.mark.parametrize(("files", "hypervisor"), [
    ({"/sys/class/dmi/id/sys_vendor": "VMware, Inc.\n"}, "vmware"),
    ({"/sys/class/dmi/id/sys_vendor": "innotek GmbH\n", "/sys/class/dmi/id/product_name": "VirtualBox"},
     "oracle"),
    ({"/sys/class/dmi/id/sys_vendor": "Microsoft Corporation\n",
      "/sys/class/dmi/id/product_name": "Virtual Machine\n"}, "microsoft"),
    ({"/sys/hypervisor/type": "xen\n"}, "xen"),
    ({"/sys/class/dmi/id/sys_vendor": "Amazon EC2\n"}, "amazon"),
])
def test_the_hypervisor_is_named_from_dmi_or_sys_hypervisor(tmp_path, files, hypervisor):
    facts = detect(tmp_path, {"/proc/cpuinfo": X86_FLAGS.format(extra="hypervisor"), **files})
    assert facts.is_virtual_machine is True
    assert facts.hypervisor == hypervisor
    assert any("dmi" in e or "hypervisor/type" in e for e in facts.virtualization_evidence)


def test_hypervisor_flag_alone_says_vm_but_not_which(tmp_path):
    facts = detect(tmp_path, {"/proc/cpuinfo": X86_FLAGS.format(extra="hypervisor")})
    assert facts.is_virtual_machine is True
    assert facts.hypervisor == UNKNOWN and "neither DMI" in facts.unknown["hypervisor"]
    assert facts.sources["is_virtual_machine"] == "/proc/cpuinfo: hypervisor flag"


def test_bare_metal_has_no_hypervisor(tmp_path):
    facts = detect(tmp_path, {"/proc/cpuinfo": X86_FLAGS.format(extra="vmx"),
                              "/sys/class/dmi/id/sys_vendor": "Supermicro\n", "/proc/1/cgroup": "0::/\n"})
    assert (facts.is_virtual_machine, facts.hypervisor) == (False, "none")
    assert (facts.is_container, facts.container) == (False, "none")


@pytest.mark.parametrize(("files", "container"), [
    ({"/.dockerenv": ""}, "docker"),
    ({"/run/.containerenv": "engine=\"podman\"\n"}, "podman"),
    ({"/proc/1/cgroup": "12:pids:/kubepods/burstable/pod1234/abcd\n"}, "kubernetes"),
    ({"/proc/1/cgroup": "1:name=systemd:/lxc/web01\n"}, "lxc"),
])
def test_containers_are_recognised(tmp_path, files, container):
    facts = detect(tmp_path, {"/proc/cpuinfo": X86_FLAGS.format(extra=""), **files})
    assert facts.is_container is True and facts.container == container
    assert facts.virtualization_evidence


def test_wsl_is_a_hyper_v_machine(tmp_path):
    facts = detect(tmp_path, {"/proc/sys/kernel/osrelease": "5.15.153.1-microsoft-standard-WSL2\n"})
    assert (facts.is_virtual_machine, facts.hypervisor) == (True, "microsoft")


def test_nothing_readable_means_unknown_with_reasons(tmp_path):
    facts = detect(tmp_path, {})
    assert facts.is_virtual_machine == UNKNOWN and "/proc/cpuinfo" in facts.unknown["is_virtual_machine"]
    assert facts.is_container == UNKNOWN and "/proc/1/cgroup" in facts.unknown["is_container"]
