"""Check exported files with each platform's own parser or tool, and read their values back.

- libvirt: ``virt-xml-validate`` (libvirt's RELAX NG schemas, Debian package libvirt-clients);
  a fragment is validated inside a minimal domain;
- Xen: the xl configuration parser and disk-specification parser of Xen itself (libxlutil, with
  libxenlight to print a parsed disk; Debian package libxenmisc4.17), called through ctypes;
- shell scripts: ``bash -n``; ``xl`` command lines: their ``key=value`` overrides through the xl
  parser, ``xl sched-rtds`` options against RTDS' limits (period, budget >= 10 us, budget <=
  period; xen/common/sched/rt.c);
- Proxmox VE: every ``qm create`` / ``qm set`` line parsed like the ``qm`` CLI does (``--key
  value``) and checked against the option schema of Proxmox's qemu-server (PVE/QemuServer.pm
  ``confdesc``, PVE/QemuServer/Drive.pm: names, types, ranges, enumerations, drive property
  strings);
- OpenStack: ``nova.conf`` through :mod:`configparser` with the option types of nova.conf
  (floats, integers, cpusets, ``disk_cachemodes``), flavors as YAML (a Heat template) and as
  ``openstack flavor create`` lines, their extra specs checked against Nova's extra-spec
  validators (nova/api/validation/extra_specs: hw, quota, aggregate_instance_extra_specs).

:func:`check_export` returns one :class:`Finding` per file and checker; nothing raises for a
bad file. A tool that is not installed gives a finding with ``ok=None`` (not checked).
"""

from __future__ import annotations

import configparser
import ctypes
import os
import re
import shlex
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from advisor.export.check_groups import (
    check_server_group_command,
    heat_resources,
    parse_pve_ha,
    parse_server_groups_yaml,
)

#: seconds any external checker may take
TOOL_TIMEOUT_S = 60


@dataclass(frozen=True)
class Finding:
    """One check of one file: ``ok`` True (passed), False (failed) or None (checker missing)."""

    file: str
    checker: str
    ok: bool | None
    message: str = ""

    def __str__(self) -> str:
        state = {True: "ok", False: "FAILED", None: "not checked"}[self.ok]
        return f"{self.file}: {self.checker}: {state}" + (f": {self.message}" if self.message else "")


# --- libvirt ------------------------------------------------------------------------------------
#: where each fragment goes in a minimal domain: (element, wrapper)
_SKELETON = ("<domain type='kvm'><name>check</name><memory unit='KiB'>1048576</memory>{top}"
             "<os><type arch='x86_64'>hvm</type></os><devices>{devices}</devices></domain>")


def libvirt_tool() -> str | None:
    """virt-xml-validate if it and xmllint (which it runs) are installed."""
    tool = shutil.which("virt-xml-validate")
    return tool if tool and shutil.which("xmllint") else None


