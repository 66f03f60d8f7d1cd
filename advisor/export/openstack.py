"""OpenStack (Nova with the libvirt driver): a flavor per workload group with its extra specs,
and the compute nodes' ``nova.conf`` values.

- ``openstack/flavors.yaml``: a Heat template (``OS::Nova::Flavor`` per group: vCPUs, RAM in
  MiB, root disk in GiB, extra specs); ``openstack/flavors.sh`` the same as ``openstack flavor
  create`` lines;
- ``openstack/nova-compute*.conf``: ``[DEFAULT] cpu_allocation_ratio`` = the advised vCPUs per
  hardware thread (Nova counts the host's logical CPUs: the advice's vCPUs per physical core
  divided by the threads per core), ``ram_allocation_ratio`` = the RAM over-commit the host
  count was sized with, ``reserved_host_memory_mb`` = the RAM the host count kept for the
  hypervisor, ``[libvirt] disk_cachemodes`` and the image type of the advised storage. When
  the groups need different cache modes, each mode gets its own compute configuration and host
  aggregate (``aggregates.sh``), and the flavors select it with
  ``aggregate_instance_extra_specs:capadvisor_cache`` (AggregateInstanceExtraSpecsFilter).
- real-time groups: ``hw:cpu_policy=dedicated`` (pinned vCPUs, never over-allocated) and
  ``hw:emulator_threads_policy=share``; with a budget ``quota:cpu_period``/``quota:cpu_quota``
  in microseconds (CFS bandwidth: C_VM every T_VM) and the highest ``quota:cpu_shares``; a VM
  that needs a whole core gets ``hw:cpu_realtime=yes`` (SCHED_FIFO vCPUs) instead of a quota.
  Their compute nodes list the real-time cores in ``[compute] cpu_dedicated_set`` (one PCPU per
  real-time vCPU) and every hardware thread of the other cores in ``cpu_shared_set``.

Nova's arithmetic, which the export keeps exact: once ``cpu_dedicated_set`` is set, a node offers
VCPU = (logical CPUs in ``cpu_shared_set``) x ``cpu_allocation_ratio`` and PCPU = (CPUs in
``cpu_dedicated_set``). The shared set therefore lists both hardware threads of every core not
reserved for real time, so that VCPU = (cores - real-time cores) x the advised vCPUs per
physical core; the real-time cores' sibling threads stay in neither set (idle, so that nothing
runs next to a real-time vCPU). ``isolate`` would take one more PCPU per VM out of the dedicated
set for the emulator threads; ``share`` puts them on the shared set instead, where libvirt's
export pins them too (the housekeeping core is in it), so the dedicated set holds exactly one
real-time vCPU per CPU and the advised number of real-time VMs fits per node.
"""

from __future__ import annotations

import shlex

from advisor.export.base import Export, readme, realtime_text
from advisor.export.groups import openstack_groups
from advisor.export.hostsetup import host_setup, rt_cpu_list
from advisor.export.libvirt import RT_SHARES, cfs_limits
from advisor.export.plan import ClusterPlan, GroupPlan, decimal_text, exact

TARGET = "openstack"
#: where images live -> [libvirt] images_type and the disk_cachemodes source type of the images
IMAGES = {"local_disk": ("qcow2", "file"), "nfs_file": ("qcow2", "file"), "nfs_root": ("qcow2", "file"),
          "iscsi": ("default", "block"), "distributed": ("rbd", "network")}
AGG_KEY = "capadvisor_cache"
#: where a real-time VM's emulator threads run: on the cpu_shared_set (``isolate`` would pin them to
#: a CPU of their own taken from cpu_dedicated_set, one per VM, which the dedicated set does not hold)
EMULATOR_POLICY = "share"


def exact_capacity(per_core: float, cores: int) -> str:
    """vCPUs ``cores`` carry at ``per_core`` vCPUs per physical core, exactly (``4.0 x 38`` -> "152")."""
    d = (exact(per_core) * cores).normalize()
    return format(d, "f")


def logical_cpus(cores: list[int] | range, n_cores: int, threads: int) -> list[int]:
    """Every hardware thread of ``cores``, as Linux numbers logical CPUs on one socket: core c's
    threads are CPUs c, c + n_cores, c + 2 n_cores, ... (``lscpu -e`` shows a host's own)."""
    return sorted(c + t * n_cores for c in cores for t in range(threads))


def yaml_str(s: str) -> str:
    """A YAML double-quoted scalar."""
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


