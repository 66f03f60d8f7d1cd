"""`capadvisor probe` through the real CLI entry point: the JSON interface, text output,
scenario skeleton, benchmarks stored as site measurements, and third-party plug-ins from the
entry-point group capadvisor.probes (broken ones reported and skipped)."""

from __future__ import annotations

import json
import os
import sys
import textwrap

import pytest
import yaml

from app.cli import main
from knowledge.userdb import UserDatabase

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux probe")


@pytest.fixture()
def run(capsys):
    def _run(*args):
        code = main(["probe", *args])
        out = capsys.readouterr()
        return code, out.out, out.err
    return _run


@pytest.fixture()
def plugins(tmp_path, monkeypatch):
    """A real installed distribution (dist-info on sys.path) with three capadvisor.probes entry
    points: one that fails to import, one that raises while probing, one that is not a probe."""
    site = tmp_path / "site-packages"
    (site / "broken_probe_plugin.py").parent.mkdir(parents=True)
    (site / "broken_probe_plugin.py").write_text("import a_module_that_does_not_exist\n")
    (site / "raising_probe_plugin.py").write_text(textwrap.dedent("""
        from advisor.probes import Probe

        class RaisingProbe(Probe):
            name = "raising"
            priority = 10_000

            def probe(self, progress=None, cancel=None):
                raise OSError("cannot reach the BMC")

        NOT_A_PROBE = 42
    """))
    dist = site / "capadvisor_test_plugins-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: capadvisor-test-plugins\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text(
        "[capadvisor.probes]\nbroken = broken_probe_plugin:BrokenProbe\n"
        "raising = raising_probe_plugin:RaisingProbe\nnumber = raising_probe_plugin:NOT_A_PROBE\n")
    monkeypatch.syspath_prepend(str(site))
    from advisor.probes import REGISTRY

    saved = dict(REGISTRY._probes), REGISTRY._load_failures
    REGISTRY._load_failures = None  # the registry loads its entry points afresh, by itself
    yield site
    REGISTRY._probes, REGISTRY._load_failures = saved
    for name in ("broken_probe_plugin", "raising_probe_plugin"):
        sys.modules.pop(name, None)


@linux_only
def test_json_has_the_interface_keys_and_matches_the_system(run):
    code, out, _ = run("--format", "json")
    assert code == 0
    data = json.loads(out)
    assert {"model", "sockets", "cores", "threads", "virtualization", "governor"} <= set(data["cpu"])
    assert {"total_bytes", "available_bytes"} <= set(data["memory"])
    for disk in data["disks"]:
        assert {"name", "size_bytes", "kind", "rotational"} <= set(disk)
    for nic in data["nics"]:
        assert {"name", "speed_mbps", "up"} <= set(nic)
    assert {"kvm_available", "is_virtual_machine", "sources"} <= set(data)
    assert data["cpu"]["threads"] == os.cpu_count()
    with open("/proc/meminfo") as fh:
        total_kib = int(next(line for line in fh if line.startswith("MemTotal:")).split()[1])
    assert data["memory"]["total_bytes"] == total_kib * 1024
    assert data["plugin_failures"] == []
    assert "benchmarks" not in data


def test_text_output_is_readable(run):
    code, out, _ = run()
    assert code == 0
    assert out.startswith("host ") and "cpu " in out and "memory " in out


def test_broken_plugins_are_reported_and_skipped(run, plugins):
    code, out, err = run("--format", "json")
    assert code == 0
    data = json.loads(out)
    failures = {f["name"]: f for f in data["plugin_failures"]}
    assert failures["broken"]["stage"] == "load" and "ModuleNotFoundError" in failures["broken"]["error"]
    assert failures["number"]["stage"] == "load" and "ProbeRegistryError" in failures["number"]["error"]
    assert failures["raising"]["stage"] == "probe" and "cannot reach the BMC" in failures["raising"]["error"]
    assert data["probe"] in ("linux", "psutil")
    assert "probe plug-in broken skipped" in err and "probe plug-in raising skipped" in err


def test_choosing_a_probe_by_name(run, plugins):
    code, out, _ = run("--format", "json", "--probe", "psutil")
    assert code == 0 and json.loads(out)["probe"] == "psutil"
    code, _, err = run("--probe", "no-such-probe")
    assert code == 2 and "no probe named 'no-such-probe'" in err


