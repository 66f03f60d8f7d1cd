"""The documents' setups as a check (issue 28): where a document ran a setup on a number of hosts
and it fitted, the replay compares the advised host count with it and says why they differ; the
chapter 8 telecom setup (10 VMs of 5 vCPUs, run on 2 hosts at 50-68 % CPU, doc 004 Section 8.3)
was sized at 4 hosts (the chapter 7 balancing tests' CPU per request, 1.6x chapter 8's)."""

from __future__ import annotations

import pytest

from advisor import replay
from advisor.engine import advise
from advisor.replay.hosts import document_hosts
from knowledge.infra.errors import InputError

pytestmark = pytest.mark.timeout(300)


@pytest.fixture(scope="module")
def result(session_kb):
    return replay.run(replay.load_suite(), session_kb, documents=["001", "004"], setups=replay.load_setups())


def test_every_setup_the_documents_ran_is_compared_and_differences_say_why(result):
    checks = result.to_dict()["host_checks"]
    assert len(checks) >= 20
    assert {c["document"] for c in checks} == {"001", "004"}
    for c in checks:
        assert c["agrees"] == (c["advised_hosts"] == c["document_hosts"])
        assert c["rows"] and (c["agrees"] or c["why"])
    s = result.to_dict()["summary"]
    assert s["setups_compared"] == len(checks) and s["setups_as_run"] == sum(c["agrees"] for c in checks)
    # doc 001 ran one, two and three VMs on its one host: every one of them is advised one host
    assert all(c["agrees"] for c in checks if c["document"] == "001")
    # the hypervisor tests gave each VM its 24 GB host's RAM (over-committed): the advice does not
    ram = next(c for c in checks if c["setup"] == "004-S5.6-downtime")
    assert not ram["agrees"] and "ram" in ram["why"]


def test_the_chapter_8_setup_is_sized_as_the_thesis_ran_it(result, session_kb):
    checks = {c["setup"]: c for c in result.to_dict()["host_checks"]}
    heavy = checks["004-T8.3-downtime-heavy"]
    assert heavy["document_hosts"] == 2 and heavy["advised_hosts"] == 2 and heavy["agrees"]
    scenario = next(e for e in replay.load_suite() if e.id == "004-T8.3-downtime-heavy").cases[0].scenario
    hc = advise(scenario, kb=session_kb).find("host_count")
    cpu = hc.expected["host_cpu_utilization"]["value"]
    assert 45.0 <= cpu <= 68.0  # the thesis measured 50-68 % on these two hosts
    # the light tests' neighbours at 1,900 req/s each: above the plan's ceiling on two hosts, and said so
    light = checks["004-T8.3-downtime-light"]
    assert not light["agrees"] and "cpu load on 2 active hosts" in light["why"] and "66 %" in light["why"]


@pytest.mark.parametrize("value,message", [
    ({"hosts": 0, "rows": ["x"]}, "'hosts' must be a whole number >= 1"),
    ({"hosts": 2}, "'rows'"),
])
def test_bad_document_hosts_are_named(value, message):
    with pytest.raises(InputError) as err:
        document_hosts({}, "", {"id": "e1", "document_hosts": value}, "resources/replay/x.yaml")
    assert message in str(err.value) and "x.yaml" in str(err.value)
