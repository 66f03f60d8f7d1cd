"""The probe registry: built-ins, priority order, third-party probes, and failing plug-ins
reported and skipped, never fatal."""

from __future__ import annotations

import pytest

from advisor.probes import REGISTRY, HostFacts, Probe, ProbeRegistry, builtin_registry, register
from advisor.probes.linux import LinuxProbe
from advisor.progress import Cancelled, CancelToken
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
    with pytest.raises(RuntimeError, match="exploding: KeyError"):
        reg.run()
    with pytest.raises(KeyError, match="no probe named 'nope'"):
        reg.run(only="nope")


@pytest.mark.parametrize("thing", [object(), "linux", type("NoName", (Probe,), {})])
def test_things_that_are_not_probes_are_refused(thing):
    with pytest.raises(TypeError):
        ProbeRegistry().register(thing)


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