def validate_libvirt_xml(text: str, fragment: bool = False) -> tuple[bool | None, str]:
    """(ok, message) of libvirt's validator for a domain (or a fragment inside a minimal one)."""
    tool = libvirt_tool()
    if tool is None:
        return None, "virt-xml-validate (libvirt-clients) or xmllint (libxml2-utils) is not installed"
    if fragment:
        body = re.sub(r"<!--.*?-->", "", text, flags=re.S).strip()
        device = body.startswith("<disk")
        text = _SKELETON.format(top="" if device else body, devices=body if device else "")
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "domain.xml"
        path.write_text(text, encoding="utf-8")
        try:
            proc = subprocess.run([tool, str(path), "domain"], capture_output=True, text=True,
                                  timeout=TOOL_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            return False, f"virt-xml-validate took more than {TOOL_TIMEOUT_S} s"
    out = (proc.stdout + proc.stderr).strip().replace(str(path), "domain.xml")
    return proc.returncode == 0, "" if proc.returncode == 0 else out


# --- Xen: libxlutil --------------------------------------------------------------------------------
class XlParser:
    """Xen's own xl configuration parser (libxlutil) through ctypes."""

    LIBS = ("libxlutil.so.4.17", "libxlutil.so")
    LIGHT = ("libxenlight.so.4.17", "libxenlight.so")

    def __init__(self) -> None:
        self.xlu = self._load(self.LIBS)
        self.light = self._load(self.LIGHT)
        self.libc = ctypes.CDLL(None)
        self.libc.fopen.restype = ctypes.c_void_p
        self.libc.fopen.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
        self.libc.fclose.argtypes = [ctypes.c_void_p]
        self.libc.fflush.argtypes = [ctypes.c_void_p]
        x = self.xlu
        x.xlu_cfg_init.restype = ctypes.c_void_p
        x.xlu_cfg_init.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
        x.xlu_cfg_readdata.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
        x.xlu_cfg_destroy.argtypes = [ctypes.c_void_p]
        x.xlu_cfg_get_string.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_char_p), ctypes.c_int]
        x.xlu_cfg_get_long.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_long), ctypes.c_int]
        x.xlu_cfg_get_list.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p),
                                       ctypes.POINTER(ctypes.c_int), ctypes.c_int]
        x.xlu_cfg_get_listitem.restype = ctypes.c_char_p
        x.xlu_cfg_get_listitem.argtypes = [ctypes.c_void_p, ctypes.c_int]
        x.xlu_disk_parse.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p]
        self.light.libxl_device_disk_init.argtypes = [ctypes.c_void_p]
        self.light.libxl_device_disk_dispose.argtypes = [ctypes.c_void_p]
        self.light.libxl_device_disk_to_json.restype = ctypes.c_void_p
        self.light.libxl_device_disk_to_json.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
        self.libc.free.argtypes = [ctypes.c_void_p]

    @staticmethod
    def _load(names):
        err = None
        for n in names:
            try:
                return ctypes.CDLL(n)
            except OSError as exc:
                err = exc
        raise OSError(f"{names[0]} not found ({err})")

    @classmethod
    def available(cls) -> XlParser | None:
        try:
            return cls()
        except OSError:
            return None

    def parse(self, text: str, name: str = "config") -> tuple[dict, list[str]]:
        """(values, problems): every key of :data:`XL_KEYS` found (strings, numbers, lists of strings;
        disk specifications parsed to libxl's JSON) and the parser's messages."""
        import json

        fd, report = tempfile.mkstemp(prefix="xlu-")
        os.close(fd)
        fh = self.libc.fopen(report.encode(), b"w")
        cfg = self.xlu.xlu_cfg_init(fh, name.encode())
        values: dict = {}
        problems: list[str] = []
        try:
            data = text.encode()
            rc = self.xlu.xlu_cfg_readdata(cfg, data, len(data))
            if rc != 0:
                problems.append(f"xl parser error {rc}")
            else:
                for key, kind in XL_KEYS.items():
                    if kind == "string":
                        s = ctypes.c_char_p()
                        if self.xlu.xlu_cfg_get_string(cfg, key.encode(), ctypes.byref(s), 1) == 0:
                            values[key] = s.value.decode() if s.value is not None else None
                    elif kind == "long":
                        n = ctypes.c_long()
                        if self.xlu.xlu_cfg_get_long(cfg, key.encode(), ctypes.byref(n), 1) == 0:
                            values[key] = n.value
                    else:
                        lst, count = ctypes.c_void_p(), ctypes.c_int()
                        if self.xlu.xlu_cfg_get_list(cfg, key.encode(), ctypes.byref(lst), ctypes.byref(count), 1) == 0:
                            items = [self.xlu.xlu_cfg_get_listitem(lst, i) for i in range(count.value)]
                            values[key] = [i.decode() for i in items if i is not None]
                disks = []
                for spec in values.get("disk", []):
                    disk = ctypes.create_string_buffer(8192)
                    self.light.libxl_device_disk_init(disk)
                    specs = (ctypes.c_char_p * 1)(spec.encode())
                    rc = self.xlu.xlu_disk_parse(cfg, 1, specs, disk)
                    if rc != 0:
                        problems.append(f"disk specification {spec!r} refused ({rc})")
                    else:
                        js = self.light.libxl_device_disk_to_json(None, disk)
                        disks.append(json.loads(ctypes.string_at(js).decode()) if js else {})
                        if js:
                            self.libc.free(js)
                    self.light.libxl_device_disk_dispose(disk)
                if disks:
                    values["disk_parsed"] = disks
        finally:
            self.xlu.xlu_cfg_destroy(cfg)
            self.libc.fflush(fh)
            self.libc.fclose(fh)
            messages = Path(report).read_text(errors="replace").strip()
            os.unlink(report)
        if messages:
            problems.append(messages)
        return values, problems