class _Gen:
    def __init__(self, plan: ClusterPlan):
        self.plan = plan
        self.ex = Export(TARGET, plan)
        groups = plan.vm_groups()
        self.modes = sorted({g.cache for g in groups if g.cache})
        self.by_aggregate = len(self.modes) > 1

    def flavor_name(self, g: GroupPlan) -> str:
        return f"capadvisor.{g.slug}"

    def extra_specs(self, g: GroupPlan, file: str) -> list[tuple[str, str, str]]:
        """(key, value, comment) of a group's extra specs, each recorded as exported."""
        ex = self.ex
        out = []
        if self.by_aggregate and g.cache:
            v = ex.value(file, f"{self.flavor_name(g)} aggregate_instance_extra_specs:{AGG_KEY}", g.cache, g.cache_src,
                         conversion="the host aggregate whose compute nodes use this cache mode")
            out.append((f"aggregate_instance_extra_specs:{AGG_KEY}", v, g.cache_src.label if g.cache_src else ""))
        rt = g.realtime
        if rt is None or not g.rt_cpus or rt.period_us is None or rt.budget_us is None:
            return out
        name, src, adv = self.flavor_name(g), rt.source, rt.advised
        out.append(("hw:cpu_policy", ex.value(file, f"{name} hw:cpu_policy", "dedicated", src, adv,
                                              "real-time vCPUs are pinned"), src.label))
        out.append(("hw:emulator_threads_policy",
                    ex.value(file, f"{name} hw:emulator_threads_policy", EMULATOR_POLICY, src, adv,
                             "emulator threads on the cpu_shared_set (with the housekeeping core), as libvirt's "
                             "emulatorpin: isolate would take a dedicated CPU per VM"), ""))
        if rt.dedicated:
            out.append(("hw:cpu_realtime", ex.value(file, f"{name} hw:cpu_realtime", "yes", src, adv,
                                                    "a whole core: SCHED_FIFO vCPUs"), realtime_text(g)))
            return out
        limits = cfs_limits(rt.period_us, rt.budget_us)
        if isinstance(limits, str):
            ex.notes.append(f"{g.name}: {limits}")
            return out
        period, quota = limits
        conv = f"{rt.unit} -> us (period rounded down, budget rounded up)"
        out.append(("quota:cpu_period", ex.value(file, f"{name} quota:cpu_period", period, src, adv, conv),
                    realtime_text(g)))
        out.append(("quota:cpu_quota", ex.value(file, f"{name} quota:cpu_quota", quota, src, adv, conv), ""))
        out.append(("quota:cpu_shares", ex.value(file, f"{name} quota:cpu_shares", RT_SHARES, src, adv,
                                                 "the highest CPU weight"), ""))
        return out

    def flavors(self) -> tuple[str, str]:
        p = self.plan
        yml = ["heat_template_version: 2018-08-31", "",
               f"description: {yaml_str(f'Flavors for scenario {p.scenario} (capadvisor export-config)')}", "",
               "resources:"]
        sh = ["#!/bin/sh", f"# Flavors for scenario {p.scenario} (generated by capadvisor export-config)",
              f"# figures' basis: {p.basis}", "set -eu", ""]
        for g in (g for g in p.whole_gib_groups() if not g.containers):
            specs_y = self.extra_specs(g, "openstack/flavors.yaml")
            specs_s = self.extra_specs(g, "openstack/flavors.sh")
            name = self.flavor_name(g)
            comments = []
            if g.cache_src:
                comments += g.cache_src.lines()
            if g.realtime and g.rt_cpus and g.realtime.period_us:
                comments += g.realtime.source.lines() + [realtime_text(g)]
            elif p.overalloc_src and p.overalloc_per_core is not None:
                comments.append(f"shared vCPUs, over-allocated at most {decimal_text(p.overalloc_per_thread)} per "
                                "hardware thread (nova.conf cpu_allocation_ratio)")
            comments.append(f"RAM {g.ram_gib:g} GiB = {g.ram_mib} MiB; root disk "
                            + (g.gib_text() or f"{g.disk_gb:g} GB -> {g.disk_gib} GiB"))
            yml += [f"  # {c}" for c in comments]
            yml += [f"  {g.slug.replace('-', '_')}_flavor:", "    type: OS::Nova::Flavor", "    properties:",
                    f"      name: {yaml_str(name)}", f"      vcpus: {g.vcpus}", f"      ram: {g.ram_mib}",
                    f"      disk: {g.disk_gib}", "      is_public: true"]
            if specs_y:
                yml.append("      extra_specs:")
                yml += [f"        {yaml_str(k)}: {yaml_str(v)}" for k, v, _ in specs_y]
            yml.append("")
            sh += [f"# {c}" for c in comments]
            args = ["openstack", "flavor", "create", "--vcpus", str(g.vcpus), "--ram", str(g.ram_mib), "--disk",
                    str(g.disk_gib)]
            for k, v, _ in specs_s:
                args += ["--property", f"{k}={v}"]
            args.append(name)
            sh += [" ".join(shlex.quote(a) for a in args), ""]
        return "\n".join(yml), "\n".join(sh)

    def nova_conf(self, file: str, mode: str | None, realtime: bool) -> str:
        p, ex = self.plan, self.ex
        out = [f"# nova.conf values for the compute nodes of scenario {p.scenario}"
               + (f" whose VMs use cache mode {mode}" if self.by_aggregate and mode else ""),
               "# (generated by capadvisor export-config; merge into /etc/nova/nova.conf)", "", "[DEFAULT]"]
        if p.overalloc_per_core is not None:
            ratio = ex.value(file, "DEFAULT.cpu_allocation_ratio", decimal_text(p.overalloc_per_thread), p.overalloc_src,
                             f"{p.overalloc_per_core:g} vCPUs per physical core",
                             f"per physical core / {p.threads_per_core} threads per core (Nova counts logical CPUs)")
            out += [f"# {line}" for line in (p.overalloc_src.lines() if p.overalloc_src else [])]
            out += [f"# {p.overalloc_per_core:g} vCPUs per physical core = {ratio} per hardware thread",
                    f"cpu_allocation_ratio = {ratio}"]
        ram = ex.value(file, "DEFAULT.ram_allocation_ratio", decimal_text(p.ram_overcommit), p.hosts_src,
                       f"host count sized with RAM over-commit {p.ram_overcommit:g}")
        out += [f"# {line}" for line in (p.hosts_src.lines() if p.hosts_src else [])]
        out += [f"# the host count was sized with a RAM over-commit of {p.ram_overcommit:g}",
                f"ram_allocation_ratio = {ram}"]
        if p.reserved_ram_mib is not None:
            res = ex.value(file, "DEFAULT.reserved_host_memory_mb", p.reserved_ram_mib, p.hosts_src,
                           f"{p.reserved_ram_gib:.6g} GiB kept for the hypervisor", "GiB -> MiB, rounded up")
            out += [f"# RAM the host count kept for the hypervisor on each host: {p.reserved_ram_gib:.6g} GiB",
                    f"reserved_host_memory_mb = {res}"]
        if realtime:
            rt_groups = [g for g in p.realtime_groups() if g.rt_cpus]
            all_rt = [c for g in rt_groups for c in g.all_rt_cpus]
            cpus = rt_cpu_list(all_rt)
            src = rt_groups[0].realtime.source  # type: ignore[union-attr]
            rt_cores = sorted({c for c in all_rt if c < p.cores})
            shared_cores = [c for c in range(p.cores) if c not in rt_cores]
            threads = p.threads_per_core
            shared_cpus = logical_cpus(shared_cores, p.cores, threads)
            idle = [c for c in logical_cpus(rt_cores, p.cores, threads) if c not in rt_cores]
            ded = ex.value(file, "compute.cpu_dedicated_set", cpus, src, rt_groups[0].realtime.advised,  # type: ignore[union-attr]
                           "cores reserved for real-time vCPUs: one PCPU per real-time vCPU")
            out += ["", "[compute]", f"# {src.label}: real-time vCPUs are pinned to dedicated cores",
                    f"# PCPU inventory: {len(all_rt)} CPUs, one per real-time vCPU (emulator threads: "
                    f"hw:emulator_threads_policy={EMULATOR_POLICY}, on the shared set)",
                    f"cpu_dedicated_set = {ded}"]
            if p.overalloc_per_core is not None:
                vcpus = exact_capacity(p.overalloc_per_core, len(shared_cores))
                shared = ex.value(file, "compute.cpu_shared_set", rt_cpu_list(shared_cpus),
                                  p.overalloc_src or src,
                                  f"{p.overalloc_per_core:g} vCPUs per physical core on the {len(shared_cores)} cores "
                                  f"not reserved for real time = {vcpus} vCPUs",
                                  f"every hardware thread of those cores ({len(shared_cpus)} logical CPUs); Nova: "
                                  f"VCPU = {len(shared_cpus)} x cpu_allocation_ratio")
                out += [f"# VCPU inventory: {len(shared_cpus)} logical CPUs ({len(shared_cores)} cores x {threads} "
                        f"threads) x cpu_allocation_ratio {decimal_text(p.overalloc_per_thread)} = {vcpus} vCPUs "
                        f"= {p.overalloc_per_core:g} per physical core x {len(shared_cores)} cores",
                        "# logical CPU numbers as Linux numbers them on one socket (core c: CPUs c"
                        + "".join(f", c+{t * p.cores}" for t in range(1, threads)) + "); check with lscpu -e"]
                if idle:
                    out.append(f"# CPUs {rt_cpu_list(idle)} (the real-time cores' sibling threads) stay idle: "
                               "in neither set")
                out.append(f"cpu_shared_set = {shared}")
            else:
                out.append(f"cpu_shared_set = {rt_cpu_list(shared_cpus)}")
        images_type, source_type = IMAGES.get(p.backend, ("qcow2", "file"))
        out += ["", "[libvirt]"]
        out += [f"# {line}" for line in (p.backend_src.lines() if p.backend_src else [])]
        if images_type != "default":
            out.append(f"images_type = {images_type}")
        if p.backend == "distributed":
            out += ["images_rbd_pool = vms", "images_rbd_ceph_conf = /etc/ceph/ceph.conf"]
        if p.backend == "iscsi":
            out.append("# iSCSI: boot the instances from Cinder volumes on the iSCSI backend")
        if p.backend == "nfs_file":
            out.append("# NFS: mount the NFS share on instances_path (/var/lib/nova/instances) on every compute node")
        if mode is not None:
            src = next((g.cache_src for g in p.vm_groups() if g.cache == mode), None)
            out += [f"# {line}" for line in (src.lines() if src else [])]
            m = ex.value(file, f"libvirt.disk_cachemodes {source_type}", mode, src)
            out.append(f"disk_cachemodes = {source_type}={m}")
        return "\n".join(out) + "\n"

    def build(self) -> Export:
        p, ex = self.plan, self.ex
        listing = []
        yml, sh = self.flavors()
        ex.add("openstack/flavors.yaml", yml)
        ex.add("openstack/flavors.sh", sh)
        listing += [("openstack/flavors.yaml", "Heat template: one OS::Nova::Flavor per group"),
                    ("openstack/flavors.sh", "the same flavors as `openstack flavor create` lines")]
        rt_modes = {g.cache for g in p.realtime_groups() if g.rt_cpus}
        if self.by_aggregate:
            agg = ["#!/bin/sh", "# Host aggregates: one per disk cache mode the flavors ask for", "set -eu", ""]
            for mode in self.modes:
                f = f"openstack/nova-compute-{mode}.conf"
                ex.add(f, self.nova_conf(f, mode, mode in rt_modes))
                listing.append((f, f"nova.conf of the compute nodes that run {mode}-cache VMs"))
                agg += [f"openstack aggregate create capadvisor-cache-{mode}",
                        f"openstack aggregate set --property {AGG_KEY}={mode} capadvisor-cache-{mode}",
                        f"# openstack aggregate add host capadvisor-cache-{mode} COMPUTE-NODE", ""]
            ex.add("openstack/aggregates.sh", "\n".join(agg))
            listing.append(("openstack/aggregates.sh", "the host aggregates per cache mode"))
            ex.notes.append("the groups need different disk cache modes, which Nova sets per compute node: one host "
                            "aggregate per mode (enable AggregateInstanceExtraSpecsFilter in the scheduler)")
        else:
            f = "openstack/nova-compute.conf"
            ex.add(f, self.nova_conf(f, self.modes[0] if self.modes else None, bool(rt_modes)))
            listing.append((f, "nova.conf values of the compute nodes"))
        ex.add("openstack/host-setup.sh", host_setup(ex, "openstack/host-setup.sh", "OpenStack compute"))
        listing.append(("openstack/host-setup.sh", "host settings: frequency governor, real-time cores"))
        how = ["1. Merge the `nova-compute*.conf` values into `/etc/nova/nova.conf` of the compute nodes and "
               "restart nova-compute.",
               "2. Create the flavors: `openstack stack create -t openstack/flavors.yaml capadvisor-flavors` "
               "or `sh openstack/flavors.sh`.",
               "3. If `aggregates.sh` exists: create the aggregates, add the compute nodes to them and enable "
               "AggregateInstanceExtraSpecsFilter.",
               "4. Run `openstack/host-setup.sh` on every compute node."]
        ex.add("openstack/README.md", readme(ex, f"OpenStack (Nova) configuration for {p.scenario}", how, listing,
                                             p.whole_gib_groups()))
        return ex


def generate(plan: ClusterPlan) -> Export:
    """The OpenStack export of ``plan`` (with its server groups when the scenario constrains placement)."""
    ex = _Gen(plan).build()
    openstack_groups(ex)
    return ex
