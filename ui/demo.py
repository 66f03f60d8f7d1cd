"""A demonstration scenario (a small private cloud with a real-time control VM) for a first start,
screenshots and tests. Units as in the scenario format: GiB, GB, Gb/s, GHz, ms."""

from __future__ import annotations

import copy

DEMO = {
    "name": "Regional private cloud",
    "version": 1,
    "hosts": {
        "count": 6, "reserve": 1,
        "cpu": {"model": "Xeon Silver 4314", "sockets": 2, "cores_per_socket": 16, "threads_per_core": 2,
                "ghz": 2.4, "virtualization": "vmx"},
        "ram_gib": 256.0, "nic_gbps": 10.0,
        "disks": [{"kind": "ssd", "count": 4, "size_gb": 1920.0}],
        "shared_storage": [{"kind": "nfs", "network_gbps": 10.0, "capacity_tb": 40.0}],
    },
    "workloads": [
        {"name": "web", "vms": 40, "vcpus": 2, "ram_gib": 4.0, "cpu_intensity": "medium",
         "io": {"pattern": "random", "read_share": 0.8, "intensity": "low", "block_size_kib": 4.0,
                "disk_gb": 40.0},
         "request_load_rps": 150.0, "live_migration": True, "data_loss_tolerance": "minutes",
         "containerizable": True, "application": "web", "image_gb": 8.0},
        {"name": "database", "vms": 6, "vcpus": 8, "ram_gib": 32.0, "cpu_intensity": "high",
         "io": {"pattern": "random", "read_share": 0.6, "intensity": "high", "block_size_kib": 8.0,
                "disk_gb": 500.0, "footprint_gb": 300.0},
         "live_migration": True, "data_loss_tolerance": "none", "application": "database", "image_gb": 20.0},
        {"name": "batch", "vms": 12, "vcpus": 4, "ram_gib": 8.0, "cpu_intensity": "high",
         "io": {"pattern": "sequential", "read_share": 0.5, "intensity": "medium", "block_size_kib": 1024.0,
                "disk_gb": 200.0},
         "data_loss_tolerance": "any", "image_gb": 10.0},
        {"name": "control", "vms": 2, "vcpus": 1, "ram_gib": 2.0, "cpu_intensity": "medium",
         "io": {"pattern": "mixed", "read_share": 0.5, "intensity": "low", "block_size_kib": 4.0},
         "data_loss_tolerance": "none", "application": "telecom",
         "realtime": {"time_unit": "ms", "overhead": 0.1, "share": 0.6,
                      "tasks": [{"name": "sensor", "period": 20.0, "wcet": 2.0},
                                {"name": "control", "period": 50.0, "wcet": 8.0},
                                {"name": "logger", "period": 100.0, "wcet": 15.0}]}},
    ],
    "preferences": {"open_source_only": False, "container_friendly": False, "ram_overcommit": 1.0,
                    "max_host_cpu_percent": 80.0},
}


def demo_data() -> dict:
    """A fresh copy of :data:`DEMO`."""
    return copy.deepcopy(DEMO)


def many_workloads(n: int = 50) -> dict:
    """The demo with ``n`` workload groups (for the memory benchmark and stress tests)."""
    data = demo_data()
    base = [w for w in data["workloads"] if "realtime" not in w]
    data["workloads"] = []
    for i in range(n):
        w = copy.deepcopy(base[i % len(base)])
        w["name"] = f"{w['name']}-{i + 1}"
        w["vms"] = 1 + i % 5
        data["workloads"].append(w)
    return data