#: the xl keys read back (xl.cfg(5)), by type
XL_KEYS = {"name": "string", "type": "string", "memory": "long", "maxmem": "long", "vcpus": "long",
           "cpus": "string", "pool": "string", "kernel": "string", "ramdisk": "string", "cmdline": "string",
           "on_crash": "string", "disk": "list", "vif": "list"}


def parse_rtds_line(args: list[str]) -> dict:
    """The options of an ``xl sched-rtds`` command; ValueError for what xl or RTDS refuses."""
    opts: dict = {}
    i = 2
    names = {"-d": "domain", "-v": "vcpu", "-p": "period", "-b": "budget", "-c": "cpupool"}
    while i < len(args):
        a = args[i]
        if a not in names or i + 1 >= len(args):
            raise ValueError(f"xl sched-rtds: unknown or incomplete option {a!r}")
        opts[names[a]] = args[i + 1]
        i += 2
    for k in ("period", "budget"):
        if k in opts:
            if not opts[k].isdigit():
                raise ValueError(f"xl sched-rtds: {k} {opts[k]!r} is not a whole number of microseconds")
            opts[k] = int(opts[k])
            if opts[k] < 10:
                raise ValueError(f"xl sched-rtds: {k} {opts[k]} us is below RTDS' minimum of 10 us")
    if ("period" in opts) != ("budget" in opts):
        raise ValueError("xl sched-rtds: give period and budget together")
    if "period" in opts and opts["budget"] > opts["period"]:
        raise ValueError("xl sched-rtds: budget exceeds period")
    if "vcpu" in opts and opts["vcpu"] != "all" and not opts["vcpu"].isdigit():
        raise ValueError(f"xl sched-rtds: vcpu {opts['vcpu']!r} is neither a number nor 'all'")
    return opts


# --- shell ----------------------------------------------------------------------------------------
def bash_syntax(text: str) -> tuple[bool | None, str]:
    """``bash -n`` on a script."""
    bash = shutil.which("bash")
    if bash is None:
        return None, "bash is not installed"
    proc = subprocess.run([bash, "-n"], input=text, capture_output=True, text=True, timeout=TOOL_TIMEOUT_S)
    return proc.returncode == 0, proc.stderr.strip()


def commands(text: str, program: str) -> list[list[str]]:
    """Every command line of a script that starts with ``program`` (continuations joined, comments
    dropped), split as the shell splits words; ``"$1"``-style arguments stay as written."""
    out = []
    joined = re.sub(r"\\\n", " ", text)
    for line in joined.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        words = shlex.split(stripped, comments=True)
        if words and words[0] == program:
            out.append(words)
    return out


