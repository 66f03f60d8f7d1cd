"""Checks of the placement-constraint files (#32, :mod:`advisor.export.groups`): the Heat
server groups template, ``openstack server group create`` lines and the Proxmox VE HA section
config files (``rules.cfg``: ``resource-affinity``/``node-affinity``, ``groups.cfg``: ``group``),
each read back as the platform reads it; ValueError names what is wrong."""

from __future__ import annotations

import re

from advisor.export.groups import NOVA_POLICIES

#: Proxmox VE HA section types and the keys each takes (pve-ha-manager's rules and groups)
PVE_HA_KEYS = {"resource-affinity": {"affinity", "resources", "comment", "disable"},
               "node-affinity": {"nodes", "resources", "strict", "comment", "disable"},
               "group": {"nodes", "restricted", "nofailback", "comment"}}
_ID = re.compile(r"^[A-Za-z][A-Za-z0-9_.-]*$")
_RESOURCE = re.compile(r"^(vm|ct):[1-9][0-9]{2,8}$")
_NODE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9.-]*(:[0-9]+)?$")


def heat_resources(text: str, kind: str) -> dict[str, dict]:
    """Resource id -> properties of a Heat template whose resources are all of type ``kind``."""
    import yaml

    doc = yaml.safe_load(text)
    if not isinstance(doc, dict) or "heat_template_version" not in doc or not isinstance(doc.get("resources"), dict):
        raise ValueError("not a Heat template with resources")
    out = {}
    for rid, res in doc["resources"].items():
        if not isinstance(res, dict) or res.get("type") != kind:
            raise ValueError(f"resource {rid} is not an {kind}")
        out[str(rid)] = res.get("properties") or {}
    return out


def parse_server_groups_yaml(text: str) -> dict[str, str]:
    """Server group name -> policy of a Heat template of ``OS::Nova::ServerGroup`` resources."""
    out = {}
    for rid, props in heat_resources(text, "OS::Nova::ServerGroup").items():
        pol = props.get("policies")
        if not isinstance(pol, list) or len(pol) != 1 or pol[0] not in NOVA_POLICIES:
            raise ValueError(f"{rid}.policies must be one of {', '.join(NOVA_POLICIES)}")
        out[str(props.get("name"))] = pol[0]
    return out


def check_server_group_command(words: list[str]) -> None:
    """``openstack server group create --policy P NAME``."""
    args = words[4:]
    if len(args) != 3 or args[0] != "--policy" or args[1] not in NOVA_POLICIES:
        raise ValueError(f"openstack server group create: expected --policy {{{'|'.join(NOVA_POLICIES)}}} NAME")


def _value(kind: str, key: str, value: str) -> None:
    if key == "resources":
        bad = [r for r in value.split(",") if not _RESOURCE.match(r)]
        if bad:
            raise ValueError(f"resources: not a HA resource id: {', '.join(bad)}")
    elif key == "nodes":
        bad = [n for n in value.split(",") if not _NODE.match(n)]
        if bad:
            raise ValueError(f"nodes: not a node name: {', '.join(bad)}")
    elif key == "affinity" and value not in ("positive", "negative"):
        raise ValueError(f"affinity must be positive or negative, not {value}")
    elif key in ("strict", "restricted", "nofailback", "disable") and value not in ("0", "1"):
        raise ValueError(f"{key} must be 0 or 1")


def parse_pve_ha(text: str) -> dict[str, dict[str, str]]:
    """``type: id`` sections with tab-indented ``key value`` lines -> {"type:id": {key: value}}."""
    out: dict[str, dict[str, str]] = {}
    current: dict[str, str] | None = None
    kind = ""
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            current = None if not line.strip() else current
            continue
        if line[0] in " \t":
            if current is None:
                raise ValueError(f"line {n}: a property outside a section")
            key, _, value = line.strip().partition(" ")
            if key not in PVE_HA_KEYS[kind] or not value:
                raise ValueError(f"line {n}: {kind} takes no {key!r} (or it has no value)")
            _value(kind, key, value.strip())
            current[key] = value.strip()
            continue
        kind, _, ident = line.partition(": ")
        if kind not in PVE_HA_KEYS or not _ID.match(ident.strip()):
            raise ValueError(f"line {n}: not a section header 'type: id' of {', '.join(PVE_HA_KEYS)}")
        if f"{kind}:{ident}" in out:
            raise ValueError(f"line {n}: {kind} {ident} defined twice")
        current = out[f"{kind}:{ident.strip()}"] = {}
    for name, props in out.items():
        need = {"resource-affinity": ("affinity", "resources"), "node-affinity": ("nodes", "resources"),
                "group": ("nodes",)}[name.split(":")[0]]
        if missing := [k for k in need if k not in props]:
            raise ValueError(f"{name}: missing {', '.join(missing)}")
    return out