def test_scenario_out_writes_this_machine_as_hosts(run, tmp_path):
    path = tmp_path / "cluster.yaml"
    code, out, err = run("--format", "json", "--scenario-out", str(path))
    assert code == 0 and "wrote scenario skeleton" in err
    facts = json.loads(out)
    scenario = yaml.safe_load(path.read_text())
    assert scenario["version"] == 1 and scenario["hosts"]["count"] == 1
    cpu = facts["cpu"]
    if cpu["cores_per_socket"] != "unknown":
        assert scenario["hosts"]["cpu"]["cores_per_socket"] == cpu["cores_per_socket"]
    assert scenario["hosts"]["cpu"]["virtualization"] == cpu["virtualization"]
    assert scenario["hosts"]["ram_gib"] == round(facts["memory"]["total_bytes"] / 2**30, 1)
    from advisor.scenario import load_scenario

    assert load_scenario(path).hosts.cpu.threads == (facts["cpu"]["threads"] if cpu["sockets"] != "unknown"
                                                     else scenario["hosts"]["cpu"]["cores_per_socket"])


def test_bench_stores_site_measurements(run, tmp_path):
    bench_dir = tmp_path / "bench-here"
    code, out, err = run("--format", "json", "--bench", "--bench-seconds", "1", "--bench-dir", str(bench_dir),
                         "--site", "lab")
    assert code == 0, err
    data = json.loads(out)
    bench = data["benchmarks"]
    assert bench["site"] == "lab" and bench["directory"] == str(bench_dir)
    assert list(bench_dir.iterdir()) == []  # temporary folder removed
    with UserDatabase() as db:  # the user database of this test (conftest points it at tmp_path)
        stored = db.site_measurements("lab")
        (imp,) = db.imports("lab")
    assert len(stored) == len(bench["measurements"]) and imp.tool == "capadvisor-probe"
    assert {m.metric for m in stored} == {"throughput", "iops"}
    assert {m.unit for m in stored} == {"MiB/s", "ops/s"}
    assert "[100%] benchmarks done" in err


def test_bench_defaults_to_the_user_cache_dir_and_no_save_stores_nothing(run):
    from knowledge.infra.paths import user_cache_dir

    code, out, _ = run("--format", "json", "--bench", "--bench-seconds", "1", "--no-save")
    assert code == 0
    bench = json.loads(out)["benchmarks"]
    assert bench["directory"] == str(user_cache_dir()) and "import_id" not in bench
    assert not any(p.name.startswith("capadvisor-bench-") for p in user_cache_dir().iterdir())
    with UserDatabase() as db:
        assert db.sites() == []


def test_bench_seconds_below_one_is_a_usage_error(run):
    code, _, err = run("--bench", "--bench-seconds", "0.2")
    assert code == 2 and "at least 1 second" in err


def _sigint_as_in_a_terminal() -> None:
    """Child side of Popen: SIGINT back to its default action. A test run started in the background
    without job control (``cmd &`` in a script, nohup, some CI runners) ignores SIGINT, children
    inherit that and Python then installs no KeyboardInterrupt handler: Ctrl-C would be ignored."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)


@linux_only
@pytest.mark.timeout(600)
def test_interrupting_the_benchmark_removes_its_folder(tmp_path):
    """Ctrl-C (SIGINT) in the middle of `probe --bench` exits 130 and leaves no scratch files.

    No timing assumptions: the signal is sent once the test file exists, and the benchmark's budget
    (an hour) cannot run out before it however slow the machine; a child that ends or fails before
    its test file exists fails the test at once with its messages."""
    import signal
    import subprocess
    import time
    from pathlib import Path

    bench_dir = tmp_path / "scratch"
    env = dict(os.environ, CAPADVISOR_DATA_DIR=str(tmp_path / "data"), CAPADVISOR_CACHE_DIR=str(tmp_path / "c"))
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.Popen([sys.executable, "-m", "app", "probe", "--bench", "--bench-seconds", "3600",
                             "--bench-dir", str(bench_dir)], cwd=root, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            preexec_fn=_sigint_as_in_a_terminal)  # (no threads are started here)
    try:
        while not (bench_dir.exists() and any(p.iterdir() for p in bench_dir.iterdir())):
            if proc.poll() is not None:
                pytest.fail(f"the benchmark ended ({proc.returncode}) before its test file existed: "
                            f"{proc.stderr.read() if proc.stderr else ''}")
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, err
    assert "interrupted" in err
    assert list(bench_dir.iterdir()) == []
    with UserDatabase(tmp_path / "data" / "user.sqlite") as db:
        assert db.sites() == []