# --- Proxmox VE: qm --------------------------------------------------------------------------------
_DNS = re.compile(r"^([a-zA-Z0-9]([a-zA-Z0-9\-]*[a-zA-Z0-9])?)(\.([a-zA-Z0-9]([a-zA-Z0-9\-]*[a-zA-Z0-9])?))*$")
_CPUSET = re.compile(r"^\d+(-\d+)?(,\d+(-\d+)?)*$")
_STORAGE = re.compile(r"^[a-z][a-z0-9\-_.]*[a-z0-9]$")
_VOLUME = re.compile(r"^[a-z][a-z0-9\-_.]*[a-z0-9]:.+$")
#: drive properties (PVE/QemuServer/Drive.pm) -> allowed values (None: any), for scsiN
DRIVE_PROPS = {"cache": ("none", "writethrough", "writeback", "unsafe", "directsync"),
               "aio": ("native", "threads", "io_uring"), "discard": ("ignore", "on"), "iothread": ("0", "1"),
               "ssd": ("0", "1"), "format": ("raw", "cow", "qcow", "qed", "qcow2", "vmdk", "cloop"),
               "backup": ("0", "1"), "size": None}
#: qm options used by the export (PVE/QemuServer.pm confdesc): (type, minimum, maximum or enum)
QM_OPTIONS: dict[str, tuple] = {
    "name": ("dns-name",), "ostype": ("enum", ("other", "wxp", "w2k", "w2k3", "w2k8", "wvista", "win7", "win8",
                                                "win10", "win11", "l24", "l26", "solaris")),
    "memory": ("integer", 16, None), "sockets": ("integer", 1, None), "cores": ("integer", 1, None),
    "vcpus": ("integer", 1, None), "cpu": ("string",),
    "scsihw": ("enum", ("lsi", "lsi53c810", "virtio-scsi-pci", "virtio-scsi-single", "megasas", "pvscsi")),
    "scsi0": ("drive",), "net0": ("string",), "boot": ("string",),
    "affinity": ("cpuset",), "cpuunits": ("integer", 1, 262144), "cpulimit": ("number", 0, 128),
    "hookscript": ("volume",), "balloon": ("integer", 0, None), "numa": ("enum", ("0", "1")),
}


def check_qm(args: list[str]) -> dict:
    """A ``qm create|set VMID --opt value ...`` command as the qm CLI parses it: {option: value};
    ValueError naming what Proxmox would refuse. VMID may be a shell positional (``$1``)."""
    if len(args) < 3 or args[1] not in ("create", "set"):
        raise ValueError(f"not a qm create/set command: {' '.join(args[:3])}")
    vmid = args[2]
    if not (vmid.isdigit() and 100 <= int(vmid) <= 999_999_999) and not re.fullmatch(r"\$\d", vmid):
        raise ValueError(f"VMID {vmid!r} is not an integer from 100 to 999999999")
    opts: dict[str, str] = {}
    i = 3
    while i < len(args):
        key = args[i]
        if not key.startswith("--") or i + 1 >= len(args):
            raise ValueError(f"expected '--option value', got {key!r}")
        name, value = key[2:], args[i + 1]
        if name in opts:
            raise ValueError(f"--{name} given twice")
        if name not in QM_OPTIONS:
            raise ValueError(f"unknown option --{name}")
        _qm_value(name, value)
        opts[name] = value
        i += 2
    return opts


def _qm_value(name: str, value: str) -> None:
    spec = QM_OPTIONS[name]
    kind = spec[0]
    if re.fullmatch(r"\$\d", value):  # a shell positional, filled at run time
        return
    if kind == "dns-name" and not _DNS.match(value):
        raise ValueError(f"--{name} {value!r} is not a DNS name")
    if kind == "enum" and value not in spec[1]:
        raise ValueError(f"--{name} {value!r} is not one of {', '.join(spec[1])}")
    if kind in ("integer", "number"):
        try:
            num = int(value) if kind == "integer" else float(value)
        except ValueError:
            raise ValueError(f"--{name} {value!r} is not a{'n integer' if kind == 'integer' else ' number'}") from None
        lo, hi = spec[1], spec[2]
        if (lo is not None and num < lo) or (hi is not None and num > hi):
            raise ValueError(f"--{name} {value} is outside [{lo}, {hi}]")
    if kind == "cpuset" and not _CPUSET.match(value):
        raise ValueError(f"--{name} {value!r} is not a CPU set like 0,5,8-11")
    if kind == "volume" and not _VOLUME.match(value):
        raise ValueError(f"--{name} {value!r} is not a volume id STORAGE:PATH")
    if kind == "drive":
        parse_drive(value)


