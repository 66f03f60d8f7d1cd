"""The vocabularies of the collectors read besides RVTools, declared once: which workbook sheets
or CSV headers mark each one, and which published column holds which fact of a VM or host, in
which unit.

- Live Optics (Optical Prime) .xlsx: sheets ``VMs`` and ``ESX Hosts``; ``VM Performance`` gives each
  VM's average and peak CPU % over the collection, ``ESX Performance`` each host's average CPU and
  memory % (:attr:`Collector.perf`, :attr:`Collector.host_perf`);
- Nutanix Collector .xlsx: sheets ``vmList`` and ``vHosts`` (``Metadata`` names the collection); its
  ``vCPU`` sheet gives each VM's average, median, 95th percentile and peak CPU % over the collection;
- Azure Migrate import CSV (the portal's "Import using CSV" template);
- AWS Migration Hub import CSV (the Application Discovery Service import template).

Where each column name was published is recorded in tests/fixtures/inventory/collectors/SOURCES.md.
A field's columns are listed in order of preference; the first one a row fills is used. ``scale``
turns the column's unit into the model's (RAM in MiB, disks in GB, clock in GHz, see
:mod:`knowledge.inventory.model`).
"""

from __future__ import annotations

from dataclasses import dataclass

from knowledge.inventory.model import GB_PER_MIB


@dataclass(frozen=True)
class Col:
    """One published column (or family of numbered columns) and the VM/host field it fills."""

    field: str
    header: str                 # as the collector prints it (``{n}`` for numbered columns: Disk 1, Disk 2 ...)
    required: bool = False      # the sheet/file is refused without this field (any of its columns)
    scale: float | None = None  # a number: multiply by this into the model's unit; None: text
    unit: str = ""              # the column's unit, named when a header with another unit is found
    low: float = 0.0            # the range a value may have (a value beyond it: the row is refused)
    high: float = 1e12


@dataclass(frozen=True)
class Table:
    """A sheet of a workbook (``sheet``) or a CSV file (``sheet`` empty): its columns."""

    sheet: str
    columns: tuple[Col, ...]

    def cols(self, field: str) -> tuple[Col, ...]:
        return tuple(c for c in self.columns if c.field == field)

    @property
    def required(self) -> list[str]:
        return list(dict.fromkeys(c.field for c in self.columns if c.required))


@dataclass(frozen=True)
class Collector:
    """A collector's export: its format id, what it is called, how it is recognised, its tables."""

    format: str
    title: str                   # "a Live Optics export" reads "<file>: a Live Optics export: ..."
    produces: str                # shown in the supported-formats list
    marks: frozenset[str]        # sheet names (workbooks) or normalised headers (CSV) only it has
    vms: Table
    hosts: Table | None = None
    platform: str = ""           # the VMs' platform, when the export says it for all
    sheet_alone: bool = False    # its VM sheet's name alone marks it (else with one more of its sheets)
    perf: tuple[Table, ...] = ()  # sheets of per-VM CPU statistics over the collection (see PERF_STATS)
    host_perf: Table | None = None  # a sheet of per-host average CPU / memory % over the collection
    averaged: bool = False       # its per-VM utilisation columns are averages over its collection, not a snapshot

    @property
    def name(self) -> str:
        """``Live Optics``, ``Azure Migrate`` ... (the title without article and kind of file)."""
        return self.title.split(" ", 1)[1].removesuffix(" export").removesuffix(" import file")


MIB, GIB_MIB, KIB_MIB = 1.0, 1024.0, 1 / 1024.0


def _pct(field: str, header: str, high: float = 100.0) -> Col:
    return Col(field, header, scale=1.0, unit="%", high=high)


#: a collector's statistic of a VM's CPU over its collection, as a percentile key of the scenario's
#: ``cpu_busy_percentiles`` (``cpu_mean``, the average, is the VM's CPU usage %)
PERF_STATS = {"cpu_p50": "p50", "cpu_p95": "p95", "cpu_peak": "peak"}
#: the highest CPU % a statistic may give: vSphere's CPU usage counter passes 100 % when turbo boost
#: runs the cores above their rated clock (a value above this is in another unit and refused); the
#: readers take a value above 100 as 100
PERF_HIGH = 150.0


def _stat(field: str, header: str) -> Col:
    return _pct(field, header, high=PERF_HIGH)


