"""A test per unit conversion of the export: real-time times to microseconds (rounding in the
safe direction, exact decimals), RAM and disk sizes, vCPUs per thread, CFS and Proxmox limits,
and the WCET scaling by host speed applied exactly once."""

from __future__ import annotations

import copy
from decimal import Decimal
from pathlib import Path

import pytest
import yaml

from advisor.export import export_config, plan_from_advice
from advisor.export.libvirt import cfs_limits
from advisor.export.plan import (
    decimal_text,
    gb_to_bytes,
    gb_to_gib,
    gib_to_kib,
    gib_to_mib,
    per_thread,
    period_budget_us,
    to_microseconds,
)
from advisor.export.proxmox import cpulimit
from knowledge.infra.errors import InputError

EXAMPLE = Path(__file__).resolve().parents[3] / "resources" / "examples" / "scenario.yaml"


def test_a_period_in_ms_becomes_whole_microseconds_rounded_down():
    assert period_budget_us(13.291032403259019, 9.817222879449496, "ms") == (13291, 9818)
    assert to_microseconds(13.291032403259019, "ms") == Decimal("13291.032403259019")


def test_decimal_periods_convert_exactly_not_through_binary_floats():
    # 1.005 * 1000 is 1004.9999999999999 in binary floating point: floor() would lose a microsecond
    assert 1.005 * 1000 < 1005
    assert period_budget_us(1.005, 0.5025, "ms") == (1005, 503)
    assert period_budget_us(4.1, 2.05, "ms") == (4100, 2050)


def test_a_period_in_seconds_becomes_microseconds():
    assert period_budget_us(0.3365, 0.1346, "s") == (336500, 134600)


def test_a_period_in_microseconds_stays_and_is_rounded_down():
    assert period_budget_us(645.1238903860278, 445.2, "us") == (645, 446)


def test_the_budget_is_rounded_up_so_the_share_never_drops():
    period_us, budget_us = period_budget_us(13.291032403259019, 9.817222879449496, "ms")
    assert budget_us / period_us >= 9.817222879449496 / 13.291032403259019
    assert budget_us <= period_us
    assert period_us / 1000 <= 13.291032403259019  # never longer than the advised period


def test_a_dedicated_core_has_budget_equal_to_period():
    assert period_budget_us(10.0, 10.0, "ms", dedicated=True) == (10000, 10000)


def test_abstract_time_units_are_refused_with_a_message():
    with pytest.raises(InputError, match="units"):
        period_budget_us(10, 5, "units")
    with pytest.raises(InputError, match="shorter than one microsecond"):
        period_budget_us(0.0004, 0.0002, "ms")


def test_ram_gib_to_mib_and_kib_round_up():
    assert gib_to_mib(4) == 4096
    assert gib_to_mib(1.5) == 1536
    assert gib_to_mib(0.3) == 308  # 307.2 MiB rounded up
    assert gib_to_kib(4) == 4194304


def test_disk_gb_to_bytes_and_gib():
    assert gb_to_bytes(500) == 500_000_000_000
    assert gb_to_gib(500) == 466  # 465.66 GiB rounded up
    assert gb_to_gib(40) == 38
    assert gb_to_gib(1) == 1
    assert gb_to_bytes(0.1) == 100_000_000


def test_vcpus_per_core_to_vcpus_per_hardware_thread():
    assert per_thread(4.0, 2) == Decimal("2")
    assert decimal_text(per_thread(4.0, 2)) == "2.0"
    assert decimal_text(per_thread(1.25, 2)) == "0.625"
    assert decimal_text(per_thread(2.5, 1)) == "2.5"


def test_cfs_limits_of_libvirt_and_the_kernel():
    assert cfs_limits(13291, 9818) == (13291, 9818)
    assert cfs_limits(2_000_000, 1_500_000) == (1_000_000, 750_000)  # shortened, share kept
    assert cfs_limits(2_000_001, 1_000_001) == (1_000_000, 500_001)  # quota rounded up
    assert "below the shortest CFS period" in cfs_limits(645, 446)
    assert "below the smallest CFS quota" in cfs_limits(5000, 900)


def test_proxmox_cpulimit_rounds_the_share_up_to_a_hundredth():
    assert cpulimit(9818, 13291, 1) == "0.74"
    assert cpulimit(5000, 10000, 2) == "1"
    assert cpulimit(5001, 10000, 1) == "0.51"


def _rt_scenario(design_ghz: float | None, host_ghz: float) -> dict:
    sc = yaml.safe_load(EXAMPLE.read_text())
    sc = copy.deepcopy(sc)
    sc["hosts"]["cpu"]["ghz"] = host_ghz
    rt = sc["workloads"][3]["realtime"]
    rt["overhead"] = 0.0
    rt["tasks"] = [{"name": "a", "period": 10, "wcet": 4}]
    if design_ghz is None:
        rt.pop("design_speed_ghz", None)
    else:
        rt["design_speed_ghz"] = design_ghz
    return sc


def test_wcet_scaling_by_host_speed_is_applied_once(advice_of):
    from advisor.realtime import Task, TaskSet, analyze

    advice = advice_of(_rt_scenario(2.0, 4.0))  # the host is twice as fast: WCET 4 -> 2 ms
    rec = advice.find("vm_period_budget", "workload:rtfunc")
    assert rec.details["speed_scale"] == 2.0
    share = rec.details["analysis"]["share"]
    ts = TaskSet((Task("a", 10.0, 4.0),), "ms", "t")
    once = analyze(ts, share=share, overhead=0.0, speed_scale=2.0)
    twice = analyze(ts, share=share, overhead=0.0, speed_scale=4.0)
    assert rec.value == pytest.approx(once.max_period_robust or once.max_period)
    rt = plan_from_advice(advice).groups[3].realtime
    assert (rt.period_us, rt.budget_us) == period_budget_us(rec.value, rec.value * share, "ms")
    assert rt.period_us != int((twice.max_period_robust or twice.max_period) * 1000)
    ex = export_config(advice, "xen")
    assert f"-p {rt.period_us} -b {rt.budget_us}" in ex.files["xen/rtds.sh"]