def parse_drive(value: str) -> dict:
    """A drive property string ``STORAGE:SIZE,key=value,...`` -> {"volume": ..., key: value}."""
    parts = value.split(",")
    volume = parts[0]
    storage, _, size = volume.partition(":")
    if not _STORAGE.match(storage) or not re.fullmatch(r"\d+(\.\d+)?", size):
        raise ValueError(f"drive {volume!r} is not STORAGE_ID:SIZE_IN_GiB")
    out = {"volume": volume, "storage": storage, "size_gib": size}
    for p in parts[1:]:
        k, eq, v = p.partition("=")
        if not eq or k not in DRIVE_PROPS:
            raise ValueError(f"drive property {p!r} unknown")
        allowed = DRIVE_PROPS[k]
        if allowed is not None and v not in allowed:
            raise ValueError(f"drive property {k}={v!r} is not one of {', '.join(allowed)}")
        out[k] = v
    return out


# --- OpenStack ------------------------------------------------------------------------------------
_BOOL = ("1", "0", "t", "f", "true", "false", "on", "off", "y", "n", "yes", "no")  # oslo strutils strict
#: extra specs the export writes -> check (nova/api/validation/extra_specs)
def _enum(*values):
    return lambda v: v in values


EXTRA_SPECS = {
    "hw:cpu_policy": _enum("dedicated", "shared", "mixed"),
    "hw:emulator_threads_policy": _enum("isolate", "share"),
    "hw:cpu_realtime": lambda v: v.lower() in _BOOL,
    "quota:cpu_period": lambda v: v.isdigit(),
    "quota:cpu_quota": lambda v: v.isdigit(),
    "quota:cpu_shares": lambda v: v.isdigit(),
}


def check_extra_specs(specs: dict[str, str]) -> None:
    """ValueError for an extra spec Nova would refuse, and for combinations its scheduler refuses
    (a real-time flavor without a dedicated CPU policy; all vCPUs real-time without isolated
    emulator threads; a CFS period outside 1,000..1,000,000 us or a quota below 1,000 us)."""
    for k, v in specs.items():
        if k.startswith("aggregate_instance_extra_specs:"):
            if not k.split(":", 1)[1]:
                raise ValueError(f"{k}: empty aggregate key")
            continue
        check = EXTRA_SPECS.get(k)
        if check is None:
            raise ValueError(f"extra spec {k} is not one the export writes")
        if not check(str(v)):
            raise ValueError(f"extra spec {k}={v!r} is refused by Nova's validator")
    if specs.get("hw:cpu_realtime", "no").lower() in ("1", "t", "true", "on", "y", "yes"):
        if specs.get("hw:cpu_policy") not in ("dedicated", "mixed"):
            raise ValueError("hw:cpu_realtime needs hw:cpu_policy=dedicated (nova.virt.hardware)")
        if "hw:cpu_realtime_mask" not in specs and "hw:emulator_threads_policy" not in specs:
            raise ValueError("all vCPUs real-time needs hw:emulator_threads_policy (nova.virt.hardware)")
    if "quota:cpu_period" in specs:
        if not 1000 <= int(specs["quota:cpu_period"]) <= 1_000_000:
            raise ValueError("quota:cpu_period must be 1000..1000000 us")
        if int(specs.get("quota:cpu_quota", "1000")) < 1000:
            raise ValueError("quota:cpu_quota must be at least 1000 us")