def _mib(field: str, header: str, **kw) -> Col:
    return Col(field, header, scale=MIB, unit="MiB", **kw)


def _disk_mib(field: str, header: str) -> Col:
    return Col(field, header, scale=GB_PER_MIB, unit="MiB")


#: Live Optics' performance sheets: each VM's and host's average and peak over the collection, not the
#: samples; read by the workbook reader (the VMs' CPU usage and peaks, the hosts' usage), as the other
#: collectors' per-VM figures are
LIVE_OPTICS_PERF = {"vm_perf": "VM Performance", "esx_perf": "ESX Performance"}
LIVE_OPTICS_VM_PERF = Table(LIVE_OPTICS_PERF["vm_perf"], (
    Col("name", "VM Name", required=True), Col("moid", "MOB ID"),
    _stat("cpu_peak", "Peak vCPU %"), _stat("cpu_mean", "Average vCPU %"),
    _stat("cpu_peak", "Peak CPU %"), _stat("cpu_mean", "Average CPU %"),  # as the hosts' sheet names them
    _stat("mem_peak", "Peak Memory %"), _stat("mem_mean", "Average Memory %"),
    Col("iops_peak", "Peak IOPS", scale=1.0, unit="IOPS"), Col("iops_mean", "Average IOPS", scale=1.0, unit="IOPS"),
))
LIVE_OPTICS_ESX_PERF = Table(LIVE_OPTICS_PERF["esx_perf"], (
    Col("name", "Host", required=True),
    _stat("cpu_peak", "Peak CPU %"), _stat("cpu_mean", "Average CPU %"),
    _stat("mem_peak", "Peak Memory %"), _stat("mem_mean", "Average Memory %"),
))
#: Nutanix Collector's vCPU sheet: per VM the CPU % over the collection (its performance data duration)
NUTANIX_VCPU = Table("vCPU", (
    Col("name", "VM Name", required=True), Col("moid", "MOID"),
    _stat("cpu_peak", "Peak %"), _stat("cpu_mean", "Average %"), _stat("cpu_p50", "Median %"),
    _stat("cpu_p95", "95th Percentile % (recommended)"),
))

LIVE_OPTICS = Collector(
    "liveoptics-xlsx", "a Live Optics export", "Live Optics (Optical Prime) VMware export (.xlsx with sheets "
    "VMs, ESX Hosts; VM Performance, ESX Performance when present)",
    frozenset({"ESX Hosts", *LIVE_OPTICS_PERF.values(), "Host Devices", "VM Disks", "ESX Licenses",
               "Host Network Adapters", "Host Disks"}),
    vms=Table("VMs", (
        Col("name", "VM Name", required=True),
        Col("power", "Power State"),
        Col("template", "Template"),
        Col("vcpus", "Virtual CPU", required=True, scale=1.0, unit="vCPUs", high=4096),
        _mib("ram_mib", "Provisioned Memory (MiB)", required=True),
        _mib("ram_mib", "Provisioned Memory (MB)", required=True),   # older exports: MB meaning MiB
        _disk_mib("disk_gb", "Virtual Disk Size (MiB)"),
        _disk_mib("disk_gb", "Virtual Disk Size (MB)"),
        _disk_mib("disk_gb", "Guest VM Disk Capacity (MiB)"),
        _disk_mib("used_gb", "Virtual Disk Used (MiB)"),
        _disk_mib("used_gb", "Virtual Disk Used (MB)"),
        _disk_mib("used_gb", "Guest VM Disk Used (MiB)"),
        _mib("mem_active_mib", "Used Memory (active) (MiB)"),
        _mib("mem_consumed_mib", "Consumed Memory (MiB)"),
        Col("os", "VM OS"),
        Col("host", "Host"),
        Col("cluster", "Cluster"),
        Col("cluster", "Datacenter"),
        Col("uid", "InstanceUUID"),
        Col("uid", "UUID"),
        Col("uid", "MOB ID"),
        Col("moid", "MOB ID"),
    )),
    hosts=Table("ESX Hosts", (
        Col("name", "Host Name", required=True),
        Col("cluster", "Cluster"),
        Col("sockets", "CPU Sockets", scale=1.0, high=64),
        Col("cores", "CPU Cores", scale=1.0, high=65536),
        Col("threads", "CPU Threads", scale=1.0, high=524288),
        Col("cpu_model", "CPU Description"),
        Col("ghz", "CPU Clock Speed (GHz)", scale=1.0, unit="GHz", high=100),
        Col("ram_mib", "Memory (KiB)", scale=KIB_MIB, unit="KiB"),
        Col("hypervisor", "OS"),
    )),
    platform="vmware",
    perf=(LIVE_OPTICS_VM_PERF,),
    host_perf=LIVE_OPTICS_ESX_PERF,
)

