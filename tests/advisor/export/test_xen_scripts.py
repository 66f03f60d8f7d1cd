"""Xen's scripts run whole, in any order, against an ``xl`` that behaves as xl does where it
matters: a domain must exist before ``xl sched-rtds -d`` sets it, and a configuration naming a
CPU pool can be created only once the pool exists (xl itself needs a running Xen host, which no
test machine has; the fake keeps its state in files and refuses what xl refuses)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from advisor.export import export_config
from tests.advisor.examples import EXAMPLES

FAKE_XL = r"""#!/bin/bash
# a stand-in for xl: state in $XL_STATE (pools, domains), every call logged
state="$XL_STATE"; echo "$*" >> "$state/log"
case "$1" in
  cpupool-list)
    echo "Name               CPUs   Sched     Active   Domain count"
    echo "Pool-0               8    credit2       y          1"
    for p in "$state"/pool.*; do [ -e "$p" ] && echo "${p##*/pool.}               2    rtds       y          0"; done ;;
  cpupool-cpu-remove) ;;
  cpupool-create)
    name=$(printf '%s\n' "$@" | sed -n 's/^name="\(.*\)"$/\1/p')
    [ -e "$state/pool.$name" ] && { echo "pool $name exists" >&2; exit 1; }
    touch "$state/pool.$name" ;;
  create)
    cfg=$2; shift 2
    name=$(printf '%s\n' "$@" | sed -n 's/^name="\(.*\)"$/\1/p')
    pool=$(sed -n 's/^pool = "\(.*\)"$/\1/p' "$cfg")
    if [ -n "$pool" ] && [ ! -e "$state/pool.$pool" ]; then echo "cpupool '$pool' does not exist" >&2; exit 1; fi
    touch "$state/dom.$name" ;;
  domid) [ -e "$state/dom.$2" ] ;;
  sched-rtds)
    if [ "$2" = "-d" ]; then [ -e "$state/dom.$3" ] || { echo "$3 is an invalid domain identifier" >&2; exit 1; }; fi
    if [ "$2" = "-c" ]; then [ -e "$state/pool.$3" ] || { echo "cpupool $3 not found" >&2; exit 1; }; fi ;;
  *) echo "fake xl: $1 not known" >&2; exit 1 ;;
esac
"""


@pytest.fixture
def xen(advice_of, tmp_path):
    ex = export_config(advice_of(EXAMPLES / "scenario.yaml"), "xen")
    ex.write(tmp_path / "export")
    bindir, state = tmp_path / "bin", tmp_path / "state"
    bindir.mkdir()
    state.mkdir()
    (bindir / "xl").write_text(FAKE_XL)
    (bindir / "xl").chmod(0o755)
    env = {**os.environ, "PATH": f"{bindir}:{os.environ['PATH']}", "XL_STATE": str(state)}

    def run(script: str) -> subprocess.CompletedProcess:
        return subprocess.run(["sh", f"xen/{script}"], cwd=tmp_path / "export", env=env, capture_output=True,
                              text=True, timeout=60)

    return ex, run, state


def _rtds_calls(state: Path) -> list[str]:
    return [line for line in (state / "log").read_text().splitlines() if line.startswith("sched-rtds -d")]


def test_rtds_before_the_vms_then_create_vms(xen):
    ex, run, state = xen
    first = run("rtds.sh")
    assert first.returncode == 0, first.stderr
    assert (state / "pool.rt-pool").exists() and not _rtds_calls(state)
    assert "rtfunc-01: not created yet" in first.stdout
    again = run("rtds.sh")  # the pool exists: nothing fails
    assert again.returncode == 0, again.stderr
    created = run("create-vms.sh")
    assert created.returncode == 0, created.stderr
    assert (state / "dom.rtfunc-01").exists() and (state / "dom.rtfunc-02").exists()
    calls = _rtds_calls(state)
    assert "sched-rtds -d rtfunc-01 -v all -p 13291 -b 9818" in calls
    assert "sched-rtds -d rtfunc-02 -v all -p 13291 -b 9818" in calls


def test_create_vms_alone_and_rtds_after(xen):
    ex, run, state = xen
    created = run("create-vms.sh")
    assert created.returncode == 0, created.stderr
    assert len(list(state.glob("dom.*"))) == sum(g.vms for g in ex.plan.vm_groups())
    assert len(_rtds_calls(state)) == 2
    after = run("rtds.sh")
    assert after.returncode == 0, after.stderr
    assert len(_rtds_calls(state)) == 4 and "not created yet" not in after.stdout
