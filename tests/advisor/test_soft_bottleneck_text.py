"""A soft limit the hosts are short of is not called the bottleneck of a count it did not set.

Review r10: growth.yaml on HDDs (the Compare tab's "HDD + iSCSI") read "5 hosts ... The bottleneck is
disk IOPS (47.67 hosts' worth) ... Still room on the 4 active hosts for 6 more erp VMs": the count and
the room follow the hard limits (CPU allocation, RAM, disk capacity); IOPS is soft (reported, warned)."""

from __future__ import annotations

import pytest

from advisor.engine import advise
from advisor.scenario import load_scenario
from tests.advisor.examples import EXAMPLES

pytestmark = pytest.mark.timeout(300)


def _hosts(session_kb, tmp_path, disk: str):
    text = (EXAMPLES / "growth.yaml").read_text().replace("{kind: nvme, count: 4, size_gb: 3840}",
                                                         f"{{kind: {disk}, count: 4, size_gb: 3840}}")
    path = tmp_path / f"growth-{disk}.yaml"
    path.write_text(text)
    advice = advise(load_scenario(path), kb=session_kb)
    return next(r for r in advice.recommendations if r.decision == "host_count" and r.scope == "cluster")


def test_hdds_the_text_says_the_count_follows_the_hard_limits(session_kb, tmp_path):
    hc = _hosts(session_kb, tmp_path, "hdd")
    need = hc.details["hosts_needed"]
    active = int(hc.value) - hc.details["reserve"]
    assert hc.details["bottleneck"] == "disk_iops" and need["disk_iops"] > 10  # the JSON keeps its key
    assert "The bottleneck is disk IOPS" in hc.rationale
    assert "a soft limit: the count follows the hard limits, led by" in hc.rationale
    assert "% of what they offer (see the warnings)" in hc.rationale
    assert "Still room by the hard limits on the" in hc.rationale
    share = 100 * need["disk_iops"] / active
    assert f"the {active} active hosts run disk IOPS at {share:,.0f} %" in hc.rationale


def test_nvme_the_text_is_as_before(session_kb, tmp_path):
    hc = _hosts(session_kb, tmp_path, "nvme")
    assert "a soft limit" not in hc.rationale and "by the hard limits" not in hc.rationale
    assert "Still room on the 4 active hosts for" in hc.rationale
