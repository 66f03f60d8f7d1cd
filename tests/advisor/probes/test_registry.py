"""The probe registry: built-ins, priority order, third-party probes, and failing plug-ins
reported and skipped, never fatal."""

from __future__ import annotations

import pytest

from advisor.probes import REGISTRY, HostFacts, Probe, ProbeRegistry, builtin_registry, register
from advisor.probes.linux import LinuxProbe
from advisor.probes.registry import NoProbeWorked, ProbeRegistryError
from advisor.progress import Cancelled, CancelToken
from knowledge.infra.errors import UserFacingError
from tests.advisor.probes import fake_host


class ExplodingProbe(Probe):
    """A third-party probe with a bug: it raises while probing."""

    name = "exploding"
    platforms = ("*",)
    priority = 1000

    def probe(self, progress=None, cancel=None):
        return {"cpu": "oops"}["memory"]  # KeyError, as a real bug would


class WrongResultProbe(Probe):
    name = "wrong-result"
    priority = 900

    def probe(self, progress=None, cancel=None):
        return {"cpu": {}}


class FakeServerProbe(LinuxProbe):
    """A third-party probe reading a prepared tree (e.g. a remote host's copied /proc, /sys)."""

    name = "fake-server"
    priority = 500


class WindowsOnlyProbe(Probe):
    name = "windows-only"
    platforms = ("win32",)
    priority = 2000

    def probe(self, progress=None, cancel=None):
        raise AssertionError("must not run on linux")


def test_builtins_are_registered_in_code():
    reg = builtin_registry()
    assert reg.names() == ["linux", "psutil"]
    assert [p.name for p in reg.candidates("linux")] == ["linux", "psutil"]
    assert [p.name for p in reg.candidates("darwin")] == ["psutil"]
    assert [p.name for p in reg.candidates("win32")] == ["psutil"]


def test_a_failing_probe_is_reported_and_skipped():
    reg = builtin_registry()
    reg.register(ExplodingProbe)
    reg.register(WrongResultProbe())
    run = reg.run(platform="linux")
    assert run.facts.probe == "linux"
    assert [(f.name, f.stage) for f in run.failures] == [("exploding", "probe"), ("wrong-result", "probe")]
    assert "KeyError" in run.failures[0].error
    assert "not HostFacts" in run.failures[1].error


def test_priority_decides_and_platforms_filter(tmp_path):
    root = fake_host.server(tmp_path / "root")
    reg = builtin_registry()
    reg.register(FakeServerProbe(root=root))
    reg.register(WindowsOnlyProbe)
    run = reg.run(platform="linux")
    assert run.facts.probe == "fake-server" and run.facts.hostname == "rack12-node3"
    assert run.failures == []
    assert reg.run(platform="linux", only="psutil").facts.probe == "psutil"


def test_when_every_probe_fails_the_error_names_them():
    reg = ProbeRegistry()
    reg.register(ExplodingProbe)
    with pytest.raises(NoProbeWorked, match="exploding: KeyError") as failed:
        reg.run()
    assert failed.value.exit_code == 1 and isinstance(failed.value, UserFacingError)
    with pytest.raises(ProbeRegistryError, match="no probe named 'nope'"):
        reg.run(only="nope")


@pytest.mark.parametrize("thing", [object(), "linux", type("NoName", (Probe,), {})])
def test_things_that_are_not_probes_are_refused(thing):
    with pytest.raises(ProbeRegistryError):
        ProbeRegistry().register(thing)


def test_a_taken_name_is_refused_the_first_registration_wins():
    reg = builtin_registry()
    first = reg.get("linux")
    with pytest.raises(ProbeRegistryError, match="already registered"):
        reg.register(FakeServerProbe.__mro__[1])  # LinuxProbe again
    assert reg.get("linux") is first
    with pytest.raises(ProbeRegistryError, match="no probe named 'nope'"):
        reg.get("nope")


def test_global_register_adds_to_the_process_registry():
    try:
        register(WrongResultProbe)
        assert "wrong-result" in REGISTRY.names()
        copy = REGISTRY.copy()
        copy.unregister("wrong-result")
        assert "wrong-result" in REGISTRY.names() and "wrong-result" not in copy.names()
    finally:
        REGISTRY.unregister("wrong-result")


def test_cancel_stops_before_probing():
    token = CancelToken()
    token.cancel()
    with pytest.raises(Cancelled):
        builtin_registry().run(cancel=token)


def test_run_returns_host_facts_on_this_machine():
    assert isinstance(builtin_registry().run().facts, HostFacts)


def test_the_process_registry_loads_entry_point_probes_by_itself(tmp_path, monkeypatch):
    """No front end loads plug-ins: the registry does, on first use (the GUI's probe sees them)."""
    import sys

    site = tmp_path / "site-packages"
    site.mkdir()
    (site / "lab_probe_plugin.py").write_text(
        "from advisor.probes import Probe\n\nclass LabProbe(Probe):\n    name = 'lab'\n    priority = -5\n\n"
        "    def probe(self, progress=None, cancel=None):\n        raise OSError('no lab here')\n\n"
        "class Linux2(Probe):\n    name = 'linux'\n\n    def probe(self, progress=None, cancel=None):\n"
        "        raise AssertionError('must not replace the built-in')\n")
    dist = site / "lab_probe_plugin-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: lab-probe-plugin\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[capadvisor.probes]\nlab = lab_probe_plugin:LabProbe\n"
                                           "linux2 = lab_probe_plugin:Linux2\n")
    monkeypatch.syspath_prepend(str(site))
    saved = dict(REGISTRY._probes), REGISTRY._load_failures
    REGISTRY._load_failures = None
    try:
        assert "lab" in REGISTRY.names()
        assert [(f.name, f.stage) for f in REGISTRY.plugin_failures] == [("linux2", "load")]
        assert "already registered" in REGISTRY.plugin_failures[0].error
        assert REGISTRY.get("linux").__class__ is LinuxProbe
    finally:
        REGISTRY._probes, REGISTRY._load_failures = saved
        sys.modules.pop("lab_probe_plugin", None)
