"""Fixtures: the real knowledge base compiled from the curated data, and a tiny curated tree."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from knowledge import curated
from knowledge.store import KnowledgeBase


@pytest.fixture(scope="session")
def kb_path(compiled_kb) -> Path:
    return compiled_kb


@pytest.fixture()
def kb(kb_path):
    with KnowledgeBase(kb_path) as base:
        yield base


MINI_MEASUREMENTS = """id,locator,metric,value,unit,kind,subject,baseline,qualifier,value_low,value_high,testbed,factors,note
T1-01,Table 1,throughput,59.77,MB/s,absolute,random read one guest,,,,,tb1,hypervisor=KVM; cache_mode=writeback; vms_per_host=1,
T1-02,Table 1,throughput,3.98,MB/s,absolute,random read one guest,,,,,tb1,hypervisor=KVM; cache_mode=writethrough; vms_per_host=1,
S2-01,Section 2,recovery_time,18.5,min,absolute,recovery after a node loss,,~,18,19,,storage_system=X,
S2-02,Section 2,throughput,0.5,ratio,ratio,throughput vs native,hypervisor=native,,,,,hypervisor=Xen,
"""
MINI_TESTBEDS = """id,locator,description,cpu,cores,ram,disks,nic,hypervisor,hypervisor_version,host_os,guest_os,other
tb1,Section 3,one server,Some CPU 3 GHz,2,4 GB,1 TB HDD,1 Gb/s,KVM,1.0,Linux,Linux,
"""
MINI_CONCLUSIONS = """id,decision,locator,condition,recommendation,evidence
C1,cache_mode,Conclusion,few VMs on a host,prefer writeback,T1-01;T1-02
"""


@pytest.fixture()
def mini_data(tmp_path) -> Path:
    """A copy of the real vocabulary and document list with one small, valid document."""
    data = tmp_path / "data"
    data.mkdir()
    shutil.copy(curated.DATA_DIR / "vocabulary.yaml", data)
    shutil.copy(curated.DATA_DIR / "documents.yaml", data)
    doc = data / "001_59d3b1dfbc4dd7d1"
    doc.mkdir()
    (doc / "measurements.csv").write_text(MINI_MEASUREMENTS)
    (doc / "testbeds.csv").write_text(MINI_TESTBEDS)
    (doc / "conclusions.csv").write_text(MINI_CONCLUSIONS)
    return data
