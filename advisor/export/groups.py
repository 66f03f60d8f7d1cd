"""Placement constraints in each platform's own terms (#32): which VM runs on which host, the
anti-affinity and affinity sets, as

- OpenStack: server groups (``openstack/server-groups.yaml``: ``OS::Nova::ServerGroup`` with the
  ``anti-affinity``/``affinity`` policy; ``server-groups.sh``: ``openstack server group create``),
  the VMs to boot with ``--hint group=<id>`` listed beside each;
- Proxmox VE: HA rules (``proxmox/ha/rules.cfg``, Proxmox VE 9: ``resource-affinity`` rules,
  ``negative`` to keep apart, ``positive`` to keep together, and a ``node-affinity`` rule per host
  pinning its VMs where the placement put them) and HA groups for Proxmox VE 8
  (``proxmox/ha/groups.cfg``: one group per failure domain with its nodes);
- libvirt: one folder per host (``libvirt/hosts/<host>/define.sh``) defining the domains placed
  there from their group's ``domain.xml``.

The sets (:func:`constraint_sets`): a workload with ``anti_affinity: true`` is one anti-affinity
set; workloads sharing an anti-affinity group name are one set; a replicated workload's replicas:
with at most one VM per host all its VMs, else one set per replica rank (the first VM of each host,
the second, ...), each on distinct hosts; ``affinity`` is one affinity set per workload or group.
"""

from __future__ import annotations

import shlex

from advisor.export.base import Export
from advisor.export.plan import ClusterPlan, slug

#: Nova's server group policies (compute API microversion 2.64)
NOVA_POLICIES = ("affinity", "anti-affinity", "soft-affinity", "soft-anti-affinity")


def vm_hosts(plan: ClusterPlan) -> dict[str, tuple[str, str]]:
    """VM name -> (host, domain) as the placement put it (the group's VMs in order over its hosts;
    a workload of several VM shapes: each shape's VMs over the hosts its ``vm_shapes`` count there)."""
    out: dict[str, tuple[str, str]] = {}
    names = {g.name: iter(vms) for g, vms in plan.workload_vms()}
    shaped = {(g.name, g.vcpus): iter(g.vm_names()) for g in plan.vm_groups()}
    for h in plan.placement:
        split = h.get("vm_shapes") or {}
        for w, n in h["vms"].items():
            parts = [(shaped.get((w, v)), k) for k, v in split[w]] if w in split else [(names.get(w), n)]
            for it, k in parts:
                for _ in range(k if it is not None else 0):
                    vm = next(it, None)  # type: ignore[arg-type]
                    if vm is not None:
                        out[vm] = (h["host"], h["domain"])
    return out


def _replica_sets(vms: list[str], where: dict[str, tuple[str, str]]) -> list[list[str]]:
    """One set per replica rank: the k-th VM of every host, so each set's VMs are on distinct hosts."""
    by_host: dict[str, list[str]] = {}
    for vm in vms:
        by_host.setdefault(where.get(vm, (vm, ""))[0], []).append(vm)
    ranks = max((len(v) for v in by_host.values()), default=0)
    return [s for k in range(ranks) if len(s := [v[k] for v in by_host.values() if len(v) > k]) > 1]


def constraint_sets(plan: ClusterPlan) -> list[tuple[str, str, list[str]]]:
    """(set name, ``anti-affinity`` | ``affinity``, VM names) of the plan's constraints."""
    where = vm_hosts(plan)
    out: list[tuple[str, str, list[str]]] = []
    named: dict[tuple[str, str], list[str]] = {}
    for g, vms in plan.workload_vms():
        if g.anti_affinity is True:
            out.append((f"{g.workload_slug}-apart", "anti-affinity", vms))
        elif g.anti_affinity:
            named.setdefault((str(g.anti_affinity), "anti-affinity"), []).extend(vms)
        if (g.replication_factor or 0) > 1 and g.anti_affinity is not True and len(vms) > 1:
            sets = [vms] if len(vms) <= (g.replication_factor or 0) else _replica_sets(vms, where)
            out += [(f"{g.workload_slug}-replicas-{i + 1}", "anti-affinity", s) for i, s in enumerate(sets)]
        if g.affinity is True:
            out.append((f"{g.workload_slug}-together", "affinity", vms))
        elif g.affinity:
            named.setdefault((str(g.affinity), "affinity"), []).extend(vms)
    for (name, policy, ), vms in named.items():
        out.append((f"{slug(name)}-{'apart' if policy == 'anti-affinity' else 'together'}", policy, vms))
    return out