#: nova.conf options the export writes -> check of the value (nova/conf)
_CACHE_MODES = ("default", "none", "writethrough", "writeback", "directsync", "unsafe")
NOVA_OPTIONS = {
    ("DEFAULT", "cpu_allocation_ratio"): lambda v: float(v) >= 0,
    ("DEFAULT", "ram_allocation_ratio"): lambda v: float(v) >= 0,
    ("DEFAULT", "reserved_host_memory_mb"): lambda v: v.isdigit(),
    ("compute", "cpu_dedicated_set"): lambda v: bool(_CPUSET.match(v)),
    ("compute", "cpu_shared_set"): lambda v: bool(_CPUSET.match(v)),
    ("libvirt", "images_type"): lambda v: v in ("raw", "flat", "qcow2", "lvm", "rbd", "ploop", "default"),
    ("libvirt", "images_rbd_pool"): lambda v: bool(v),
    ("libvirt", "images_rbd_ceph_conf"): lambda v: v.startswith("/"),
    ("libvirt", "disk_cachemodes"): lambda v: all(
        re.fullmatch(r"(file|block|network|mount)=(" + "|".join(_CACHE_MODES) + ")", p.strip()) for p in v.split(",")),
}


def parse_nova_conf(text: str) -> configparser.ConfigParser:
    """``nova.conf`` as oslo.config reads it (INI, no interpolation); ValueError for a value of
    the wrong type or an option the export does not write."""
    # [DEFAULT] is an ordinary section here: its options must not leak into the others
    cp = configparser.ConfigParser(interpolation=None, strict=True, default_section="\x00")
    try:
        cp.read_string(text)
    except configparser.Error as exc:
        raise ValueError(f"not a valid INI file: {exc}") from None
    for section in cp.sections():
        for key, value in cp.items(section, raw=True):
            check = NOVA_OPTIONS.get((section, key))
            if check is None:
                raise ValueError(f"[{section}] {key} is not an option the export writes")
            try:
                ok = check(value)
            except ValueError:
                ok = False
            if not ok:
                raise ValueError(f"[{section}] {key} = {value!r} is not a valid value")
    return cp


def parse_flavors_yaml(text: str) -> dict[str, dict]:
    """The flavors of a Heat template: name -> {vcpus, ram, disk, extra_specs}; ValueError when the
    template or a flavor is malformed."""
    out = {}
    for rid, props in heat_resources(text, "OS::Nova::Flavor").items():
        for k in ("vcpus", "ram", "disk"):
            if not isinstance(props.get(k), int) or props[k] < (1 if k != "disk" else 0):
                raise ValueError(f"{rid}.{k} must be a positive integer")
        specs = {str(k): str(v) for k, v in (props.get("extra_specs") or {}).items()}
        check_extra_specs(specs)
        out[str(props.get("name"))] = {"vcpus": props["vcpus"], "ram": props["ram"], "disk": props["disk"],
                                       "extra_specs": specs}
    return out


def parse_flavor_commands(text: str) -> dict[str, dict]:
    """``openstack flavor create`` lines -> the same structure as :func:`parse_flavors_yaml`."""
    out = {}
    for words in commands(text, "openstack"):
        if words[1:3] != ["flavor", "create"]:
            continue
        args, name = words[3:], None
        flavor: dict = {"extra_specs": {}}
        i = 0
        while i < len(args):
            a = args[i]
            if a in ("--vcpus", "--ram", "--disk"):
                flavor[a[2:]] = int(args[i + 1])
                i += 2
            elif a == "--property":
                k, _, v = args[i + 1].partition("=")
                flavor["extra_specs"][k] = v
                i += 2
            elif a.startswith("--"):
                raise ValueError(f"openstack flavor create: unexpected option {a}")
            else:
                name = a
                i += 1
        check_extra_specs(flavor["extra_specs"])
        out[str(name)] = flavor
    return out