NUTANIX = Collector(
    "nutanix-xlsx", "a Nutanix Collector export", "Nutanix Collector export (.xlsx with sheets vmList, vHosts, "
    "Metadata; vCPU when present)",
    frozenset({"vmList", "vCluster", "vHosts"}),
    vms=Table("vmList", (
        Col("name", "VM Name", required=True),
        Col("power", "Power State"),
        Col("template", "Template"),
        Col("vcpus", "vCPUs", required=True, scale=1.0, unit="vCPUs", high=4096),
        _mib("ram_mib", "Memory (MiB)", required=True),
        _disk_mib("disk_gb", "Capacity (MiB)"),
        _disk_mib("used_gb", "Consumed (MiB)"),
        Col("os", "Guest OS"),
        Col("host", "Host Name"),
        Col("cluster", "Cluster Name"),
        Col("cluster", "Datacenter Name"),
        Col("uid", "UUID"),
        Col("uid", "MOID"),
        Col("moid", "MOID"),
    )),
    hosts=Table("vHosts", (
        Col("name", "Host Name", required=True),
        Col("cluster", "Cluster Name"),
        Col("sockets", "CPUs", scale=1.0, high=64),
        Col("cores", "CPU Cores", scale=1.0, high=65536),
        Col("cores_per_socket", "Cores per CPU", scale=1.0, high=1024),
        Col("ghz", "CPU Speed", scale=1 / 1000.0, unit="MHz", high=100_000),
        Col("ram_mib", "Memory Size", scale=GIB_MIB, unit="GiB"),
        _pct("cpu_usage_pct", "CPU Usage"),
        _pct("mem_usage_pct", "Memory Usage"),
        Col("cpu_model", "CPU Model"),
        Col("hypervisor", "Hypervisor"),
    )),
    sheet_alone=True,
    perf=(NUTANIX_VCPU,),
)

AZURE_MIGRATE = Collector(
    "azure-migrate-csv", "an Azure Migrate import file", "Azure Migrate import CSV (*Server name, *Cores, "
    "*Memory (In MB), *OS name, ...)",
    frozenset({"servername", "memoryinmb", "cpuutilizationpercentage", "memoryutilizationpercentage",
               "numberofdisks", "storageinuseingb", "disk1sizeingb", "osarchitecture", "boottype", "servertype",
               "ipaddresses"}),
    vms=Table("", (
        Col("name", "*Server name", required=True),
        Col("vcpus", "*Cores", required=True, scale=1.0, unit="cores", high=4096),
        Col("ram_mib", "*Memory (In MB)", required=True, scale=MIB, unit="MB"),
        Col("os", "*OS name", required=True),
        Col("ips", "IP addresses"),  # series named by IP (a Prometheus static target) join on them
        _pct("cpu_usage_pct", "CPU utilization percentage"),
        _pct("mem_usage_pct", "Memory utilization percentage"),
        Col("disk_gb", "*Storage allocated (In MB)", scale=GB_PER_MIB, unit="MB"),  # a later template's total
        Col("disk_gb", "Disk {n} size (In GB)", scale=1.0, unit="GB"),
        Col("used_gb", "Storage in use (In GB)", scale=1.0, unit="GB"),
        Col("used_gb", "Storage in use (In MB)", scale=GB_PER_MIB, unit="MB"),
    )),
)

