"""The room sentence names the VM size a totals workload's room is counted in.

Was: "Still room on the 4 active hosts for 6 more erp VMs" while erp's VMs are of 4 and of 3 vCPUs
(growth.yaml): the room counts VMs of its first size (:func:`advisor.recommend.host_count.resources_room`)."""

from __future__ import annotations

import pytest

from advisor.engine import advise
from advisor.scenario import load_scenario
from tests.advisor.examples import EXAMPLES

pytestmark = pytest.mark.timeout(300)


def test_the_room_of_a_workload_of_two_vm_sizes_says_which_size(session_kb):
    advice = advise(load_scenario(EXAMPLES / "growth.yaml"), kb=session_kb)
    hc = next(r for r in advice.recommendations if r.decision == "host_count" and r.scope == "cluster")
    erp = next(w for w in advice.scenario.workloads if w.name == "erp")
    assert [v for _n, v in erp.vm_shapes] == [4, 3]
    room = hc.details["headroom_vms"]
    assert f"{room['erp']} more erp VMs of 4 vCPU" in hc.rationale
    assert f"{room['web']} more web VMs " in hc.rationale or f"{room['web']} more web VMs (" in hc.rationale
    assert "web VMs of" not in hc.rationale  # one size: nothing to say