def openstack_groups(ex: Export) -> None:
    """``openstack/server-groups.yaml`` and ``.sh`` when the plan has constraint sets."""
    sets = constraint_sets(ex.plan)
    if not sets:
        return
    yml = ["heat_template_version: 2018-08-31", "", "description: \"Server groups (capadvisor export-config)\"", "",
           "resources:"]
    sh = ["#!/bin/sh", "# Server groups: boot each listed VM with --hint group=<the group's id>", "set -eu", ""]
    for name, policy, vms in sets:
        yml += [f"  # members: {', '.join(vms)}", f"  {name.replace('-', '_')}:", "    type: OS::Nova::ServerGroup",
                "    properties:", f"      name: capadvisor.{name}", f"      policies: [{policy}]", ""]
        sh += [f"# members: {', '.join(vms)}",
               " ".join(shlex.quote(a) for a in ("openstack", "server", "group", "create", "--policy", policy,
                                                 f"capadvisor.{name}")), ""]
    ex.add("openstack/server-groups.yaml", "\n".join(yml))
    ex.add("openstack/server-groups.sh", "\n".join(sh))


def proxmox_ha(ex: Export, first_ids: list[int]) -> None:
    """``proxmox/ha/rules.cfg`` (Proxmox VE 9 HA rules) and ``groups.cfg`` (VE 8 HA groups per
    failure domain) when the plan has a placement under constraints."""
    plan = ex.plan
    if not plan.placement:
        return
    ids = {vm: first + i for g, first in zip(plan.vm_groups(), first_ids, strict=True)
           for i, vm in enumerate(g.vm_names())}
    node = {h["host"]: f"pve-{h['host']}" for h in plan.placement}
    rules = ["# Proxmox VE 9 HA rules (/etc/pve/ha/rules.cfg); VM ids as in create-vms.sh, nodes named pve-host-N",
             ""]
    for name, policy, vms in constraint_sets(plan):
        rules += [f"resource-affinity: capadvisor-{name}",
                  f"\taffinity {'negative' if policy == 'anti-affinity' else 'positive'}",
                  "\tresources " + ",".join(f"vm:{ids[v]}" for v in vms), ""]
    by_host: dict[str, list[str]] = {}
    for vm, (host, _) in vm_hosts(plan).items():
        by_host.setdefault(host, []).append(vm)
    for host, vms in by_host.items():
        rules += [f"node-affinity: capadvisor-on-{host}", f"\tnodes {node[host]}",
                  "\tresources " + ",".join(f"vm:{ids[v]}" for v in vms), "\tstrict 0", ""]
    ex.add("proxmox/ha/rules.cfg", "\n".join(rules))
    domains: dict[str, list[str]] = {}
    for h in plan.placement:
        domains.setdefault(h["domain"] or "cluster", []).append(node[h["host"]])
    groups = ["# Proxmox VE 8 HA groups (/etc/pve/ha/groups.cfg): one per failure domain", ""]
    for name, nodes in domains.items():
        groups += [f"group: capadvisor-{slug(name)}", f"\tnodes {','.join(nodes)}", "\trestricted 0",
                   "\tnofailback 0", ""]
    ex.add("proxmox/ha/groups.cfg", "\n".join(groups))


def libvirt_hosts(ex: Export) -> None:
    """``libvirt/hosts/<host>/define.sh``: the domains the placement puts on each host."""
    plan = ex.plan
    by_host: dict[str, list[tuple[str, str]]] = {}
    slugs = {vm: g.slug for g in plan.vm_groups() for vm in g.vm_names()}
    firsts = {g.slug: g.vm_names()[0] for g in plan.vm_groups() if g.vms}
    for vm, (host, _) in vm_hosts(plan).items():
        by_host.setdefault(host, []).append((vm, slugs[vm]))
    domain = {h["host"]: h["domain"] for h in plan.placement}
    for host, vms in by_host.items():
        out = ["#!/bin/sh", f"# the domains placed on {host}" + (f" (failure domain {domain[host]})"
                                                                 if domain[host] else ""),
               "# run on that host from the export folder; each domain from its group's domain.xml (its name and image"
               " path renamed)", "set -eu", ""]
        for vm, g in vms:
            src = f"libvirt/{g}/domain.xml"
            if f"libvirt/{g}/{vm}.domain.xml" in ex.files:  # a pinned real-time VM: its own domain
                out.append(f"virsh define {shlex.quote(f'libvirt/{g}/{vm}.domain.xml')}")
                continue
            out.append(f"sed 's/{firsts[g]}/{vm}/g' {shlex.quote(src)} > /tmp/{vm}.xml && "
                       f"virsh define /tmp/{vm}.xml")
        ex.add(f"libvirt/hosts/{slug(host)}/define.sh", "\n".join(out) + "\n")
