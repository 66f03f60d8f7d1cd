"""Is this machine a virtual machine or a container, and under which hypervisor?

Evidence, strongest first: ``systemd-detect-virt`` (live system only), /sys/hypervisor/type,
the DMI strings in /sys/class/dmi/id, the ``hypervisor`` CPU flag, and for containers
/.dockerenv, /run/.containerenv and /proc/1/cgroup. Every piece found is listed in
``HostFacts.virtualization_evidence``.
"""

from __future__ import annotations

import shutil
import subprocess

from advisor.probes.facts import UNKNOWN, FactLog, HostFacts
from advisor.probes.sysfs import FsRoot

#: DMI vendor/product substrings -> hypervisor name (systemd-detect-virt's vocabulary)
DMI_HYPERVISORS = (("KVM", "kvm"), ("QEMU", "qemu"), ("VMware", "vmware"), ("VirtualBox", "oracle"),
                   ("innotek", "oracle"), ("Xen", "xen"), ("Microsoft Corporation Virtual Machine", "microsoft"),
                   ("Parallels", "parallels"), ("Bochs", "bochs"), ("Amazon EC2", "amazon"),
                   ("Google Compute Engine", "google"), ("OpenStack", "kvm"), ("BHYVE", "bhyve"),
                   ("Apple Virtualization", "apple"))
CGROUP_CONTAINERS = (("kubepods", "kubernetes"), ("docker", "docker"), ("libpod", "podman"),
                     ("lxc", "lxc"), ("containerd", "containerd"), ("machine.slice/machine-", "systemd-nspawn"))


def _detect_virt(option: str) -> str | None:
    """``systemd-detect-virt --vm|--container`` output ("none" when not virtualized), or None
    when the tool is absent or failed."""
    exe = shutil.which("systemd-detect-virt")
    if not exe:
        return None
    try:
        out = subprocess.run([exe, option], capture_output=True, text=True, timeout=2)
    except (OSError, subprocess.SubprocessError):
        return None
    text = out.stdout.strip()
    return text if text else None


def _dmi_hypervisor(fs: FsRoot) -> tuple[str | None, str]:
    texts = []
    for name in ("sys_vendor", "product_name", "bios_vendor", "board_vendor"):
        text, _ = fs.read(f"/sys/class/dmi/id/{name}")
        if text:
            texts.append(text)
    joined = " ".join(texts)
    for needle, hv in DMI_HYPERVISORS:
        if needle.lower() in joined.lower():
            return hv, f"/sys/class/dmi/id: {joined!r}"
    return None, joined


def detect_virtualization(fs: FsRoot, log: FactLog, facts: HostFacts) -> None:
    """Fill ``facts.is_virtual_machine``, ``hypervisor``, ``is_container``, ``container`` and
    ``virtualization_evidence``."""
    evidence = facts.virtualization_evidence
    vm_tool = _detect_virt("--vm") if fs.is_real else None
    ct_tool = _detect_virt("--container") if fs.is_real else None
    if vm_tool:
        evidence.append(f"systemd-detect-virt --vm: {vm_tool}")
    if ct_tool:
        evidence.append(f"systemd-detect-virt --container: {ct_tool}")

    xen, _ = fs.read("/sys/hypervisor/type")
    if xen:
        evidence.append(f"/sys/hypervisor/type: {xen}")
    dmi_hv, dmi_text = _dmi_hypervisor(fs)
    if dmi_hv:
        evidence.append(f"{dmi_text} -> {dmi_hv}")
    cpuinfo, cpu_reason = fs.read("/proc/cpuinfo")
    flags = next((line for line in (cpuinfo or "").splitlines() if line.startswith("flags")), "")
    hv_flag = " hypervisor" in f" {flags.partition(':')[2]} "
    if hv_flag:
        evidence.append("/proc/cpuinfo: hypervisor flag")
    osrelease, _ = fs.read("/proc/sys/kernel/osrelease")
    wsl = bool(osrelease and "microsoft" in osrelease.lower())
    if wsl:
        evidence.append(f"/proc/sys/kernel/osrelease: {osrelease} (WSL)")

    if vm_tool and vm_tool != "none":
        facts.is_virtual_machine = log.found("is_virtual_machine", "systemd-detect-virt --vm", True)
        facts.hypervisor = log.found("hypervisor", "systemd-detect-virt --vm", vm_tool)
    elif xen or dmi_hv or hv_flag or wsl:
        source = ("/sys/hypervisor/type" if xen else "/sys/class/dmi/id" if dmi_hv
                  else "/proc/sys/kernel/osrelease" if wsl else "/proc/cpuinfo: hypervisor flag")
        facts.is_virtual_machine = log.found("is_virtual_machine", source, True)
        name = xen or dmi_hv or ("microsoft" if wsl else None)
        if name:
            facts.hypervisor = log.found("hypervisor", source, name)
        else:
            log.missing("hypervisor", "the CPU says a hypervisor runs, but neither DMI nor "
                                      "systemd-detect-virt names it")
    elif vm_tool == "none" or (cpuinfo is not None and flags):
        source = "systemd-detect-virt --vm" if vm_tool else "/proc/cpuinfo (no hypervisor flag), DMI"
        facts.is_virtual_machine = log.found("is_virtual_machine", source, False)
        facts.hypervisor = log.found("hypervisor", source, "none")
    else:
        why = cpu_reason or "/proc/cpuinfo has no flags line (not x86)"
        log.missing("is_virtual_machine", f"{why}; no DMI vendor and no systemd-detect-virt")
        log.missing("hypervisor", "not a detectable virtual machine")

    container = ct_tool if ct_tool and ct_tool != "none" else None
    source = "systemd-detect-virt --container" if container else ""
    if fs.exists("/.dockerenv"):
        evidence.append("/.dockerenv exists")
        container, source = container or "docker", source or "/.dockerenv"
    if fs.exists("/run/.containerenv"):
        evidence.append("/run/.containerenv exists")
        container, source = container or "podman", source or "/run/.containerenv"
    cgroup, cg_reason = fs.read("/proc/1/cgroup")
    for needle, name in CGROUP_CONTAINERS:
        if cgroup and needle in cgroup:
            evidence.append(f"/proc/1/cgroup mentions {needle}")
            container, source = container or name, source or "/proc/1/cgroup"
            break
    if container:
        facts.is_container = log.found("is_container", source, True)
        facts.container = log.found("container", source, container)
    elif ct_tool == "none" or cgroup is not None:
        source = "systemd-detect-virt --container" if ct_tool else "/proc/1/cgroup, /.dockerenv"
        facts.is_container = log.found("is_container", source, False)
        facts.container = log.found("container", source, "none")
    else:
        log.missing("is_container", f"{cg_reason}; no container marker files")
        facts.container = UNKNOWN