# --- one export -----------------------------------------------------------------------------------
def check_files(files: dict[str, str]) -> list[Finding]:
    """Check every file of an export (relative path -> text)."""
    findings: list[Finding] = []
    xl = None
    for rel, text in sorted(files.items()):
        if rel.startswith("proxmox/ha/") or rel.endswith("server-groups.yaml"):
            findings.append(_check_groups(rel, text))
        elif rel.endswith(".xml"):
            ok, msg = validate_libvirt_xml(text, fragment=not rel.endswith("domain.xml"))
            findings.append(Finding(rel, "virt-xml-validate", ok, msg))
        elif rel.endswith(".cfg"):
            xl = xl or XlParser.available()
            if xl is None:
                findings.append(Finding(rel, "xl parser", None, "libxlutil (libxenmisc4.17) is not installed"))
                continue
            _, problems = xl.parse(text, rel)
            findings.append(Finding(rel, "xl parser", not problems, "; ".join(problems)))
        elif rel.endswith(".sh"):
            ok, msg = bash_syntax(text)
            findings.append(Finding(rel, "bash -n", ok, msg))
            findings += _check_commands(rel, text)
        elif rel.endswith(".conf"):
            try:
                parse_nova_conf(text)
                findings.append(Finding(rel, "nova.conf", True))
            except ValueError as exc:
                findings.append(Finding(rel, "nova.conf", False, str(exc)))
        elif rel.endswith(".yaml"):
            try:
                parse_flavors_yaml(text)
                findings.append(Finding(rel, "Heat flavors", True))
            except Exception as exc:  # yaml errors and ValueError alike
                findings.append(Finding(rel, "Heat flavors", False, str(exc)))
        elif rel.endswith(".json"):
            import json

            try:
                json.loads(text)
                findings.append(Finding(rel, "JSON", True))
            except ValueError as exc:
                findings.append(Finding(rel, "JSON", False, str(exc)))
    return findings


def _check_groups(rel: str, text: str) -> Finding:
    """A placement-constraint file: Proxmox VE HA section config or Heat server groups."""
    tool = "Proxmox VE HA config" if rel.startswith("proxmox/ha/") else "Heat server groups"
    try:
        parse_pve_ha(text) if rel.startswith("proxmox/ha/") else parse_server_groups_yaml(text)
        return Finding(rel, tool, True)
    except Exception as exc:  # yaml errors and ValueError alike
        return Finding(rel, tool, False, str(exc))


def _check_commands(rel: str, text: str) -> list[Finding]:
    out: list[Finding] = []
    problems: list[str] = []
    checked = []
    qm = commands(text, "qm")
    for words in qm:
        try:
            check_qm(words)
        except ValueError as exc:
            problems.append(f"{' '.join(words[:3])}: {exc}")
    if qm:
        checked.append("qm options")
    xl_lines = commands(text, "xl")
    xl = None
    for words in xl_lines:
        try:
            if words[1] == "sched-rtds":
                parse_rtds_line(words)
            elif words[1] in ("create", "cpupool-create"):
                overrides = [w for w in words[2:] if "=" in w]
                if overrides:
                    xl = xl or XlParser.available()
                    if xl is not None:
                        _, errs = xl.parse("\n".join(overrides) + "\n", f"{rel} ({words[1]})")
                        if errs:
                            raise ValueError("; ".join(errs))
        except ValueError as exc:
            problems.append(f"{' '.join(words[:2])}: {exc}")
    if xl_lines:
        checked.append("xl command lines")
    if commands(text, "openstack"):
        try:
            parse_flavor_commands(text)
            for words in commands(text, "openstack"):
                if words[1:4] == ["server", "group", "create"]:
                    check_server_group_command(words)
        except ValueError as exc:
            problems.append(str(exc))
        checked.append("openstack flavor create")
    if checked:
        out.append(Finding(rel, " + ".join(checked), not problems, "; ".join(problems)))
    return out