AWS_MIGRATION_HUB = Collector(
    "aws-mhub-csv", "an AWS Migration Hub import file", "AWS Migration Hub import CSV (ExternalId, HostName, "
    "CPU.NumberOfLogicalCores, RAM.TotalSizeInMB, ...)",
    frozenset({"externalid", "smbiosid", "vmwaremorefid", "vmwarevcenterid", "vmwarevmname", "cpunumberofprocessors",
               "cpunumberofcores", "cpunumberoflogicalcores", "ramtotalsizeinmb", "ramusedsizeinmbavg",
               "cpuusagepctavg", "cpuusagepctmax", "applicationwave"}),
    vms=Table("", (
        Col("name", "VMware.VMName", required=True),   # any one identity column names the server
        Col("name", "HostName", required=True),
        Col("name", "ExternalId", required=True),
        Col("name", "IPAddress", required=True),
        Col("name", "MACAddress", required=True),
        Col("vcpus", "CPU.NumberOfLogicalCores", required=True, scale=1.0, unit="CPUs", high=4096),
        Col("vcpus", "CPU.NumberOfCores", required=True, scale=1.0, unit="cores", high=4096),
        Col("vcpus", "CPU.NumberOfProcessors", required=True, scale=1.0, unit="processors", high=4096),
        Col("ram_mib", "RAM.TotalSizeInMB", required=True, scale=MIB, unit="MB"),
        Col("mem_consumed_mib", "RAM.UsedSizeInMB.Avg", scale=MIB, unit="MB"),
        _pct("cpu_usage_pct", "CPU.UsagePct.Avg"),
        _stat("cpu_peak", "CPU.UsagePct.Max"),   # the maximum over the discovery period
        Col("os", "OS.Name"),
        Col("uid", "ExternalId"),
        Col("uid", "VMware.MoRefId"),
        Col("uid", "SMBiosId"),
    )),
    averaged=True,  # .Avg / .Max: the average and maximum over the discovery period (the import template's fields)
)

#: the collectors read here, workbooks first (a Nutanix Collector workbook also has a vInfo sheet:
#: it is told apart by its vmList before anything takes it for RVTools)
WORKBOOKS = (NUTANIX, LIVE_OPTICS)
CSVS = (AZURE_MIGRATE, AWS_MIGRATION_HUB)
ALL = WORKBOOKS + CSVS

#: workbooks of known collectors this program does not read: (sheets that mark one, what it is, what to do)
UNSUPPORTED_WORKBOOKS = (
    (frozenset({"All_Assessed_Machines", "Assessment_Summary", "All_Assessed_Disks"}),
     "an Azure Migrate assessment export", "it holds Azure's sizing of the servers, not their inventory; export "
     "the discovered servers as the Azure Migrate import CSV instead"),
    (frozenset({"Details", "Hyper-V Hosts", "Servers"}), "a Live Optics export of another kind",
     "only the VMware (Optical Prime) export with the sheets VMs and ESX Hosts is read"),
)
#: sheets that mark an RVTools workbook (besides vInfo, which a Nutanix Collector workbook has too)
RVTOOLS_SHEETS = frozenset({"vInfo", "vHost", "vDisk", "vPartition", "vCPU", "vMemory", "vMetaData", "vSource"})


def _fold(name: str) -> str:
    return name.replace(" ", "").replace("_", "").lower()


def identify_workbook(sheets: list[str]) -> tuple[str, Collector | None, str]:
    """``(kind, collector, advice)`` of a workbook from its sheet names: ``kind`` is "rvtools", a
    collector's format, "unsupported" (``advice`` says what it is and what to do) or "" (none known)."""
    have = {_fold(s) for s in sheets}
    for c in WORKBOOKS:
        marks = len(have & {_fold(m) for m in c.marks})
        if marks >= 2 or (_fold(c.vms.sheet) in have and (c.sheet_alone or marks >= 1)):
            return c.format, c, ""
    if "vinfo" in have or len(have & {_fold(s) for s in RVTOOLS_SHEETS}) >= 2:
        return "rvtools", None, ""
    for sheets_of, what, advice in UNSUPPORTED_WORKBOOKS:
        if len(have & {_fold(m) for m in sheets_of}) >= 2:
            return "unsupported", None, f"{what}: {advice}"
    return "", None, ""


def identify_csv(keys: set[str]) -> tuple[Collector | None, int]:
    """The collector whose own headers a CSV header (normalised, see ``common.norm_header``)
    shares most (at least two) and how many it shares."""
    best: tuple[Collector | None, int] = (None, 0)
    for c in CSVS:
        score = len(keys & c.marks)
        if score > best[1]:
            best = (c, score)
    return best if best[1] >= 2 else (None, 0)


def by_format(fmt: str) -> Collector:
    return next(c for c in ALL if c.format == fmt)
