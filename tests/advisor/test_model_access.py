"""ModelAccess: a family the knowledge base cannot give is reported as a model problem and the
advice goes on from the rules; a bug (in a family, in its calibration) surfaces instead of
silently turning calibrated advice into document-based advice."""

from __future__ import annotations

import pytest

from advisor.engine import advise
from advisor.models import FAMILIES, FamilyUnavailable, get_family
from advisor.models.cache_mode import CacheModeThroughput
from advisor.recommend.base import ModelAccess
from knowledge.infra.errors import InputError
from tests.advisor.test_engine import EXAMPLE, _kb_fixtures, _site, make, workload

kb_path, kb = _kb_fixtures.kb_path, _kb_fixtures.kb  # fixtures

QUERY = [{"cache_mode": "writeback", "vms_per_host": 2.0, "operation": "random_read"}]
SITE = {"site": "lab", "seq_read_mib_s": 180.0, "seq_write_mib_s": 150.0, "rand_read_iops": 200.0,
        "rand_write_iops": 180.0}


def test_an_unavailable_family_is_a_model_problem(kb):
    access = ModelAccess(kb)
    assert access.predict("no_such_family", QUERY) is None
    assert "no model family 'no_such_family'" in access.problems["no_such_family"]
    with pytest.raises(FamilyUnavailable):
        get_family("overallocation_response_time", kb)  # a family the documents give no data for


def test_a_family_without_rows_is_unavailable_and_the_advice_says_so(kb, monkeypatch):
    monkeypatch.setattr(CacheModeThroughput, "_collect", lambda self, kb: [])
    from tests import model_cache

    with model_cache.fresh_memory():
        advice = advise(EXAMPLE, kb=kb)
    assert "cache_mode_throughput" in advice.model_problems
    assert "no rows" in advice.model_problems["cache_mode_throughput"]
    rec = advice.find("cache_mode", "workload:web")
    assert rec is not None and "throughput_per_vm" not in rec.expected  # decided from the rules alone
    assert "cache_mode_throughput" in advice.to_dict()["model_problems"]


def test_an_input_the_family_refuses_is_a_model_problem(kb):
    access = ModelAccess(kb)
    assert access.predict("cache_mode_throughput", [{**QUERY[0], "vms_per_host": -3.0}]) is None
    assert "cache_mode_throughput" in access.problems


@pytest.mark.parametrize("bug", [TypeError("calibrate() got an unexpected argument"), ZeroDivisionError("bug")])
def test_a_bug_in_a_calibration_surfaces(kb, monkeypatch, bug):
    """Was: any TypeError made ModelAccess retry without the calibration, any other exception
    made the family silently unavailable."""
    fam = get_family("cache_mode_throughput", kb)
    assert fam.predict(QUERY, calibration=SITE).basis == "site:lab"

    def broken(self, mean, cols, n, calibration):
        raise bug

    monkeypatch.setattr(CacheModeThroughput, "_calibrate", broken)
    access = ModelAccess(kb, SITE)
    with pytest.raises(type(bug)):
        access.predict("cache_mode_throughput", QUERY)
    assert access.predict("cache_mode_throughput", QUERY, calibrate=False).basis == "documents"
    assert not access.problems


def test_a_bug_in_a_calibration_stops_the_calibrated_advice(kb, tmp_path, monkeypatch):
    from knowledge.userdb import UserDatabase

    with UserDatabase(tmp_path / "u.sqlite") as db:
        _site(db, "lab", seq_read=190.0, seq_write=170.0, rand_read=180.0, rand_write=170.0)
        sc = make([workload(vms=4)], disks=[{"kind": "hdd", "count": 2, "size_gb": 4000}], shared_storage=[])
        calibrated = advise(sc, kb=kb, site="lab", userdb=db)
        assert any(str(f.basis or "").startswith("site:")
                   for r in calibrated.recommendations for f in r.expected.values())

        def broken(self, mean, cols, n, calibration):
            raise KeyError("seq_read_mib_s")

        monkeypatch.setattr(CacheModeThroughput, "_calibrate", broken)
        with pytest.raises(KeyError):
            advise(sc, kb=kb, site="lab", userdb=db)


def test_unavailable_is_a_user_facing_input_error():
    assert issubclass(FamilyUnavailable, InputError)
    assert set(FAMILIES)  # every family class satisfies the ModelFamily protocol (checked by mypy)
